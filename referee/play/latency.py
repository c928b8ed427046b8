"""Each bot's latency per move in a tournament game (issue 40 item 2,
docs/clocks.md), read from the game's log and folded into the standings
(``Standings.record``): in a clocked game, the time the clock charged each
of its moves (a move record's ``clock.used``: from when its seat's wait
began to when the referee received the move); in a game without a clock,
the time from the last event before it that is no chat (when its wait
began) to the move's own receipt time, both recorded in the chain. Defaults
(the clock's, or the turn timeout's) are counted apart, as ``timeouts``: the
bot never answered them."""
from __future__ import annotations

from collections.abc import Iterable

from referee.engine.clock import CLOCK_DEFAULT
from referee.engine.platform import CHAT_EVENTS, MOVE
from referee.engine.protocol import Json

#: the defaults that mean the seat's answer came too late, or never
TIMED_OUT = frozenset({CLOCK_DEFAULT, "timeout"})
#: the default played for a seat whose player left (``referee.service.presence.AWAY``): no bot's fault
AWAY = "away"


def empty() -> Json:
    return {"moves": 0, "total_ms": 0, "max_ms": 0, "timeouts": 0, "invalid": 0}


def seat_latencies(envelopes: Iterable[Json], players: int) -> list[Json]:
    """Per seat of a game's log: its own moves, the time they took (total,
    longest: the clock's charge, or since the wait began), and how many of its
    waits a default ended."""
    out = [empty() for _ in range(players)]
    began: int | None = None  # when the wait the next move ends began: the last event that is no chat
    for env in envelopes:
        actor, data, at = env.get("actor"), env.get("data"), env.get("at")
        if env.get("type") in CHAT_EVENTS:
            continue
        if env.get("type") == MOVE and type(actor) is int and 0 <= actor < players and type(data) is dict:
            used = (data.get("clock") or {}).get("used")
            if type(used) is not int and type(at) is int and began is not None:
                used = at - began
            if type(used) is int:
                _count(out[actor], data, used)
        began = at if type(at) is int else began
    return out


def _count(cell: Json, data: Json, used: int) -> None:
    """One move of a seat: a default is a timeout or an invalid answer (or the
    away seat's, neither), any other a timed move."""
    default = (data.get("by") or {}).get("default")
    if default is not None:
        if default in TIMED_OUT:
            cell["timeouts"] += 1
        elif default != AWAY:
            cell["invalid"] += 1
        return
    cell["moves"] += 1
    cell["total_ms"] += used
    cell["max_ms"] = max(cell["max_ms"], used)


def add(row: Json, cell: Json) -> None:
    """Fold one game's ``cell`` of a seat into its entrant's standings ``row``."""
    kept = row.setdefault("latency", empty())
    for name in ("moves", "total_ms", "timeouts", "invalid"):
        kept[name] = kept.get(name, 0) + cell.get(name, 0)
    kept["max_ms"] = max(kept["max_ms"], cell["max_ms"])


def shown(kept: Json) -> Json:
    """A row's latency as the standings show it: the sums, and the mean per move (ms, 0 with no move)."""
    return {**kept, "mean_ms": round(kept["total_ms"] / kept["moves"]) if kept["moves"] else 0}
