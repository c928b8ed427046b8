"""Logs audited many at a time (issue 22, item 8: tests that would notice;
``referee.audit.batch``): where each audit runs (this process for one job or
one log, a pool's workers otherwise), how many workers by default, what a
failed audit of a defect or a report that cannot cross back reports, and the
line a bad byte is named on."""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from referee.audit import batch


def _where(path: str, max_bytes: int, jwks: Any, *, own_process: bool) -> dict[str, Any]:
    """A stand-in for ``audit_file``: the process it ran in (a module's function: a pool's worker can run it);
    the batch owns that process either way (its collector paused while a log is audited)."""
    assert own_process
    return {"path": path, "pid": os.getpid()}


@pytest.fixture
def logs(tmp_path: Path) -> list[str]:
    paths = []
    for name, size in (("a", 3), ("b", 30), ("c", 10)):
        (tmp_path / name).write_bytes(b"x" * size)
        paths.append(str(tmp_path / name))
    return paths


def test_one_job_or_one_log_is_audited_in_this_process_more_in_a_pool(logs: list[str], monkeypatch: Any) -> None:
    monkeypatch.setattr(batch, "audit_file", _where)
    here = os.getpid()
    for paths, jobs in ((logs, 1), (logs, 0), (logs, -3), (logs[:1], 4), (logs[:1], None), (logs[:1], 1)):
        reports = list(batch.audit_files(paths, jobs))
        assert [p for p, _ in reports] == paths and all(r["path"] == p for p, r in reports)
        assert {r["pid"] for _, r in reports} == {here}, (paths, jobs)
    for paths, jobs in ((logs, 2), (logs[:2], 2), (logs, 3), ([*logs, logs[0]], 2)):
        reports = list(batch.audit_files(paths, jobs))
        assert [p for p, _ in reports] == paths and all(r["path"] == p for p, r in reports)
        assert here not in {r["pid"] for _, r in reports}, (paths, jobs)


def _unpicklable(path: str, max_bytes: int, jwks: Any, *, own_process: bool) -> Any:
    return lambda: path  # a report that cannot cross back from a worker


def test_a_report_that_cannot_cross_back_is_a_failed_audit(logs: list[str], monkeypatch: Any) -> None:
    monkeypatch.setattr(batch, "audit_file", _unpicklable)
    reports = list(batch.audit_files(logs[:2], 2))
    assert [p for p, _ in reports] == logs[:2]
    for _, report in reports:
        assert not report["ok"] and report["divergence"]["check"] == "format"
        assert report["divergence"]["found"].startswith("its audit failed: ")


def test_one_worker_a_core_never_more_than_the_logs(monkeypatch: Any) -> None:
    cores = os.cpu_count() or 1
    assert batch.default_jobs(10**6) == cores and batch.default_jobs(1) == 1 and batch.default_jobs(0) == 1
    assert batch.default_jobs(2) == min(2, cores)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert batch.default_jobs(10**6) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 7)
    assert batch.default_jobs(10**6) == 7 and batch.default_jobs(5) == 5


def test_an_audit_that_stops_on_a_defect_names_it_at_seq_0(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "log.ndjson"
    path.write_text("{}\n")
    err = RuntimeError("x" * 300)

    def broken(log: Any, **kw: Any) -> Any:
        raise err
    monkeypatch.setattr(batch, "audit_stream", broken)
    report = batch.audit_file(str(path))
    assert not report["ok"] and report["events"] == 0 and report["result"] is None
    assert report["divergence"] == {"check": "replay", "seq": 0, "field": "log",
                                    "expected": "a log the audit can check", "found": repr(err)[:200]}
    assert len(report["divergence"]["found"]) == 200
    assert report["checks"] == [{"name": "replay", "ok": False, "detail": f"the audit stopped on {err!r:.200}"}]


def test_a_bad_byte_is_named_on_its_line(tmp_path: Path) -> None:
    for raw, line in ((b"\n\xff", 2), (b"\xff\n", 1), (b"\n\n{}\n\xe9", 4), (b"{}\xe9\n", 1)):
        path = tmp_path / "bad.ndjson"
        path.write_bytes(raw)
        with pytest.raises(batch.Unreadable, match=f"on line {line}\\)"):
            batch.read_log(str(path))


def test_a_stream_longer_than_the_limit_is_refused(tmp_path: Path) -> None:
    """A file whose size is not known before it is read (a pipe) is read one byte past the limit."""
    for size, refused in ((11, True), (10, False), (12, True)):
        fifo = tmp_path / f"pipe-{size}"
        os.mkfifo(fifo)

        def write(fifo: Path = fifo, size: int = size) -> None:
            with open(fifo, "wb") as out:
                out.write(b"x" * size)
        writer = threading.Thread(target=write)
        writer.start()
        try:
            if refused:
                with pytest.raises(batch.Unreadable, match="more than the 10 bytes"):
                    batch.read_log(str(fifo), 10)
            else:
                assert batch.read_log(str(fifo), 10) == b"x" * 10
        finally:
            writer.join(5)


def test_an_audit_in_a_process_of_its_own_pauses_the_collector_and_only_then(tmp_path: Path,
                                                                            monkeypatch: Any) -> None:
    import gc
    seen: list[bool] = []

    def stream(log: Any, **_: Any) -> dict[str, Any]:
        seen.append(gc.isenabled())
        return {"ok": True}

    monkeypatch.setattr(batch, "audit_stream", stream)
    (tmp_path / "log").write_bytes(b"{}\n")
    assert gc.isenabled()
    batch.audit_file(str(tmp_path / "log"), own_process=True)
    assert gc.isenabled()  # given back as it was
    batch.audit_file(str(tmp_path / "log"))
    list(batch.audit_files([str(tmp_path / "log")], 1))
    assert seen == [False, True, False]
    gc.disable()
    try:  # a collector the caller paused stays paused
        batch.audit_file(str(tmp_path / "log"), own_process=True)
        assert not gc.isenabled()
    finally:
        gc.enable()
