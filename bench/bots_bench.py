"""Built-in bots in process: the ``heuristic`` bot against the ``random`` one.

* Bluffaneer, 4 players: 2 heuristic + 2 random; the pattern H H R R is
  rotated over the seats, so each side sits in every seat equally, and each
  deal (seed) is played in all four rotations. The fair share of a player
  is 1/4 (one winner per game, F29).
* BANG!, 5 players: the pattern H R H R R and its complement R H R H H, each
  in its five rotations, are played on every deal (ten games a deal): each
  seat — hence each role, which the seed deals — is played by each side
  equally often. The fair share is the win rate of all seats together
  (several players win each game, R55–R58), per role and overall.

Every game is driven by ``referee.games.sim.playout`` with a chooser that
maps each seat to its policy; the heuristic is given the seat's
``seat_view`` exactly as a bot in production is. Run: ``python -m bench.bots_bench``.
"""
from __future__ import annotations

import time
from collections import defaultdict
from typing import Any, Callable

from referee.games import registry
from referee.engine.protocol import Move, seat_view
from referee.engine.rng import Rng
from referee.games.sim import Table, playout

BLUFF_PLAYERS, BLUFF_GAMES = 4, 1200
BANG_PLAYERS, BANG_GAMES = 5, 600
BLUFF_PATTERN = (True, True, False, False)      # True: heuristic
BANG_PATTERN = (True, False, True, False, False)
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
             clock: _Clock) -> Callable[[Table, int, list[Move]], Move]:
    """Seat -> policy: the heuristic on its seat's view, or uniform random."""
    choose = registry.heuristic(ruleset)
    bot_rng = Rng(f"heuristic:{game}".encode())
    random_rng = Rng(f"random:{game}".encode())

    def chooser(t: Table, seat: int, moves: list[Move]) -> Move:
        if not heuristic[seat]:
            return random_rng.choice(moves)
        view = seat_view(t.ruleset, t.state, seat)
        start = time.perf_counter()
        move = choose(view, moves, bot_rng)
        clock.seconds += time.perf_counter() - start
        clock.calls += 1
        return move

    return chooser


def _side(heuristic: bool) -> str:
    return "heuristic" if heuristic else "random"


def run_bluffaneer(games: int = BLUFF_GAMES) -> dict[str, Any]:
    """``games`` Bluffaneer games (a multiple of 4 keeps the seats balanced)."""
    ruleset = registry.get("bluffaneer")
    rotations = _rotations(BLUFF_PATTERN)
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    clock = _Clock()
    start = time.perf_counter()
    for g in range(games):
        heuristic = rotations[g % len(rotations)]
        deal = f"bluffaneer:{g // len(rotations)}"
        t = Table(ruleset, BLUFF_PLAYERS, seed=deal)
        playout(t, _chooser("bluffaneer", heuristic, f"{deal}:{g}", clock),
                pick_seat=Rng(f"pick:{deal}:{g}".encode()))
        result = t.result() or {}
        for s in range(BLUFF_PLAYERS):
            seats[_side(heuristic[s])] += 1
        for w in result.get("winners", []):
            wins[_side(heuristic[w])] += 1
    return {
        "games": games, "players": BLUFF_PLAYERS, "fair_share": 1 / BLUFF_PLAYERS,
        "sides": {side: {"seats": seats[side], "wins": wins[side],
                         "win_rate": wins[side] / seats[side] if seats[side] else 0.0}
                  for side in SIDES},
        "seconds": time.perf_counter() - start,
        "decision_us": 1e6 * clock.seconds / clock.calls if clock.calls else 0.0,
    }


