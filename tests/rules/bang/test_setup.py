"""Components and setup: R1–R7, R78, R82 options, scenario validation."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from referee.engine.protocol import GameConfig, InvalidSetup
from referee.engine.rng import Rng
from referee.games.bang import RULESET as R
from referee.games.cards.characters import LIFE
from referee.games.cards.deck import ALL_CARDS, BLUE, KEY, RANK, SUIT, explodes, is_heart
from tests.harness import raises_rule, scenario
from tests.rules.bang.helpers import P, game


def test_r1_the_deck_has_80_cards_63_brown_17_blue():
    assert len(ALL_CARDS) == 80 == len(set(ALL_CARDS))
    assert len(BLUE) == 17
    counts = Counter(KEY[c] for c in ALL_CARDS)
    assert counts["BANG"] == 25 and counts["MISSED"] == 12 and counts["BEER"] == 6
    assert "STAGECOACH-9S-1" in ALL_CARDS and "STAGECOACH-9S-2" in ALL_CARDS
    assert "BANG-AS" in ALL_CARDS and "WINCHESTER-8S" in ALL_CARDS


def test_r1_twenty_cards_per_suit_and_every_rank_suit_combination():
    assert Counter(SUIT[c] for c in ALL_CARDS) == {"S": 20, "H": 20, "D": 20, "C": 20}
    assert {(RANK[c], SUIT[c]) for c in ALL_CARDS} == {(r, s) for r in range(2, 15) for s in "SHDC"}


def test_r1_ten_spades_2_to_9_explode_and_twenty_hearts():
    assert sum(1 for c in ALL_CARDS if explodes(c)) == 10
    assert not explodes("JAIL-10S") and not explodes("VOLCANIC-10S") and not explodes("BANG-AS")
    assert sum(1 for c in ALL_CARDS if is_heart(c)) == 20


def test_r2_rank_order_from_2_to_ace():
    assert RANK["MISSED-2S"] == 2 and RANK["MISSED-10C"] == 10
    assert RANK["DUEL-JS"] < RANK["BARREL-QS"] < RANK["BARREL-KS"] < RANK["BANG-AS"]


def test_r3_sixteen_characters_with_printed_life():
    assert len(LIFE) == 16
    assert LIFE["el_gringo"] == 3 and LIFE["paul_regret"] == 3
    assert all(v == 4 for k, v in LIFE.items() if k not in ("el_gringo", "paul_regret"))


@pytest.mark.parametrize("n,expected", [
    (4, {"sheriff": 1, "renegade": 1, "outlaw": 2}),
    (5, {"sheriff": 1, "renegade": 1, "outlaw": 2, "deputy": 1}),
    (6, {"sheriff": 1, "renegade": 1, "outlaw": 3, "deputy": 1}),
    (7, {"sheriff": 1, "renegade": 1, "outlaw": 3, "deputy": 2}),
])
def test_r4_role_distribution_by_player_count(n, expected):
    t = scenario("bang", n, seed=f"roles{n}")
    assert Counter(p.role for p in t.state.players) == expected


@pytest.mark.parametrize("n", [1, 2, 8])
def test_r5_other_player_counts_cannot_be_created(n):
    with raises_rule("R5"):
        R.validate_options({}, n)


def test_r5_three_players_only_with_the_three_player_option():
    assert R.validate_options({"three_player": True}, 3) == {"three_player": True}
    assert R.validate_options({}, 5) == {"three_player": False}
    with raises_rule("R5"):  # 3 players play the optional game only when it is asked for by name
        R.validate_options({}, 3)
    with raises_rule("R5"):
        R.validate_options({"three_player": True}, 4)
    with raises_rule("R5"):
        R.validate_options({"three_player": False}, 3)


def test_r5_unknown_or_ill_typed_options_are_refused():
    with pytest.raises(InvalidSetup) as e:
        R.validate_options({"speed": 2}, 4)
    assert e.value.code == "invalid_options"
    with pytest.raises(InvalidSetup):
        R.validate_options({"three_player": 1}, 3)


def test_r6_sheriff_has_one_more_life_and_hands_equal_life():
    t = scenario("bang", 5, seed="setup")
    for p in t.state.players:
        bonus = 1 if p.role == "sheriff" else 0
        assert p.max_life == LIFE[p.character] + bonus == p.life
    sheriff = next(p for p in t.state.players if p.role == "sheriff")
    assert t.state.turn == sheriff.seat  # R6 step 5
    drawn = sum(len(e.data["cards"]) for e in t.events if e.type == "cards_drawn")
    assert sum(len(p.hand) for p in t.state.players) == sum(p.life for p in t.state.players) + drawn
    assert len(t.state.discard) == 0 or t.state.discard  # discard starts empty, draws only


def test_r6_setup_is_a_pure_function_of_the_seed():
    a = scenario("bang", 6, seed="same")
    b = scenario("bang", 6, seed="same")
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    c = scenario("bang", 6, seed="other")
    assert [e.to_json() for e in a.events] != [e.to_json() for e in c.events]


def test_r78_setup_events_record_the_deal_so_replay_needs_no_seed():
    t = scenario("bang", 4, seed="replay")
    first = t.events[0]
    assert first.type == "game_started"
    assert len(first.data["deck"]) + sum(len(p["hand"]) for p in first.data["players"]) == 80
    state = None
    for e in t.events:
        state = R.evolve(state, e)
    assert state == t.state


def test_r6_setup_draws_roles_characters_deck_in_documented_order():
    cfg = GameConfig(players=4, options={"three_player": False})
    rng = Rng(b"doc")
    events = R.setup(cfg, rng)
    rng2 = Rng(b"doc")
    roles = rng2.shuffle(["sheriff", "renegade", "outlaw", "outlaw"])
    chars = rng2.shuffle(list(LIFE))[:4]
    deck = rng2.shuffle(list(ALL_CARDS))
    data = events[0].data
    assert [p["role"] for p in data["players"]] == roles
    assert [p["character"] for p in data["players"]] == chars
    first = roles.index("sheriff")
    dealt = []
    for k in range(4):
        dealt += data["players"][(first + k) % 4]["hand"]
    assert dealt + data["deck"] == deck


def test_r7_turn_passes_to_the_next_alive_seat_clockwise():
    t = game(5, dead=(1,), turn=0)
    t.play(0, {"type": "end_turn"})
    assert t.state.turn == 2


def test_scenario_unknown_keys_are_invalid_setup():
    with pytest.raises(InvalidSetup) as e:
        scenario("bang", 4, setup={"coins": 3})
    assert e.value.code == "invalid_setup"
    with pytest.raises(InvalidSetup):
        scenario("bang", 4, setup={"seats": [{"arrows": 1}, {}, {}, {}]})


@pytest.mark.parametrize("setup,rule", [
    ({"seats": [{"role": "sheriff"}, {"role": "sheriff"}, {}, {}]}, "R4"),
    ({"seats": [{"hand": ["BANG-AS"]}, {"hand": ["BANG-AS"]}, {}, {}]}, "R1"),
    ({"seats": [{"hand": ["NOPE-1X"]}, {}, {}, {}]}, "R1"),
    ({"seats": [{"character": "lucky_luke"}, {}, {}, {}]}, "R3"),
    ({"seats": [{"character": "sid_ketchum"}, {"character": "sid_ketchum"}, {}, {}]}, "R3"),
    ({"seats": [{"role": "sheriff", "character": "sid_ketchum", "life": 6}, {}, {}, {}]}, "R47"),
    ({"seats": [{}, {}, {}]}, "R5"),
    ({"seats": [{"in_play": ["BANG-AS"]}, {}, {}, {}]}, "R21"),
    ({"seats": [{"in_play": ["BARREL-QS", "BARREL-KS"]}, {}, {}, {}]}, "R19"),
    ({"seats": [{"in_play": ["VOLCANIC-10S", "WINCHESTER-8S"]}, {}, {}, {}]}, "R20"),
    ({"seats": [{"role": "sheriff", "in_play": ["JAIL-4H"]}, {}, {}, {}]}, "R38"),
    ({"seats": [{"role": "sheriff", "alive": False}, {}, {}, {}]}, "R57"),
    ({"deck": ["BANG-AS"], "discard": ["BANG-AS"]}, "R1"),
    ({"turn": 9}, "R7"),
    ({"phase": "nap"}, "R8"),
])
def test_scenario_invariant_breaks_name_the_rule(setup, rule):
    with raises_rule(rule):
        scenario("bang", 4, setup=setup)


def test_scenario_fixes_hands_deck_and_turn():
    t = game(4, hands={0: ["BANG-AS"]}, deck=["MISSED-2S", "BEER-6H"], turn=0, phase="play")
    assert list(P(t, 0).hand) == ["BANG-AS"]
    assert t.state.deck[:2] == ("MISSED-2S", "BEER-6H")
    assert len(t.state.deck) == 80 - 1 - 0
    assert t.state.phase == "play" and t.state.turn == 0


# -- what scenario authors need (issue 9): every_seat, deck_exact, max_life --------
def _started(setup: dict[str, Any]) -> Mapping[str, Any]:
    return R.setup(GameConfig(players=4, options={"three_player": False}, scenario=setup), Rng(b"sc"))[0].data


def test_r6_every_seat_fixes_empty_hands_without_listing_each_seat():
    data = _started({"seats": [{"role": "sheriff"}, {}, {"hand": ["BANG-AS"]}, {}],
                     "every_seat": {"hand": [], "in_play": []}, "phase": "play"})
    assert [p["hand"] for p in data["players"]] == [[], [], ["BANG-AS"], []]
    assert all(p["in_play"] == [] for p in data["players"])
    assert len(data["deck"]) + len(data["discard"]) == 79


def test_r1_deck_exact_the_deck_is_exactly_the_list_and_the_rest_lies_under_the_discard():
    data = _started({"seats": [{"role": "sheriff"}, {}, {}, {}], "every_seat": {"hand": []},
                     "deck": ["BANG-AS", "MISSED-AC"], "discard": ["BEER-6H"], "deck_exact": True, "phase": "play"})
    assert data["deck"] == ["BANG-AS", "MISSED-AC"]
    assert data["discard"][-1] == "BEER-6H" and len(data["discard"]) == 78
    assert sorted(data["deck"] + data["discard"]) == sorted(ALL_CARDS)


def test_r6_max_life_fixes_a_seats_bullets():
    data = _started({"seats": [{"role": "sheriff", "character": "paul_regret", "max_life": 6}, {}, {}, {}]})
    assert data["players"][0]["max_life"] == 6 and data["players"][0]["life"] == 6
    with raises_rule("R47"):
        _started({"seats": [{"role": "sheriff", "max_life": 2, "life": 3}, {}, {}, {}]})
    with raises_rule("R6"):
        _started({"seats": [{"role": "sheriff", "max_life": 0}, {}, {}, {}]})


def test_r6_every_seat_refuses_what_belongs_to_one_seat():
    with raises_rule("R6"):
        _started({"every_seat": {"role": "outlaw"}})
