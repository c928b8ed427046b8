"""Real processes over real HTTP: ``referee serve`` and ``referee worker``
against their own throwaway Redis server."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import requests

from referee.client import RefereeClient
from referee.store.redis_server import free_port
from tests import contract
from tests.processes import own_redis, stop

REFEREE = str(Path(sys.executable).parent / "referee")


def checked_client(url: str) -> RefereeClient:
    """A client whose every response from the real server is checked against openapi.yaml."""
    client = RefereeClient(url)

    def check(response: httpx.Response) -> None:
        if response.headers.get("Content-Type", "").startswith("text/event-stream"):
            return
        response.read()
        contract.check(response.request.method, response.url.path, response.status_code,
                       response.headers.get("Content-Type", ""), response.content)

    client.http.event_hooks["response"].append(check)
    return client


@dataclass
class Live:
    url: str
    redis_url: str
    client: RefereeClient
    env: dict[str, str]


def _wait_healthy(url: str, procs: list[subprocess.Popen[bytes]]) -> None:
    for _ in range(2400):  # 120 s: `make test` starts servers on every core at once
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}")
        try:
            if requests.get(url + "/health", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.05)
    raise RuntimeError("the API did not become healthy in 120 s")


@pytest.fixture(scope="module")
def live(worker_live: Live) -> Live:
    """The worker's stack (``worker_live``, tests/conftest.py) for one test file, its Redis emptied first
    (FLUSHDB: the games, queued jobs and watch set the files before left; the processes keep nothing of a
    game but by its id, and the worker's scheduler takes its lock again at its next tick): a file sees a
    stack as fresh as one of its own."""
    with redis.Redis.from_url(worker_live.redis_url) as client:
        client.flushdb()
    return worker_live


@contextlib.contextmanager
def live_stack(**settings: str) -> Iterator[Live]:
    """``live``'s stack, with ``settings`` (e.g. ``REFEREE_PRESENCE_WINDOW_S="2"``) in every process's environment."""
    redis_port, redis_proc = own_redis()
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "REFEREE_ADMIN_TOKEN": "e2e-admin",
           # a person's seat is taken over only where a test asks (away_grace_s): a test the busy machine
           # slows must not find its seat played for it after REFEREE_AWAY_GRACE_S's 60 s
           "REFEREE_RATE_LIMIT": "off", "REFEREE_AWAY_GRACE_S": "off", **settings}
    worker = subprocess.Popen([REFEREE, "worker"], env=env)
    serving: list[subprocess.Popen[bytes]] = []
    try:
        url, serve = _serving(env, worker)
        serving.append(serve)
        client = checked_client(url)
        try:
            yield Live(url, env["REDIS_URL"], client, env)
        finally:
            client.close()
    finally:
        stop(*serving, worker, redis_proc, quick=serving)


def _serving(env: dict[str, str], worker: subprocess.Popen[bytes],
             tries: int = 3) -> tuple[str, subprocess.Popen[bytes]]:
    """``referee serve`` on a free port, healthy: (its URL, its process). A
    server that exits before it answers is started again on another port, up
    to ``tries`` times: the port picked may be taken before the server binds
    it (by another worker's server, or as the local port of any connection
    the parallel suite opens), and gunicorn then gives up ("Connection in use")."""
    for attempt in range(1, tries + 1):
        port = free_port()
        serve = subprocess.Popen([REFEREE, "serve", "--port", str(port), "--workers", "2"], env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, [serve, worker])
            return url, serve
        except RuntimeError:
            if serve.poll() is None or worker.poll() is not None or attempt == tries:
                stop(serve, quick=[serve])
                raise
    raise AssertionError("unreachable: the last try returns or raises")


@pytest.fixture
def worker_stack(worker_bots: Any) -> Any:
    """A referee, its Redis and one worker (``tests.e2e.test_http_bots.Stack``): the worker process's
    (``worker_bots``, tests/conftest.py), its Redis emptied first (FLUSHDB, as ``live`` is for each file):
    the tests using it only read its URL and environment and stop no process of it."""
    with redis.Redis(port=worker_bots.redis_port) as client:
        client.flushdb()
    return worker_bots
