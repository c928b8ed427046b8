"""FO32–FO38: the Renegade, the bid and its control."""
from __future__ import annotations

from typing import Any

from tests.harness import present, raises_rule
from tests.rules.faceoff.helpers import FaceOffTable, game, to_phase3


def bid_round(hands: list[list[str]], **kw: Any) -> FaceOffTable:
    """Both players' turns played out (end at once), to the bid."""
    t = game(hands=hands, **kw)
    for seat in (0, 1):
        to_phase3(t, seat)
        t.play(seat, {"type": "end_turn"})
    assert t.state.flow["phase"] == "bid"
    return t


def test_FO32_renegade_controlled_by_the_other_player_when_shot() -> None:
    t = game(hands=[["BANG-AS"], [], ["MISSED-2S"]], positions=[[7, 3], [7, 7], [8, 4]])
    t.play(0, {"type": "move", "path": [[6, 3], [6, 4]]})
    t.play(0, {"type": "walk", "path": [[7, 4]]})
    t.play(0, {"type": "walk", "path": []})
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 2})
    assert t.to_act() == {1} and {"type": "respond", "card": "MISSED-2S"} in t.legal(1)


def test_FO33_bid_higher_rank_wins_the_loser_takes_back() -> None:
    t = bid_round([["BANG-AS", "BANG-2C"], ["BANG-KD"], ["BANG-3C"]])
    t.play(1, {"type": "bid", "card": "BANG-KD"})
    assert t.to_act() == {0}
    t.play(0, {"type": "bid", "card": "BANG-AS"})
    s = t.state
    assert s.flow["controller"] == 0 and "BANG-AS" in s.brown_discard and "BANG-KD" in s.chars[1].hand
    assert t.view(1)["last_bids"] == ["BANG-AS", "BANG-KD"]


def test_FO33_rank_4_exists_and_empty_hands_do_not_bid() -> None:
    t = bid_round([["BANG-4C"], [], []])
    assert t.to_act() == {0}
    t.play(0, {"type": "bid", "card": "BANG-4C"})
    assert t.state.flow["controller"] == 0


def test_FO33_bid_is_sealed_until_both_are_in() -> None:
    t = bid_round([["BANG-AS"], ["BANG-KD"], []])
    t.play(0, {"type": "bid", "card": "BANG-AS"})
    v = t.view(1)
    assert "BANG-AS" not in str(v) and [p["bid_in"] for p in v["seats"]] == [True, False]
    assert present(t.ruleset.redact(t.last[0], 1)).data["card"] is None
    assert "BANG-AS" in t.ruleset.hidden(t.state, 1)


def test_FO34_renegade_turn_by_the_bid_winner() -> None:
    t = bid_round([["BANG-AS"], ["BANG-KD"], ["BEER-6H"]], reserve=0)
    t.play(0, {"type": "bid", "card": "BANG-AS"})
    t.play(1, {"type": "bid", "card": "BANG-KD"})
    s = t.state
    assert s.flow["active"] == 2 and s.flow["phase"] == "move" and t.to_act() == {0}
    assert all(len(m["path"]) == 2 for m in t.legal(0))
    assert t.view(0)["renegade_hand"] == ["BEER-6H"] and t.view(1)["renegade_hand"] is None


def test_FO35_momentary_control_sees_the_renegade_hand() -> None:
    t = to_phase3(game(hands=[["INDIANS-KD"], [], ["BANG-AS"]]))
    assert t.view(1)["renegade_hand"] is None
    t.play(0, {"type": "play", "card": "INDIANS-KD"})
    t.play(1, {"type": "pass"})
    assert t.view(1)["renegade_hand"] == ["BANG-AS"] and t.view(0)["renegade_hand"] is None


def test_FO36_tie_skips_the_renegade_turn() -> None:
    t = bid_round([["BANG-AS"], ["MISSED-AC"], []], in_play=[[], [], ["DYNAMITE-2H"]])
    t.play(0, {"type": "bid", "card": "BANG-AS"})
    t.play(1, {"type": "bid", "card": "MISSED-AC"})
    s = t.state
    assert s.flow["active"] == 0 and s.flow["round"] == 2 and "DYNAMITE-2H" in s.chars[2].in_play
    assert {"BANG-AS", "MISSED-AC"} <= set(s.brown_discard)


def test_FO37_loser_places_a_nugget_at_distance_3_or_more() -> None:
    t = bid_round([["BANG-AS"], ["BANG-KD"], []])
    t.play(0, {"type": "bid", "card": "BANG-AS"})
    t.play(1, {"type": "bid", "card": "BANG-KD"})
    s = t.state
    assert s.flow["phase"] == "place" and t.to_act() == {1}
    me = s.chars[1].pos
    near = [me[0], me[1] - 1]
    with raises_rule("FO37", "illegal_square"):
        t.play(1, {"type": "place", "square": near})
    square = t.legal(1)[0]["square"]
    t.play(1, {"type": "place", "square": square})
    assert tuple(square) in t.state.nuggets and t.state.reserve == s.reserve - 1
    assert t.state.flow["active"] == 2


def test_FO38_controller_uses_only_the_renegade_cards() -> None:
    t = bid_round([["BANG-AS", "BEER-6H"], ["BANG-KD"], []], reserve=0)
    t.play(0, {"type": "bid", "card": "BANG-AS"})
    t.play(1, {"type": "bid", "card": "BANG-KD"})
    to_phase3(t, 0)
    with raises_rule("FO38", "card_not_in_hand"):
        t.play(0, {"type": "play", "card": "BEER-6H"})
