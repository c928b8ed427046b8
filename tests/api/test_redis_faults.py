"""A Redis that stops answering, and blocking reads that outlast the socket
timeout (issue 8, Found 1 and 3).

A stopped Redis is a real ``redis-server`` of this module's own, frozen with
SIGSTOP (the kernel still accepts connections, nothing answers) and always
thawed with SIGCONT; the shared test Redis and the machine's are never touched.
"""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from referee.bots.webhook import UrlPolicy
from referee.http.app import create_app
from referee.store.clients import REDIS_UNAVAILABLE, connect
from referee.store.redis_store import EventStore
from tests.api.helpers import auth, create
from tests.conftest import ContractClient
from tests.processes import own_redis

#: the ordinary socket timeout the apps here run with
TIMEOUT_S = 0.25
#: generous bound on one refused request (nominally TIMEOUT_S, twice with the reconnect)
PROMPT_S = 10.0


@pytest.fixture(scope="module")
def stoppable() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A Redis server of this module's own, which tests may freeze."""
    port, proc = own_redis()
    yield port, proc
    os.kill(proc.pid, signal.SIGCONT)
    proc.terminate()
    proc.wait(timeout=10)


@contextlib.contextmanager
def stopped(proc: subprocess.Popen[bytes]) -> Iterator[None]:
    """Redis is alive but answers nothing (as when paused, swapped out or stuck)."""
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(proc.pid, signal.SIGCONT)


@pytest.fixture
def frozen_app(stoppable: tuple[int, subprocess.Popen[bytes]]) -> Any:
    """An app built as in production, from REDIS_URL and REDIS_TIMEOUT_S."""
    port, _ = stoppable
    redis.Redis(port=port).flushall()
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/0", "REDIS_TIMEOUT_S": TIMEOUT_S, "TESTING": True,
                      "ADMIN_TOKEN": "admin-secret", "RATE_LIMIT": "off",
                      "BOT_URL_POLICY": UrlPolicy(allow_private=True)})
    app.test_client_class = ContractClient
    return app


def test_a_redis_that_stops_answering_is_a_prompt_503_on_every_route(
        frozen_app: Any, stoppable: tuple[int, subprocess.Popen[bytes]]) -> None:
    # Regression: a paused Redis gave 500 internal_error on every route but
    # /health (redis-py's TimeoutError was unhandled), each after 5 s and retries.
    client = frozen_app.test_client()
    game = create(client, ruleset="bluffaneer", players=3, seed="frozen")
    token = game["seats"][0]["token"]
    bot = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/turn", "rulesets": ["bluffaneer"]})
    tournament = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 1,
                                                      "entrants": ["random", "random", "random"]})
    assert bot.status_code == 201 and tournament.status_code == 201, tournament.get_json()
    gid, bid, tid = game["id"], bot.get_json()["id"], tournament.get_json()["id"]
    routes: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", "/health", {}),
        ("POST", "/v1/games", {"json": {"ruleset": "bluffaneer", "players": 3}}),
        ("GET", f"/v1/games/{gid}", {"headers": auth(token)}),
        ("POST", f"/v1/games/{gid}/moves", {"json": {"move": {"type": "roll"}}, "headers": auth(token)}),
        ("GET", f"/v1/games/{gid}/events?after=0", {}),
        ("GET", f"/v1/games/{gid}/events?after=99&wait=20", {}),
        ("GET", f"/v1/games/{gid}/events/stream", {}),
        ("GET", f"/v1/games/{gid}/replay", {}),
        ("GET", f"/v1/games/{gid}/log", {"headers": auth("admin-secret")}),
        ("GET", f"/v1/games/{gid}/audit", {"headers": auth("admin-secret")}),
        ("POST", "/v1/bots", {"json": {"name": "c", "url": "http://127.0.0.1:9/turn", "rulesets": ["bang"]}}),
        ("GET", f"/v1/bots/{bid}", {"headers": auth(bot.get_json()["secret"])}),
        ("POST", "/v1/tournaments", {"json": {"ruleset": "bluffaneer", "entrants": ["random"] * 3, "games": 1}}),
        ("GET", f"/v1/tournaments/{tid}", {}),
    ]
    with stopped(stoppable[1]):
        for method, path, kwargs in routes:
            began = time.monotonic()
            r = client.open(path, method=method, **kwargs)
            took = time.monotonic() - began
            assert r.status_code == 503, (method, path, r.status_code, r.get_data()[:300])
            assert r.mimetype == "application/problem+json" and r.get_json()["code"] == "redis_unavailable"
            assert r.headers["Retry-After"] == "1"
            assert took < PROMPT_S, (method, path, took)
    # and the same app answers again once Redis does
    assert client.get("/health").status_code == 200
    assert client.get(f"/v1/games/{gid}", headers=auth(token)).status_code == 200


