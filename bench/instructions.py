"""Instructions per action, the rules alone against every seat's view encoded
after every move: issue 20's ``encoded/rules`` ratio (``bench rules``), counted
by valgrind (callgrind's total) instead of timed. A neighbour on a shared
machine moves a CPU-time ratio by ±0.05 from one run to the next; it does not
move a count of instructions. (The CPU-time ratio sits 0.05–0.08 below this
one: the views' instructions — building bytes, copying them — are slower
per instruction than the rules'.)

Each configuration plays the same games as ``bench rules`` does (its seeds,
its players' choices) in three processes under valgrind: none of them (the
imports and one warm-up game of each mode, counted and subtracted), then G
with the rules alone, then the same G with every view encoded. Needs
valgrind (``apt-get install valgrind``); not in the default ``make bench``
(about 15 minutes on one core).

    python -m bench instructions [RULESET ...] [--jobs N]
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
from typing import Any

from bench.rules_bench import ENCODED_RULES_TARGET, actions_per_second, sizes
from referee.games import registry

#: games per configuration: enough actions that a few thousand of them are counted
GAMES = {"bang": 10, "bang-dice": 20, "bang-faceoff": 2, "bluffaneer": 10}
_COLLECTED = re.compile(rb"Collected : (\d+)")


def _play(ruleset: str, players: int, games: int, mode: str) -> None:
    """The process valgrind counts: a warm-up game in each mode, then ``games`` in ``mode``."""
    actions_per_second(ruleset, players, mode="rules", games=1)
    actions_per_second(ruleset, players, mode="encoded", games=1)
    played = actions_per_second(ruleset, players, mode=mode, games=games)
    print(f"actions {played['actions']}")


def _count(ruleset: str, players: int, games: int, mode: str) -> tuple[int, int]:
    """``(instructions, actions)`` of one process under valgrind, its string
    hashing pinned: with a random hash seed the same games' count moves by up
    to 1.5 % (set iteration order, dict probing), more than the differences
    this count is for."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                           "-m", "bench.instructions", "--play", ruleset, str(players), str(games), mode],
                          capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _COLLECTED.search(done.stderr)
    actions = re.search(rb"actions (\d+)", done.stdout)
    if done.returncode != 0 or found is None or actions is None:
        raise RuntimeError(f"valgrind gave no count for {ruleset} {players} {mode}: {done.stderr[-300:]!r}")
    return int(found.group(1)), int(actions.group(1))


def _configuration(ruleset: str, players: int) -> dict[str, Any]:
    games = GAMES.get(ruleset, 10)
    base, _ = _count(ruleset, players, 0, "rules")
    rules, actions = _count(ruleset, players, games, "rules")
    encoded, same = _count(ruleset, players, games, "encoded")
    if same != actions:
        raise RuntimeError(f"{ruleset} {players}: the two modes played different games ({actions} != {same})")
    per_rules, per_encoded = (rules - base) / actions, (encoded - base) / actions
    return {"ruleset": ruleset, "players": players, "actions": actions, "rules": per_rules,
            "encoded": per_encoded, "ratio": per_rules / per_encoded}


def run(rulesets: list[str] | None = None, jobs: int | None = None) -> list[dict[str, Any]]:
    if shutil.which("valgrind") is None:
        raise SystemExit("bench instructions: valgrind is not installed (apt-get install valgrind)")
    configs = [(name, n) for name in (rulesets or registry.names()) for n in sizes(name)]
    with concurrent.futures.ThreadPoolExecutor(jobs or os.cpu_count() or 1) as pool:
        return list(pool.map(lambda config: _configuration(*config), configs))


def report(rows: list[dict[str, Any]]) -> None:
    print("Instructions per action (valgrind), the rules alone and every seat's view encoded after every move: "
          "the same games as bench rules")
    print(f"  {'ruleset':<13}{'players':>7}{'actions':>9}{'rules':>10}{'encoded':>10}{'views':>10}"
          f"{'encoded/rules':>15}  target >= {ENCODED_RULES_TARGET}")
    for row in rows:
        print(f"  {row['ruleset']:<13}{row['players']:>7}{row['actions']:>9}{row['rules']:>10.0f}"
              f"{row['encoded']:>10.0f}{row['encoded'] - row['rules']:>10.0f}{row['ratio']:>14.3f}x  "
              f"{'met' if row['ratio'] >= ENCODED_RULES_TARGET else 'NOT MET'}")


if __name__ == "__main__" and sys.argv[1:2] == ["--play"]:
    _play(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
