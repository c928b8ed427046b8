"""Bots and tournaments over real HTTP, with real `referee serve` and
`referee worker` processes and a webhook bot served on loopback."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE, _wait_healthy, checked_client
from tests.processes import own_redis, stop
from tests.webhook_bot import WebhookBot

pytestmark = pytest.mark.e2e


class Stack:
    def __init__(self, **settings: str) -> None:
        """``settings`` (e.g. ``REFEREE_BOT_TIMEOUT_S="3"``) in every process's environment, the referee's too."""
        self.redis_port, self.redis = own_redis()
        self.env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                    "REFEREE_BOT_ALLOW_PRIVATE": "1", "REFEREE_STALL_S": "2", "REFEREE_BOT_TIMEOUT_S": "30",
                    "REFEREE_ADMIN_TOKEN": "e2e-admin", "REFEREE_RATE_LIMIT": "off", **settings}
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
        bot = self.client._call("POST", "/v1/bots", json={"name": "hook", "url": hook.url, "rulesets": rulesets,
                                                          "seating": "public"}).json()
        hook.secret = bot["secret"]
        return str(bot["id"])

    def stop(self) -> None:
        self.client.close()
        stop(*(proc for proc in [self.serve, *self.workers] if proc.poll() is None), timeout=10, quick=[self.serve])
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


def _wait(predicate, seconds: float, what: str) -> None:
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
                                        setup={"turn": 0, "dice": ["ship", "skull"]})
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
                    "entrants": [bot_id, {"bot": sample["id"], "bot_secret": sample["secret"]}, "heuristic",
                                 "random"]}
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


def _tournament(stack: Stack, body: dict[str, object]) -> dict[str, object]:
    return dict(stack.client._call("POST", "/v1/tournaments", json=body).json())


def _finished(stack: Stack, tid: object, seconds: float = 180) -> dict:  # type: ignore[type-arg]
    _wait(lambda: stack.client._call("GET", f"/v1/tournaments/{tid}").json()["status"] == "finished",
          seconds, "the tournament to finish")
    return dict(stack.client._call("GET", f"/v1/tournaments/{tid}").json())


def _mid_chain(r: Any) -> str | None:
    """The game whose bot turns the (stopped) worker was playing in a row:
    its job started at a version the game has since left, the game still
    awaits a bot, and no job is queued for it: only that job would play on."""
    from rq.registry import StartedJobRegistry

    from referee.service.scheduling import QUEUE
    queued = {job.decode() for job in r.lrange(f"rq:queue:{QUEUE}", 0, -1)}
    for job_id in StartedJobRegistry(QUEUE, connection=r).get_job_ids():
        if not job_id.startswith("bot-"):
            continue
        _, game_id, version, _seat = job_id.split("-")[:4]
        meta = r.hmget(f"game:{{{game_id}}}:meta", "version", "status")
        if meta[1] == b"active" and int(meta[0] or 0) > int(version) and \
                not any(q.startswith(f"bot-{game_id}-{int(meta[0])}-") for q in queued):
            return game_id
    return None


def test_e2e_issue20_a_worker_killed_mid_chain_of_bot_turns_loses_no_turn(stack: Stack) -> None:
    """Issue 20: one job plays a game's bot turns in a row, no job queued for
    the next; a ``kill -9`` in the middle of that chain loses nothing: the
    sweeper of the next worker finds the game and every game finishes,
    audited clean. The worker is stopped (SIGSTOP) until it is caught
    mid-chain, so the kill always lands there."""
    import redis
    r: Any = redis.Redis.from_url(stack.env["REDIS_URL"])  # its replies are bytes (redis-py types them str | Awaitable)
    first = stack.worker()
    t = _tournament(stack, {"ruleset": "bang", "games": 24, "parallel": 8, "players": 4,
                            "entrants": ["heuristic", "random", "heuristic", "random"]})
    caught = None
    for _ in range(400):
        os.kill(first.pid, signal.SIGSTOP)
        caught = _mid_chain(r)
        if caught is not None:
            break
        os.kill(first.pid, signal.SIGCONT)
        time.sleep(0.02)
    assert caught is not None, "the worker was never caught in the middle of a chain of bot turns"
    stuck = int(r.hget(f"game:{{{caught}}}:meta", "version") or 0)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    assert r.hget(f"game:{{{caught}}}:meta", "status") == b"active"
    stack.worker()  # its sweeper (REFEREE_STALL_S=2) revives the game the chain held
    done = _finished(stack, t["id"])
    assert done["games_finished"] == 24
    assert [row["games"] for row in done["standings"]] == [24, 24, 24, 24]
    assert int(r.hget(f"game:{{{caught}}}:meta", "version") or 0) > stuck
    for g in done["games"]:
        assert stack.client.audit(g["id"])["ok"], g["id"]


def test_e2e_issue20_webhook_bots_of_eight_games_are_called_at_once_by_one_worker(stack: Stack) -> None:
    """Issue 20: one worker waiting on a webhook bot's answer goes on with
    the other games' turns: with ``parallel: 8`` the bot holds its first
    eight calls until eight are in flight at once (it would wait out its
    30 s hold if the worker asked one at a time), then every game finishes
    with no move defaulted, every request signed."""
    stack.worker()
    with WebhookBot("first") as hook:
        hook.gather = 8
        bot_id = stack.register(hook, ["bang-dice"])
        t = _tournament(stack, {"ruleset": "bang-dice", "games": 8, "parallel": 8, "players": 3,
                                "entrants": [bot_id, bot_id, bot_id]})
        done = _finished(stack, t["id"])
    assert hook.max_in_flight >= 8 and hook.bad_signatures == 0
    assert done["games_finished"] == 8
    for g in done["games"]:
        log = stack.client.log(g["id"], "e2e-admin")
        moves = [e for e in log[1:] if e["type"] == "move"]
        assert moves and not any("default" in e["data"].get("by", {}) for e in moves), g["id"]
        assert stack.client.audit(g["id"])["ok"]
