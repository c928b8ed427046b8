"""haproxy, as ``referee.ops.topology`` configures it, in front of two trivial
HTTP backends: round-robin, a killed backend retried past (the client never
sees it), a revived one back in the rotation, and a 503 problem with
``Retry-After`` when none is left. Skipped, loudly, without haproxy."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from referee.ops.topology import Child, haproxy_config, start_haproxy, stop_children, wait_healthy
from referee.store.redis_server import die_with_parent, free_port
from tests.cluster.conftest import require_haproxy

pytestmark = pytest.mark.cluster
ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 30.0


def backend(name: str, port: int) -> Child:
    """``tests/cluster/backend.py`` answering ``name`` on ``port``."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.cluster.backend", str(port), name], cwd=ROOT,
                            preexec_fn=die_with_parent(), start_new_session=True)
    child = Child(name, proc, port)
    wait_healthy(child.url + "/health", [child], DEADLINE_S)
    return child


class Balanced:
    """haproxy on ``url`` over the backends ``a`` and ``b``."""

    def __init__(self, haproxy: Child, a: Child, b: Child) -> None:
        self.haproxy, self.a, self.b = haproxy, a, b
        self.url = haproxy.url

    def names(self, count: int) -> list[str]:
        """Who answered each of ``count`` requests (each must be a 200)."""
        got = []
        for _ in range(count):
            response = requests.get(self.url + "/", timeout=DEADLINE_S)
            assert response.status_code == 200, response.text
            got.append(response.text)
        return got


@pytest.fixture
def balanced() -> Iterator[Balanced]:
    require_haproxy()
    directory = Path(tempfile.mkdtemp(prefix="referee-haproxy-test-"))
    children: list[Child] = []
    try:
        children += [backend("a", free_port()), backend("b", free_port())]
        a, b = children
        haproxy = start_haproxy(free_port(), [("127.0.0.1", a.port or 0), ("127.0.0.1", b.port or 0)], directory)
        children.insert(0, haproxy)
        yield Balanced(haproxy, a, b)
    finally:
        stop_children(children)
        assert all(not c.alive for c in children)
        shutil.rmtree(directory)


def test_the_config_is_valid_for_this_haproxy(tmp_path: Path) -> None:
    binary = require_haproxy()
    config = tmp_path / "haproxy.cfg"
    text = haproxy_config(free_port(), [("127.0.0.1", free_port()), ("127.0.0.1", free_port())])
    for needed in ("mode http", "balance roundrobin", "option httpchk GET /health", "http-check expect status 200",
                   "check inter 500ms fall 2 rise 1", "retries 3", "option redispatch",
                   "retry-on conn-failure empty-response\n",
                   "http-request disable-l7-retry unless METH_GET || METH_HEAD\n", "timeout tunnel 1h"):
        assert needed in text
    config.write_text(text)
    checked = subprocess.run([binary, "-c", "-f", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_requests_go_round_robin(balanced: Balanced) -> None:
    names = balanced.names(8)
    assert names.count("a") == names.count("b") == 4
    assert all(x != y for x, y in zip(names, names[1:])), names  # strictly alternating


def test_a_killed_backend_is_retried_past_and_comes_back(balanced: Balanced) -> None:
    os.kill(balanced.b.pid, signal.SIGKILL)
    balanced.b.proc.wait()
    assert balanced.names(10) == ["a"] * 10  # a connection refused by b is redispatched to a
    revived = backend("b", balanced.b.port or 0)
    try:
        deadline = time.monotonic() + DEADLINE_S
        while "b" not in balanced.names(2):  # health-checked every 500 ms, up after one success
            assert time.monotonic() < deadline, "b never came back into the rotation"
            time.sleep(0.2)
    finally:
        stop_children([revived])


def test_no_backend_left_is_a_503_problem_with_retry_after(balanced: Balanced) -> None:
    for child in (balanced.a, balanced.b):
        os.kill(child.pid, signal.SIGKILL)
        child.proc.wait()
    response = requests.get(balanced.url + "/", timeout=DEADLINE_S)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["status"] == 503
