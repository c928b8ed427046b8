"""Components and setup: F1, F2, F4–F8, scenario setup."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from referee.engine.protocol import GameConfig, InvalidSetup
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer.symbols import CARD_IDS, CARD_SYMBOLS, SYMBOLS, matches
from tests.harness import raises_rule, scenario
from tests.rules.bluffaneer.helpers import ROLL, game, state

RULES = registry.get("bluffaneer")


def setup_of(players: int, setup: dict[str, Any] | None = None,
             options: dict[str, Any] | None = None) -> list[Any]:
    opts = RULES.validate_options(options or {}, players)
    return RULES.setup(GameConfig(players=players, options=opts, scenario=setup), Rng(b"s"))


# F1 ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f1_three_to_six_players_can_play(players: int) -> None:
    table = scenario("bluffaneer", players)
    assert len(state(table).coins) == players
    assert (RULES.min_players, RULES.max_players) == (3, 6)


@pytest.mark.parametrize("players", [0, 1, 2, 7, 8])
def test_f1_any_other_count_cannot_be_created(players: int) -> None:
    with raises_rule("F1", "invalid_player_count"):
        RULES.validate_options({}, players)
    with raises_rule("F1", "invalid_player_count"):
        RULES.setup(GameConfig(players=players, options={}), Rng(b"s"))


def test_f1_scenario_with_wrong_seat_count_is_refused() -> None:
    with raises_rule("F1", "invalid_setup"):
        setup_of(4, {"seats": [{}, {}, {}]})


# F2 ---------------------------------------------------------------------------

def test_f2_dice_and_cards_use_the_four_symbols() -> None:
    assert SYMBOLS == ("chest", "sword", "ship", "skull")
    assert {s for pair in CARD_SYMBOLS.values() for s in pair} == set(SYMBOLS)
    assert set(state(scenario("bluffaneer", 3)).die_faces) == set(SYMBOLS)


def test_f2_unknown_symbol_in_a_scenario_is_refused() -> None:
    with raises_rule("F2", "invalid_setup"):
        setup_of(3, {"seats": [{"card": ["chest", "PARROT"]}, {}, {}]})
    with raises_rule("F2", "invalid_setup"):
        setup_of(3, {"dice": ["RUM"]})


# F4 ---------------------------------------------------------------------------

def test_f4_eighteen_cards_six_pairs_three_of_each() -> None:
    assert len(CARD_IDS) == len(set(CARD_IDS)) == 18
    pairs = Counter(frozenset(pair) for pair in CARD_SYMBOLS.values())
    assert len(pairs) == 6 and set(pairs.values()) == {3}
    assert all(len(pair) == 2 for pair in pairs)


def test_f4_symbol_order_on_a_card_does_not_matter() -> None:
    given = game(3, cards=[["ship", "sword"], None, None])
    assert state(given).hands[0] == "SWORD-SHIP-1"
    assert matches("SWORD-SHIP-1", ("ship", "sword")) and matches("SWORD-SHIP-1", ("sword", "ship"))


def test_f4_a_card_with_one_symbol_twice_is_refused() -> None:
    with raises_rule("F4", "invalid_setup"):
        setup_of(3, {"seats": [{"card": ["skull", "skull"]}, {}, {}]})


def test_f4_a_card_in_two_places_is_refused() -> None:
    with raises_rule("F4", "invalid_setup"):
        setup_of(3, {"seats": [{"card": "CHEST-SHIP-1"}, {}, {}], "deck": ["CHEST-SHIP-1"]})
    with raises_rule("F4", "invalid_setup"):
        setup_of(3, {"deck": [["chest", "ship"]] * 3, "discard": [["ship", "chest"]]})


def test_f4_unknown_card_id_is_refused() -> None:
    with raises_rule("F4", "invalid_setup"):
        setup_of(3, {"deck": ["CHEST-SHIP-4"]})


# F5 ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_f5_coins_in_hands_and_box_make_fifty(players: int) -> None:
    s = state(scenario("bluffaneer", players))
    assert sum(s.coins) + s.box == 50


def test_f5_more_than_fifty_coins_is_refused() -> None:
    with raises_rule("F5", "invalid_setup"):
        setup_of(3, {"seats": [{"coins": 20}, {"coins": 20}, {"coins": 11}]})


def test_f5_scenario_coins_leave_the_rest_in_the_box() -> None:
    s = state(game(3, coins=[1, 2, 3]))
    assert s.coins == (1, 2, 3) and s.box == 44


# F6 ---------------------------------------------------------------------------

def test_f6_one_card_each_rest_face_down_discard_empty() -> None:
    s = state(scenario("bluffaneer", 4))
    assert all(card is not None for card in s.hands)
    assert len(s.deck) == 14 and s.discard == ()
    assert Counter(list(s.hands) + list(s.deck)) == Counter(CARD_IDS)


def test_f6_the_deal_is_the_seeded_shuffle_in_seat_order() -> None:
    # given a fixed first seat, setup draws only the shuffle (F32)
    table = scenario("bluffaneer", 3, options={"first_seat": 1}, seed="deal")
    shuffled = Rng(b"deal").shuffle(CARD_IDS)
    s = state(table)
    assert list(s.hands) == shuffled[:3] and list(s.deck) == shuffled[3:]


def test_f6_scenario_deck_on_top_unnamed_cards_below() -> None:
    s = state(game(3, cards=["CHEST-SWORD-1", None, None], deck=["SHIP-SKULL-3", ["chest", "ship"]],
                   discard=["SWORD-SKULL-2"]))
    assert s.deck[:2] == ("SHIP-SKULL-3", "CHEST-SHIP-1")
    assert s.discard == ("SWORD-SKULL-2",)
    assert len(s.deck) == 18 - 3 - 1


def test_f6_scenario_that_leaves_no_card_for_a_seat_is_refused() -> None:
    with raises_rule("F6", "invalid_setup"):
        setup_of(3, {"deck": list(CARD_IDS[:16])})


# F7 ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5])
def test_f7_ten_coins_each(players: int) -> None:
    assert set(state(scenario("bluffaneer", players)).coins) == {10}


def test_f7_eight_coins_each_with_six_players() -> None:
    s = state(scenario("bluffaneer", 6))
    assert s.coins == (8,) * 6 and s.box == 2


# F8 ---------------------------------------------------------------------------

def test_f8_option_first_seat_names_the_first_roller() -> None:
    table = scenario("bluffaneer", 5, options={"first_seat": 3})
    assert table.to_act() == {3}


def test_f8_without_it_the_first_seat_is_drawn_first_from_the_seed() -> None:
    rng = Rng(b"first")
    expected_first = rng.below(4)
    expected_deal = rng.shuffle(CARD_IDS)
    s = state(scenario("bluffaneer", 4, seed="first"))
    assert s.turn == expected_first and list(s.hands) == expected_deal[:4]


def test_f8_turns_pass_clockwise_and_wrap() -> None:
    given = game(3, turn=2, dice=["chest", "chest"] * 2)
    given.play(2, ROLL)
    assert state(given).turn == 0 and given.to_act() == {0}
    given.play(0, ROLL)
    assert state(given).turn == 1


def test_f8_first_seat_out_of_range_is_refused() -> None:
    with raises_rule("F8", "invalid_options"):
        RULES.validate_options({"first_seat": 3}, 3)
    with raises_rule("F8", "invalid_setup"):
        setup_of(3, {"turn": 5})


def test_f8_scenario_turn_contradicting_first_seat_is_refused() -> None:
    with raises_rule("F8", "invalid_setup"):
        setup_of(3, {"turn": 1}, {"first_seat": 2})


# scenario setup (DESIGN.md) ----------------------------------------------------

@pytest.mark.parametrize("setup", [
    {"role": "sheriff"}, {"arrow_pile": 9}, {"phase": "play"},
    {"seats": [{"life": 3}, {}, {}]}, {"seats": "nope"}, {"deck": "nope"},
])
def test_f32_setup_fields_bluffaneer_does_not_use_are_refused(setup: dict[str, Any]) -> None:
    with pytest.raises(InvalidSetup) as info:
        setup_of(3, setup)
    assert info.value.code == "invalid_setup"


def test_f28_scenario_with_a_player_at_zero_coins_is_refused() -> None:
    with raises_rule("F28", "invalid_setup"):
        setup_of(3, {"seats": [{"coins": 0}, {}, {}]})


def test_f32_scenario_flip_no_seat_count_can_reach_is_refused() -> None:
    with raises_rule("F32", "invalid_setup"):
        setup_of(3, {"flips": [3]})
    with raises_rule("F32", "invalid_setup"):
        setup_of(3, {"flips": [True]})


# options (F3, F8, F18) ---------------------------------------------------------

def test_f18_claim_window_ms_defaults_to_5000_within_1000_to_60000() -> None:
    assert RULES.validate_options({}, 4) == {"claim_window_ms": 5000,
                                             "die_faces": ["chest", "ship", "sword", "sword",
                                                           "skull", "skull"]}
    assert RULES.validate_options({"claim_window_ms": 60000}, 4)["claim_window_ms"] == 60000
    for bad in (999, 60001, True, "5000", None):
        with raises_rule("F18", "invalid_options"):
            RULES.validate_options({"claim_window_ms": bad}, 4)


def test_f8_first_seat_option_must_be_an_integer_seat() -> None:
    assert RULES.validate_options({"first_seat": 2}, 3)["first_seat"] == 2
    for bad in (None, True, "1", -1):
        with raises_rule("F8", "invalid_options"):
            RULES.validate_options({"first_seat": bad}, 3)


def test_f3_unknown_options_are_refused() -> None:
    with pytest.raises(InvalidSetup) as info:
        RULES.validate_options({"colour": "red"}, 3)
    assert info.value.code == "invalid_options"


def test_f3_the_options_schema_agrees_with_validate_options() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = RULES.options_schema
    jsonschema.validate(RULES.validate_options({"first_seat": 1}, 3), schema)
    for bad in ({"die_faces": ["chest"] * 6}, {"claim_window_ms": 10}, {"x": 1}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
