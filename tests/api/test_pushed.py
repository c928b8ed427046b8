"""Heads and blocks pushed by Redis (issue 10, ``referee.store.pushed``): a
view of a game the process knows reads nothing, and is never stale.

Two apps on one real Redis stand for two referee processes; each has its own
subscription. What must hold: a move made anywhere is in the next view
everywhere; a lost subscription, a backlog or a game near its expiry make
the view read Redis again; a failed-authentication block reaches every
process; the limiter's leases never let a caller past its limit."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from referee.app import create_app
from referee.store.pushed import CHANNEL, EXPIRY_MARGIN_S, MAX_DRAIN, RETRY_S, Pushed
from tests.api.helpers import auth, create, move, redis_sent, view
from tests.conftest import ContractClient


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def process(redis_client: Any, clock: Clock | None = None, **config: Any) -> Flask:
    """One referee process (its own subscription, caches and leases)."""
    app = create_app({"REDIS": redis_client, "ENQUEUE_JOBS": False, "ADMIN_TOKEN": "admin-secret",
                      "RATE_LIMIT": "off", **config})
    app.test_client_class = ContractClient
    if clock is not None:
        svc = app.extensions["referee.service"]
        svc.pushed = Pushed(redis_client, clock=clock)
    return app


def sent(monkeypatch: pytest.MonkeyPatch, call: Callable[[], Any]) -> list[bytes]:
    """The Redis commands ``call`` sends (their names), in order."""
    return [name for trip in redis_sent(monkeypatch, call) for name in trip]


def played(client: Any, game: dict[str, Any]) -> Any:
    seat = view(client, game)["to_act"][0]
    response = move(client, game, seat, view(client, game, seat)["legal_moves"][0])
    assert response.status_code == 201, response.get_json()
    return response.get_json()["version"]


def _delivered(app: Flask, seconds: float = 30.0) -> None:
    """Wait until a message is in ``app``'s subscription socket. Redis writes
    a move's reply and its pushed head to two sockets in one pass of its
    loop; here the next request follows at once, from the same thread, and a
    busy machine can let it in between the two writes (across processes the
    reply's way to another process is far longer: README, "Pushed heads")."""
    import time
    pushed: Pushed = app.extensions["referee.service"].pushed
    conn: Any = pushed._conn
    deadline = time.monotonic() + seconds
    while conn is not None and not conn.can_read(timeout=0.01) and time.monotonic() < deadline:
        pass


def test_a_move_made_in_another_process_is_in_the_next_view_without_reading_the_head(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    b_app = process(redis_client)
    a, b = process(redis_client).test_client(), b_app.test_client()
    game = create(a, players=3)
    assert view(b, game)["version"] == view(a, game)["version"]  # b learns the head
    assert sent(monkeypatch, lambda: view(b, game)) == []  # known: no round trip
    version = played(a, game)
    _delivered(b_app)
    out: list[Any] = []
    commands = sent(monkeypatch, lambda: out.append(view(b, game)))
    assert out[0]["version"] == version
    assert b"HMGET" not in commands  # the head was pushed; only the new events were read
    assert sent(monkeypatch, lambda: view(b, game)) == []


def test_a_lost_subscription_is_forgotten_and_views_read_redis_until_one_is_confirmed(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    a, b_app = process(redis_client).test_client(), process(redis_client, clock)
    b = b_app.test_client()
    pushed: Pushed = b_app.extensions["referee.service"].pushed
    game = create(a, players=3)
    view(b, game)
    assert sent(monkeypatch, lambda: view(b, game)) == []
    redis_client.client_kill_filter(_type="pubsub")  # b's subscription is cut: a's next move is lost to it
    version = played(a, game)
    assert view(b, game)["version"] == version  # the broken socket is seen: Redis is read
    assert b"HMGET" in sent(monkeypatch, lambda: view(b, game))  # not subscribed again yet (RETRY_S)
    clock.now += RETRY_S
    view(b, game)  # subscribes again (confirmed), reads the head once more
    assert pushed.head(game["id"], pushed.sync()) is not None
    assert sent(monkeypatch, lambda: view(b, game)) == []
    version = played(a, game)
    _delivered(b_app)
    assert view(b, game)["version"] == version


def test_what_a_broken_subscription_taught_is_not_trusted(redis_client: Any) -> None:
    pushed = Pushed(redis_client)
    epoch = pushed.sync()  # subscribes, and waits for the confirmation
    assert epoch is not None
    pushed.learn_head("g", (5, "h", 0, "active", 0), -1, epoch, pushed.clock())
    assert pushed.head("g", epoch) == (5, "h", 0, "active", 0)
    redis_client.client_kill_filter(_type="pubsub")
    assert pushed.sync() is None
    assert pushed.head("g", epoch) is None
    pushed.learn_head("g", (5, "h", 0, "active", 0), -1, epoch, pushed.clock())  # a read begun before the loss
    assert pushed.head("g", epoch) is None
    pushed.close()


def test_a_backlog_of_pushed_heads_is_read_but_that_request_reads_redis(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    b = process(redis_client).test_client()
    game = create(b, players=3)
    view(b, game)
    assert sent(monkeypatch, lambda: view(b, game)) == []
    for n in range(MAX_DRAIN + 10):  # a process idle while others played elsewhere
        redis_client.publish(CHANNEL, f"h other-{n} 7 x 0 active 0 -1")
    assert b"HMGET" in sent(monkeypatch, lambda: view(b, game))
    assert sent(monkeypatch, lambda: view(b, game)) == []  # caught up


def test_a_head_is_not_trusted_near_its_games_expiry(redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_RETENTION_IDLE_S", "5")
    clock = Clock()
    app = process(redis_client, clock)
    client = app.test_client()
    game = create(client, players=3)
    view(client, game)
    # the keys' TTL runs in real time (a busy machine may take a while between
    # the create and the view): what is left after the view bounds what it read
    left_s = redis_client.pttl(f"game:{{{game['id']}}}:meta") / 1000
    assert sent(monkeypatch, lambda: view(client, game)) == []
    clock.now += left_s - EXPIRY_MARGIN_S - 0.01  # the keys live a while yet: trusted
    assert sent(monkeypatch, lambda: view(client, game)) == []
    clock.now += 5  # not past the keys' whole TTL: Redis is read again ...
    assert b"HMGET" in sent(monkeypatch, lambda: view(client, game))
    clock.now += 5  # ... and once the keys are gone, the game is a 404, as it always was
    for key in redis_client.keys(f"game:{{{game['id']}}}:*"):
        redis_client.delete(key)
    assert client.get(f"/v1/games/{game['id']}").status_code == 404


def test_a_move_in_a_process_pushes_its_head_with_the_games_ttl(redis_client: Any) -> None:
    listener = redis_client.pubsub()
    listener.subscribe(CHANNEL)
    listener.get_message(timeout=1)
    client = process(redis_client).test_client()
    game = create(client, players=3)
    version = played(client, game)
    message = listener.get_message(timeout=1)
    fields = message["data"].decode().split(" ")
    assert fields[:3] == ["h", game["id"], str(version)] and fields[5] == "active"
    assert 0 < int(fields[7]) <= 7 * 24 * 3600 * 1000
    listener.close()


def test_a_failed_authentication_block_reaches_every_process(redis_client: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    limits: dict[str, Any] = {"RATE_LIMIT": "1000/1000", "AUTH_FAIL_LIMIT": "0.001/3"}
    a, b = process(redis_client, **limits).test_client(), process(redis_client, **limits).test_client()
    game = create(a, players=3)
    good = auth(game["seats"][0]["token"])
    address = {"environ_base": {"REMOTE_ADDR": "203.0.113.9"}}
    path = f"/v1/games/{game['id']}"
    assert b.get(path, headers=good, **address).status_code == 200  # b has tested the address: unblocked
    assert [a.get(path, headers=auth(f"guess-{n}"), **address).status_code for n in range(3)] == [401] * 3
    out: list[Any] = []
    assert sent(monkeypatch, lambda: out.append(b.get(path, headers=good, **address))) == []
    assert out[0].status_code == 429 and out[0].get_json()["code"] == "rate_limited"
    assert int(out[0].headers["Retry-After"]) > 0
    assert a.get(path, headers=good, **address).status_code == 429
    assert b.get(path, headers=good, **{"environ_base": {"REMOTE_ADDR": "203.0.113.10"}}).status_code == 200


@pytest.mark.parametrize("processes", [1, 2])
def test_leased_hits_never_let_a_caller_past_its_limit(redis_client: Any, monkeypatch: pytest.MonkeyPatch,
                                                       processes: int) -> None:
    apps = [process(redis_client, RATE_LIMIT="0.001/100").test_client() for _ in range(processes)]
    statuses: list[int] = []
    calls = sent(monkeypatch, lambda: statuses.extend(
        apps[n % processes].get("/v1/rulesets").status_code for n in range(130)))
    allowed = statuses.count(200)
    assert statuses == [200] * allowed + [429] * (130 - allowed)
    lease = 100 // 20
    assert 100 - processes * (lease - 1) <= allowed <= 100
    if processes == 1:
        assert allowed == 100
        assert calls.count(b"EVALSHA") <= 100 // lease + 30  # one per lease, then one per refusal


def test_the_window_script_grants_what_every_window_has_room_for(redis_client: Any) -> None:
    from importlib import resources
    script = redis_client.register_script(resources.files("referee.store").joinpath("window.lua").read_text())
    keys = ["w:{x}:7:100000", "w:{x}:10:100000"]
    args = ["hit", 5, "", "", 7, 100000, 10, 100000]
    assert [int(script(keys=keys, args=args)[0]) for _ in range(3)] == [5, 2, 0]
    assert redis_client.llen(keys[0]) == 7 and redis_client.llen(keys[1]) == 7
    assert int(script(keys=keys[1:], args=["hit", 5, "", "", 10, 100000])[0]) == 3


def test_issue20_a_move_among_humans_makes_one_round_trip_with_the_job_queue_on(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With jobs enqueued (as `referee serve` runs), a move after which, as
    before it, only humans are awaited and no deadline is open is one round
    trip: the append. The watch set is not touched for a game a worker never
    owed anything (it was a second round trip per move)."""
    app = process(redis_client, ENQUEUE_JOBS=True)
    client = app.test_client()
    game = create(client, ruleset="bang", players=4)
    played(client, game)  # the watch set forgets the game, if it had it
    seat = view(client, game)["to_act"][0]
    legal = view(client, game, seat)["legal_moves"]
    trips = redis_sent(monkeypatch, lambda: move(client, game, seat, legal[0]))
    assert [name for trip in trips for name in trip] == [b"EVALSHA"], trips


def test_a_view_is_never_older_than_a_move_the_same_process_appended(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis writes a script's reply before the messages it published, so a
    process's next view may come before its own move's pushed head: the
    move it appended (and cached) is served, never the head before it."""
    app = process(redis_client)
    client = app.test_client()
    game = create(client, players=3)
    before = view(client, game)["version"]
    pushed: Pushed = app.extensions["referee.service"].pushed
    stale = pushed.head(game["id"], pushed.sync())
    assert stale is not None and stale[0] == before
    version = played(client, game)
    monkeypatch.setattr(pushed, "head", lambda game_id, epoch: stale)  # its message not in yet
    assert version > before and view(client, game)["version"] == version
