"""FO53 with bang.md: Face Off's cards, characters and windows are decided
by the card engine BANG! and Face Off share (``referee.games.cards.rules``), so they keep
BANG!'s rules on the board — Lucky Duke chooses his "draw!" (R42), no Barrel
after a Missed! (R44), a shot is answered by Missed! only (R24) — and their
precise refusals."""
from __future__ import annotations

from referee.games.cards import rules as cardrules
from referee.games.faceoff import distance, legal
from tests.harness import raises_rule
from tests.rules.faceoff.helpers import game, to_phase3

NEAR = [[7, 3], [8, 3], [7, 5]]  # Sheriff and Outlaw side by side, the Renegade at distance 2
LUCKY = ["lucky_duke", "vulture_sam", "sid_ketchum"]


def test_FO53_R42_lucky_duke_chooses_the_dynamite_card_that_does_not_explode() -> None:
    t = game(characters=LUCKY, in_play=[["DYNAMITE-2H"], [], []], brown=["MISSED-2S", "BEER-6H", "BANG-2C"])
    assert t.state.flow["stack"][-1]["kind"] == "lucky"
    assert sorted(m["card"] for m in t.legal(0)) == ["BEER-6H", "MISSED-2S"]
    assert t.view(1)["lucky_cards"] == ["MISSED-2S", "BEER-6H"]  # face up for everyone
    t.play(0, {"type": "choose", "card": "BEER-6H"})
    s = t.state
    assert s.chars[0].life == s.chars[0].max_life
    assert "DYNAMITE-2H" in s.chars[1].in_play  # passed on (R39)
    assert s.brown_discard[-2:] == ("MISSED-2S", "BEER-6H") and not s.limbo
    assert s.flow["phase"] == "move"


def test_FO53_R42_lucky_duke_may_choose_the_exploding_card() -> None:
    t = game(characters=LUCKY, in_play=[["DYNAMITE-2H"], [], []], brown=["MISSED-2S", "BEER-6H", "BANG-2C"])
    t.play(0, {"type": "choose", "card": "MISSED-2S"})
    assert t.state.chars[0].life == t.state.chars[0].max_life - 3
    assert "DYNAMITE-2H" in t.state.brown_discard + t.state.blue_discard


