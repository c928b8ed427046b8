"""Issue 8, found 5: a few hundred connections starved the API. Under
gunicorn gthread (2 workers x 32 threads) every SSE stream held a request
thread: 130 idle streams from one address pushed seat views to 4.6-14.5 s and
/health to 10 s, and 150 connections each holding a half-sent body timed out
every route. Real `referee serve` processes over real sockets; every bound
is generous (the bug gave 10 s and more; a healthy server answers in ms)."""
from __future__ import annotations

import json
import os
import resource
import selectors
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis
import requests

from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE, _wait_healthy
from tests.processes import own_redis, stop

pytestmark = pytest.mark.e2e

PER_CLIENT, MOST, READ_TIMEOUT_S = 5, 300, 1
QUICK_S = 2.0  # "still answers": far above a healthy answer, far below the starved 10 s


@dataclass
class Server:
    url: str
    host: str
    port: int
    redis_url: str


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096 and (hard == resource.RLIM_INFINITY or hard >= 4096):
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))  # the test holds ~500 sockets
    redis_port, redis_proc = own_redis()
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "REFEREE_RATE_LIMIT": "off",
           "REFEREE_STREAMS_PER_CLIENT": str(PER_CLIENT), "REFEREE_STREAMS_MAX": str(MOST),
           "REFEREE_READ_TIMEOUT_S": str(READ_TIMEOUT_S)}
    port = free_port()
    proc = subprocess.Popen([REFEREE, "serve", "--port", str(port), "--workers", "2"], env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, [proc])
        yield Server(url, "127.0.0.1", port, env["REDIS_URL"])
    finally:
        stop(proc, redis_proc, quick=[proc])


@pytest.fixture(autouse=True)
def no_stream_open(server: Server) -> None:
    """Each test starts with every slot free: a stream whose client left is
    noticed at its next keepalive (15 s), longer than a test should wait."""
    client = redis.Redis.from_url(server.redis_url)
    keys = list(client.scan_iter(match="referee:{streams}*"))
    if keys:
        client.delete(*keys)


