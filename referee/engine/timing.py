"""Each seat's time per move, folded from a game's log one event after the
other (issue 40 item 2, docs/clocks.md; ``referee.play.latency`` folds it
into the standings): in a clocked game, the time the clock charged each of
its moves (a move record's ``clock.used``: from when its seat's wait began
to when the referee received the move); in a game without a clock, the
time from the last event before it that is no chat (when its wait began)
to the move's own receipt time, both recorded in the chain. Defaults (the
clock's, or the turn timeout's) are counted apart, as ``timeouts``: the bot
never answered them; a default played for an invalid answer is counted as
``invalid``.

A ``Timing`` is what the log says of it up to one version: a process that
holds a game folds the events it appends or reads into it, so the timing
of a finished game is known without reading its log again (a tournament
game's, as it is recorded; a rated game's health in its ladder, ``health``),
and it is exactly what folding the whole log gives."""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from referee.engine.clock import CLOCK_DEFAULT
from referee.engine.platform import CHAT_EVENTS, MOVE
from referee.engine.protocol import Json

#: the defaults that mean the seat's answer came too late, or never
TIMED_OUT = frozenset({CLOCK_DEFAULT, "timeout"})
#: the default played for a seat whose player left (``referee.service.presence.AWAY``): no bot's fault
AWAY = "away"


#: the move-time histogram's buckets grow by this ratio: bucket ``b >= 1`` holds the moves of
#: ``STEP**(b-1) <= ms < STEP**b`` (bucket 0: under 1 ms), so a median read from it is within 5%
STEP = 1.1
_LOG_STEP = math.log(STEP)


def empty() -> Json:
    return {"moves": 0, "total_ms": 0, "max_ms": 0, "timeouts": 0, "invalid": 0}


def bucket(ms: int) -> int:
    """The histogram bucket of one move's ``ms``."""
    return 0 if ms < 1 else 1 + int(math.log(ms) / _LOG_STEP)


@dataclass(frozen=True, slots=True)
class Timing:
    """Per seat, its moves, the time they took (total, longest) and how many
    of its waits a default ended (``cells``), and a histogram of its moves'
    times (``hists``: bucket -> moves, ``bucket``), over a game's log up to
    ``version``; ``began``: when the wait the next move ends began (the
    last event that is no chat). Never changed: ``fold`` makes the next one."""

    cells: tuple[Json, ...]
    began: int | None
    version: int
    hists: tuple[dict[str, int], ...]

    @classmethod
    def start(cls, players: int) -> Timing:
        """Before the game's first event."""
        return cls(tuple(empty() for _ in range(players)), None, 0, tuple({} for _ in range(players)))

    def fold(self, envelopes: Iterable[Json], version: int) -> Timing:
        """The timing at ``version`` once ``envelopes`` (the events after
        this one's version up to ``version``, in order) are folded in."""
        began = self.began
        cells: list[Json] | None = None  # the cells and histograms of this one, copied once a seat's change
        hists: list[dict[str, int]] = []
        copied: set[int] = set()
        for env in envelopes:
            if env.get("type") in CHAT_EVENTS:
                continue
            timed = timed_move(env, began, len(self.cells))
            if timed is not None:
                seat = timed[0]
                if cells is None:
                    cells, hists = list(self.cells), list(self.hists)
                if seat not in copied:
                    copied.add(seat)
                    cells[seat], hists[seat] = dict(cells[seat]), dict(hists[seat])
                if _count(cells[seat], timed[1], timed[2]):
                    key = str(bucket(timed[2]))
                    hists[seat][key] = hists[seat].get(key, 0) + 1
            at = env.get("at")
            if type(at) is int:
                began = at
        if cells is None:
            return Timing(self.cells, began, version, self.hists)
        return Timing(tuple(cells), began, version, tuple(hists))

    def latencies(self) -> list[Json]:
        """Per seat, what a tournament records of its moves' time
        (``referee.play.latency.seat_latencies`` of the log up to ``version``):
        its moves, their total and longest time, its timeouts and invalid answers."""
        return [dict(cell) for cell in self.cells]

    def health(self) -> list[Json]:
        """Per seat, what the ladder keeps of its health
        (``referee.play.latency.seat_health`` of the log up to ``version``):
        its own moves, timeouts and invalid answers, and its moves' histogram."""
        return [{"moves": cell["moves"], "timeouts": cell["timeouts"], "invalid": cell["invalid"],
                 "hist": dict(hist)} for cell, hist in zip(self.cells, self.hists)]


def timed_move(env: Json, began: int | None, players: int) -> tuple[int, Json, int] | None:
    """``(seat, move record, ms used)`` of a seat's move event (not chat),
    ``None`` for any other event or a move whose time is unknown: the
    clock's charge, else the time since its wait began (``began``: the last
    event before it that is no chat)."""
    actor, data, at = env.get("actor"), env.get("data"), env.get("at")
    if env.get("type") != MOVE or type(actor) is not int or not 0 <= actor < players or type(data) is not dict:
        return None
    used = (data.get("clock") or {}).get("used")
    if type(used) is not int and type(at) is int and began is not None:
        used = at - began
    return (actor, data, used) if type(used) is int else None


def timing_after(timing: Timing | None, before: int, envelopes: Iterable[Json], version: int) -> Timing | None:
    """``timing`` (at version ``before``) with ``envelopes`` up to ``version``
    folded in; ``None`` when ``timing`` is not at ``before`` (not known: the
    log is read when it is wanted)."""
    if timing is None or timing.version != before:
        return None
    return timing.fold(envelopes, version)


def kind(data: Json) -> str:
    """What one move of a seat was: ``timeout`` (a default for an answer too
    late or never given), ``invalid`` (a default for an answer refused),
    ``away`` (the default of a seat whose player left: no bot's fault) or
    ``move`` (the seat's own answer)."""
    default = (data.get("by") or {}).get("default")
    if default is None:
        return "move"
    return "timeout" if default in TIMED_OUT else "away" if default == AWAY else "invalid"


def _count(cell: Json, data: Json, used: int) -> bool:
    """One move of a seat: a default is a timeout or an invalid answer (or the
    away seat's, neither), any other a timed move (then ``True``)."""
    found = kind(data)
    if found == "timeout":
        cell["timeouts"] += 1
    elif found == "invalid":
        cell["invalid"] += 1
    elif found == "move":
        cell["moves"] += 1
        cell["total_ms"] += used
        cell["max_ms"] = max(cell["max_ms"], used)
        return True
    return False
