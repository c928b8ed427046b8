"""Random legal play of many seeded games per player count and option set
(``Ruleset.option_sets``): every game must end with a valid result, no
invariant may ever break, and the audit of every game's log is clean
(issues 3, 11 and 12's done-when).

    python -m bench soak [GAMES] [RULESET ...]    (default 1000 per row, every ruleset)
"""
from __future__ import annotations

import json
import time
from typing import Any, Iterable

from referee.audit.offline import LoggedTable
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser


def label(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "-"


def soak(ruleset: str, players: int, games: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    rs = registry.get(ruleset)
    broken: list[str] = []
    opts = {**rs.options_for(players), **(options or {})}

    def check(table: Table) -> None:
        problems = rs.invariants(table.state)
        if problems:
            raise AssertionError("; ".join(problems))

    started = time.perf_counter()
    actions = 0
    reasons: dict[str, int] = {}
    tag = f"{ruleset}-{players}-{label(options or {})}"
    for g in range(games):
        seed = f"soak-{tag}-{g}"
        table = LoggedTable(rs, players, options=opts, seed=seed)
        rng = Rng(f"soak-pick-{g}".encode())
        try:
            actions += playout(table, random_chooser(rng), pick_seat=rng, on_step=check)
            result = rs.result(table.state)
            if not result or not result["reason"] or len(result["seats"]) != players or \
                    any(s["outcome"] not in ("win", "loss", "draw") for s in result["seats"]):
                raise AssertionError(f"bad result {result}")
            if {s["seat"] for s in result["seats"] if s["outcome"] == "win"} != set(result["winners"]):
                raise AssertionError(f"winners disagree with outcomes: {result}")
            report = table.audit()
            if not report["ok"]:
                raise AssertionError(f"audit: {report['divergence']}")
            reasons[result["reason"]] = reasons.get(result["reason"], 0) + 1
        except Exception as exc:  # report every broken game, keep going
            broken.append(f"seed {seed}: {exc!r}"[:300])
    return {"games": games, "broken": broken, "actions": actions, "reasons": reasons,
            "seconds": time.perf_counter() - started}


def run(games: int = 1000, rulesets: Iterable[str] = ()) -> dict[str, Any]:
    """``{ruleset: {(players, label): row}}`` over every player count and option set."""
    out: dict[str, Any] = {}
    for ruleset in list(rulesets) or registry.names():
        rs = registry.get(ruleset)
        out[ruleset] = {(n, label(o)): soak(ruleset, n, games, o)
                        for n in range(rs.min_players, rs.max_players + 1) for o in rs.option_sets(n)}
    return out


def report(result: dict[str, Any]) -> None:
    print("Soak: seeded random legal games to the end, invariants checked after every action, "
          "every game's log audited")
    for ruleset, rows in result.items():
        for (n, options), row in rows.items():
            status = "ok" if not row["broken"] else f"{len(row['broken'])} BROKEN"
            print(f"  {ruleset:<11} {n} players {options}: {row['games']} games, {row['actions']} actions, "
                  f"{row['seconds']:.0f} s, {status}; endings {row['reasons']}")
            for line in row["broken"][:5]:
                print("     ", line)
