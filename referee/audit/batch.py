"""Many exported logs audited at once, in several processes (``referee audit
LOG LOG … --jobs N``): a tournament's logs, a day's games.

Each log is still audited whole and alone (``referee.audit.stream``: read
from its file in passes, never held whole) — one game's chain and
re-decision are sequential — but different logs share nothing, so a pool of
processes audits as many at a time as it has workers. Each worker reads its
file itself, so only the report crosses between processes."""
from __future__ import annotations

import codecs
import os
import signal
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import IO, Any

from referee.audit import CollectorPaused, Diverged
from referee.audit.stream import audit_stream
from referee.engine.protocol import Json
from referee.engine.signature import PublicKeys
from referee.games import registry

#: the largest log file read (a real game's log: well under 10 MiB); a larger one is refused unread
MAX_LOG_BYTES = 256 * 2**20


class Unreadable(Exception):
    """A file that cannot be read as a log at all: missing, a directory, too large, not UTF-8."""


def read_log(path: str, max_bytes: int = MAX_LOG_BYTES) -> bytes:
    """The bytes of the log at ``path`` (``-``: standard input), checked to be
    UTF-8 and at most ``max_bytes`` long (``open_log``); ``Unreadable`` saying
    why not. (``referee replay`` folds a log from its bytes.)"""
    with open_log(path, max_bytes) as log:
        log.seek(0)
        return log.read()


#: the bytes read at a time where a file is copied or checked whole
_BLOCK = 2**20


def open_log(path: str, max_bytes: int = MAX_LOG_BYTES) -> IO[bytes]:
    """The log at ``path`` (``-``: standard input) open for reading in
    passes (``referee.audit.stream``), checked as ``read_log`` checks it but
    never held whole: a regular file as it is, anything else (a pipe, the
    standard input) copied to a temporary file first; ``Unreadable`` saying
    why not. The caller closes it."""
    try:
        if path == "-":
            log = _spooled(sys.stdin.buffer, max_bytes)
        else:
            log = open(path, "rb")  # noqa: SIM115 (the caller's to close)
            info = os.fstat(log.fileno())
            if not stat.S_ISREG(info.st_mode):
                with log:
                    log = _spooled(log, max_bytes)
            elif info.st_size > max_bytes:
                log.close()
                raise Unreadable(f"it is {info.st_size} bytes, more than the {max_bytes} a log may have")
    except IsADirectoryError:  # open() says so before anything is read
        raise Unreadable("it is a directory, not a log file") from None
    except OSError as err:
        raise Unreadable(err.strerror or type(err).__name__) from None
    try:
        _check_text(log, max_bytes)
    except BaseException:
        log.close()
        raise
    return log


def _spooled(source: IO[bytes], max_bytes: int) -> IO[bytes]:
    """A temporary file holding what ``source`` gives, at most ``max_bytes``."""
    spool = tempfile.TemporaryFile()  # noqa: SIM115 (the caller's to close)
    size = 0
    while block := source.read(_BLOCK):
        size += len(block)
        if size > max_bytes:
            spool.close()
            raise Unreadable(f"it is more than the {max_bytes} bytes a log may have")
        spool.write(block)
    return spool


def _check_text(log: IO[bytes], max_bytes: int) -> None:
    """``Unreadable`` unless the file is UTF-8 (and not UTF-16) and at most ``max_bytes``, read a block at a time."""
    log.seek(0)
    decoder = codecs.getincrementaldecoder("utf-8")()
    size = lines = 0
    while True:
        block = log.read(_BLOCK)
        if size == 0 and block.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise Unreadable("it is UTF-16 (a log is UTF-8)")
        size += len(block)
        if size > max_bytes:
            raise Unreadable(f"it is more than the {max_bytes} bytes a log may have")
        try:
            decoder.decode(block, final=not block)
        except UnicodeDecodeError as err:  # err.object: the bytes held back from the block before, then this one
            line = lines + err.object.count(b"\n", 0, err.start) + 1
            raise Unreadable(f"it is not UTF-8 (byte 0x{err.object[err.start]:02x} on line {line})") from None
        if not block:
            return
        lines += block.count(b"\n")


def unreadable(why: str) -> Json:
    """The report of a file that could not be read (a failed audit)."""
    return Diverged("format", 0, "log", "a readable UTF-8 file", why, f"the log cannot be read: {why}").report([], 0)


