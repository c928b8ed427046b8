"""`make bench`: every benchmark, each reporting ratios measured in one run.

    python -m bench                 http (and steps), rules, bots, tournaments, pool, streams, audit, scale,
                                    archive (2,000 games)
    python -m bench http|steps|rules|bots|streams [STREAMS]
    python -m bench tournaments [G] tournaments over the platform (1 and 2 workers, webhook bots)
                                    next to the same G games in one process (default G = 10)
    python -m bench pool [G] [ROW ...]   built-in bots through a ladder's pool, 2 workers, G games a
                                    row, next to the same games in one process (default G = 40); ROW:
                                    only the rows of a ruleset, a bot or both (bluffaneer:random)
    python -m bench soak [GAMES] [RULESET ...] [--jobs N]   (N processes, default os.cpu_count())
    python -m bench audit           the audit's re-decide rate (in the default run too)
    python -m bench scale           moves/s and views/s through haproxy, 1 and 2 referees, standalone
                                    vs cluster, and the cost of waiting for a replica (needs haproxy)
    python -m bench fresh [MOVES]   stale views after an acknowledged move (issue 36 item 7), two referees
                                    on one Redis and on a cluster (with haproxy); not in the default run
    python -m bench archive [G]     G bot games archived, Redis's memory before, halfway and after
                                    (issue 41; default G = 10,000; the default run plays 2,000)
    python -m bench instructions [RULESET ...] [--jobs N]   instructions per action, the rules alone
                                    and every view encoded (needs valgrind; not in the default run)
"""
from __future__ import annotations

import sys
import time


def jobs_flag(argv: list[str]) -> tuple[list[str], int | None]:
    """``argv`` without ``--jobs N`` / ``--jobs=N``, and N (None if absent)."""
    rest: list[str] = []
    jobs: int | None = None
    args = iter(argv)
    for arg in args:
        if arg == "--jobs" or arg.startswith("--jobs="):
            value = arg.partition("=")[2] if "=" in arg else next(args, "")
            if not value.isdigit() or int(value) < 1:
                print(f"bench: --jobs needs a whole number of processes >= 1, not {value!r}", file=sys.stderr)
                raise SystemExit(2)
            jobs = int(value)
        else:
            rest.append(arg)
    return rest, jobs


def main(argv: list[str]) -> int:
    argv, jobs = jobs_flag(argv)
    default = not [a for a in argv if not a.isdigit()]
    which = [a for a in argv if not a.isdigit()] or ["http", "rules", "bots", "tournaments", "pool",
                                                       "streams", "audit", "scale", "archive"]
    numbers = [int(a) for a in argv if a.isdigit()]
    failed = False
    if "http" in which:
        from bench import http_bench
        http_bench.report_readers(http_bench.run_readers())
        http_bench.report(http_bench.run())
    if "steps" in which or "http" in which:
        from bench import http_steps
        http_steps.report(http_steps.run())
    if "rules" in which:
        from bench import rules_bench
        rules_bench.report(rules_bench.run())
    if "bots" in which:
        from bench import bots_bench
        bots_bench.report(bots_bench.run())
    if "tournaments" in which:
        from bench import tournament_bench
        tournament_bench.report(tournament_bench.run(numbers[0] if numbers and "soak" not in which
                                                     else tournament_bench.DEFAULT_GAMES))
    if "pool" in which:
        from bench import pool_bench
        pool_bench.report(pool_bench.run(numbers[0] if numbers and "soak" not in which
                                         else pool_bench.DEFAULT_GAMES, pool_bench.rows_named(which)))
    if "streams" in which:
        from bench import streams_bench
        streams_bench.report(streams_bench.run(numbers[0] if numbers and "soak" not in which else 1000))
    if "fresh" in which:
        from bench import fresh_reads
        tallies = fresh_reads.run(numbers[0] if numbers else 250)
        fresh_reads.report(tallies)
        failed = failed or any(t.stale for t in tallies.values())
    if "archive" in which:
        from bench import archive_bench
        games = numbers[0] if numbers else archive_bench.DEFAULT_RUN_GAMES if default else archive_bench.DEFAULT_GAMES
        archive_bench.report(archive_bench.run(games))
    if "audit" in which:
        from bench import audit_bench
        audit_bench.report(audit_bench.run())
    if "scale" in which:
        from bench import scale_bench
        scale_bench.report(scale_bench.run())
    if "instructions" in which:
        from bench import instructions
        from referee.games import registry
        instructions.report(instructions.run([a for a in which if a in registry.names()] or None, jobs))
    if "soak" in which:
        from bench import soak
        from referee.games import registry
        jobs = jobs or soak.default_jobs()
        started = time.perf_counter()
        result = soak.run(numbers[0] if numbers else 1000, [a for a in which if a in registry.names()], jobs,
                          progress=lambda line: print(line, file=sys.stderr, flush=True))
        soak.report(result, wall=time.perf_counter() - started, jobs=jobs)
        failed = any(row["broken"] for rows in result.values() for row in rows.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
