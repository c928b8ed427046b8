"""Random legal play of many seeded games per player count: every game must
end with a valid result and no invariant may ever break (issue 3's done-when).

    python -m bench soak [GAMES]     (default 1000 per player count)
"""
from __future__ import annotations

import time
from typing import Any

from referee.games import registry
from referee.engine.rng import Rng
from referee.games.sim import Table, playout, random_chooser


def soak(ruleset: str, players: int, games: int) -> dict[str, Any]:
    rs = registry.get(ruleset)
    broken: list[str] = []

    def check(table: Table) -> None:
        problems = rs.invariants(table.state)
        if problems:
            raise AssertionError("; ".join(problems))

    started = time.perf_counter()
    actions = 0
    reasons: dict[str, int] = {}
    for g in range(games):
        table = Table(rs, players, seed=f"soak-{ruleset}-{players}-{g}")
        rng = Rng(f"soak-pick-{g}".encode())
        try:
            actions += playout(table, random_chooser(rng), pick_seat=rng, on_step=check)
            result = rs.result(table.state)
            if not result or not result["winners"] or len(result["seats"]) != players or \
                    any(s["outcome"] not in ("win", "loss") for s in result["seats"]):
                raise AssertionError(f"bad result {result}")
            if {s["seat"] for s in result["seats"] if s["outcome"] == "win"} != set(result["winners"]):
                raise AssertionError(f"winners disagree with outcomes: {result}")
            reasons[result["reason"]] = reasons.get(result["reason"], 0) + 1
        except Exception as exc:  # report every broken game, keep going
            broken.append(f"seed soak-{ruleset}-{players}-{g}: {exc!r}"[:300])
    return {"games": games, "broken": broken, "actions": actions, "reasons": reasons,
            "seconds": time.perf_counter() - started}


def run(games: int = 1000) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for ruleset in registry.names():
        rs = registry.get(ruleset)
        out[ruleset] = {n: soak(ruleset, n, games) for n in range(rs.min_players, rs.max_players + 1)}
    return out


def report(result: dict[str, Any]) -> None:
    print("Soak: seeded random legal games to the end, invariants checked after every action")
    for ruleset, rows in result.items():
        for n, row in rows.items():
            status = "ok" if not row["broken"] else f"{len(row['broken'])} BROKEN"
            print(f"  {ruleset:<11} {n} players: {row['games']} games, {row['actions']} actions, "
                  f"{row['seconds']:.0f} s, {status}; endings {row['reasons']}")
            for line in row["broken"][:5]:
                print("     ", line)