def audit_file(path: str, max_bytes: int = MAX_LOG_BYTES, jwks: Json | None = None,
               receipts: Sequence[tuple[str, Any]] = (), *, own_process: bool = False) -> Json:
    """The audit of one NDJSON log file (``-``: standard input), its final
    head's signature checked under ``jwks`` (the referee's key set, as ``GET
    /v1/keys`` serves it; ``None``: not checked) along with ``receipts``. A
    file that cannot be read is a failed audit, not a crash; so is anything
    the audit did not foresee (named as such, a failed ``replay`` at seq 0).
    ``own_process``: the caller owns the process (``referee audit``, a
    batch's worker), whose garbage collector is paused meanwhile
    (``referee.audit.CollectorPaused``)."""
    with CollectorPaused(own_process):
        return _audited(path, max_bytes, jwks, receipts)


def _audited(path: str, max_bytes: int, jwks: Json | None, receipts: Sequence[tuple[str, Any]]) -> Json:
    """``audit_file``'s audit, the collector as the caller left it."""
    try:
        log = open_log(path, max_bytes)
    except Unreadable as err:
        return unreadable(str(err))
    try:
        with log:
            return audit_stream(log, keys=PublicKeys.from_jwks(jwks) if jwks is not None else None,
                                receipts=receipts)
    except Exception as err:  # a defect of the audit: the log is not shown to hold
        return Diverged("replay", 0, "log", "a log the audit can check", repr(err)[:200],
                        f"the audit stopped on {err!r:.200}").report([], 0)


def default_jobs(logs: int) -> int:
    """One process per core, never more than there are logs."""
    return max(1, min(logs, os.cpu_count() or 1))


def audit_files(paths: Sequence[str], jobs: int | None = None, max_bytes: int = MAX_LOG_BYTES,
                jwks: Json | None = None) -> Iterator[tuple[str, Json]]:
    """``(path, report)`` for every log, in the order given, audited in
    ``jobs`` processes (default: one per core; 1: in this process), the
    largest files started first. Whatever a file holds, every log gets its
    report: a worker process that dies (the pool broken) costs a retry of
    each log it left unreported, alone in a process of its own. ``jwks``
    as for ``audit_file`` (a key set crosses to the workers as JSON)."""
    jobs = default_jobs(len(paths)) if jobs is None else max(1, jobs)
    if jobs == 1 or len(paths) <= 1:
        for path in paths:
            yield path, audit_file(path, max_bytes, jwks, own_process=True)
        return
    _load_rules()
    with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_started) as pool:
        # the longest logs first (by size): the pool then ends with short ones, its workers finishing together
        futures = {path: pool.submit(audit_file, path, max_bytes, jwks, own_process=True)
                   for path in sorted(set(paths), key=_size, reverse=True)}
        for path in paths:
            try:
                report = futures[path].result()
            except BrokenProcessPool:
                report = _alone(path, max_bytes, jwks)
            except Exception as err:  # the report could not cross back (it should always)
                report = unreadable(f"its audit failed: {err!r:.200}")
            yield path, report


def _worker_started() -> None:
    """A pool's worker dies by SIGTERM, whatever handler the auditing process
    had: a broken pool terminates its workers because their queues' locks may
    be dirty (CPython's ``ProcessPoolExecutor``), and one that ran an
    inherited handler instead would go on waiting, and the audit with it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _load_rules() -> None:
    """Every installed ruleset and heuristic bot loaded here, before the pool's
    workers start: forked, they find them loaded, where each would otherwise
    import them all at its first log (a quarter of a second each, the whole
    audit of a small bundle)."""
    for name in registry.names():
        try:
            registry.get(name)
            registry.heuristic(name)
        except Exception:  # a ruleset that fails to load: the audit of each of its logs says so
            continue


def _alone(path: str, max_bytes: int, jwks: Json | None) -> Json:
    """``audit_file(path)`` in a process of its own (the pool's broke under one of the logs)."""
    with ProcessPoolExecutor(max_workers=1, initializer=_worker_started) as pool:
        try:
            return pool.submit(audit_file, path, max_bytes, jwks, own_process=True).result()
        except Exception as err:  # BrokenProcessPool: this log's audit kills its process
            return unreadable(f"its audit's process died ({type(err).__name__})")


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:  # unreadable: its audit says so, at once
        return 0