@dataclass
class Opened:
    sock: socket.socket
    buf: bytes = b""

    @property
    def status(self) -> int | None:
        head, sep, _ = self.buf.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]) if sep else None

    @property
    def refused_whole(self) -> bool:
        """A refusal (not a 200) whose whole body has arrived."""
        head, _, body = self.buf.partition(b"\r\n\r\n")
        if self.status in (None, 200):
            return False
        length = [line.split(b":", 1)[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
        return bool(length) and len(body) >= int(length[0])


def open_streams(server: Server, paths: list[str], sources: list[str], *, within_s: float = 20.0,
                 until: bytes = b"retry:") -> list[Opened]:
    """Open one raw HTTP connection per path (from the matching loopback
    source address) and read each until ``until`` or a whole refusal, all at
    once, for at most ``within_s``."""
    opened = []
    for path, source in zip(paths, sources):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(5)
        sock.connect((server.host, server.port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {server.host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        opened.append(Opened(sock))
    with selectors.DefaultSelector() as sel:
        for item in opened:
            sel.register(item.sock, selectors.EVENT_READ, item)
        deadline = time.monotonic() + within_s
        while sel.get_map() and time.monotonic() < deadline:
            for key, _ in sel.select(timeout=0.2):
                item = key.data
                chunk = item.sock.recv(65536)
                item.buf += chunk
                if not chunk or until in item.buf or item.refused_whole:
                    sel.unregister(item.sock)
    return opened


def close_all(opened: list[Opened]) -> None:
    for item in opened:
        item.sock.close()


def timed(method: str, url: str, **kwargs: Any) -> tuple[float, requests.Response]:
    """One request on a fresh connection, and how long it took."""
    started = time.monotonic()
    response = requests.request(method, url, timeout=30, **kwargs)
    return time.monotonic() - started, response


def new_game(server: Server) -> dict[str, Any]:
    response = requests.post(server.url + "/v1/games", json={"ruleset": "bluffaneer", "players": 4}, timeout=10)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def check_answering(server: Server, game: dict[str, Any]) -> None:
    """/health, a seat's view and that seat's move each answer within QUICK_S."""
    elapsed, health = timed("GET", server.url + "/health")
    assert health.status_code == 200 and elapsed < QUICK_S, (health.status_code, elapsed)
    spectator = requests.get(f"{server.url}/v1/games/{game['id']}", timeout=30).json()
    seat = spectator["to_act"][0]
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    elapsed, view = timed("GET", f"{server.url}/v1/games/{game['id']}", headers=auth)
    assert view.status_code == 200 and elapsed < QUICK_S, (view.status_code, elapsed)
    move = view.json()["legal_moves"][0]
    elapsed, moved = timed("POST", f"{server.url}/v1/games/{game['id']}/moves", headers=auth, json={"move": move})
    assert moved.status_code == 201 and elapsed < QUICK_S, (moved.status_code, elapsed, moved.text)


def assert_refused(response: Any, status: int, code: str) -> None:
    """A cap's refusal: problem+json with its code and a Retry-After header."""
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    assert int(response.headers["Retry-After"]) >= 1


def test_300_idle_streams_leave_health_views_and_moves_answering_and_the_next_gets_503(server: Server) -> None:
    # bug: each stream held one of 64 request threads, so the 65th request of any kind waited
    watched = [new_game(server)["id"] for _ in range(10)]
    played = new_game(server)
    # PER_CLIENT streams from each of 60 loopback addresses: MOST (300) in all
    sources = [f"127.0.1.{1 + i // PER_CLIENT}" for i in range(MOST)]
    paths = [f"/v1/games/{watched[i % len(watched)]}/events/stream" for i in range(MOST)]
    streams = open_streams(server, paths, sources)
    try:
        statuses = [s.status for s in streams]
        assert statuses.count(200) == MOST, {str(s): statuses.count(s) for s in set(statuses)}
        assert all(b"retry:" in s.buf for s in streams)
        for _ in range(3):
            check_answering(server, played)
        # the deployment is full: a new client's stream and long-poll are refused, not queued
        extra = open_streams(server, [f"/v1/games/{watched[0]}/events/stream"], ["127.0.2.1"])
        close_all(extra)
        assert extra[0].status == 503, extra[0].buf[:300]
        elapsed, poll = timed("GET", f"{server.url}/v1/games/{watched[0]}/events?after=99&wait=5")
        assert_refused(poll, 503, "streams_full")
        assert elapsed < QUICK_S
    finally:
        close_all(streams)


def test_per_client_cap_answers_429_with_retry_after(server: Server) -> None:
    # bug: one address could open streams until the server starved
    game = new_game(server)
    path = f"/v1/games/{game['id']}/events/stream"
    mine = open_streams(server, [path] * PER_CLIENT, ["127.0.3.1"] * PER_CLIENT)
    try:
        assert [s.status for s in mine] == [200] * PER_CLIENT
        one_more = open_streams(server, [path], ["127.0.3.1"])
        close_all(one_more)
        assert one_more[0].status == 429
        head, _, body = one_more[0].buf.partition(b"\r\n\r\n")
        assert b"application/problem+json" in head and b"\r\nRetry-After: " in head
        assert b"too_many_streams" in body
        # another address is not affected
        other = open_streams(server, [path], ["127.0.3.2"])
        close_all(other)
        assert other[0].status == 200
    finally:
        close_all(mine)


def test_a_stream_whose_client_hung_up_gives_its_slot_back_within_seconds(server: Server) -> None:
    # without a look at the socket, an idle stream noticed its client had left only
    # when a write failed: at the second keepalive, 30 s on, holding the client's slot
    game = new_game(server)
    path = f"/v1/games/{game['id']}/events/stream?after=1000"  # idle: nothing to send
    mine = open_streams(server, [path] * PER_CLIENT, ["127.0.6.1"] * PER_CLIENT)
    try:
        assert [s.status for s in mine] == [200] * PER_CLIENT
        refused = open_streams(server, [path], ["127.0.6.1"])
        close_all(refused)
        assert refused[0].status == 429
        mine[0].sock.close()
        hung_up = time.monotonic()
        while True:
            again = open_streams(server, [path], ["127.0.6.1"])
            close_all(again)
            if again[0].status == 200:
                break
            assert time.monotonic() - hung_up < 10, "the slot of a stream whose client left is still held"
            time.sleep(0.5)
    finally:
        close_all(mine)


def test_long_poll_from_a_capped_client_answers_429(server: Server) -> None:
    game = new_game(server)
    mine = open_streams(server, [f"/v1/games/{game['id']}/events/stream"] * PER_CLIENT, ["127.0.4.1"] * PER_CLIENT)
    try:
        sock = socket.socket()
        sock.bind(("127.0.4.1", 0))
        sock.settimeout(10)
        sock.connect((server.host, server.port))
        sock.sendall(f"GET /v1/games/{game['id']}/events?after=99&wait=5 HTTP/1.1\r\nHost: x\r\n"
                     "Connection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 429"), answer[:200]
        assert b"\r\nRetry-After: " in answer and b"too_many_streams" in answer
    finally:
        close_all(mine)


def test_half_sent_bodies_and_headers_are_dropped_after_the_read_timeout_and_block_nobody(server: Server) -> None:
    # bug: 150 connections each holding a half-sent body held every request thread
    game = new_game(server)
    target = f"/v1/games/{game['id']}/moves"
    stalled = []
    for _ in range(150):
        sock = socket.create_connection((server.host, server.port), timeout=5)
        sock.sendall(f"POST {target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 200\r\n\r\n{{\"move\": ".encode())
        stalled.append(sock)
    slow_heads = []
    for _ in range(50):  # and a slowloris: headers that never end
        sock = socket.create_connection((server.host, server.port), timeout=5)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        slow_heads.append(sock)
    try:
        started = time.monotonic()
        check_answering(server, game)
        assert time.monotonic() - started < 3 * QUICK_S
        # each stalled sender gets a 408 and loses its connection, READ_TIMEOUT_S
        # for the body plus at most as long again for gunicorn's drain
        deadline = time.monotonic() + 10 * READ_TIMEOUT_S + 5
        for sock in stalled:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            answer = b""
            try:
                while chunk := sock.recv(65536):
                    answer += chunk
            except TimeoutError:
                pytest.fail(f"a half-sent body still holds its connection after {10 * READ_TIMEOUT_S + 5} s")
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
            head, _, body = answer.partition(b"\r\n\r\n")
            assert b"application/problem+json" in head
            assert json.loads(body)["code"] == "request_timeout"
        for sock in slow_heads:  # closed without an answer once the read timeout passes
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                assert sock.recv(65536) == b""
            except TimeoutError:
                pytest.fail("half-sent headers still hold their connection")
        assert time.monotonic() - started < 10 * READ_TIMEOUT_S + 5
    finally:
        for sock in stalled + slow_heads:
            sock.close()


def test_stream_and_long_poll_outlive_redis_socket_timeout(server: Server) -> None:
    # bug: redis-py's default 5 s socket timeout cut every blocking read after 5 s:
    # a long-poll answered 500 and an idle stream broke
    game = new_game(server)
    stream = open_streams(server, [f"/v1/games/{game['id']}/events/stream"], ["127.0.5.1"])[0]
    polled: dict[str, Any] = {}

    def poll() -> None:
        spectator = requests.get(f"{server.url}/v1/games/{game['id']}", timeout=10).json()
        polled["version"] = spectator["version"]
        response = requests.get(f"{server.url}/v1/games/{game['id']}/events",
                                params={"after": spectator["version"], "wait": 9}, timeout=30)
        polled["status"], polled["body"] = response.status_code, response.json()

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        time.sleep(6.5)
        check_answering(server, game)
        poller.join(timeout=20)
        assert polled["status"] == 200, polled
        assert [e["seq"] for e in polled["body"]["events"]][:1] == [polled["version"] + 1]
        stream.sock.setblocking(True)
        stream.sock.settimeout(10)
        while b"event: move" not in stream.buf:
            chunk = stream.sock.recv(65536)
            assert chunk, "the stream ended"
            stream.buf += chunk
    finally:
        poller.join(timeout=20)
        stream.sock.close()
