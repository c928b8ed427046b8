"""``referee worker`` and its RQ scheduler as real processes (issue 8, Found
11): after ``kill -9`` of the worker its scheduler used to live on as a
child (ppid 1), holding the scheduler lock for ever. Now the scheduler is a
thread of the worker: nothing outlives a killed worker, a stopped worker
releases the lock, and a new worker takes scheduling over."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest
import redis
import requests
from rq import Queue
from rq.job import JobStatus
from rq.scheduler import RQScheduler

from referee.service.scheduling import QUEUE
from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE
from tests.processes import own_redis

pytestmark = pytest.mark.e2e
LOCK = RQScheduler.get_locking_key(QUEUE)
T = TypeVar("T")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    port, proc = own_redis()
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def r(redis_url: str) -> redis.Redis:
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    return client


@pytest.fixture
def workers(redis_url: str) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """Start ``referee worker`` processes; whatever is left is killed at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def launch() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([REFEREE, "worker"], env={**os.environ, "REDIS_URL": redis_url})
        started.append(proc)
        return proc
    yield launch
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def wait_for(what: str, probe: Callable[[], T | None], timeout_s: float = 30.0) -> T:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout_s:.0f} s")


def lock_owner(client: redis.Redis) -> str | None:
    raw = client.get(LOCK)
    return raw.decode() if isinstance(raw, bytes) else None


def scheduler_pid(client: redis.Redis, name: str) -> int:
    return RQScheduler.fetch(name, client).pid


def children_of(pid: int) -> set[int]:
    """Pids whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def descendants(pid: int) -> set[int]:
    found = children_of(pid)
    for child in list(found):
        found |= descendants(child)
    return found


def running(pid: int) -> bool:
    """A live (not zombie) process ``pid``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_after_kill_9_of_the_worker_no_scheduler_lives_on_and_a_new_worker_schedules(
        r: redis.Redis, workers: Callable[[], subprocess.Popen[bytes]]) -> None:
    # regression: the forked scheduler child survived with ppid 1, refreshing the lock for ever
    first = workers()
    owner = wait_for("the worker's scheduler holds the lock", lambda: lock_owner(r))
    assert scheduler_pid(r, owner) == first.pid, "the scheduler runs inside the worker, not in a child"
    family = children_of(first.pid) | {scheduler_pid(r, owner)}

    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    assert [pid for pid in family if running(pid)] == []
    ttl = int(cast(Any, r.pttl(LOCK)))
    assert ttl <= 61_000, "the lock expires (RQ: interval + 60 s)"
    time.sleep(2.5)
    assert int(cast(Any, r.pttl(LOCK))) <= ttl - 2000, "nothing refreshes the dead worker's lock"

    # a job due now waits in the scheduled registry: nobody schedules
    job = Queue(QUEUE, connection=r).enqueue_at(datetime.now(UTC) - timedelta(seconds=1), "os.getpid",
                                                result_ttl=600)
    assert job.get_status(refresh=True) == JobStatus.SCHEDULED

    second = workers()
    new_owner = wait_for("a new worker takes the dead worker's lock over",
                         lambda: (lambda o: o if o not in (None, owner) else None)(lock_owner(r)))
    assert scheduler_pid(r, new_owner) == second.pid
    wait_for("the scheduled job runs", lambda: job.get_status(refresh=True) == JobStatus.FINISHED)
    assert job.return_value() == second.pid


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_worker_ends_its_scheduler_and_releases_the_lock(
        r: redis.Redis, workers: Callable[[], subprocess.Popen[bytes]], signum: int) -> None:
    worker = workers()
    owner = wait_for("the worker's scheduler holds the lock", lambda: lock_owner(r))
    family = children_of(worker.pid) | {scheduler_pid(r, owner)}
    worker.send_signal(signum)
    assert worker.wait(timeout=30) == 0
    assert [pid for pid in family if running(pid)] == []
    assert r.get(LOCK) is None, "released at once, not left to expire"
    assert not r.exists(f"rq:scheduler:{owner}")



def test_a_worker_stopped_at_any_moment_of_its_start_leaves_no_lock_behind(
        r: redis.Redis, workers: Callable[[], subprocess.Popen[bytes]]) -> None:
    # regression (of this fix): a SIGTERM before RQ installed its handlers killed the
    # worker outright, leaving the lock its scheduler thread had just taken
    for moment in ("at once", "0.5 s", "1 s", "the lock taken", "the lock taken", "the lock taken"):
        worker = workers()
        if moment == "the lock taken":  # the scheduler thread may take it before RQ's handlers are in
            deadline = time.monotonic() + 30
            while r.get(LOCK) is None and time.monotonic() < deadline:
                pass
        elif moment != "at once":
            time.sleep(float(moment.split()[0]))
        family = descendants(worker.pid)
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
        assert [pid for pid in family if running(pid)] == []
        assert r.get(LOCK) is None, f"a lock left behind after a SIGTERM {moment}"

# -- nothing outlives `referee run` either -----------------------------------------
def test_redis_started_by_a_process_ends_when_that_process_is_killed() -> None:
    # regression: the throwaway Redis of a killed test run or `referee run` lived on with ppid 1
    parent = subprocess.Popen([sys.executable, "-c",
                               "import time\nfrom referee.store.redis_server import free_port, start\n"
                               "print(start(free_port()).pid, flush=True)\ntime.sleep(600)"],
                              stdout=subprocess.PIPE)
    assert parent.stdout is not None
    server = int(parent.stdout.readline())
    assert running(server)
    parent.kill()
    parent.wait(timeout=10)
    wait_for("the Redis server ends with its parent", lambda: not running(server))


def test_every_child_of_referee_run_ends_when_it_is_killed(tmp_path: Path) -> None:
    redis_port, api_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    run = subprocess.Popen([REFEREE, "run", "--port", str(api_port), "--redis-port", str(redis_port),
                            "--dir", str(tmp_path / "aof"), "--workers", "1"], env=env)
    try:
        api = f"http://127.0.0.1:{api_port}/health"
        wait_for("the API answers", lambda: _healthy(api))
        family = descendants(run.pid)
        assert len(family) >= 4, family  # redis, worker, gunicorn and its worker
    finally:
        run.kill()
        run.wait(timeout=10)
    wait_for("every child of `referee run` ends", lambda: not [pid for pid in family if running(pid)])


def _healthy(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
