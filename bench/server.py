"""Start a throwaway Redis and `referee serve` (and `referee worker`s) for a benchmark run."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import requests

from referee.store.redis_server import free_port, start

REFEREE = str(Path(sys.executable).parent / "referee")

#: the per-client quotas (``referee.http.quotas``) lifted: the benches measure capacity, not policy
QUOTAS_OFF = {name: "off" for name in ("REFEREE_GAMES_PER_CLIENT", "REFEREE_GAME_CREATIONS_PER_CLIENT",
                                       "REFEREE_CLAIMS_PER_CLIENT", "REFEREE_BOTS_PER_CLIENT")}


@contextlib.contextmanager
def live_server(workers: int = 2, threads: int | None = 8, extra_args: Sequence[str] = (),
                extra_env: dict[str, str] | None = None, rate_limit: str = "off",
                ready_path: str = "/health") -> Iterator[tuple[str, str]]:
    """Yields ``(api_url, redis_url)``; everything stops on exit. ``threads=None``
    keeps `referee serve`'s default; ``extra_args``/``extra_env`` go to it as they are;
    ``rate_limit`` is ``REFEREE_RATE_LIMIT`` (a limit too high to refuse anything
    still pays the limiter's every step)."""
    redis_port = free_port()
    redis_proc = start(redis_port, None)
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_RATE_LIMIT": rate_limit,  # default off: capacity, not policy
           **QUOTAS_OFF, **(extra_env or {})}
    port = free_port()
    argv = [REFEREE, "serve", "--port", str(port), "--workers", str(workers), *extra_args]
    if threads is not None:
        argv += ["--threads", str(threads)]
    serve = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if requests.get(url + ready_path, timeout=1).ok:
                    break
            except requests.RequestException:
                time.sleep(0.05)
        yield url, redis_url
    finally:
        serve.terminate()
        try:
            serve.wait(timeout=15)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait(timeout=10)
        redis_proc.terminate()
        redis_proc.wait(timeout=10)


def _stop(proc: subprocess.Popen[bytes], grace_s: float = 15) -> None:
    """SIGTERM, wait ``grace_s``, then SIGKILL."""
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@contextlib.contextmanager
def rq_workers(redis_url: str, count: int, extra_env: dict[str, str] | None = None,
               ready_s: float = 30) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` `referee worker` processes on ``redis_url`` (``extra_env`` on
    top of this process's), yielded once every one of them has registered
    with RQ; on exit each gets SIGTERM and is killed if it has not exited
    within 15 s."""
    import redis
    from rq import Worker

    env = {**os.environ, "REDIS_URL": redis_url, **(extra_env or {})}
    procs: list[subprocess.Popen[bytes]] = []
    client = redis.Redis.from_url(redis_url)
    try:
        for _ in range(count):
            procs.append(subprocess.Popen([REFEREE, "worker"], env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))
        end = time.monotonic() + ready_s
        while Worker.count(connection=client) < count:
            if time.monotonic() > end or any(p.poll() is not None for p in procs):
                raise RuntimeError(f"{count} referee worker(s) did not start within {ready_s:.0f} s")
            time.sleep(0.05)
        yield procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            _stop(proc)
        client.close()


@contextlib.contextmanager
def live_platform(workers: int, extra_env: dict[str, str] | None = None,
                  **server: Any) -> Iterator[tuple[str, str]]:
    """The whole platform: Redis, `referee serve` (``live_server(**server)``)
    and ``workers`` `referee worker` processes, all with ``extra_env``.
    Yields ``(api_url, redis_url)``; the workers stop first, then the API,
    then Redis."""
    with live_server(extra_env=extra_env, **server) as (url, redis_url):
        with rq_workers(redis_url, workers, extra_env):
            yield url, redis_url
