"""Odd sequences from an independent review of F14–F32 (each pinned to the
rule it exercises; none of them found a disagreement)."""
from __future__ import annotations

from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer.symbols import CARD_IDS, DEFAULT_DIE_FACES
from tests.harness import raises_rule
from tests.rules.bluffaneer.helpers import (
    ACCEPT,
    CHALLENGE,
    CLAIM,
    PASS,
    ROLL,
    TIMEOUT,
    game,
    only,
    shown,
    state,
    steal,
    types,
)

RULES = registry.get("bluffaneer")

# Seat 0 rolls SHIP+SKULL holding CHEST+SWORD: the window opens at t=1000, D=6000.
CARDS = [["chest", "sword"], ["ship", "skull"], ["chest", "ship"], ["chest", "ship"]]


# F18 --------------------------------------------------------------------------

def test_f18_the_last_outstanding_answer_at_d_is_refused_and_does_not_close() -> None:
    # F18: "one at D or later is rejected and changes nothing, not even
    # closing the window"
    given = game(3, cards=CARDS[:3], dice=["ship", "skull"]).play(0, ROLL, now=1000)
    given.play(1, CLAIM, now=1100)
    before = given.state
    with raises_rule("F18", "claim_window_expired"):
        given.play(2, PASS, now=6000)
    assert given.state is before and RULES.deadline(given.state) == 6000
    assert given.to_act() == {2}
    given.play(None, TIMEOUT, now=6000)
    closed = only(given.last, "claim_window_closed").data
    assert closed["reason"] == "timeout" and closed["winner"] == 1


def test_f18_a_pass_at_d_minus_1_closes_the_window_at_once() -> None:
    # F18: "the last outstanding claim or pass closes it at once"; the
    # timeout is then refused ("accepted only while the window is still open")
    given = game(3, cards=CARDS[:3], dice=["ship", "skull"]).play(0, ROLL, now=1000)
    given.play(2, CLAIM, now=5999).play(1, PASS, now=5999)
    closed = only(given.last, "claim_window_closed").data
    assert closed["reason"] == "answered" and closed["winner"] == 2 and closed["at"] == 5999
    assert given.to_act() == {0} and RULES.deadline(given.state) is None
    with raises_rule("F18", "no_deadline"):
        given.play(None, TIMEOUT, now=6000)


# F19 / F32 ---------------------------------------------------------------------

def test_f19_later_same_millisecond_claims_do_not_tie_with_the_earliest() -> None:
    # F19: the flip is "drawn when the window closes and only if there is a
    # tie" for the *earliest* receipt time; a queued flip stays queued.
    given = game(4, cards=CARDS, dice=["ship", "skull"], flips=[1]).play(0, ROLL, now=1000)
    position = given.rng.position
    given.play(3, CLAIM, now=1300).play(2, CLAIM, now=1300).play(1, CLAIM, now=1200)
    closed = only(given.last, "claim_window_closed").data
    assert (closed["winner"], closed["tied"], closed["flip"]) == (1, [1], None)
    assert given.rng.position == position and state(given).flip_queue == (1,)


def test_f32_die_two_is_drawn_after_a_single_queued_die_one() -> None:
    # F32: "die 1 before die 2"; a queued face is used before the generator,
    # and the generator's die draws below(6) into the face list.
    given = game(3, turn=0, dice=["skull"], seed="half")
    rng = Rng(b"half")
    rng.shuffle(CARD_IDS)  # setup: the deal; the scenario names the turn
    expected = DEFAULT_DIE_FACES[rng.below(6)]
    given.play(0, ROLL)
    rolled = only(given.last, "dice_rolled").data
    assert rolled["dice"] == ["skull", expected] and rolled["queued"] == 1
    assert given.rng.position == rng.position


# F14 / F26 / F28 ---------------------------------------------------------------

def test_f14_a_roller_with_one_coin_pays_only_his_left_neighbour_and_the_game_ends() -> None:
    # F14: "starting with the player on his left (seat+1) ... until ... the
    # roller has no coin left; the players not yet reached receive nothing"
    given = game(4, turn=2, coins=[5, 5, 1, 5], dice=["skull", "skull"])
    given.play(2, ROLL)
    moved = only(given.last, "coins_moved").data["transfers"]
    assert [(t["to"], t["amount"]) for t in moved] == [(3, 1), (0, 0), (1, 0)]
    end = only(given.last, "game_ended").data
    assert end["zero"] == [2] and end["winner"] == 3 and end["flip"] is None


