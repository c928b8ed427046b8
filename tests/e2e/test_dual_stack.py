"""A dual-stack listener, ``referee serve --host ::`` (issue 36): it starts,
and its IPv4 clients, which it sees as ``::ffff:a.b.c.d``, are counted as
their IPv4 address: one bucket with the same client on an IPv4 listener,
and not one ``::/64`` bucket for every IPv4 client there is."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
from collections.abc import Iterator

import pytest

from referee.ops.cli import gunicorn_bind
from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE, _wait_healthy
from tests.processes import own_redis, stop

pytestmark = pytest.mark.e2e


def _can_bind(family: socket.AddressFamily, address: str) -> bool:
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.bind((address, 0))
    except OSError:
        return False
    return True


def _status(port: int, source: str) -> int:
    """``GET /v1/rulesets`` on the local ``port``, sent from the loopback address ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("GET", "/v1/rulesets")
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture
def listeners() -> Iterator[tuple[int, int]]:
    """A dual-stack referee and an IPv4 one on one Redis, two requests per address per 2,000 s."""
    if not (_can_bind(socket.AF_INET6, "::") and _can_bind(socket.AF_INET, "127.0.0.2")):
        pytest.skip("needs IPv6 and 127.0.0.2 (Linux's whole 127/8 loopback)")
    redis_port, redis_proc = own_redis()
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "REFEREE_RATE_LIMIT": "0.001/2"}
    dual, ipv4 = free_port(), free_port()
    procs = [subprocess.Popen([REFEREE, "serve", "--host", host, "--port", str(port), "--workers", "1"], env=env)
             for host, port in (("::", dual), ("127.0.0.1", ipv4))]
    try:
        for port in (dual, ipv4):
            _wait_healthy(f"http://127.0.0.1:{port}", procs)  # /health is never limited
        yield dual, ipv4
    finally:
        stop(*procs, redis_proc, quick=procs)


def test_gunicorn_binds_an_ipv6_host_in_brackets() -> None:
    assert gunicorn_bind("::", 8000) == "[::]:8000"
    assert gunicorn_bind("::1", 80) == "[::1]:80"
    assert gunicorn_bind("127.0.0.1", 8000) == "127.0.0.1:8000"
    assert gunicorn_bind("localhost", 8000) == "localhost:8000"
    assert gunicorn_bind("[::]", 8000) == "[::]:8000"


def test_a_dual_stack_listener_counts_an_ipv4_client_as_its_ipv4_address(listeners: tuple[int, int]) -> None:
    dual, ipv4 = listeners
    # 127.0.0.1 through the dual-stack listener (::ffff:127.0.0.1), then through the IPv4 one: one bucket
    assert [_status(dual, "127.0.0.1"), _status(ipv4, "127.0.0.1"), _status(dual, "127.0.0.1")] == [200, 200, 429]
    # another IPv4 client of the dual-stack listener (::ffff:127.0.0.2) has a bucket of its own
    assert [_status(dual, "127.0.0.2"), _status(dual, "127.0.0.2"), _status(dual, "127.0.0.2")] == [200, 200, 429]
