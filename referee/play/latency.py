"""Each bot's latency per move in a tournament game (issue 40 item 2,
docs/clocks.md), as ``referee.engine.timing`` folds it from the game's log
(what it counts: a clocked game's moves as the clock charged them, any
other's as the chain timed them; defaults apart), and its sum over games in
the standings (``Standings.record``)."""
from __future__ import annotations

from collections.abc import Iterable

from referee.engine.protocol import Json
from referee.engine.timing import AWAY, STEP, TIMED_OUT, Timing, bucket, empty, kind

__all__ = ["AWAY", "STEP", "TIMED_OUT", "add", "add_health", "bucket", "empty", "kind", "median_ms", "seat_health",
           "seat_latencies", "shown"]


def seat_latencies(envelopes: Iterable[Json], players: int) -> list[Json]:
    """Per seat of a game's log: its own moves, the time they took (total,
    longest: the clock's charge, or since the wait began), and how many of its
    waits a default ended (``referee.engine.timing``, the whole log folded)."""
    return Timing.start(players).fold(envelopes, 0).latencies()


def add(row: Json, cell: Json) -> None:
    """Fold one game's ``cell`` of a seat into its entrant's standings ``row``."""
    kept = row.setdefault("latency", empty())
    for name in ("moves", "total_ms", "timeouts", "invalid"):
        kept[name] = kept.get(name, 0) + cell.get(name, 0)
    kept["max_ms"] = max(kept["max_ms"], cell["max_ms"])


def shown(kept: Json) -> Json:
    """A row's latency as the standings show it: the sums, and the mean per move (ms, 0 with no move)."""
    return {**kept, "mean_ms": round(kept["total_ms"] / kept["moves"]) if kept["moves"] else 0}


# -- health: a bot's moves, timeouts and invalid answers, and its median time a move ----------------
# (the histogram's buckets: ``referee.engine.timing.bucket``, growing by ``STEP``)
def seat_health(envelopes: Iterable[Json], players: int) -> list[Json]:
    """Per seat of a game's log: its own moves, its timeouts and invalid
    answers (``kind``), and a histogram of its moves' times (``bucket``:
    bounded, however many moves; a median read from it, ``median_ms``).
    The same as ``Timing.health`` of the log folded (what a process that
    holds the game knows without reading its log: ``Loader.timing``)."""
    return Timing.start(players).fold(envelopes, 0).health()


def add_health(kept: Json, cell: Json) -> None:
    """Fold one game's health ``cell`` of a seat into a bot's ``kept`` one."""
    for name in ("moves", "timeouts", "invalid"):
        kept[name] = kept.get(name, 0) + cell.get(name, 0)
    hist = kept.setdefault("hist", {})
    for key, count in cell.get("hist", {}).items():
        hist[key] = hist.get(key, 0) + count


def median_ms(hist: Json) -> int | None:
    """The median move time of a histogram (ms, the middle of its bucket), ``None`` with no move."""
    total = sum(hist.values())
    if not total:
        return None
    seen = 0
    for key in sorted(hist, key=int):
        seen += hist[key]
        if 2 * seen >= total:
            index = int(key)
            return 0 if index == 0 else round(STEP ** (index - 0.5))
    return None  # unreachable: the counts sum to ``total``
