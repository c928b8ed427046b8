"""FO58: resigning gives the game up, the other player wins at once; and the
one vocabulary of issue 24 in Face Off's views, pending and results."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine import vocabulary
from referee.engine.platform import RESIGN
from referee.engine.protocol import IllegalMove, seat_view
from referee.games.faceoff import RULESET
from referee.games.faceoff.catalogue import catalogue
from tests.rules.faceoff.helpers import game, to_phase3
from tests.rules.faceoff.test_renegade import bid_round

RESIGNING = {"type": RESIGN}


def _over(t: Any, loser: int) -> None:
    result = t.ruleset.result(t.state)
    assert result is not None and t.to_act() == set()
    assert result["winners"] == [1 - loser] and result["reason"] == "resigned"
    assert [s["outcome"] for s in result["seats"]] == (["loss", "win"] if loser == 0 else ["win", "loss"])
    assert "FO58" in result["detail"]
    assert not vocabulary.result_problems(vocabulary.Lexicon(catalogue()), result, 2)


def test_FO58_every_awaited_seat_may_resign_and_no_other() -> None:
    t = game()
    assert t.legal_with_resign(0)[-1] == RESIGNING and t.legal_with_resign(1) == []
    assert RESIGNING not in t.ruleset.default_options(t.state, 0)  # never a default (FO9)


def test_FO58_resign_mid_turn_ends_the_game_as_the_resigners_loss() -> None:
    t = to_phase3(game(hands=[["BANG-AS"], [], []]))
    t.play(0, RESIGNING)
    _over(t, loser=0)
    with pytest.raises(IllegalMove) as refused:
        t.play(1, {"type": "end_turn"})
    assert (refused.value.code, refused.value.rule) == ("game_over", "FO47")


def test_FO58_resign_while_answering_a_duel_for_the_renegade() -> None:
    t = to_phase3(game(hands=[["DUEL-JS"], [], ["BANG-AS"]]))
    t.play(0, {"type": "play", "card": "DUEL-JS", "target": 2})
    assert t.to_act() == {1} and RESIGNING in t.legal_with_resign(1)
    t.play(1, RESIGNING)
    _over(t, loser=1)


def test_FO58_resign_in_the_bid_while_both_are_awaited() -> None:
    t = bid_round([["BANG-AS"], ["BANG-KD"], []])
    assert t.to_act() == {0, 1}
    t.play(1, RESIGNING)
    _over(t, loser=1)
    assert t.state.bids == (None, None)


def test_FO58_the_result_of_a_resignation_survives_replay() -> None:
    from referee.engine.protocol import fold
    t = to_phase3(game())
    t.play(0, RESIGNING)
    assert fold(t.ruleset, t.events).result == t.state.result


def test_FO57_the_view_speaks_the_one_vocabulary() -> None:
    """state.seats, state.last, pending {kind, awaiting, deadline, default}, lower snake ids."""
    t = to_phase3(game(hands=[["BANG-AS"], [], []], in_play=[["WINCHESTER-8S"], [], []],
                       positions=[[7, 3], [8, 3], [7, 5]]))
    words = vocabulary.Lexicon(catalogue(), RULESET.text_keys)
    view = seat_view(RULESET, t.state, 0)
    assert not vocabulary.view_problems(words, view, 2)
    st = view["state"]
    assert [s["seat"] for s in st["seats"]] == [0, 1] and st["seats"][0]["role"] == "sheriff"
    assert st["seats"][0]["controls"] == [0] and st["seats"][1]["controls"] == [1, 2]
    assert st["map"]["id"] == "faceoff_1" and "renegade_controller" not in st and "prompt" not in st
    assert st["last"]["kind"] == "moved" and st["last"]["char"] == 0  # phase 1's move: the last drawn
    assert view["pending"] == {"kind": "play", "awaiting": [0], "deadline": None,
                               "default": [{"seat": 0, "move": {"type": "end_turn"}}], "char": 0}
    t.play(0, {"type": "play", "card": "BANG-AS", "target": 1})
    view = seat_view(RULESET, t.state, 1)
    assert view["state"]["last"] == {"kind": "card_played", "char": 0, "card": "BANG-AS", "target": 1,
                                     "to": None}
    assert view["pending"]["kind"] == "shot" and view["pending"]["default"] == [
        {"seat": 1, "move": {"type": "pass"}}]
    assert not vocabulary.view_problems(words, view, 2)


def test_FO47_version_2_logs_translate_both_ways_exactly() -> None:
    """Version 2's words (``faceoff-1``, the agenda's card keys in capitals, no result detail)
    are today's translated at the edges, and back again unchanged."""
    from referee.engine.protocol import GameConfig
    from referee.engine.rng import Rng
    from referee.games.faceoff.legacy import FaceOffV2
    from referee.games.sim import Table, playout, random_chooser
    old = FaceOffV2(RULESET)
    assert RULESET.previous_versions == {"2": FaceOffV2} and RULESET.version == "3"
    assert old.options_up({"map": "faceoff-1"}) == {"map": "faceoff_1"}
    setup = old.setup(GameConfig(players=2, options={"map": "faceoff-2"}), Rng(b"v2"))
    assert setup[0].data["map"]["id"] == "faceoff-2"
    t = Table(RULESET, 2, options={"map": "faceoff_1"}, seed=b"fo-legacy")
    playout(t, random_chooser(Rng(b"fo-legacy")), pick_seat=Rng(b"fo-legacy/seats"))
    keys = set()
    for event in t.events:
        down = old.event_down(event)
        assert old.event_up(down) == event
        for fr in (down.data.get("flow") or {}).get("stack", ()):
            if "key" in fr:
                keys.add(fr["key"])
    assert keys and all(k.isupper() for k in keys)
    result = t.ruleset.result(t.state)
    assert result is not None and "detail" in result and "detail" not in old.result_down(result)