def test_a_stream_whose_redis_stops_ends_cleanly(frozen_app: Any, stoppable: tuple[int, subprocess.Popen[bytes]],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Regression: the 200 was out, so a Redis error inside the stream crashed
    # the response mid-body (a traceback, a cut connection); now the stream
    # ends and the EventSource reconnects (and gets a 503 until Redis is back).
    monkeypatch.setattr("referee.http.api.games.STREAM_MAX_S", 5.0)
    client = frozen_app.test_client()
    game = create(client, ruleset="bluffaneer", players=3, seed="frozen-stream")
    r = client.get(f"/v1/games/{game['id']}/events/stream", buffered=False)
    assert r.status_code == 200
    chunks = iter(r.response)
    assert next(chunks).startswith(b"retry:")
    with stopped(stoppable[1]):
        rest = b"".join(chunks)  # reads until the generator ends: must not raise
    assert rest.endswith(b": redis unavailable\n\n"), rest[-200:]
    r.close()


def test_a_blocking_read_holds_longer_than_the_socket_timeout(redis_client: redis.Redis) -> None:
    # Regression: XREAD BLOCK ran on the ordinary client, so any wait longer
    # than its socket timeout (redis-py's default 5 s) raised TimeoutError.
    short = redis.Redis(connection_pool=redis.ConnectionPool(
        **{**redis_client.connection_pool.connection_kwargs, "socket_timeout": TIMEOUT_S}))
    store = EventStore(short)
    began = time.monotonic()
    store.wait("no-such-game", 0, 4 * TIMEOUT_S)  # nothing comes: the full wait, no error
    assert time.monotonic() - began >= 4 * TIMEOUT_S * 0.9


def test_a_blocking_read_on_a_stopped_redis_gives_up_after_its_own_block(
        stoppable: tuple[int, subprocess.Popen[bytes]]) -> None:
    # Blocking reads run with a longer socket timeout than other commands; it
    # must follow the block asked for (0.5 s: its 1 s step + 0.25 s), not the
    # longest one (30 s), so a stalled Redis frees a long-poll's thread soon.
    port, proc = stoppable
    store = EventStore(connect(f"redis://127.0.0.1:{port}/0", timeout_s=TIMEOUT_S))
    store.wait("g", 0, 0.01)  # while Redis answers: the step's pool holds a connection
    with stopped(proc):
        began = time.monotonic()
        with pytest.raises(REDIS_UNAVAILABLE):
            store.wait("g", 0, 0.5)
        assert time.monotonic() - began < PROMPT_S


def test_a_long_poll_past_5_s_holds_its_full_wait(client: Any) -> None:
    # Regression: `events?after=<current>&wait=8` answered 500 internal_error:
    # the blocking XREAD ran on the ordinary client, whose socket timeout
    # (redis-py's default 5 s) cut it, retries and all.
    game = create(client, ruleset="bluffaneer", players=3, seed="long-poll")
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    began = time.monotonic()
    r = client.get(f"/v1/games/{game['id']}/events?after={version}&wait=6")
    took = time.monotonic() - began
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["version"] == version and r.get_json()["events"] == []
    assert took > 5.0  # held past the old cut (Redis never ends a BLOCK early)
