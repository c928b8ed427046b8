"""The audit's re-decide rate (issue 10): log events per second re-verified
by ``referee.audit.audit_log`` — every link and commitment, the seed, every
salt, and the whole game re-decided event by event — over finished games of
every registered ruleset, every player count and option set.

The logs are built first, in memory, as the service writes them
(``referee.audit.offline.LoggedTable``, random legal play); only the audit is
timed, in interleaved rounds, the median round reported. Then a bundle of
1,000 arena games (built-in bots, every ruleset: issue 41 item 5) is written
as files and audited as ``referee audit LOG... --jobs N`` audits it.

    python -m bench audit
"""
from __future__ import annotations

import os
import tempfile
import time
from typing import Any

from referee.audit import audit_log
from referee.audit.batch import audit_files
from referee.audit.offline import LoggedTable
from referee.engine import canonical
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import playout, random_chooser

#: issue 10's target, in log events re-verified per second
TARGET = 100_000
#: rounds of ``referee audit`` over the logs as files (each is seconds long), the median reported
FILE_ROUNDS = 3
#: issue 41 item 5: a bundle of this many arena games (built-in bots, every ruleset) audited as files
BUNDLE_GAMES = 1000
#: the seats of each ruleset's arena games in the bundle: half random, half heuristic bots, as a bot
#: tournament's logs are (every move a built-in bot's, re-derived from its secret stream by the audit)
BUNDLE_ENTRANTS = {"bang": ["random", "heuristic"] * 2 + ["random"], "bang-dice": ["random", "heuristic"] * 2,
                   "bang-faceoff": ["random", "heuristic"], "bluffaneer": ["random", "heuristic"] * 2}


def logs(ruleset: str, games: int) -> list[tuple[Any, Any, list[Any]]]:
    """``games`` finished logs per player count and option set of ``ruleset``."""
    rs = registry.get(ruleset)
    out = []
    for players in range(rs.min_players, rs.max_players + 1):
        for options in rs.option_sets(players):
            for g in range(games):
                table = LoggedTable(rs, players, options={**rs.options_for(players), **options},
                                    seed=f"audit-bench-{players}-{sorted(options.items())}-{g}")
                pick = Rng(f"audit-bench-pick-{g}".encode())
                playout(table, random_chooser(pick), pick_seat=pick)
                out.append((table.header, table.header_hash, table.envelopes))
    return out


def audit_rate(games: list[tuple[Any, Any, list[Any]]]) -> dict[str, float]:
    events = 0
    started = time.perf_counter()
    for header, hashed, envelopes in games:
        report = audit_log(header, hashed, envelopes)
        if not report["ok"]:
            raise AssertionError(f"a clean log fails its audit: {report['divergence']}")
        events += len(envelopes)
    elapsed = time.perf_counter() - started
    return {"events_per_s": events / elapsed, "events": events, "games": len(games), "seconds": elapsed}


def write_logs(games: list[tuple[Any, Any, list[Any]]], folder: str) -> list[str]:
    """Every log written into ``folder`` as ``GET /log`` serves it; the paths."""
    paths = []
    for n, (header, hashed, envelopes) in enumerate(games):
        path = os.path.join(folder, f"{n}.ndjson")
        with open(path, "w", encoding="utf-8") as out:
            out.write(canonical({"header": header, "hash": hashed}) + "\n")
            out.writelines(canonical(env) + "\n" for env in envelopes)
        paths.append(path)
    return paths


def files_rate(paths: list[str], jobs: int) -> dict[str, float]:
    """The logs at ``paths`` read, parsed and audited by ``referee audit`` in ``jobs`` processes: the timed part."""
    events = 0
    started = time.perf_counter()
    for _, report in audit_files(paths, jobs):
        if not report["ok"]:
            raise AssertionError(f"a clean log fails its audit: {report['divergence']}")
        events += report["events"]
    elapsed = time.perf_counter() - started
    return {"events_per_s": events / elapsed, "events": events, "games": len(paths), "seconds": elapsed}