def test_f12_a_steal_from_a_player_with_one_coin_takes_it_and_ends_the_game() -> None:
    # F12 + F26: "gives the roller 2 coins, or all he has if he has fewer";
    # F28: the game ends as soon as the action leaves a player at 0.
    given = game(3, coins=[4, 1, 5], dice=["sword", "sword"], flips=[0])
    given.play(0, ROLL).play(0, steal(1))
    assert state(given).coins == (5, 0, 5)
    end = only(given.last, "game_ended").data
    assert (end["tied"], end["flip"], end["winner"]) == ([0, 2], 0, 0)
    with raises_rule("F33", "game_over"):
        given.play(1, ROLL)


def test_f23_a_failed_challenge_that_empties_the_roller_still_replaces_the_card() -> None:
    # F27: a challenged claim is one action ("carried out in full before
    # anything else is checked"), so the card is replaced before F28 ends it.
    given = game(3, coins=[2, 5, 5], cards=CARDS[:3], dice=["ship", "skull"],
                 deck=["SWORD-SKULL-1"])
    given.play(0, ROLL, now=1000).play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    given.play(0, CHALLENGE)
    assert types(given.last) == ["claim_challenged", "card_revealed", "coins_moved",
                                 "card_drawn", "game_ended"]
    assert state(given).coins == (0, 7, 5) and state(given).hands[1] == "SWORD-SKULL-1"


def test_f30_several_players_at_zero_and_a_tie_for_most_coins() -> None:
    # F28: "Several players may reach 0 in the same action"; F30/F32: the
    # flip picks among the tied players listed in ascending seat order.
    given = game(5, turn=3, coins=[6, 1, 1, 2, 6], cards=[None, None, None, ["chest", "ship"]],
                 dice=["ship", "chest"], flips=[1])
    given.play(3, ROLL)
    end = only(given.last, "game_ended").data
    assert end["coins"] == [5, 0, 0, 2, 5] and end["zero"] == [1, 2]
    assert (end["tied"], end["flip"], end["queued"], end["winner"]) == ([0, 4], 1, True, 4)
    result = given.result()
    assert result is not None and result["winners"] == [4] and result["tied"] == [0, 4]


# F25 ---------------------------------------------------------------------------

def test_f25_the_rollers_own_match_reshuffles_with_his_card_when_the_pile_is_empty() -> None:
    # F25: "the whole discard pile — including the card just discarded — is
    # shuffled ... He may draw back the card he just revealed."
    hands = ["SWORD-SHIP-1", "CHEST-SWORD-1", "CHEST-SHIP-1"]
    rest = [c for c in CARD_IDS if c not in hands]
    given = game(3, cards=hands, discard=rest, dice=["ship", "sword"], seed="own")
    given.play(0, ROLL)
    assert types(given.last) == ["dice_rolled", "card_revealed", "coins_moved",
                                 "deck_reshuffled", "card_drawn", "turn_ended"]
    rng = Rng(b"own")
    rng.shuffle([])
    order = only(given.last, "deck_reshuffled").data["order"]
    assert order == rng.shuffle(rest + ["SWORD-SHIP-1"])
    assert state(given).hands[0] == order[0] and state(given).discard == ()


# F31 ---------------------------------------------------------------------------

def test_f31_a_claim_that_does_not_count_stays_hidden_after_the_decision() -> None:
    # F31: "a claim that does not count (F19) reveals nothing"
    given = game(4, cards=CARDS, dice=["ship", "skull"]).play(0, ROLL, now=1000)
    given.play(1, CLAIM, now=1100).play(3, CLAIM, now=1200).play(2, PASS, now=1300)
    events = list(given.last)
    given.play(0, ACCEPT)
    events += given.last
    loser_card = state(given).hands[3]
    assert loser_card == "CHEST-SHIP-2"
    for seat in (0, 1, 2, None):
        for event in events:
            assert loser_card not in str(shown(event, seat))
        assert loser_card not in str(given.view(seat))
    assert [e.data["seat"] for e in events if e.type == "card_revealed"] == [1]
