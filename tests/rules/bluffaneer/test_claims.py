"""The claim window and the roller's decision: F17–F23."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer.symbols import CARD_IDS
from tests.harness import Table, raises_rule
from tests.rules.bluffaneer.helpers import (
    ACCEPT,
    CHALLENGE,
    CLAIM,
    PASS,
    RESIGN,
    ROLL,
    TIMEOUT,
    game,
    only,
    state,
    types,
)

RULES = registry.get("bluffaneer")

# Seat 0 rolls SHIP+SKULL holding CHEST+SWORD (no match): the window opens.
# Seat 1 holds SHIP+SKULL (a match), seat 2 and 3 hold CHEST+SHIP (no match).
CARDS = [["chest", "sword"], ["ship", "skull"], ["chest", "ship"], ["chest", "ship"]]
ROLLED = ["ship", "skull"]


def window(players: int = 3, *, options: dict[str, Any] | None = None, flips: Sequence[int] = (),
           deck: list[str] | None = None, seed: str = "test") -> Table:
    """A table whose claim window opened at t=1000 (D = 6000)."""
    table = game(players, cards=CARDS[:players], dice=ROLLED, options=options, flips=flips,
                 deck=deck, seed=seed)
    return table.play(0, ROLL, now=1000)


# F17 --------------------------------------------------------------------------

def test_f17_no_match_opens_a_window_for_every_other_player() -> None:
    given = window(4)
    assert given.to_act() == {1, 2, 3}
    assert given.legal(2) == [CLAIM, PASS, RESIGN] and given.legal(0) == []
    assert given.view(1)["pending"]["kind"] == "claim_window"


def test_f17_the_roller_may_not_claim_or_pass() -> None:
    given = window()
    with raises_rule("F17", "roller_cannot_claim"):
        given.play(0, CLAIM)
    with raises_rule("F17", "roller_cannot_pass"):
        given.play(0, PASS)


def test_f17_a_bluff_is_a_legal_claim() -> None:
    given = window()
    given.play(2, CLAIM, now=1100)  # seat 2 does not match
    assert state(given).claims == ((2, 1100),)


def test_f17_one_answer_per_player_and_no_withdrawal() -> None:
    given = window(4)
    given.play(1, CLAIM, now=1100)
    with raises_rule("F17", "already_claimed"):
        given.play(1, CLAIM, now=1200)
    with raises_rule("F17", "already_claimed"):
        given.play(1, PASS, now=1200)
    given.play(2, PASS, now=1300)
    with raises_rule("F17", "already_passed"):
        given.play(2, CLAIM, now=1400)


def test_f17_a_matching_card_need_not_be_claimed() -> None:
    given = window()
    given.play(1, PASS, now=1100).play(2, PASS, now=1200)
    assert state(given).phase == "roll" and state(given).turn == 1


# F18 --------------------------------------------------------------------------

def test_f18_the_window_lasts_claim_window_ms_from_the_roll() -> None:
    given = window(options={"claim_window_ms": 2500})
    assert RULES.deadline(given.state) == 3500
    assert given.view(None)["claim_window"] == {"opened_at": 1000, "deadline": 3500}
    assert given.view(None)["pending"]["deadline"] == 3500


def test_f18_a_claim_at_the_deadline_is_rejected_and_changes_nothing() -> None:
    given = window()
    before = given.state
    with raises_rule("F18", "claim_window_expired"):
        given.play(1, CLAIM, now=6000)
    with raises_rule("F18", "claim_window_expired"):
        given.play(2, PASS, now=7000)
    assert given.state is before and RULES.deadline(given.state) == 6000


def test_f18_a_claim_just_before_the_deadline_counts() -> None:
    given = window()
    given.play(1, CLAIM, now=5999)
    assert state(given).claims == ((1, 5999),)


def test_f18_timeout_before_the_deadline_is_refused() -> None:
    given = window()
    with raises_rule("F18", "deadline_not_reached"):
        given.play(None, TIMEOUT, now=5999)


def test_f18_timeout_at_the_deadline_closes_the_window() -> None:
    given = window()
    given.play(1, CLAIM, now=1500)
    given.play(None, TIMEOUT, now=6000)
    closed = only(given.last, "claim_window_closed").data
    assert closed["reason"] == "timeout" and closed["winner"] == 1
    assert RULES.deadline(given.state) is None and given.to_act() == {0}


def test_f18_the_last_outstanding_answer_closes_the_window_at_once() -> None:
    given = window(4)
    given.play(1, PASS, now=1100).play(2, CLAIM, now=1200)
    assert RULES.deadline(given.state) == 6000
    given.play(3, PASS, now=1300)
    assert only(given.last, "claim_window_closed").data["reason"] == "answered"
    assert RULES.deadline(given.state) is None


def test_f18_answers_and_timeouts_after_the_close_are_rejected() -> None:
    given = window()
    given.play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    with raises_rule("F18", "no_claim_window"):
        given.play(2, CLAIM, now=1300)
    with raises_rule("F18", "no_deadline"):
        given.play(None, TIMEOUT, now=9000)


def test_f18_timeout_is_the_referees_command_only() -> None:
    given = window()
    with raises_rule("F18", "system_command"):
        given.play(1, TIMEOUT, now=7000)


def test_f18_silent_players_default_to_pass() -> None:
    given = window()
    assert RULES.default_move(given.state, 1) == PASS
    assert given.view(2)["pending"]["default"] == [{"seat": 1, "move": PASS}, {"seat": 2, "move": PASS}]
    assert "moves" not in given.view(2)["pending"]


# F19 --------------------------------------------------------------------------

def test_f19_the_earliest_receipt_time_wins_not_the_log_order() -> None:
    given = window(4)
    given.play(1, CLAIM, now=1300).play(2, CLAIM, now=1200).play(3, PASS, now=1400)
    closed = only(given.last, "claim_window_closed").data
    assert closed["winner"] == 2 and closed["flip"] is None and closed["tied"] == [2]
    assert state(given).claimant == 2


def test_f19_same_millisecond_claims_are_settled_by_a_queued_flip() -> None:
    given = window(4, flips=[1])
    given.play(3, CLAIM, now=1200).play(1, CLAIM, now=1200).play(2, PASS, now=1300)
    closed = only(given.last, "claim_window_closed").data
    assert closed["tied"] == [1, 3] and closed["flip"] == 1 and closed["winner"] == 3
    assert given.view(None)["last_flip"] == {
        "kind": "claim", "among": [1, 3], "index": 1, "seat": 3, "queued": True}


def test_f19_the_tie_flip_is_drawn_from_the_generator_only_if_tied() -> None:
    given = window(4, options={"first_seat": 0}, seed="tie")
    # setup drew one shuffle of the cards the scenario did not name (F32)
    rng = Rng(b"tie")
    rng.shuffle([c for c in CARD_IDS if c not in state(given).hands])
    expected = rng.below(3)
    before = given.rng.position
    given.play(1, CLAIM, now=1200).play(2, CLAIM, now=1200).play(3, CLAIM, now=1200)
    closed = only(given.last, "claim_window_closed").data
    assert closed["flip"] == expected and closed["winner"] == [1, 2, 3][expected]
    assert given.rng.position == before + 1 == rng.position


def test_f19_claims_that_do_not_count_reveal_nothing() -> None:
    given = window(4)
    given.play(1, CLAIM, now=1100).play(2, CLAIM, now=1200).play(3, PASS, now=1300)
    given.play(0, ACCEPT)
    revealed = [e.data["seat"] for e in given.last if e.type == "card_revealed"]
    assert revealed == [1]
    assert state(given).hands[2] == "CHEST-SHIP-1"
    assert "CHEST-SHIP-1" not in str(given.view(1))


# F20 --------------------------------------------------------------------------

def test_f20_no_claim_nothing_happens_and_the_turn_ends() -> None:
    given = window()
    coins = state(given).coins
    given.play(None, TIMEOUT, now=6000)
    assert types(given.last) == ["claim_window_closed", "turn_ended"]
    assert state(given).coins == coins and given.to_act() == {1}


# F21 --------------------------------------------------------------------------

def test_f21_after_a_winning_claim_only_the_roller_decides() -> None:
    given = window()
    given.play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    assert given.to_act() == {0} and given.legal(0) == [ACCEPT, CHALLENGE, RESIGN]
    pending = given.view(0)["pending"]
    assert pending["kind"] == "decision" and pending["deadline"] is None
    with raises_rule("F21", "not_the_roller"):
        given.play(1, ACCEPT)
    with raises_rule("F21", "not_the_roller"):
        given.play(2, CHALLENGE)


def test_f21_no_decision_without_a_winning_claim() -> None:
    given = window()
    with raises_rule("F21", "no_claim_to_decide"):
        given.play(0, CHALLENGE)


def test_f21_the_default_decision_is_accept() -> None:
    given = window()
    given.play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    assert RULES.default_move(given.state, 0) == ACCEPT
    assert given.view(1)["pending"]["default"] == [{"seat": 0, "move": ACCEPT}]
    assert RULES.default_move(given.state, 1) is None


# F22 --------------------------------------------------------------------------

def test_f22_accept_pays_one_coin_then_reveals_and_replaces() -> None:
    given = window(deck=["SWORD-SKULL-1"])
    given.play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    given.play(0, ACCEPT)
    assert types(given.last) == ["claim_accepted", "coins_moved", "card_revealed", "card_drawn",
                                 "turn_ended"]
    assert state(given).coins == (9, 11, 10)
    assert state(given).hands[1] == "SWORD-SKULL-1"
    assert state(given).discard == ("SHIP-SKULL-1",)


def test_f22_a_bluffer_keeps_the_coin_when_accepted() -> None:
    given = window()
    given.play(2, CLAIM, now=1100).play(1, PASS, now=1200)
    given.play(0, ACCEPT)
    assert only(given.last, "card_revealed").data["matches"] is False
    assert state(given).coins == (9, 10, 11)


# F23 --------------------------------------------------------------------------

def test_f23_failed_challenge_the_roller_pays_two() -> None:
    given = window()
    given.play(1, CLAIM, now=1100).play(2, PASS, now=1200)
    given.play(0, CHALLENGE)
    assert types(given.last) == ["claim_challenged", "card_revealed", "coins_moved", "card_drawn",
                                 "turn_ended"]
    assert only(given.last, "card_revealed").data["matches"] is True
    assert state(given).coins == (8, 12, 10)


def test_f23_successful_challenge_the_bluffer_pays_one() -> None:
    given = window()
    given.play(2, CLAIM, now=1100).play(1, PASS, now=1200)
    given.play(0, CHALLENGE)
    assert only(given.last, "card_revealed").data["matches"] is False
    assert state(given).coins == (11, 10, 9)
    assert state(given).discard == ("CHEST-SHIP-1",)
