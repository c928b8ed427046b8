"""Each bot's latency per move in a tournament game (issue 40 item 2,
docs/clocks.md), as ``referee.engine.timing`` folds it from the game's log
(what it counts: a clocked game's moves as the clock charged them, any
other's as the chain timed them; defaults apart), and its sum over games in
the standings (``Standings.record``)."""
from __future__ import annotations

from collections.abc import Iterable

from referee.engine.protocol import Json
from referee.engine.timing import AWAY, TIMED_OUT, Timing, empty

__all__ = ["AWAY", "TIMED_OUT", "add", "empty", "seat_latencies", "shown"]


def seat_latencies(envelopes: Iterable[Json], players: int) -> list[Json]:
    """Per seat of a game's log: its own moves, the time they took (total,
    longest: the clock's charge, or since the wait began), and how many of its
    waits a default ended (``referee.engine.timing``, the whole log folded)."""
    return [dict(cell) for cell in Timing.start(players).fold(envelopes, 0).cells]


def add(row: Json, cell: Json) -> None:
    """Fold one game's ``cell`` of a seat into its entrant's standings ``row``."""
    kept = row.setdefault("latency", empty())
    for name in ("moves", "total_ms", "timeouts", "invalid"):
        kept[name] = kept.get(name, 0) + cell.get(name, 0)
    kept["max_ms"] = max(kept["max_ms"], cell["max_ms"])


def shown(kept: Json) -> Json:
    """A row's latency as the standings show it: the sums, and the mean per move (ms, 0 with no move)."""
    return {**kept, "mean_ms": round(kept["total_ms"] / kept["moves"]) if kept["moves"] else 0}