def run_bang(games: int = BANG_GAMES) -> dict[str, Any]:
    """``games`` BANG! games (a multiple of 10 keeps seats and roles balanced)."""
    ruleset = registry.get("bang")
    complement = tuple(not h for h in BANG_PATTERN)
    rotations = _rotations(BANG_PATTERN) + _rotations(complement)
    seats: dict[tuple[str, str], int] = defaultdict(int)
    wins: dict[tuple[str, str], int] = defaultdict(int)
    clock = _Clock()
    start = time.perf_counter()
    for g in range(games):
        heuristic = rotations[g % len(rotations)]
        deal = f"bang:{g // len(rotations)}"
        t = Table(ruleset, BANG_PLAYERS, seed=deal)
        playout(t, _chooser("bang", heuristic, f"{deal}:{g}", clock),
                pick_seat=Rng(f"pick:{deal}:{g}".encode()))
        result = t.result() or {}
        for row in result.get("seats", []):
            side, role = _side(heuristic[row["seat"]]), row["role"]
            won = row["outcome"] == "win"
            for k in ((side, role), (side, "overall"), ("all", role), ("all", "overall")):
                seats[k] += 1
                wins[k] += int(won)
    roles = sorted({role for _, role in seats if role != "overall"}) + ["overall"]

    def cell(side: str, role: str) -> dict[str, Any]:
        n = seats[(side, role)]
        return {"seats": n, "wins": wins[(side, role)], "win_rate": wins[(side, role)] / n if n else 0.0}

    return {
        "games": games, "players": BANG_PLAYERS,
        "roles": {role: {side: cell(side, role) for side in (*SIDES, "all")} for role in roles},
        "fair_share": cell("all", "overall")["win_rate"],
        "seconds": time.perf_counter() - start,
        "decision_us": 1e6 * clock.seconds / clock.calls if clock.calls else 0.0,
    }


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def run(bluffaneer_games: int = BLUFF_GAMES, bang_games: int = BANG_GAMES) -> dict[str, Any]:
    """Both tournaments; win rates per side (and per role for BANG!) and the
    ratio heuristic/random of the win rates."""
    bluff = run_bluffaneer(bluffaneer_games)
    bang = run_bang(bang_games)
    bluff["ratio"] = _ratio(bluff["sides"]["heuristic"]["win_rate"], bluff["sides"]["random"]["win_rate"])
    overall = bang["roles"]["overall"]
    bang["ratio"] = _ratio(overall["heuristic"]["win_rate"], overall["random"]["win_rate"])
    return {"bluffaneer": bluff, "bang": bang}


def report(result: dict[str, Any]) -> None:
    """Print both tables: win rate of each side, against the fair share."""
    b = result["bluffaneer"]
    fair = b["fair_share"]
    print(f"Bluffaneer, {b['players']} players (2 heuristic + 2 random, seats rotated), "
          f"{b['games']} games, {b['seconds']:.1f} s, {b['decision_us']:.0f} us/decision")
    print(f"  {'side':10s} {'seats':>6s} {'wins':>6s} {'win rate':>9s} {'/ fair':>7s}")
    for side in SIDES:
        row = b["sides"][side]
        print(f"  {side:10s} {row['seats']:6d} {row['wins']:6d} {row['win_rate']:9.1%} "
              f"{_ratio(row['win_rate'], fair):6.2f}x")
    print(f"  fair share (baseline) {fair:.1%} per player; ratio heuristic/random {b['ratio']:.2f}")
    g = result["bang"]
    fair = g["fair_share"]
    print(f"BANG!, {g['players']} players (heuristic and random rotated over seats; roles dealt by seed), "
          f"{g['games']} games, {g['seconds']:.1f} s, {g['decision_us']:.0f} us/decision")
    print(f"  {'role':9s} {'heuristic':>17s} {'random':>17s} {'fair share':>11s} {'ratio':>6s}")
    for role, row in g["roles"].items():
        h, r, a = row["heuristic"], row["random"], row["all"]
        print(f"  {role:9s} {h['win_rate']:8.1%} ({h['seats']:4d})  {r['win_rate']:8.1%} ({r['seats']:4d})  "
              f"{a['win_rate']:10.1%} {_ratio(h['win_rate'], r['win_rate']):6.2f}")
    print(f"  fair share (baseline) {fair:.1%} per seat; ratio heuristic/random {g['ratio']:.2f}")


if __name__ == "__main__":
    report(run())
