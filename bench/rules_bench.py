"""In-process random legal play: actions/s per ruleset and player count,
building every seat's view at every step (issue 3's speed measure)."""
from __future__ import annotations

import random
import time
from typing import Any, Sequence, TypeVar

from referee.games import registry
from referee.games.sim import Table, playout

T = TypeVar("T")


class FastPick:
    """The players' own randomness (not the game's): Python's Mersenne
    Twister, which costs far less than the game's HMAC generator; the rules
    still draw every shuffle and die from the table's seeded ``Rng``."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def below(self, n: int) -> int:
        return self._r.randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._r.randrange(len(items))]


def actions_per_second(ruleset: str, players: int, seconds: float = 5.0) -> dict[str, float]:
    rs = registry.get(ruleset)
    seats = range(players)
    view = rs.view

    def every_view(table: Table) -> None:
        state = table.state
        for seat in seats:
            view(state, seat)

    actions = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        table = Table(rs, players, seed=f"bench-{ruleset}-{players}-{games}")
        pick = FastPick(games)
        actions += playout(table, lambda _t, _s, moves: pick.choice(moves), pick_seat=pick,
                           on_step=every_view)
        games += 1
    elapsed = time.perf_counter() - started
    return {"actions_per_s": actions / elapsed, "games": games, "actions": actions}


def sizes(ruleset: str) -> list[int]:
    """Every player count of a ruleset's usual game (BANG!'s 3 is an optional variant: left out)."""
    rs = registry.get(ruleset)
    low = rs.min_players + (1 if rs.options_for(rs.min_players) else 0)
    return list(range(low, rs.max_players + 1))


def run(seconds: float = 2.0, rounds: int = 5) -> dict[str, Any]:
    """Each configuration ``rounds`` times for ``seconds``, interleaved so
    that machine noise hits all alike; the median round is reported."""
    configs = [(ruleset, n) for ruleset in registry.names() for n in sizes(ruleset)]
    samples: dict[tuple[str, int], list[dict[str, float]]] = {c: [] for c in configs}
    for _ in range(rounds):
        for ruleset, n in configs:
            samples[(ruleset, n)].append(actions_per_second(ruleset, n, seconds))
    out: dict[str, Any] = {}
    for (ruleset, n), rows in samples.items():
        rows.sort(key=lambda row: row["actions_per_s"])
        median = dict(rows[len(rows) // 2])
        median["min"], median["max"] = rows[0]["actions_per_s"], rows[-1]["actions_per_s"]
        out.setdefault(ruleset, {})[n] = median
    return out


def report(result: dict[str, Any]) -> None:
    print("Random legal play in-process, every seat's view built at every step (median of 5 interleaved rounds)")
    for ruleset, rows in result.items():
        for n, row in rows.items():
            target = "   (target >= 14000 with 4 players)" if ruleset == "bang" and n == 4 else ""
            print(f"  {ruleset:<11} {n} players: {row['actions_per_s']:8.0f} actions/s "
                  f"(rounds {row['min']:.0f}..{row['max']:.0f}){target}")
