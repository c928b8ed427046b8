"""Bots and tournaments over real HTTP, with real `referee serve` and
`referee worker` processes and a webhook bot served on loopback."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from typing import Iterator

import pytest

from referee.redis_server import free_port, start
from tests.e2e.conftest import REFEREE, _wait_healthy, checked_client
from tests.webhook_bot import WebhookBot

pytestmark = pytest.mark.e2e


class Stack:
    def __init__(self) -> None:
        self.redis_port = free_port()
        self.redis = start(self.redis_port, None)
        self.env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                    "REFEREE_BOT_ALLOW_PRIVATE": "1", "REFEREE_STALL_S": "2", "REFEREE_BOT_TIMEOUT_S": "30",
                    "REFEREE_ADMIN_TOKEN": "e2e-admin", "REFEREE_RATE_LIMIT": "off"}
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.serve = subprocess.Popen([REFEREE, "serve", "--port", str(port)], env=self.env)
        self.workers: list[subprocess.Popen[bytes]] = []
        _wait_healthy(self.url, [self.serve])
        self.client = checked_client(self.url)

    def worker(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([REFEREE, "worker"], env=self.env)
        self.workers.append(proc)
        return proc

    def register(self, hook: WebhookBot, rulesets: list[str]) -> str:
        bot = self.client._call("POST", "/v1/bots", json={"name": "hook", "url": hook.url,
                                                          "rulesets": rulesets}).json()
        hook.secret = bot["secret"]
        return str(bot["id"])

    def stop(self) -> None:
        for proc in [self.serve, *self.workers]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [self.serve, *self.workers]:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.redis.terminate()
        self.redis.wait(timeout=10)


@pytest.fixture
def stack() -> Iterator[Stack]:
    s = Stack()
    try:
        yield s
    finally:
        s.stop()


def _listening(port: int) -> bool:
    import socket
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _wait(predicate, seconds: float, what: str) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_e2e_a_killed_worker_mid_job_loses_no_turn_and_plays_none_twice(stack: Stack) -> None:
    with WebhookBot("first", sleep_s=25) as hook:
        hook.hang_first = 1  # the first worker hangs inside the bot call
        bot_id = stack.register(hook, ["bluffaneer"])
        first = stack.worker()
        game = stack.client.create_game("bluffaneer", seats=[{"bot": bot_id}, {"name": "a"}, {"name": "b"}],
                                        setup={"turn": 0, "dice": ["SHIP", "SKULL"]})
        version = stack.client.view(game["id"])["version"]
        _wait(lambda: len(hook.requests) >= 1, 20, "the first worker to call the bot")
        os.kill(first.pid, signal.SIGKILL)  # dies mid-job, before it could submit
        first.wait(timeout=10)
        assert stack.client.view(game["id"])["version"] == version
        stack.worker()  # its sweeper finds the stalled turn
        _wait(lambda: stack.client.view(game["id"])["version"] > version, 30, "the turn to be played")
        time.sleep(3)  # let any duplicate job run: it must be a no-op
        log = stack.client.log(game["id"], "e2e-admin")
        bot_moves = [e for e in log[1:] if e["type"] == "move" and e["actor"] == 0]
        assert len(bot_moves) == 1 and bot_moves[0]["data"]["by"] == {"bot": bot_id}


def test_e2e_tournament_with_webhook_bots_against_built_in_bots(stack: Stack) -> None:
    stack.worker()
    stack.worker()
    port = free_port()
    sample = stack.client._call("POST", "/v1/bots", json={"name": "sample", "url": f"http://127.0.0.1:{port}/",
                                                          "rulesets": ["bluffaneer"]}).json()
    server = subprocess.Popen([REFEREE, "webhook-bot", "--port", str(port), "--secret", sample["secret"]])
    _wait(lambda: _listening(port), 15, "the sample webhook bot to listen")
    try:
        with WebhookBot("first") as hook:
            bot_id = stack.register(hook, ["bluffaneer"])
            body = {"ruleset": "bluffaneer", "games": 8, "parallel": 4,
                    "entrants": [bot_id, sample["id"], "heuristic", "random"]}
            t = stack.client._call("POST", "/v1/tournaments", json=body).json()
            _wait(lambda: stack.client._call("GET", f"/v1/tournaments/{t['id']}").json()["status"] == "finished",
                  120, "the tournament to finish")
    finally:
        server.terminate()
        server.wait(timeout=10)
    t = stack.client._call("GET", f"/v1/tournaments/{t['id']}").json()
    assert t["games_finished"] == 8 and hook.requests and hook.bad_signatures == 0
    assert [row["games"] for row in t["standings"]] == [8, 8, 8, 8]
    assert {row["name"] for row in t["standings"]} == {"hook", "sample", "heuristic", "random"}
    log = stack.client.log(t["games"][0]["id"])
    assert not any("default" in e["data"].get("by", {}) for e in log[1:] if e["type"] == "move"), \
        "a webhook bot fell back to the default move"
    for g in t["games"]:
        assert stack.client.audit(g["id"])["ok"]
    out = subprocess.run([REFEREE, "tournament", "--url", stack.url, "--ruleset", "bluffaneer", "--games", "4",
                          "--entrants", "heuristic", "random", "random", "--audit", "--poll", "0.2"],
                         env=stack.env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "audit: 4/4 games clean" in out.stdout and "heuristic" in out.stdout
