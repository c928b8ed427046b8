"""FO39–FO49: dying, kills, replacements, winning."""
from __future__ import annotations

import dataclasses

from referee.games.cards.characters import CHARACTERS
from tests.rules.faceoff.helpers import game, to_phase3

NEAR = [[7, 3], [8, 3], [7, 5]]


def shoot_outlaw(t: object, card: str = "BANG-AS") -> None:
    """Sheriff at (8,2) next to the Outlaw at (8,3), BANG!, no answer."""
    t.play(0, {"type": "move", "path": [[7, 2], [8, 2]]})  # type: ignore[attr-defined]
    t.play(0, {"type": "walk", "path": []})  # type: ignore[attr-defined]
    t.play(0, {"type": "walk", "path": []})  # type: ignore[attr-defined]
    t.play(0, {"type": "play", "card": card, "target": 1})  # type: ignore[attr-defined]
    t.play(1, {"type": "pass"})  # type: ignore[attr-defined]


def test_FO39_dying_window_beer_saves() -> None:
    t = game(hands=[["BANG-AS"], ["BEER-6H"], []], life=[4, 1, 4], positions=NEAR)
    shoot_outlaw(t)
    assert t.state.flow["stack"][-1]["kind"] == "dying" and t.to_act() == {1}
    t.play(1, {"type": "respond", "card": "BEER-6H"})
    assert t.state.chars[1].life == 1 and t.state.chars[1].name == "vulture_sam"


def test_FO40_FO42_elimination_trophy_and_replacement() -> None:
    t = game(hands=[["BANG-AS", "BANG-QH"], [], ["BEER-6H"]], life=[4, 1, 3], positions=NEAR,
             characters=["sid_ketchum", "jesse_jones", "paul_regret"])
    shoot_outlaw(t)
    t.play(1, {"type": "pass"})
    s = t.state
    assert s.trophies[0] == (("jesse_jones", False),)
    new = s.chars[1]
    assert new.name not in ("sid_ketchum", "jesse_jones", "paul_regret")
    assert new.pos == (8, 3) and new.life == new.max_life and len(new.hand) == new.life and new.in_play == ()


def test_FO41_dynamite_passes_in_turn_order_and_its_kill_scores_nothing() -> None:
    t = game(in_play=[[], [], ["DYNAMITE-2H"]], life=[4, 4, 1], turn=2, controller=0,
             brown=["MISSED-3S"])
    assert t.to_act() == {0} and t.state.flow["stack"][-1]["kind"] == "dying"
    t.play(0, {"type": "pass"})
    s = t.state
    assert s.set_aside == ("jesse_jones",) and s.trophies == ((), ())
    assert s.flow["active"] == 0  # FO44: the Renegade's turn ended with it
    t2 = game(in_play=[["DYNAMITE-2H"], [], []], brown=["BEER-6H"])
    assert "DYNAMITE-2H" in t2.state.chars[1].in_play


def test_FO43_the_killer_turn_goes_on() -> None:
    t = game(hands=[["BANG-AS", "BANG-QH"], [], []], life=[4, 1, 4], positions=NEAR)
    shoot_outlaw(t)
    t.play(1, {"type": "pass"})
    assert t.state.flow["active"] == 0 and t.state.flow["phase"] == "play"
    assert {"type": "play", "card": "BANG-QH", "target": 1} in t.legal(0)


def test_FO44_death_of_the_active_character_ends_its_turn() -> None:
    t = game(in_play=[["DYNAMITE-2H"], [], []], life=[2, 4, 4], brown=["MISSED-3S"])
    t.play(0, {"type": "pass"})
    s = t.state
    assert s.flow["active"] == 1 and s.set_aside == ("sid_ketchum",)


def test_FO45_kill_with_the_renegade_scores_for_its_controller() -> None:
    t = game(hands=[[], [], ["BANG-AS"]], life=[4, 1, 4], turn=2, controller=0,
             positions=[[7, 3], [8, 6], [8, 4]], nuggets=[])
    t.play(0, {"type": "move", "path": [[8, 5], [9, 5]]})
    t.play(0, {"type": "walk", "path": [[8, 5]]})
    t.play(0, {"type": "walk", "path": []})
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    t.play(1, {"type": "pass"})
    t.play(1, {"type": "pass"})
    assert t.state.trophies[0] == (("vulture_sam", True),)


def test_FO45_no_score_for_killing_your_own_character() -> None:
    t = game(hands=[[], [], ["BANG-AS"]], life=[1, 4, 4], turn=2, controller=0,
             positions=[[7, 3], [7, 7], [8, 3]], nuggets=[])
    to_phase3(t, 0, [[8, 2], [7, 2]])
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 0})
    t.play(0, {"type": "pass"})
    t.play(0, {"type": "pass"})
    assert t.state.trophies == ((), ()) and t.state.set_aside == ("sid_ketchum",)


def test_FO46_no_reward_for_a_kill() -> None:
    t = game(hands=[["BANG-AS"], [], []], life=[4, 1, 4], positions=NEAR)
    shoot_outlaw(t)
    t.play(1, {"type": "pass"})
    assert t.state.chars[0].hand == () and not any(e.data.get("reason") == "reward" for e in t.events)


def test_FO47_two_trophies_win_at_once() -> None:
    t = game(hands=[["BANG-AS"], [], []], life=[4, 1, 4], positions=NEAR, trophies=[["bart_cassidy"], []])
    shoot_outlaw(t)
    t.play(1, {"type": "pass"})
    result = t.result()
    assert result is not None and result["winners"] == [0] and t.to_act() == set()


def test_FO48_variant_needs_a_kill_with_the_renegade() -> None:
    t = game({"renegade_variant": True}, hands=[["BANG-AS"], [], []], life=[4, 1, 4], positions=NEAR,
             trophies=[["bart_cassidy"], []])
    shoot_outlaw(t)
    t.play(1, {"type": "pass"})
    s = t.state
    assert t.result() is None and s.trophies[0] == (("bart_cassidy", False),) and s.set_aside == ("vulture_sam",)


def test_FO49_running_out_of_characters_reshuffles_the_set_aside() -> None:
    t = game(hands=[["BANG-AS"], [], []], life=[4, 1, 4], positions=NEAR)
    others = [c for c in CHARACTERS if c not in ("sid_ketchum", "vulture_sam", "jesse_jones")]
    t.state = dataclasses.replace(t.state, set_aside=tuple(others))
    shoot_outlaw(t)
    t.play(1, {"type": "pass"})
    rep = [e for e in t.events if e.type == "character_replaced"][-1]
    assert rep.data["pool_reshuffled"] is True and t.state.set_aside == ()


def test_FO41_renegade_killed_by_dynamite_discards_even_with_vulture_sam() -> None:
    """Seed §13 over FO53: its controller discards all of the Renegade's cards."""
    t = game(characters=["vulture_sam", "sid_ketchum", "jesse_jones"], hands=[[], [], ["BEER-6H", "BANG-AS"]],
             in_play=[[], [], ["DYNAMITE-2H"]], life=[4, 4, 1], turn=2, controller=0, brown=["MISSED-3S"])
    t.play(0, {"type": "pass"})
    assert t.state.chars[0].hand == () and {"BEER-6H", "BANG-AS"} <= set(t.state.brown_discard)
