"""Built-in heuristic bots: one ``choose(view, legal_moves, rng)`` per ruleset.

Each decides from ``seat_view`` output only (never hidden state), returns
one element of ``legal_moves`` unchanged, draws chance only from ``rng`` and
is fast enough to play every seat of a tournament in process.
"""
from __future__ import annotations

from typing import Callable

from referee.bots.heuristic import bang, bluffaneer
from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

Chooser = Callable[[Json, list[Move], Rng], Move]

#: ruleset name -> its heuristic
CHOOSERS: dict[str, Chooser] = {
    "bluffaneer": bluffaneer.choose,
    "bang": bang.choose,
}

__all__ = ["CHOOSERS", "Chooser"]
