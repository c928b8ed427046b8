"""Built-in bots in process: the ``heuristic`` bot against the ``random`` one.

Every registered ruleset with a built-in heuristic, one seat above its
smallest usual table (Bluffaneer 4 players, BANG! 5): the pattern (H R H R
…, half the seats heuristic) and its complement, each in every rotation, are
played on every deal, so each seat — hence each role the seed deals — is
played by each side equally often. The fair share is the win rate of all
seats together (several players may win a game, R55–R58), per role where the
result names roles, and overall.

Every game is driven by ``referee.games.sim.playout`` with a chooser that
maps each seat to its policy; the heuristic is given the seat's
``seat_view`` exactly as a bot in production is. Run: ``python -m bench.bots_bench``.
"""
from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from referee.engine.platform import playing_moves
from referee.engine.protocol import Move, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout

#: games per ruleset (a multiple of twice the players keeps seats balanced); others: 20 per seat
GAMES = {"bluffaneer": 1200, "bang": 600}
SIDES = ("heuristic", "random")


def _rotations(pattern: tuple[bool, ...]) -> list[tuple[bool, ...]]:
    n = len(pattern)
    return [tuple(pattern[(s - k) % n] for s in range(n)) for k in range(n)]


class _Clock:
    """Time spent inside the heuristic, to report its cost per decision."""

    def __init__(self) -> None:
        self.calls = 0
        self.seconds = 0.0


def _chooser(ruleset: str, heuristic: tuple[bool, ...], game: str,
             clock: _Clock) -> Callable[[Table, int, Sequence[Move]], Move]:
    """Seat -> policy: the heuristic on its seat's view, or uniform random."""
    choose = registry.heuristic(ruleset)
    if choose is None:
        raise ValueError(f"{ruleset} has no heuristic bot")
    bot_rng = Rng(f"heuristic:{game}".encode())
    random_rng = Rng(f"random:{game}".encode())

    def chooser(t: Table, seat: int, moves: Sequence[Move]) -> Move:
        if not heuristic[seat]:
            return random_rng.choice(playing_moves(moves))
        view = seat_view(t.ruleset, t.state, seat, memo=t.memo)
        start = time.perf_counter()
        move: Move = choose(view, list(playing_moves(moves)), bot_rng)
        clock.seconds += time.perf_counter() - start
        clock.calls += 1
        return move

    return chooser


def _side(heuristic: bool) -> str:
    return "heuristic" if heuristic else "random"


def table_for(name: str) -> tuple[int, tuple[bool, ...], int]:
    """(players, heuristic pattern, games) for a ruleset: one seat above its
    smallest usual table (Bluffaneer 4, BANG! 5), half the seats heuristic
    (rounded down), and a number of games that a multiple of the rotations."""
    rs = registry.get(name)
    low = rs.min_players + (1 if rs.options_for(rs.min_players) else 0)
    players = low + 1 if low + 1 <= rs.max_players else low
    pattern = tuple(i % 2 == 0 and i // 2 < players // 2 for i in range(players))
    return players, pattern, GAMES.get(name, 20 * players)


def run_ruleset(name: str, games: int | None = None) -> dict[str, Any]:
    """The heuristic against random on ``name``: the pattern and its
    complement, each in every rotation, on every deal, so each seat (and each
    role the seed deals) is played by each side equally often. Win rates per
    role where the result names roles (BANG!), and overall; the fair share is
    the win rate of all seats together."""
    ruleset = registry.get(name)
    players, pattern, default_games = table_for(name)
    games = default_games if games is None else games
    rotations = _rotations(pattern) + _rotations(tuple(not h for h in pattern))
    seats: dict[tuple[str, str], int] = defaultdict(int)
    wins: dict[tuple[str, str], int] = defaultdict(int)
    clock = _Clock()
    start = time.perf_counter()
    for g in range(games):
        heuristic = rotations[g % len(rotations)]
        deal = f"{name}:{g // len(rotations)}"
        t = Table(ruleset, players, seed=deal)
        playout(t, _chooser(name, heuristic, f"{deal}:{g}", clock), pick_seat=Rng(f"pick:{deal}:{g}".encode()))
        result = t.result() or {}
        for row in result.get("seats", []):
            side, role = _side(heuristic[row["seat"]]), row.get("role") or "overall"
            won = row["seat"] in result.get("winners", [])
            for k in {(side, role), (side, "overall"), ("all", role), ("all", "overall")}:
                seats[k] += 1
                wins[k] += int(won)
    roles = sorted({role for _, role in seats if role != "overall"}) + ["overall"]

    def cell(side: str, role: str) -> dict[str, Any]:
        n = seats[(side, role)]
        return {"seats": n, "wins": wins[(side, role)], "win_rate": wins[(side, role)] / n if n else 0.0}

    overall = {side: cell(side, "overall") for side in (*SIDES, "all")}
    return {
        "games": games, "players": players, "pattern": "".join("H" if h else "R" for h in pattern),
        "roles": {role: {side: cell(side, role) for side in (*SIDES, "all")} for role in roles},
        "fair_share": overall["all"]["win_rate"],
        "ratio": _ratio(overall["heuristic"]["win_rate"], overall["random"]["win_rate"]),
        "seconds": time.perf_counter() - start,
        "decision_us": 1e6 * clock.seconds / clock.calls if clock.calls else 0.0,
    }


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def run(games: int | None = None) -> dict[str, Any]:
    """A heuristic-against-random tournament on every registered ruleset that
    has a built-in heuristic."""
    return {name: run_ruleset(name, games) for name in registry.names() if registry.heuristic(name) is not None}


def report(result: dict[str, Any]) -> None:
    """Per ruleset: the win rate of each side per role (and overall), against the fair share."""
    for name, g in result.items():
        print(f"{registry.get(name).title}, {g['players']} players (pattern {g['pattern']} and its complement "
              f"rotated over the seats), {g['games']} games, {g['seconds']:.1f} s, {g['decision_us']:.0f} "
              "us/decision")
        print(f"  {'role':9s} {'heuristic':>17s} {'random':>17s} {'fair share':>11s} {'ratio':>6s}")
        for role, row in g["roles"].items():
            h, r, a = row["heuristic"], row["random"], row["all"]
            print(f"  {role:9s} {h['win_rate']:8.1%} ({h['seats']:4d})  {r['win_rate']:8.1%} ({r['seats']:4d})  "
                  f"{a['win_rate']:10.1%} {_ratio(h['win_rate'], r['win_rate']):6.2f}")
        print(f"  fair share (baseline) {g['fair_share']:.1%} per seat; ratio heuristic/random {g['ratio']:.2f}")


if __name__ == "__main__":
    report(run())
