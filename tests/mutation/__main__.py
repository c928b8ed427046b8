"""``python -m tests.mutation [--jobs N] [--no-signing] [--only FILE] [--limit N]``:
mutation-test the audit and print the score (see ``tests.mutation``)."""
from __future__ import annotations

import argparse
import collections
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tests.mutation import runner
from tests.mutation.equivalent import EQUIVALENT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--no-signing", action="store_true", help="leave out the signing modules "
                        f"({', '.join(runner.SIGNING)})")
    parser.add_argument("--only", action="append", default=[], help="mutate only this file (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="run only the first N mutants (a quick look)")
    parser.add_argument("--report", default="", help="write the outcome of every mutant here (JSON)")
    parser.add_argument("--rerun", default="", help="a --report of an earlier run of the same sources: run "
                        "only the mutants it did not find killed (after tests were added), keep the rest")
    parser.add_argument("--survivors-only", action="store_true", help="with --rerun: run only the mutants the "
                        "earlier runs saw survive; those they never ran are reported as not run (a run cut short)")
    parser.add_argument("--check-equivalent", action="store_true",
                        help="run the mutants listed as equivalent too (a killed one is reported: take it off)")
    parser.add_argument("--min-score", type=float, default=90.0, help="exit 1 below this score (default 90)")
    args = parser.parse_args(argv)
    if "referee" in sys.modules:
        raise SystemExit("tests.mutation must run before anything imports referee")
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="referee-mutation-"))
    files = runner.target_files(signing=not args.no_signing)
    if args.only:
        files = [f for f in files if str(f.relative_to(runner.ROOT)) in args.only]
    tests = [t for t in runner.TESTS if (runner.ROOT / t).exists()]
    print(f"mutation: {len(files)} files mutated, tests {' '.join(tests)}", flush=True)
    base = runner.baseline(files, [str(runner.ROOT / t) for t in tests], work)
    if base["failed"]:
        print(f"mutation: {len(base['failed'])} tests fail without any mutant and are left out:", flush=True)
        for test in base["failed"]:
            print(f"  {test}")
    found, sources, spans = runner.all_mutants(files)
    outcomes = runner.select(found, base, tests, spans)
    if args.limit:
        outcomes = outcomes[:args.limit]
    if args.rerun:
        earlier: dict[str, str] = {}
        for run in args.rerun.split(","):  # several earlier runs: a mutant killed in any of them
            for key, status in _earlier(Path(run)).items():
                if earlier.get(key) not in ("killed", "timeout"):
                    earlier[key] = status
        # matched by the file, the line's code and the change (line numbers move as the file is edited;
        # the same change to the same code twice is reused only if every one of them was killed)
        by_code: dict[tuple[str, str, str], set[str]] = {}
        for key, status in earlier.items():
            path, _, rest = key.partition(":")
            code, _, what = rest.partition(": ")[2].rpartition("  ## ")
            what = what.split(" (#")[0]
            by_code.setdefault((path, code, what), set()).add(status)
        for o in outcomes:
            if o.mutant.stable in EQUIVALENT and not args.check_equivalent:
                continue  # listed: not run, whatever an earlier run found of the same change to the same code
            seen = by_code.get((o.mutant.path, o.mutant.code, o.mutant.what))
            if seen is not None and seen <= {"killed", "timeout"}:
                o.status = "killed"
            elif seen is None and args.survivors_only and o.mutant.stable not in EQUIVALENT:
                o.status = "not run"
        print(f"mutation: {sum(o.status != 'pending' for o in outcomes)} mutants killed in {args.rerun}, "
              "not run again", flush=True)
    listed = [o for o in outcomes if o.mutant.stable in EQUIVALENT and o.status == "pending"]
    if not args.check_equivalent:  # judged equivalent: not run (they survive, at the cost of every test)
        for o in listed:
            o.status = "survived"
    outcomes_run = [o for o in outcomes if o.status == "pending"]
    print(f"mutation: {len(outcomes)} mutants ({len(listed)} listed as equivalent"
          f"{', run too' if args.check_equivalent else ', not run'}), {args.jobs} at a time (baseline "
          f"{sum(base['durations'].values()):.0f} s)", flush=True)

    def progress(outcome: runner.Outcome, done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            print(f"  {done}/{total} run, {time.monotonic() - started:.0f} s", flush=True)
    runner.run_grouped(outcomes_run, sources, work, args.jobs, base["durations"], progress)
    return report(outcomes, args, time.monotonic() - started, work)


def _earlier(path: Path) -> dict[str, str]:
    """``{mutant key: status}`` of an earlier run: its ``--report``, or its folder (the phases' logs,
    of a run cut short)."""
    if path.is_file():
        return {r["key"]: r["status"] for r in json.loads(path.read_text())}
    seen: dict[str, set[str]] = {}
    for log in path.glob("phase-*.log"):
        for line in log.read_text().splitlines():
            parts = line.split(" ", 3)
            if len(parts) == 4 and parts[1] in ("killed", "timeout", "survived", "error"):
                seen.setdefault(parts[3], set()).add(parts[1])
    # a key two mutants shared (an older run's names) is reused only if it was killed every time
    return {key: "killed" if statuses <= {"killed", "timeout"} else "survived" for key, statuses in seen.items()}


def report(outcomes: list[runner.Outcome], args: argparse.Namespace, took: float, work: Path) -> int:
    survivors = [o for o in outcomes if o.status == "survived"]
    errors = [o for o in outcomes if o.status == "error"]
    equivalent = [o for o in survivors if o.mutant.stable in EQUIVALENT]
    live = [o for o in survivors if o.mutant.stable not in EQUIVALENT]
    killed = [o for o in outcomes if o.status in ("killed", "timeout")]
    not_run = [o for o in outcomes if o.status == "not run"]
    stale = [o for o in killed if o.mutant.stable in EQUIVALENT]
    per_file: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for o in outcomes:
        per_file[o.mutant.path]["equivalent" if o in equivalent else o.status] += 1
    print()
    print(f"{'file':36} {'total':>6} {'killed':>6} {'timeout':>7} {'equiv':>6} {'live':>5} {'score':>6}")
    for path, c in sorted(per_file.items()):
        total = sum(c.values())
        dead = c["killed"] + c["timeout"]
        score = 100 * dead / max(1, total - c["equivalent"] - c["not run"])
        print(f"{path:36} {total:6} {c['killed']:6} {c['timeout']:7} {c['equivalent']:6} {c['survived']:5} "
              f"{score:5.1f}%")
    if live:
        print("\nsurvivors (no test notices them; equivalent? then add them, with the reason, to "
              "tests/mutation/equivalent.py):")
        for o in live:
            print(f"  {o.mutant.key}")
    for o in errors:
        print(f"  error (counted as not killed): {o.mutant.key}  (log {o.log})")
    for o in stale:
        print(f"  listed as equivalent, and killed (take it off the list): {o.mutant.key}")
    if not_run:
        print(f"\n{len(not_run)} mutants not run (no earlier run reached them): the score is over the rest")
    denominator = len(outcomes) - len(equivalent) - len(not_run)
    score = 100 * len(killed) / max(1, denominator)
    print(f"\nmutation score: {len(killed)} killed / ({len(outcomes) - len(not_run)} total - {len(equivalent)} "
          "equivalent) = "
          f"{score:.1f}%  ({len(live)} survivors, {len(errors)} errors; {took:.0f} s)")
    if args.report:
        Path(args.report).write_text(json.dumps([{"key": o.mutant.key, "status": o.status,
                                                   "equivalent": o in equivalent, "tests": len(o.tests),
                                                   "seconds": round(o.seconds, 2)} for o in outcomes], indent=1))
    if not live and not errors:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"(the mutants' pytest output: {work})")
    return 0 if score >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
