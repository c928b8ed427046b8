"""The audit's shortcuts for built-in bots choose what the bots themselves
choose (issue 41 item 5: a bundle of bot games audited faster, every check
kept): a ``random`` bot's move is re-derived from the seat's legal moves
alone, with no seat view built, and the Face Off heuristic's walking
distances are remembered per map and square. Each is held here to the slow
way it replaces, over whole games of random play."""
from __future__ import annotations

from typing import Any

import pytest

from referee import bots
from referee.bots.heuristic import faceoff as fo_bot
from referee.engine.protocol import seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser


def _states(ruleset: str, players: int, seed: str) -> list[tuple[Any, int]]:
    """``(state, seat)`` at every decision of a random game, the seat the one that moved."""
    rs = registry.get(ruleset)
    table = Table(rs, players, options=rs.options_for(players), seed=seed)
    seen: list[tuple[Any, int]] = []
    pick = Rng(f"{seed}-pick".encode())
    choose = random_chooser(pick)

    def chooser(at: Any, seat: Any, legal: Any) -> Any:
        seen.append((at.state, seat))
        return choose(at, seat, legal)
    playout(table, chooser, pick_seat=pick)
    return seen


@pytest.mark.parametrize("ruleset", sorted(registry.names()))
def test_the_random_bot_draws_from_the_seats_legal_moves_as_from_its_view(ruleset: str) -> None:
    """The moves the audit draws a ``random`` bot's move from (``rs.legal_moves`` of an awaited seat,
    none otherwise: ``referee.audit.redecide``) are its view's ``legal_moves``, at every decision of a
    game, for the seat that moved and for every other seat."""
    rs = registry.get(ruleset)
    for state, _seat in _states(ruleset, rs.min_players, f"shortcut-{ruleset}")[:150]:
        awaited = rs.to_act(state)
        for seat in range(rs.min_players):
            legal = list(rs.legal_moves(state, seat)) if seat in awaited else []
            view = seat_view(rs, state, seat, active=True)
            assert legal == list(view["legal_moves"])
            if legal:
                seed = f"bot:{seat}"
                assert bots.choose("random", ruleset, {}, legal, seed=seed) == \
                    bots.choose("random", ruleset, view, view["legal_moves"], seed=seed)


def test_the_faceoff_heuristic_chooses_as_it_did_without_remembered_distances(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The remembered walking distances are the searched ones, and the heuristic's choices with them are
    its choices with a fresh search each time (``_walks`` bypassed), at every decision of a game."""
    rs = registry.get("bang-faceoff")
    fresh_bfs = fo_bot._bfs
    for state, seat in _states("bang-faceoff", 2, "shortcut-faceoff")[:120]:
        view = seat_view(rs, state, seat, active=True)
        if not view["legal_moves"]:
            continue
        remembered = fo_bot.choose(view, list(view["legal_moves"]), Rng(b"bot"))
        with monkeypatch.context() as patch:
            patch.setattr(fo_bot, "_walks", fresh_bfs)
            searched = fo_bot.choose(view, list(view["legal_moves"]), Rng(b"bot"))
        assert remembered == searched
        rows = tuple(view["state"]["map"]["rows"])
        assert fo_bot._walks(rows, (1, 1)) == fresh_bfs(list(rows), (1, 1))