def test_FO53_R42_lucky_duke_barrel_and_jail() -> None:
    t = game(characters=["sid_ketchum", "lucky_duke", "vulture_sam"], hands=[["BANG-AS"], [], []],
             in_play=[[], ["BARREL-QS"], []], positions=NEAR, brown=["BANG-2C", "BEER-6H", "BANG-3C"])
    to_phase3(t, 0, [[7, 2], [8, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    t.play(1, {"type": "barrel", "source": "BARREL-QS"})
    assert {m["card"] for m in t.legal(1)} == {"BANG-2C", "BEER-6H"}
    t.play(1, {"type": "choose", "card": "BEER-6H"})  # a Heart: missed (R35)
    assert t.state.chars[1].life == t.state.chars[1].max_life and t.to_act() == {0}

    j = game(characters=LUCKY, in_play=[["JAIL-10S"], [], []], brown=["BANG-2C", "BEER-6H", "BANG-3C"])
    j.play(0, {"type": "choose", "card": "BEER-6H"})  # a Heart: free (R38), phase 1 is played
    assert j.state.flow["phase"] == "move" and not j.state.chars[0].in_play


def test_FO53_R44_no_barrel_after_a_missed() -> None:
    t = game(characters=["slab_the_killer", "vulture_sam", "sid_ketchum"],
             hands=[["BANG-AS"], ["MISSED-2S", "MISSED-3S"], []], in_play=[[], ["BARREL-QS"], []], positions=NEAR)
    to_phase3(t, 0, [[7, 2], [8, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    assert {"type": "barrel", "source": "BARREL-QS"} in t.legal(1)
    t.play(1, {"type": "respond", "card": "MISSED-2S"})  # Slab the Killer: one more needed (R73)
    assert not any(m["type"] == "barrel" for m in t.legal(1))
    with raises_rule("R44", "barrel_after_missed"):
        t.play(1, {"type": "barrel", "source": "BARREL-QS"})


def test_FO53_R24_a_shot_is_answered_by_a_missed_only() -> None:
    t = game(hands=[["BANG-AS"], ["BANG-QH"], []], positions=NEAR)
    to_phase3(t, 0, [[7, 2], [8, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    with raises_rule("R24", "not_a_missed"):
        t.play(1, {"type": "respond", "card": "BANG-QH"})
    with raises_rule("R35", "no_barrel"):
        t.play(1, {"type": "barrel", "source": "BARREL-KS"})


def test_FO21_refusals_name_the_board_rule_and_the_distance() -> None:
    t = to_phase3(game(hands=[["BANG-AS", "PANIC-JH", "BEER-6H"], ["MISSED-2S"], []]))
    with raises_rule("FO21", "out_of_range"):
        t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    with raises_rule("FO21", "out_of_range"):
        t.play(0, {"type": "play", "card": "PANIC-JH", "target": 1, "pick": "hand"})
    with raises_rule("FO38", "invalid_target"):
        t.play(0, {"type": "play", "card": "BANG-AS", "target": 0})
    with raises_rule("R22", "no_target"):
        t.play(0, {"type": "play", "card": "BEER-6H", "target": 1})


def test_FO53_the_card_checks_are_bang_s_own() -> None:
    """One card engine: Face Off's legal card plays and window answers are
    ``cardrules``' for the same holder and distances, with the board's
    policies (FO18: no BANG! limit; FO19: the Sheriff jailable)."""
    t = to_phase3(game(hands=[["BANG-AS", "JAIL-10S", "PANIC-JH", "DUEL-JS"], ["MISSED-2S"], []],
                       positions=NEAR))
    s = t.state
    dist = distance.sights(s, 0)
    for card in s.chars[0].hand:
        assert legal.card_moves(s, 0, card) == cardrules.card_moves(
            s.chars[0], card, dist, s.chars, bang_ok=True, jailable=lambda _: True)
    frame = {"kind": "shot", "char": 1, "src": 0, "needed": 1, "misses": 0, "played": 0, "used": []}
    assert legal.prompt_moves(s, frame) == cardrules.window_moves(s.chars[1], "shot")


def test_FO53_R42_the_heuristic_bot_chooses_lucky_duke_s_card_from_the_view() -> None:
    from referee.bots.heuristic.faceoff import choose
    from referee.engine.protocol import seat_view
    from referee.engine.rng import Rng
    t = game(characters=LUCKY, in_play=[["DYNAMITE-2H"], [], []], brown=["MISSED-2S", "BEER-6H", "BANG-2C"])
    view = seat_view(t.ruleset, t.state, 0)
    assert "prompt" not in view["state"]  # the open decision is the pending's alone (issue 24)
    assert {k: view["pending"][k] for k in ("kind", "char", "purpose")} == {"kind": "lucky", "char": 0,
                                                                           "purpose": "dynamite"}
    assert view["pending"]["kind"] == "lucky"
    assert choose(view, view["legal_moves"], Rng(b"x")) == {"type": "choose", "card": "BEER-6H"}


def test_FO53_R74_suzy_lafayette_draws_as_soon_as_her_hand_is_empty() -> None:
    t = game(characters=["suzy_lafayette", "vulture_sam", "sid_ketchum"], hands=[["BEER-6H"], [], []],
             life=[3, 4, 4], brown=["BANG-2C", "BANG-3C", "BANG-4C"])
    to_phase3(t, 0)
    mark = len(t.events)
    t.play(0, {"type": "play", "card": "BEER-6H"})
    kinds = [(e.type, e.data.get("reason")) for e in t.events[mark:]]
    assert kinds[:3] == [("card_played", None), ("cards_drawn", "suzy_lafayette"), ("life_changed", None)]
    assert t.state.chars[0].hand == ("BANG-2C",) and t.state.chars[0].life == 4
