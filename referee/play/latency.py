"""Each bot's latency per move in a clocked tournament game (issue 40 item
2, docs/clocks.md): the time the clock charged each of its moves (a move
record's ``clock.used``: from when its seat's wait began to when the referee
received the move), read from the game's log, folded into the standings
(``Standings.record``). The clock's defaults are counted apart, as
``timeouts``: the bot never answered them."""
from __future__ import annotations

from collections.abc import Iterable

from referee.engine.clock import CLOCK_DEFAULT
from referee.engine.platform import MOVE
from referee.engine.protocol import Json


def empty() -> Json:
    return {"moves": 0, "total_ms": 0, "max_ms": 0, "timeouts": 0}


def seat_latencies(envelopes: Iterable[Json], players: int) -> list[Json]:
    """Per seat of a clocked game's log: its own moves, the time they were charged (total, longest), and
    how many of its waits the clock's default ended."""
    out = [empty() for _ in range(players)]
    for env in envelopes:
        actor, data = env.get("actor"), env.get("data")
        if env.get("type") != MOVE or type(actor) is not int or not 0 <= actor < players or type(data) is not dict:
            continue
        used = (data.get("clock") or {}).get("used")
        if type(used) is not int:
            continue
        cell = out[actor]
        if (data.get("by") or {}).get("default") == CLOCK_DEFAULT:
            cell["timeouts"] += 1
            continue
        cell["moves"] += 1
        cell["total_ms"] += used
        cell["max_ms"] = max(cell["max_ms"], used)
    return out


def add(row: Json, cell: Json) -> None:
    """Fold one game's ``cell`` of a seat into its entrant's standings ``row``."""
    kept = row.setdefault("latency", empty())
    for name in ("moves", "total_ms", "timeouts"):
        kept[name] += cell[name]
    kept["max_ms"] = max(kept["max_ms"], cell["max_ms"])


def shown(kept: Json) -> Json:
    """A row's latency as the standings show it: the sums, and the mean per move (ms, 0 with no move)."""
    return {**kept, "mean_ms": round(kept["total_ms"] / kept["moves"]) if kept["moves"] else 0}
