"""Cards and hidden information: F24, F25, F31."""
from __future__ import annotations

from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer.symbols import CARD_IDS
from tests.harness import scenario, text_of
from tests.rules.bluffaneer.helpers import (
    ACCEPT,
    CLAIM,
    PASS,
    ROLL,
    game,
    only,
    shown,
    state,
    types,
)

RULES = registry.get("bluffaneer")

ALL_BUT_FOUR = [c for c in CARD_IDS if c not in
                ("CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1")]


# F24 --------------------------------------------------------------------------

def test_f24_a_revealed_card_goes_face_up_and_its_owner_draws_the_top_card() -> None:
    given = game(3, cards=[["chest", "sword"], ["ship", "skull"]], dice=["ship", "skull"],
                 deck=["SWORD-SHIP-2", "SWORD-SHIP-3"])
    given.play(0, ROLL, now=10).play(1, CLAIM, now=20).play(2, PASS, now=30).play(0, ACCEPT)
    s = state(given)
    assert s.discard[-1] == "SHIP-SKULL-1" and s.hands[1] == "SWORD-SHIP-2"
    assert s.deck[0] == "SWORD-SHIP-3"
    assert all(card is not None for card in s.hands)


# F25 --------------------------------------------------------------------------

def test_f25_empty_draw_pile_the_whole_discard_pile_is_reshuffled() -> None:
    # every card but the hands is in the discard pile; the draw pile is empty
    given = game(4, cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"],
                 dice=["ship", "sword"], discard=ALL_BUT_FOUR, seed="f25")
    assert state(given).deck == ()
    given.play(0, ROLL, now=10).play(3, CLAIM, now=20).play(1, PASS, now=30).play(2, PASS, now=40)
    given.play(0, ACCEPT)
    assert types(given.last) == ["claim_accepted", "coins_moved", "card_revealed",
                                 "deck_reshuffled", "card_drawn", "turn_ended"]
    # the just-revealed card is shuffled in too, from the discard pile bottom first
    order = only(given.last, "deck_reshuffled").data["order"]
    rng = Rng(b"f25")
    rng.shuffle([])  # setup had no unnamed card to shuffle
    assert order == rng.shuffle(ALL_BUT_FOUR + ["SWORD-SHIP-1"])
    s = state(given)
    assert s.hands[3] == order[0] and s.deck == tuple(order[1:]) and s.discard == ()


def test_f25_a_reshuffle_shows_only_its_size() -> None:
    given = game(4, cards=["CHEST-SWORD-1", "SHIP-SKULL-1", "CHEST-SHIP-1", "SWORD-SHIP-1"],
                 dice=["ship", "sword"], discard=ALL_BUT_FOUR)
    given.play(0, ROLL, now=10).play(3, CLAIM, now=20).play(1, PASS, now=30).play(2, PASS, now=40)
    given.play(0, ACCEPT)
    shuffled = only(given.last, "deck_reshuffled")
    drawn = only(given.last, "card_drawn")
    for seat in (0, 1, 2, None):
        assert shown(shuffled, seat) == {"count": 15}
        assert shown(drawn, seat) == {"seat": 3, "card": None}
    assert shown(drawn, 3) == {"seat": 3, "card": state(given).hands[3]}


# F31 --------------------------------------------------------------------------

def test_f31_a_player_sees_his_own_card_and_no_other() -> None:
    given = scenario("bluffaneer", 4)
    s = state(given)
    for seat in range(4):
        view = given.view(seat)
        assert view["seats"][seat]["card"]["id"] == s.hands[seat]
        text = text_of(view)
        assert not any(card in text for card in RULES.hidden(given.state, seat))
        assert all(v["card"] is None for v in view["seats"] if v["seat"] != seat)
        assert view["draw_pile"] == 14 and "deck" not in view


def test_f31_a_spectator_sees_no_card_in_any_hand() -> None:
    given = scenario("bluffaneer", 5)
    view = given.view(None)
    assert all(v["card"] is None for v in view["seats"])
    assert not any(card in text_of(view) for card in state(given).hands if card)
    assert RULES.hidden(given.state, None) == set(state(given).hands) | set(state(given).deck)


def test_f31_the_deal_event_shows_each_seat_only_his_card() -> None:
    given = scenario("bluffaneer", 3)
    deal = given.events[0]
    for seat in (0, 1, 2, None):
        data = shown(deal, seat)
        assert "deck" not in data and data["deck_count"] == 15
        assert [c is not None for c in data["hands"]] == [s == seat for s in range(3)]
    assert deal.data["hands"][0] in text_of(shown(deal, 0))


def test_f31_claims_passes_and_coins_are_public_cards_stay_hidden() -> None:
    given = game(3, cards=[["chest", "sword"], ["ship", "skull"]], dice=["ship", "skull"])
    given.play(0, ROLL, now=10).play(1, CLAIM, now=20)
    view = given.view(2)
    assert view["claims"] == [{"seat": 1, "at": 20}] and view["passes"] == []
    assert "SHIP-SKULL-1" not in text_of(view)
    assert all(RULES.redact(e, 2) == e for e in given.last)


def test_f31_revealed_cards_are_public_in_the_discard_pile() -> None:
    given = game(3, cards=[["sword", "ship"]], dice=["ship", "sword"])
    given.play(0, ROLL)
    for seat in (1, 2, None):
        assert given.view(seat)["discard"] == [{"id": "SWORD-SHIP-1", "symbols": ["sword", "ship"]}]
        assert RULES.redact(given.last[1], seat) == given.last[1]


def test_f31_once_the_game_is_over_nothing_is_hidden_any_more() -> None:
    given = game(3, coins=[10, 1, 10], dice=["chest", "chest"])
    assert RULES.hidden(given.state, 0)
    given.play(0, ROLL)
    assert RULES.hidden(given.state, 0) == set() and RULES.hidden(given.state, None) == set()