def write_bundle(folder: str, games: int = BUNDLE_GAMES) -> list[str]:
    """``games`` arena games (``referee arena --logs``), shared among the rulesets of
    ``BUNDLE_ENTRANTS``, written into ``folder``; the paths."""
    from pathlib import Path

    from referee.play.arena import Arena
    from referee.play.arena import run as play
    from referee.play.entrants import load_entrant, unique_names
    names = [name for name in BUNDLE_ENTRANTS if name in registry.names()]
    for n, name in enumerate(names):
        entrants = [load_entrant(spec) for spec in BUNDLE_ENTRANTS[name]]
        unique_names(entrants)
        share = games // len(names) + (n < games % len(names))
        logs = Path(folder, name)
        logs.mkdir()
        play(Arena(registry.get(name), len(entrants), entrants, seed=f"audit-bundle-{name}", games=share),
             share, logs=logs, quiet=True)
    return sorted(str(path) for path in Path(folder).glob("*/*.ndjson"))


def bundle_rate(games: int = BUNDLE_GAMES) -> dict[int, dict[str, float]]:
    """``{jobs: rate}`` of ``referee audit`` over a bundle of ``games`` arena games, in one process and one per core."""
    with tempfile.TemporaryDirectory() as folder:
        paths = write_bundle(folder, games)
        return {jobs: files_rate(paths, jobs) for jobs in sorted({1, os.cpu_count() or 1})}


def run(games: int = 10, rounds: int = 5, rulesets: list[str] | None = None) -> dict[str, Any]:
    """``{ruleset: median round}`` and ``"all"``: every ruleset's logs in one
    round; ``"files"``: ``{jobs: median rate}`` of ``referee audit`` over them all as files."""
    built = {name: logs(name, games) for name in rulesets or registry.names()}
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in built}
    for _ in range(rounds):
        for name, games_of in built.items():
            samples[name].append(audit_rate(games_of))
    out: dict[str, Any] = {}
    for name, rows in samples.items():
        rows.sort(key=lambda row: row["events_per_s"])
        out[name] = dict(rows[len(rows) // 2], min=rows[0]["events_per_s"], max=rows[-1]["events_per_s"])
    events = sum(row["events"] for row in out.values())
    seconds = sum(row["seconds"] for row in out.values())
    out["all"] = {"events_per_s": events / seconds, "events": events,
                  "games": sum(row["games"] for row in out.values()), "seconds": seconds}
    every = [log for games_of in built.values() for log in games_of]
    cores = os.cpu_count() or 1
    files: dict[int, list[dict[str, float]]] = {jobs: [] for jobs in sorted({1, cores})}
    with tempfile.TemporaryDirectory() as folder:
        paths = write_logs(every, folder)
        for _ in range(FILE_ROUNDS):  # interleaved, as the rounds in memory
            for jobs, rows in files.items():
                rows.append(files_rate(paths, jobs))
    out["files"] = {jobs: sorted(rows, key=lambda row: row["events_per_s"])[len(rows) // 2]
                    for jobs, rows in files.items()}
    out["bundle"] = bundle_rate()
    return out


def report(result: dict[str, Any]) -> None:
    print("Audit: finished logs re-verified by referee.audit.audit_log (chain, commitments, salts, the game "
          "re-decided), log events/s, median of 5 rounds")
    print(f"  {'ruleset':<13}{'games':>7}{'events':>9}{'events/s':>11}  target >= {TARGET}")
    files, bundle = result.get("files", {}), result.get("bundle", {})
    for name, row in result.items():
        if name in ("files", "bundle"):
            continue
        met = "" if name != "all" else ("  met" if row["events_per_s"] >= TARGET else "  NOT MET")
        print(f"  {name:<13}{row['games']:>7}{row['events']:>9}{row['events_per_s']:>11.0f}{met}")
    for jobs, row in files.items():
        met = "  met" if row["events_per_s"] >= TARGET else "  NOT MET"
        label = f"files, {jobs} proc"
        print(f"  {label:<13}{row['games']:>7}{row['events']:>9}{row['events_per_s']:>11.0f}{met}"
              f"   (`referee audit LOG... --jobs {jobs}`: read, parsed and audited, median of {FILE_ROUNDS})")
    for jobs, row in bundle.items():
        met = "  met" if row["events_per_s"] >= TARGET else "  NOT MET"
        label = f"arena, {jobs} proc"
        print(f"  {label:<13}{row['games']:>7}{row['events']:>9}{row['events_per_s']:>11.0f}{met}"
              f"   (a bundle of {row['games']} arena games, random and heuristic bots, as files; one round)")


if __name__ == "__main__":
    report(run())
