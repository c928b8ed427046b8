"""Issue 36 (item 5): ``referee audit FILE`` takes memory bounded by the
game's state plus a constant, whatever the file (``referee.audit.stream``).
Before, 64 MB of ``{}`` lines after a header took 3.9 GB, and 255 MB ran out
of memory. Here the hostile files are audited by the command in a process
whose address space is limited to 512 MB (``RLIMIT_AS``), alone and with
``--jobs 2``: each must end with its verdict, no ``MemoryError``. The bound
itself is measured on ``{}`` lines (the most objects a byte): the peak
resident memory of the audit of a file three times longer, both beyond what
the audit keeps parsed (``KEEP_COST``), is the same to less than half of
the difference in size (an audit holding the file's bytes, let alone its
lines parsed, grows by all of it). A chain of 64 MB is walked whole."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from referee.audit import stream
from referee.audit.offline import LoggedTable
from referee.engine import canonical, commitment, link_hash
from referee.games import registry
from tests.forge import recorded_game

pytestmark = pytest.mark.slow

#: the address space the audit runs in (what ``ulimit -v 524288`` gives)
LIMIT = 512 * 2**20
#: the size of the chain walked whole
SIZE = 64 * 2**20
#: the bytes of ``{}`` lines (3 bytes each) the audit keeps parsed at most
KEPT_EMPTY = 3 * stream.KEEP_COST // stream.held_cost(b"{}")
#: the sizes of the two files of ``{}`` lines whose audits' peaks are compared: both past what the audit keeps parsed
SHORT, LONG = 2 * KEPT_EMPTY, 6 * KEPT_EMPTY
CLI = "import sys\nfrom referee.ops.cli import main\nsys.exit(main(sys.argv[1:]))"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


class Audited:
    """A finished ``referee audit``: its exit code, its output and its peak resident memory (bytes), its
    processes' (``--jobs``) the highest, as ``wait4`` reports it."""

    def __init__(self, *args: str) -> None:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([sys.executable, "-c", CLI, "audit", *args], stdout=out, stderr=err,
                                    preexec_fn=_limited)
            deadline = time.monotonic() + 900
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    proc.kill()
                time.sleep(0.05)
            proc.returncode = self.returncode = os.waitstatus_to_exitcode(status)  # Popen's own wait: none left
            out.seek(0)
            err.seek(0)
            self.stdout, self.stderr = out.read().decode(), err.read().decode()
        self.peak = usage.ru_maxrss * 1024  # Linux counts it in KiB

    def clean(self) -> bool:
        return "MemoryError" not in self.stdout + self.stderr and "Traceback" not in self.stderr


def _header() -> tuple[dict[str, object], str]:
    table = LoggedTable(registry.get("bluffaneer"), 3, seed="memory")
    return table.header, table.header_hash


