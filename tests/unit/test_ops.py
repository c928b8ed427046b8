"""Operations: which Python ``make`` picks, and the AOF fsync policy of
``referee redis`` (issue 8, Found 11 / Deliver 6)."""
from __future__ import annotations

import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
import redis

from referee.service.scheduling import QUEUE
from referee.store import redis_server
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")
needs_make = pytest.mark.skipif(MAKE is None, reason="no make on this machine")


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def shim(bin_dir: Path, name: str) -> Path:
    """A ``name`` on PATH that is really this test's (>= 3.11) interpreter."""
    return _script(bin_dir / name, f'exec "{sys.executable}" "$@"')


def old_python(bin_dir: Path, name: str) -> Path:
    """A ``name`` that runs code like Python 3.10 would report itself."""
    return _script(bin_dir / name, f"""\
if [ "$1" = "--version" ]; then echo "Python 3.10.13"; exit 0; fi
[ "$1" = "-c" ] || exit 2
exec "{sys.executable}" -c "import sys; sys.version_info = (3, 10, 13, 'final', 0); exec(sys.argv[1])" "$2\"""")


def broken(bin_dir: Path, name: str) -> Path:
    """What a pyenv shim for a version that is not installed does."""
    return _script(bin_dir / name, f'echo "pyenv: {name}: command not found" >&2; exit 127')


