"""Built-in heuristic bots: one ``choose(view, legal_moves, rng)`` per ruleset,
declared in the ``referee.heuristics`` entry point group (pyproject.toml).

Each decides from ``seat_view`` output only (never hidden state), returns
one element of ``legal_moves`` unchanged, draws chance only from ``rng`` and
is fast enough to play every seat of a tournament in process.
"""
from __future__ import annotations

from collections.abc import Callable

from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

Chooser = Callable[[Json, list[Move], Rng], Move]

__all__ = ["Chooser"]