def _empty_objects(folder: Path, size: int) -> Path:
    """A header, then ``{}`` lines to ``size`` bytes (the issue's file, shorter)."""
    header, hashed = _header()
    path = folder / f"empty-objects-{size}.ndjson"
    with open(path, "wb") as out:
        out.write(canonical({"header": header, "hash": hashed}).encode() + b"\n")
        out.write(b"{}\n" * (size // 3))
    return path


@pytest.fixture(scope="module")
def empty_objects(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The files of ``{}`` lines of ``SHORT`` and ``LONG`` bytes."""
    folder = tmp_path_factory.mktemp("hostile")
    return _empty_objects(folder, SHORT), _empty_objects(folder, LONG)


@pytest.fixture(scope="module")
def long_chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A header, then 64 MB of events that chain and open their commits (every line read, every link
    walked) and a log that never reveals its seed: the audit walks it all, then refuses it at its end."""
    header, prev = _header()
    path = tmp_path_factory.mktemp("hostile") / "long-chain.ndjson"
    salt, pad, seq, size = "0" * 64, "x" * 300, 0, 0
    with open(path, "wb") as out:
        out.write(canonical({"header": header, "hash": prev}).encode() + b"\n")
        while size < SIZE:
            seq += 1
            data = {"move": {"pad": pad}, "rng": seq}
            env = {"seq": seq, "type": "move", "actor": 0, "at": seq, "commit": commitment(salt, data), "prev": prev}
            env["hash"] = prev = link_hash(env)
            line = canonical({**env, "data": data, "salt": salt}).encode() + b"\n"
            out.write(line)
            size += len(line)
    return path


@pytest.fixture(scope="module")
def short_audit(empty_objects: tuple[Path, Path]) -> Audited:
    """The audit of the shorter file of ``{}`` lines: its peak is the one the others are held to."""
    return Audited(str(empty_objects[0]))


def test_empty_objects_are_refused_at_their_first_event_in_memory_that_does_not_grow_with_the_file(
        empty_objects: tuple[Path, Path], short_audit: Audited) -> None:
    for path, size in zip(empty_objects, (SHORT, LONG), strict=True):
        assert path.stat().st_size >= size
    long_audit = Audited(str(empty_objects[1]))
    for done in (short_audit, long_audit):
        assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
        assert "FAILED at seq 1 (hash_chain)" in done.stdout and "has no seq" in done.stdout
        assert done.clean()
    grown = long_audit.peak - short_audit.peak
    assert grown < (LONG - SHORT) / 2, f"{LONG - SHORT} bytes more of file took {grown} bytes more"


@pytest.fixture(scope="module")
def chain_audit(long_chain: Path) -> Audited:
    """The audit of the long chain alone."""
    return Audited(str(long_chain))


def test_64_mb_of_a_chain_that_holds_is_walked_whole_in_512_mb(chain_audit: Audited) -> None:
    done = chain_audit
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "(seed_commitment)" in done.stdout and "the log ends before the seed is revealed" in done.stdout
    assert "ok    hash_chain" in done.stdout  # every link of the 64 MB was checked, none held in memory at once
    assert done.clean()


def test_both_hostile_files_in_two_processes_in_512_mb_each(empty_objects: tuple[Path, Path], long_chain: Path,
                                                            short_audit: Audited, chain_audit: Audited) -> None:
    """Each process as bounded as one audit alone (the shorter file of ``{}`` lines, the chain): none grows
    with the longer file of ``{}`` lines."""
    empty = empty_objects[1]
    done = Audited(str(empty), str(long_chain), "--jobs", "2")
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    out = done.stdout.splitlines()
    assert out[0].startswith(f"FAIL  {empty}: at seq 1 (hash_chain)"), out
    assert out[1].startswith(f"FAIL  {long_chain}: at seq ") and "(seed_commitment)" in out[1], out
    assert out[2].startswith("audit: 0/2 logs clean")
    assert done.clean()
    grown = done.peak - max(short_audit.peak, chain_audit.peak)
    assert grown < (LONG - SHORT) / 2, f"{LONG - SHORT} bytes more of file took {grown} bytes more in a job"


# -- the passes (in this process) --------------------------------------------------------------
def _small_log(tmp_path: Path) -> tuple[Path, list[bytes]]:
    table = recorded_game("bluffaneer", 3, seed="passes")
    rows = [canonical({"header": table.header, "hash": table.header_hash}).encode()]
    rows += [canonical(env).encode() for env in table.envelopes]
    path = tmp_path / "log.ndjson"
    path.write_bytes(b"\r\n".join(rows) + b"\r\n")
    return path, rows


def test_two_walks_of_one_file_at_once_each_read_every_line(tmp_path: Path) -> None:
    """A check may look ahead of its own walk (``_check_chain`` naming an altered hash): each walk keeps its place."""
    path, rows = _small_log(tmp_path)
    with open(path, "rb") as log:
        lines = stream.file_lines(log)
        first, second = lines(), lines()
        got = [next(first) for _ in range(3)]
        got_second = [next(second) for _ in range(2)]
        got += list(first)
    assert [line for _, line in got] == rows and [n for n, _ in got] == list(range(1, len(rows) + 1))
    assert [line for _, line in got_second] == rows[:2]


def test_the_events_read_again_are_the_events_in_any_order(tmp_path: Path) -> None:
    path, rows = _small_log(tmp_path)
    events = [json.loads(row) for row in rows[1:]]
    with open(path, "rb") as log:
        header, _, count, last, kept, written = stream.scan(stream.file_lines(log), keep_cost=0)
        assert kept is None and written is None
        assert count == len(events) and last == events[-1] and header["id"] == "offline"
        streamed = stream.Streamed(stream.file_lines(log), count, last)
        order = [0, 1, 2, 2, 1, 5, 3, count - 1, -1, -count, 7, 0, count - 2]
        assert [streamed[i] for i in order] == [events[i] for i in order]
        assert list(streamed) == events and streamed[2:5] == events[2:5] and len(streamed) == count
        for outside in (count, -count - 1):
            with pytest.raises(IndexError):
                streamed[outside]


def test_a_line_longer_than_the_limit_is_refused_by_its_number(tmp_path: Path) -> None:
    path, rows = _small_log(tmp_path)
    limit = max(len(row) for row in rows) + 2  # every line with its \r\n
    with open(path, "rb") as log:
        assert stream.audit_stream(log, max_line=limit)["ok"]
        report = stream.audit_stream(log, max_line=limit - 1)
    longest = max(range(len(rows)), key=lambda i: len(rows[i]))
    assert not report["ok"] and report["divergence"]["check"] == "format"
    assert report["checks"][-1]["detail"] == f"line {longest + 1} is refused: it is longer than {limit - 1} bytes"
