"""Many exported logs audited at once, in several processes (``referee audit
LOG LOG … --jobs N``): a tournament's logs, a day's games.

Each log is still audited whole and alone by ``audit_lines`` — one game's
chain and re-decision are sequential — but different logs share nothing, so
a pool of processes audits as many at a time as it has workers. Each worker
reads its file itself, so only the report crosses between processes."""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator, Sequence

from referee.audit import Diverged, audit_lines
from referee.engine.protocol import Json


def audit_file(path: str) -> Json:
    """The audit of one NDJSON log file (a file that cannot be read is a failed audit, not a crash)."""
    try:
        with open(path, "rb") as log:
            raw = log.read()
        raw.decode("utf-8")  # a file that is not UTF-8 cannot be read, as a text file opened so
        return audit_lines(raw)
    except (OSError, UnicodeDecodeError) as err:
        return Diverged("format", 0, "log", "a readable UTF-8 file", type(err).__name__,
                        f"the log cannot be read: {err}").report([], 0)


def default_jobs(logs: int) -> int:
    """One process per core, never more than there are logs."""
    return max(1, min(logs, os.cpu_count() or 1))


def audit_files(paths: Sequence[str], jobs: int | None = None) -> Iterator[tuple[str, Json]]:
    """``(path, report)`` for every log, in the order given, audited in
    ``jobs`` processes (default: one per core; 1: in this process), the
    largest files started first."""
    jobs = default_jobs(len(paths)) if jobs is None else max(1, jobs)
    if jobs == 1 or len(paths) <= 1:
        for path in paths:
            yield path, audit_file(path)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # the longest logs first (by size): the pool then ends with short ones, its workers finishing together
        futures = {path: pool.submit(audit_file, path) for path in sorted(set(paths), key=_size, reverse=True)}
        for path in paths:
            yield path, futures[path].result()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:  # unreadable: its audit says so, at once
        return 0
