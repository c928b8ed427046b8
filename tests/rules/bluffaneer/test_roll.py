"""The roll, doubles and the roller's own card: F3, F9–F16, F32 (dice)."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer.symbols import CARD_IDS, DEFAULT_DIE_FACES, matches
from tests.harness import raises_rule, scenario
from tests.rules.bluffaneer.helpers import CLAIM, RESIGN, ROLL, game, only, state, steal, types

RULES = registry.get("bluffaneer")


# F3 ---------------------------------------------------------------------------

def test_f3_default_faces_chest_ship_two_swords_two_skulls() -> None:
    assert DEFAULT_DIE_FACES == ("chest", "ship", "sword", "sword", "skull", "skull")
    assert RULES.validate_options({}, 3)["die_faces"] == list(DEFAULT_DIE_FACES)


def test_f3_die_faces_option_replaces_the_faces_of_both_dice() -> None:
    faces = ["chest", "sword", "ship", "skull", "ship", "ship"]
    table = scenario("bluffaneer", 3, options={"first_seat": 0, "die_faces": faces}, seed="f3")
    rng = Rng(b"f3")
    rng.shuffle(CARD_IDS)
    expected = [faces[rng.below(6)], faces[rng.below(6)]]
    table.play(0, ROLL)
    assert only(table.last, "dice_rolled").data["dice"] == expected


@pytest.mark.parametrize("faces", [
    ["chest", "ship", "sword", "sword", "sword", "sword"],        # no skull
    ["chest", "ship", "sword", "skull", "skull"],                 # five faces
    ["chest", "ship", "sword", "skull", "skull", "PARROT"],
    "chest", None,
])
def test_f3_die_faces_must_be_six_symbols_with_each_one_present(faces: Any) -> None:
    with raises_rule("F3", "invalid_options"):
        RULES.validate_options({"die_faces": faces}, 3)


# F9 ---------------------------------------------------------------------------

def test_f9_a_turn_starts_by_awaiting_the_rollers_roll() -> None:
    given = game(4, turn=2)
    assert given.to_act() == {2}
    assert given.legal(2) == [ROLL, RESIGN] and given.legal(1) == []
    assert RULES.default_move(given.state, 2) == ROLL


def test_f9_only_the_roller_rolls() -> None:
    given = game(3, turn=0)
    with raises_rule("F9", "not_your_turn"):
        given.play(1, ROLL)


def test_f9_the_roll_is_public() -> None:
    given = game(3, cards=[["chest", "sword"]], dice=["ship", "skull"])
    given.play(0, ROLL)
    for seat in (0, 1, 2, None):
        assert given.view(seat)["dice"] == ["ship", "skull"]
        assert RULES.redact(given.last[0], seat) == given.last[0]


def test_f9_the_roller_cannot_roll_twice() -> None:
    given = game(3, cards=[["chest", "sword"]], dice=["ship", "skull"])
    given.play(0, ROLL)
    with raises_rule("F9", "already_rolled"):
        given.play(0, ROLL)


# F10 --------------------------------------------------------------------------

@pytest.mark.parametrize("symbol", ["chest", "skull"])
def test_f10_a_double_acts_then_the_turn_ends_without_claims(symbol: str) -> None:
    # no card check and no window after a double
    given = game(3, cards=[[symbol, "ship"]], dice=[symbol, symbol])
    given.play(0, ROLL)
    assert "claim_window_opened" not in types(given.last)
    assert "card_revealed" not in types(given.last)
    assert given.to_act() == {1} and state(given).phase == "roll"
    assert RULES.deadline(given.state) is None


def test_f10_sword_and_ship_doubles_wait_for_the_target_then_end_the_turn() -> None:
    given = game(3, dice=["ship", "ship"])
    given.play(0, ROLL)
    assert given.to_act() == {0} and given.legal(0) == [steal(1), steal(2), RESIGN]
    given.play(0, steal(2))
    assert given.to_act() == {1}


# F11 --------------------------------------------------------------------------

def test_f11_double_chests_every_other_player_gives_the_roller_one_coin() -> None:
    given = game(4, turn=1, dice=["chest", "chest"])
    given.play(1, ROLL)
    assert state(given).coins == (9, 13, 9, 9)
    assert only(given.last, "coins_moved").data["rule"] == "F11"


# F12 --------------------------------------------------------------------------

def test_f12_double_swords_steals_two_from_the_chosen_player() -> None:
    given = game(4, dice=["sword", "sword"])
    given.play(0, ROLL)
    pending = given.view(3)["pending"]
    assert pending["kind"] == "steal_target" and pending["rule"] == "F12"
    assert pending["awaiting"] == [0] and pending["default"] == [{"seat": 0, "move": steal(1)}]
    given.play(0, steal(3))
    assert state(given).coins == (12, 10, 10, 8)
    assert only(given.last, "coins_moved").data["transfers"] == [
        {"from": 3, "to": 0, "owed": 2, "amount": 2}]


def test_f12_the_roller_cannot_rob_himself() -> None:
    given = game(3, dice=["sword", "sword"])
    given.play(0, ROLL)
    with raises_rule("F12", "cannot_steal_from_self"):
        given.play(0, steal(0))
    with raises_rule("F12", "no_such_seat"):
        given.play(0, steal(3))


def test_f12_only_the_roller_chooses_and_only_after_the_double() -> None:
    given = game(3, dice=["sword", "sword"])
    with raises_rule("F12", "no_steal_pending"):
        given.play(0, steal(1))
    given.play(0, ROLL)
    with raises_rule("F12", "not_your_turn"):
        given.play(1, steal(2))


def test_f12_default_target_is_the_rollers_left() -> None:
    given = game(3, turn=2, dice=["sword", "sword"])
    given.play(2, ROLL)
    assert RULES.default_move(given.state, 2) == steal(0)


# F13 --------------------------------------------------------------------------

def test_f13_double_ships_steals_three() -> None:
    given = game(3, dice=["ship", "ship"])
    given.play(0, ROLL)
    assert given.view(None)["pending"]["rule"] == "F13"
    given.play(0, steal(1))
    assert state(given).coins == (13, 7, 10)
    assert only(given.last, "coins_moved").data["rule"] == "F13"


def test_f13_cannot_rob_himself_either() -> None:
    given = game(3, dice=["ship", "ship"])
    given.play(0, ROLL)
    with raises_rule("F13", "cannot_steal_from_self"):
        given.play(0, steal(0))


# F14 --------------------------------------------------------------------------

def test_f14_double_skull_the_roller_gives_one_coin_to_each_other_player() -> None:
    given = game(4, turn=1, dice=["skull", "skull"])
    given.play(1, ROLL)
    assert state(given).coins == (11, 7, 11, 11)


def test_f14_short_of_coins_he_pays_clockwise_from_his_left_until_he_runs_out() -> None:
    given = game(5, turn=3, coins=[5, 5, 5, 2, 5], dice=["skull", "skull"])
    given.play(3, ROLL)
    moved = only(given.last, "coins_moved").data["transfers"]
    assert [(t["to"], t["amount"]) for t in moved] == [(4, 1), (0, 1), (1, 0), (2, 0)]
    assert state(given).coins == (6, 5, 5, 0, 6)


# F15 --------------------------------------------------------------------------

def test_f15_a_card_matches_the_two_rolled_symbols_in_either_order() -> None:
    assert matches("CHEST-SKULL-2", ("skull", "chest"))
    assert matches("CHEST-SKULL-2", ("chest", "skull"))
    assert not matches("CHEST-SKULL-2", ("chest", "ship"))


def test_f15_a_double_never_matches_any_card() -> None:
    assert not any(matches(card, (s, s)) for card in CARD_IDS for s in ("chest", "skull"))


# F16 --------------------------------------------------------------------------

def test_f16_own_match_is_revealed_others_pay_the_box_card_replaced_turn_ends() -> None:
    given = game(4, cards=[["sword", "ship"]], dice=["ship", "sword"], deck=["CHEST-SKULL-1"])
    given.play(0, ROLL)
    assert types(given.last) == ["dice_rolled", "card_revealed", "coins_moved", "card_drawn",
                                 "turn_ended"]
    revealed = only(given.last, "card_revealed").data
    assert revealed["card"] == "SWORD-SHIP-1" and revealed["matches"] and revealed["rule"] == "F16"
    s = state(given)
    assert s.coins == (10, 9, 9, 9) and s.box == 13
    assert s.hands[0] == "CHEST-SKULL-1" and s.discard == ("SWORD-SHIP-1",)
    assert given.to_act() == {1}


def test_f16_the_roller_may_not_hide_a_match_nor_claim() -> None:
    given = game(3, cards=[["sword", "ship"]], dice=["ship", "sword"])
    given.play(0, ROLL)
    assert "claim_window_opened" not in types(given.last)
    with raises_rule("F17", "roller_cannot_claim"):
        game(3, cards=[["chest", "ship"]], dice=["ship", "sword"]).play(0, ROLL).play(0, CLAIM)
