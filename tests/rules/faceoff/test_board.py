"""FO1–FO16: players, setup, the board and movement."""
from __future__ import annotations

import pytest

from referee.engine.protocol import InvalidSetup
from referee.games import registry
from referee.games.cards.deck import ALL_CARDS, BLUE
from referee.games.faceoff import board
from tests.harness import raises_rule, scenario
from tests.rules.faceoff.helpers import RS, game, to_phase3

M1 = tuple(board.BUILTIN["faceoff_1"]["rows"])
M2 = tuple(board.BUILTIN["faceoff_2"]["rows"])


def test_FO1_exactly_two_players() -> None:
    rs = registry.get(RS)
    assert (rs.min_players, rs.max_players) == (2, 2)
    with pytest.raises(InvalidSetup) as info:
        rs.validate_options({}, 3)
    assert info.value.rule == "FO1"


def test_FO2_roles_from_setup_else_random_and_public() -> None:
    t = game(sheriff_seat=1)
    assert t.state.sheriff_seat == 1 and t.ruleset.to_act(t.state) == {1}
    seats = {scenario(RS, 2, seed=f"r{i}").state.sheriff_seat for i in range(12)}
    assert seats == {0, 1}
    assert t.view(0)["sheriff_seat"] == 1


def test_FO3_goal_two_kills_wins() -> None:
    t = game(trophies=[["bart_cassidy"], []], life=[4, 1, 4], hands=[["BANG-AS"], [], []],
             positions=[[7, 3], [8, 3], [7, 5]])
    to_phase3(t, 0, [[7, 2], [8, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    t.play(1, {"type": "pass"})
    t.play(1, {"type": "pass"})
    result = t.result()
    assert result is not None and result["winners"] == [0] and result["reason"] == "two_kills"


def test_FO4_brown_and_blue_decks() -> None:
    t = scenario(RS, 2, seed="decks")
    s = t.state
    assert len([c for c in ALL_CARDS if c in BLUE]) == 17
    assert all(c in BLUE for c in s.blue) and not any(c in BLUE for c in s.brown)
    held = sum(len(ch.hand) for ch in s.chars)
    assert len(s.brown) + held == 63 and len(s.blue) == 17


def test_FO5_adjacency_is_orthogonal_and_rocks_block() -> None:
    assert set(board.steps_from(M1, (0, 0), frozenset())) == {(1, 0), (0, 1)}
    assert board.floor(M1, (1, 1)) is False and board.floor(M1, (-1, 0)) is False


def test_FO6_seed_distance_example_on_map_1() -> None:
    t = game()
    v = t.view(0)
    s, o, r = 0, 1, 2
    assert v["distances"][r][s] == 2 and v["distances"][r][o] == 4 and v["distances"][s][o] == 6
    assert board.path_distance(M1, (7, 3), (7, 0)) == 3 and board.path_distance(M1, (7, 7), (7, 10)) == 3
    assert min(board.path_distance(M1, (7, 5), n) for n in board.find(M1, "N")) == 5
    assert board.bfs(M1, (7, 5)) == board.bfs(M1, (7, 5))
    assert len([1 for r in M1 for c in r if c != "#"]) == 129


def test_FO6_map_2_distances() -> None:
    S, B, R = (0, 0), (12, 12), (6, 6)
    assert board.path_distance(M2, R, S) == 12 and board.path_distance(M2, R, B) == 12
    assert board.path_distance(M2, S, B) == 24 and board.path_distance(M2, (0, 0), (4, 0)) == 8
    assert len(board.find(M2, "N")) == 8 and board.check_map(board.BUILTIN["faceoff_2"]) == []


def test_FO7_setup() -> None:
    t = scenario(RS, 2, seed="setup")
    s = t.state
    assert [ch.pos for ch in s.chars] == [(7, 3), (7, 7), (7, 5)]
    assert len(s.nuggets) == 8 and s.reserve == 8
    assert all(len(ch.hand) == ch.life == ch.max_life for ch in s.chars)  # no Sheriff bonus
    assert s.flow["active"] == 0 and t.ruleset.to_act(s) == {s.sheriff_seat}


def test_FO8_round_order_sheriff_outlaw_then_bid() -> None:
    t = game(hands=[["BANG-AS"], ["BANG-QH"], []])
    for seat in (0, 1):
        t.play(seat, t.legal(seat)[0])
        t.play(seat, {"type": "walk", "path": []})
        t.play(seat, {"type": "walk", "path": []})
        t.play(seat, {"type": "end_turn"})
    assert t.state.flow["phase"] == "bid" and t.to_act() == {0, 1}


def test_FO9_timeout_defaults() -> None:
    t = game()
    rs = t.ruleset
    assert rs.default_options(t.state, 0) == t.legal(0)  # phase 1: a legal path, drawn
    t.play(0, t.legal(0)[0])
    assert rs.default_options(t.state, 0) == [{"type": "draw", "source": "deck"}]
    t.play(0, {"type": "walk", "path": []})
    t.play(0, {"type": "walk", "path": []})
    assert rs.default_options(t.state, 0) == [{"type": "end_turn"}]


def test_FO10_dynamite_before_jail() -> None:
    t = game(in_play=[["DYNAMITE-2H", "JAIL-10S"], [], []], brown=["BANG-KD", "BEER-6H"])
    reasons = [e.data["reason"] for e in t.events if e.type == "draw_checked"]
    assert reasons == ["dynamite", "jail"]
    assert "DYNAMITE-2H" in t.state.chars[1].in_play  # passed on (FO41)


def test_FO11_phase_1_exactly_two_steps() -> None:
    t = game()
    assert all(len(m["path"]) == 2 for m in t.legal(0))
    boxed = game(positions=[[0, 0], [0, 2], [1, 0]], nuggets=[])
    assert boxed.legal(0) == [{"type": "move", "path": [[0, 1]]}]


def test_FO12_never_on_rock_figures_or_the_start_square() -> None:
    t = game(positions=[[7, 3], [8, 3], [7, 5]])
    with raises_rule("FO12", "illegal_path"):
        t.play(0, {"type": "move", "path": [[8, 3], [9, 3]]})  # a figure
    with raises_rule("FO12", "illegal_path"):
        t.play(0, {"type": "move", "path": [[7, 4], [7, 5]]})  # the Renegade
    t.play(0, {"type": "move", "path": [[6, 3], [6, 4]]})
    with raises_rule("FO12"):
        t.play(0, {"type": "walk", "path": [[6, 3], [7, 3]]})  # the turn-start square
    assert {"type": "walk", "path": [[6, 5], [6, 4]]} in t.legal(0)  # squares may repeat
    assert {"type": "walk", "path": [[5, 4]]} not in t.legal(0)  # rock


def test_FO13_nuggets_taken_passing_and_stopping() -> None:
    t = game(nuggets=[[7, 2], [7, 1]], blue=["BARREL-QS", "SCOPE-AS"])
    t.play(0, {"type": "move", "path": [[7, 2], [7, 1]]})
    assert t.state.nuggets == ()
    assert sorted(t.state.chars[0].hand) == ["BARREL-QS", "SCOPE-AS"]
    assert [e.type for e in t.last[:5]] == ["moved", "nugget_taken", "cards_drawn", "nugget_taken", "cards_drawn"]


def test_FO14_no_stopping_early_in_phase_1() -> None:
    t = game()
    with raises_rule("FO14", "illegal_path"):
        t.play(0, {"type": "move", "path": [[7, 2]]})


def test_FO15_phase_2_draw_or_move_per_slot() -> None:
    t = game(brown=["BANG-KD", "BEER-6H"])
    t.play(0, t.legal(0)[0])
    assert t.state.flow["phase"] == "phase2"
    t.play(0, {"type": "draw", "source": "deck"})
    assert t.state.chars[0].hand == ("BANG-KD",)
    walks = [m for m in t.legal(0) if m["type"] == "walk"]
    assert max(len(m["path"]) for m in walks) == 2 and {"type": "walk", "path": []} in walks
    t.play(0, walks[-1])
    assert t.state.flow["phase"] == "play"


def test_FO16_figures_never_share_squares() -> None:
    t = game(positions=[[7, 3], [7, 4], [7, 5]])
    for m in t.legal(0):
        assert [7, 4] not in m["path"] and [7, 5] not in m["path"]
    assert t.ruleset.invariants(t.state) == []
