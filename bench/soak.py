"""Random legal play of many seeded games per player count and option set
(``Ruleset.option_sets``): every game must end with a valid result, no
invariant may ever break, and the audit of every game's log is clean
(issues 3, 11 and 12's done-when).

    python -m bench soak [GAMES] [RULESET ...] [--jobs N]
        (default 1000 per row, every ruleset, N = os.cpu_count())

Each row's games are split into chunks of consecutive game indexes that run
in a pool of N processes (``--jobs 1``: in this process, one chunk after the
other); game ``g`` has the same seeds whichever chunk plays it, so the rows
add up to what one serial ``soak()`` per row gives, except for the time. A
row's ``seconds`` is the sum of its chunks' times (game time, as if serial);
the wall time of the whole soak is measured by the caller.
"""
from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, NamedTuple

from referee.audit.offline import LoggedTable
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser

MAX_CHUNK = 25  # games: a long soak reports progress at least this often per process


def label(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "-"


def soak(ruleset: str, players: int, games: int, options: dict[str, Any] | None = None,
         first: int = 0) -> dict[str, Any]:
    """Games ``first`` .. ``first + games - 1`` of one row (one player count and option set)."""
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
    for g in range(first, first + games):
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


class Chunk(NamedTuple):
    ruleset: str
    players: int
    options: dict[str, Any]
    first: int
    games: int


def _play(chunk: Chunk) -> dict[str, Any]:
    """One chunk (in a pool's process: a module-level function pickles)."""
    return soak(chunk.ruleset, chunk.players, chunk.games, chunk.options, chunk.first)


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One row from its chunks' results, given in game order: what one ``soak()`` of
    the whole row returns, with ``seconds`` the sum of the chunks' times."""
    row: dict[str, Any] = {"games": 0, "broken": [], "actions": 0, "reasons": {}, "seconds": 0.0}
    for part in parts:
        row["games"] += part["games"]
        row["broken"].extend(part["broken"])
        row["actions"] += part["actions"]
        for reason, count in part["reasons"].items():
            row["reasons"][reason] = row["reasons"].get(reason, 0) + count
        row["seconds"] += part["seconds"]
    return row


def games_text(chunk: Chunk) -> str:
    last = chunk.first + chunk.games - 1
    return f"game {last}" if chunk.games == 1 else f"games {chunk.first}-{last}"


def default_jobs() -> int:
    return os.cpu_count() or 1


def chunk_size(total_games: int, jobs: int) -> int:
    """About four chunks per process over the whole soak (rows of one ruleset
    differ a lot in cost), at most ``MAX_CHUNK`` games each."""
    return max(1, min(MAX_CHUNK, math.ceil(total_games / (4 * jobs))))


def run(games: int = 1000, rulesets: Iterable[str] = (), jobs: int | None = None, chunk: int | None = None,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """``{ruleset: {(players, label): row}}`` over every player count and option set,
    on ``jobs`` processes (default ``os.cpu_count()``; 1: in this process, no pool),
    in chunks of ``chunk`` games (default ``chunk_size``); ``progress`` gets one
    line per finished chunk."""
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    rows: dict[tuple[str, int, str], dict[str, Any]] = {}
    for ruleset in list(rulesets) or registry.names():
        rs = registry.get(ruleset)
        for n in range(rs.min_players, rs.max_players + 1):
            for o in rs.option_sets(n):
                rows[(ruleset, n, label(o))] = o
    size = chunk or chunk_size(games * len(rows), jobs)
    chunks = [(key, Chunk(key[0], key[1], options, first, min(size, games - first)))
              for key, options in rows.items() for first in range(0, games, size)]
    parts: dict[int, dict[str, Any]] = {}
    started = time.perf_counter()

    def done(index: int, part: dict[str, Any]) -> None:
        parts[index] = part
        if progress:
            (ruleset, n, options), c = chunks[index]
            status = "ok" if not part["broken"] else f"{len(part['broken'])} BROKEN"
            progress(f"soak [{len(parts)}/{len(chunks)}] {ruleset} {n} players {options} "
                     f"{games_text(c)}: {part['seconds']:.0f} s, {status} "
                     f"({time.perf_counter() - started:.0f} s wall)")

    if jobs == 1:
        for index, (_key, c) in enumerate(chunks):
            done(index, _play(c))
    elif chunks:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(chunks)))
        try:
            pending: dict[Future[dict[str, Any]], int] = {
                pool.submit(_play, c): index for index, (_key, c) in enumerate(chunks)}
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(pending.pop(future), future.result())
        except BaseException:  # a chunk raised or ^C: do not wait for the rest of the soak
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    out: dict[str, Any] = {}
    for key in rows:
        out.setdefault(key[0], {})[key[1:]] = merge([parts[i] for i, (k, _c) in enumerate(chunks) if k == key])
    return out


def report(result: dict[str, Any], wall: float | None = None, jobs: int | None = None) -> None:
    how = f" ({jobs} job{'s' if jobs != 1 else ''}, {wall:.0f} s wall; a row's time is its games' time summed)" \
        if wall is not None and jobs is not None else ""
    print(f"Soak{how}: seeded random legal games to the end, invariants checked after every action, "
          "every game's log audited")
    for ruleset, rows in result.items():
        for (n, options), row in rows.items():
            status = "ok" if not row["broken"] else f"{len(row['broken'])} BROKEN"
            print(f"  {ruleset:<11} {n} players {options}: {row['games']} games, {row['actions']} actions, "
                  f"{row['seconds']:.0f} s, {status}; endings {row['reasons']}")
            for line in row["broken"][:5]:
                print("     ", line)