def make(tmp_path: Path, bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``make ARGS`` on a copy of the Makefile with nothing but ``bin_dir`` on PATH."""
    work = tmp_path / "checkout"
    work.mkdir(exist_ok=True)
    for name in ("Makefile", "pyproject.toml", "clients/js/package.json", "clients/js/package-lock.json",
                 "tests/browser/package.json", "tests/browser/package-lock.json"):
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, work / name)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    assert MAKE is not None
    return subprocess.run([MAKE, "--no-print-directory", *args], cwd=work, env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    path = tmp_path / "bin"
    path.mkdir()
    return path


@needs_make
def test_make_takes_python3_12_when_it_is_the_only_python(tmp_path: Path, bin_dir: Path) -> None:
    # regression: the Makefile insisted on python3.11, so a machine with only 3.12 could not run it
    chosen = shim(bin_dir, "python3.12")
    done = make(tmp_path, bin_dir, "python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(chosen)
    plan = make(tmp_path, bin_dir, "-n", "install")
    assert plan.returncode == 0, plan.stderr
    assert f'"{chosen}" -m venv .venv' in plan.stdout


@needs_make
def test_make_prefers_the_newest_python_that_runs(tmp_path: Path, bin_dir: Path) -> None:
    broken(bin_dir, "python3.13")  # a pyenv shim whose version is not installed
    shim(bin_dir, "python3.11")
    shim(bin_dir, "python3")
    done = make(tmp_path, bin_dir, "python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(bin_dir / "python3.11")
    shim(bin_dir, "python3.12")
    assert make(tmp_path, bin_dir, "python").stdout.splitlines()[0] == str(bin_dir / "python3.12")


@needs_make
def test_make_refuses_a_python_older_than_3_11_with_a_clear_message(tmp_path: Path, bin_dir: Path) -> None:
    old_python(bin_dir, "python3")
    broken(bin_dir, "python3.13")
    for target in ("python", "install"):
        done = make(tmp_path, bin_dir, target)
        assert done.returncode != 0
        assert "need Python >= 3.11" in done.stderr
        assert "PY=" in done.stderr
    assert not (tmp_path / "checkout" / ".venv").exists()


@needs_make
def test_make_py_overrides_the_choice_and_is_checked_too(tmp_path: Path, bin_dir: Path) -> None:
    shim(bin_dir, "python3.12")
    mine = shim(bin_dir, "my-python")
    done = make(tmp_path, bin_dir, "python", f"PY={mine}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(mine)
    old = old_python(bin_dir, "python3.10")
    refused = make(tmp_path, bin_dir, "python", f"PY={old}")
    assert refused.returncode != 0
    assert f"PY={old} is not a Python >= 3.11" in refused.stderr


def _pytest_line(plan: str) -> str:
    """The one pytest command of a ``make -n`` plan."""
    lines = [line for line in plan.splitlines() if " -m pytest " in line]
    assert len(lines) == 1, plan
    return lines[0]


@needs_make
def test_make_test_runs_on_every_core_and_leaves_the_lint_checks_to_make_lint(tmp_path: Path,
                                                                           bin_dir: Path) -> None:
    shim(bin_dir, "python3.12")
    lanes = {target: make(tmp_path, bin_dir, "-n", target) for target in ("test", "check", "lint")}
    assert all(done.returncode == 0 for done in lanes.values()), {t: d.stderr for t, d in lanes.items()}
    test, check, lint = (_pytest_line(lanes[t].stdout) for t in ("test", "check", "lint"))
    workers = re.search(r"-n (\d+) --dist loadfile", test)  # two worker processes a core (nproc's)
    assert workers and int(workers[1]) >= 2 and int(workers[1]) % 2 == 0, test
    assert '-m "not lint"' in test  # the lint checks once, in make lint
    assert "-n auto" in check and "-n auto" in lint  # all CPU: one a core
    assert "-m lint" in lint
    assert '-m "not lint and not slow and not random_play and not fingerprints"' in check
    assert "tests/rules tests/unit tests/bots" in check


# -- the AOF fsync policy -------------------------------------------------------
REFEREE = str(Path(sys.executable).parent / "referee")


def _config(port: int, proc: subprocess.Popen[bytes], name: str) -> str:
    """``CONFIG GET name`` of the server on ``port`` once it answers."""
    client = redis.Redis(port=port, socket_timeout=5)
    for _ in range(600):
        assert proc.poll() is None, f"{proc.args!r} exited with {proc.returncode}"
        try:
            return str(cast(Any, client.config_get(name))[name])
        except redis.exceptions.ConnectionError:
            time.sleep(0.05)
    raise AssertionError("the server did not answer within 30 s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    stop(proc)


@pytest.mark.parametrize(("flag", "env_value", "expected"), [
    (None, None, "everysec"),          # the documented default
    ("always", None, "always"),
    ("no", None, "no"),
    (None, "always", "always"),        # REFEREE_REDIS_FSYNC
    ("everysec", "always", "everysec"),  # the flag wins over the environment
])
def test_referee_redis_runs_with_the_chosen_fsync_policy(tmp_path: Path, flag: str | None, env_value: str | None,
                                                          expected: str) -> None:
    # regression: the AOF fsync policy was fixed at everysec
    port = redis_server.free_port()
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_REDIS_FSYNC"}
    if env_value is not None:
        env["REFEREE_REDIS_FSYNC"] = env_value
    argv = [REFEREE, "redis", "--port", str(port), "--dir", str(tmp_path / "aof")]
    proc = subprocess.Popen(argv + (["--appendfsync", flag] if flag else []), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _config(port, proc, "appendfsync") == expected
        assert _config(port, proc, "appendonly") == "yes"
    finally:
        _stop(proc)


def test_an_unknown_fsync_policy_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "REFEREE_REDIS_FSYNC": "sometimes"}
    done = subprocess.run([REFEREE, "redis", "--port", str(redis_server.free_port()), "--dir", str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert "REFEREE_REDIS_FSYNC" in done.stderr and "everysec" in done.stderr
    flag = subprocess.run([REFEREE, "redis", "--appendfsync", "sometimes"], capture_output=True, text=True,
                          timeout=30)
    assert flag.returncode == 2 and "invalid choice" in flag.stderr


@pytest.mark.e2e
def test_referee_run_starts_its_redis_with_the_chosen_fsync_policy(tmp_path: Path) -> None:
    redis_port, api_port = redis_server.free_port(), redis_server.free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "REFEREE_REDIS_FSYNC")}
    proc = subprocess.Popen([REFEREE, "run", "--port", str(api_port), "--redis-port", str(redis_port),
                             "--dir", str(tmp_path / "aof"), "--workers", "1", "--appendfsync", "always"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _config(redis_port, proc, "appendfsync") == "always"
    finally:
        _stop(proc)


# -- the worker's scheduler thread ------------------------------------------------
def _holder(client: redis.Redis, name: str, hostname: str, pid: int) -> None:
    """A scheduler ``name`` registered from ``hostname`` as ``pid``, holding the referee queue's lock."""
    from rq.scheduler import RQScheduler
    from rq.utils import now
    holder = RQScheduler([QUEUE], connection=client, name=name)
    holder.hostname, holder.pid, holder.last_heartbeat = hostname, pid, now()
    holder.save()
    client.set(_lock_key(), name, ex=61)


def _due_job(client: redis.Redis) -> Any:
    from rq import Queue
    return Queue(QUEUE, connection=client).enqueue_at(datetime.now(UTC) - timedelta(seconds=1),
                                                      "os.getpid")


def _lock_key() -> str:
    from rq.scheduler import RQScheduler
    return str(RQScheduler.get_locking_key(QUEUE))


def _lock(client: redis.Redis) -> bytes | None:
    value = client.get(_lock_key())
    return value if isinstance(value, bytes) else None


def test_the_scheduler_waits_for_a_lock_held_elsewhere_and_takes_it_when_it_expires(
        redis_client: redis.Redis) -> None:
    from rq.job import JobStatus

    from workers.scheduler import SchedulerThread
    _holder(redis_client, "elsewhere", "another-host", 4242)
    job = _due_job(redis_client)
    mine = SchedulerThread(redis_client, [QUEUE])
    mine.tick()
    assert _lock(redis_client) == b"elsewhere", "a holder on another host cannot be checked: wait"
    assert job.get_status(refresh=True) == JobStatus.SCHEDULED
    redis_client.delete(_lock_key())  # the holder stopped refreshing: its lock expired
    mine.tick()  # the next tick, not RQ's 10-minute maintenance round, takes it
    assert _lock(redis_client) == mine.name.encode()
    assert job.get_status(refresh=True) == JobStatus.QUEUED


def test_the_scheduler_takes_over_at_once_from_a_killed_worker_on_this_host(redis_client: redis.Redis) -> None:
    from rq.job import JobStatus

    from workers.scheduler import SchedulerThread
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer exists: a worker killed with SIGKILL
    _holder(redis_client, "killed", socket.gethostname(), gone.pid)
    job = _due_job(redis_client)
    mine = SchedulerThread(redis_client, [QUEUE])
    mine.tick()
    assert _lock(redis_client) == mine.name.encode()
    assert not redis_client.exists("rq:scheduler:killed")
    assert job.get_status(refresh=True) == JobStatus.QUEUED


def test_the_scheduler_leaves_the_lock_of_a_live_worker_on_this_host(redis_client: redis.Redis) -> None:
    from workers.scheduler import SchedulerThread
    _holder(redis_client, "alive", socket.gethostname(), os.getpid())
    SchedulerThread(redis_client, [QUEUE]).tick()
    assert _lock(redis_client) == b"alive"


def test_a_stopped_scheduler_thread_releases_its_lock(redis_client: redis.Redis) -> None:
    from workers.scheduler import SchedulerThread
    mine = SchedulerThread(redis_client, [QUEUE])
    mine.start()
    for _ in range(600):
        if _lock(redis_client) == mine.name.encode():
            break
        time.sleep(0.05)
    assert _lock(redis_client) == mine.name.encode()
    mine.stop()
    assert _lock(redis_client) is None
    assert not redis_client.exists(f"rq:scheduler:{mine.name}")
