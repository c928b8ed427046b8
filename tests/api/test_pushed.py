"""What Redis pushes to every referee process (issue 10,
``referee.store.pushed``): failed-authentication blocks, never games' heads
(issue 36 item 7: a view reads its game's head in its request, so it is
never older than a move some client has seen acknowledged).

Two apps on one real Redis stand for two referee processes; each has its own
subscription. What must hold: a move made anywhere is in the next view
everywhere, however late anything pushed arrives; a lost subscription or a
backlog make a request test Redis again; a failed-authentication block
reaches every process; the limiter's leases never let a caller past its
limit."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from referee.http.app import create_app
from referee.store.pushed import CHANNEL, MAX_DRAIN, RETRY_S, Pushed
from referee.store.windows import WindowStore
from tests.api.helpers import auth, create, move, redis_sent, view
from tests.conftest import ContractClient
from tests.holdproxy import HoldProxy


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def process(redis_client: Any, **config: Any) -> Flask:
    """One referee process (its own subscription, caches and leases)."""
    app = create_app({"REDIS": redis_client, "ENQUEUE_JOBS": False, "ADMIN_TOKEN": "admin-secret",
                      "RATE_LIMIT": "off", **config})
    app.test_client_class = ContractClient
    return app


def sent(monkeypatch: pytest.MonkeyPatch, call: Callable[[], Any]) -> list[bytes]:
    """The Redis commands ``call`` sends (their names), in order."""
    return [name for trip in redis_sent(monkeypatch, call) for name in trip]


def played(client: Any, game: dict[str, Any]) -> Any:
    seat = view(client, game)["to_act"][0]
    response = move(client, game, seat, view(client, game, seat)["legal_moves"][0])
    assert response.status_code == 201, response.get_json()
    return response.get_json()["version"]


@pytest.mark.parametrize("limiter", ["off", "1000/1000"])
def test_a_view_of_a_game_the_process_knows_reads_its_head_from_redis(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch, limiter: str) -> None:
    """One round trip (the limiter's, when it has one), never none: a head
    known from before the request may be older than a move acknowledged since."""
    client = process(redis_client, RATE_LIMIT=limiter).test_client()
    game = create(client, players=3)
    view(client, game)
    trips = redis_sent(monkeypatch, lambda: view(client, game))
    assert len(trips) == 1 and b"HMGET" in trips[0], trips


def test_a_move_publishes_no_head(redis_client: Any) -> None:
    """Nothing is pushed for a move (an append or a seat's event): what
    arrives on the channel before a message published after the move is
    everything the move published."""
    listener = redis_client.pubsub()
    listener.subscribe(CHANNEL)
    assert listener.get_message(timeout=30)["type"] == "subscribe"
    client = process(redis_client).test_client()
    game = create(client, seats=[{"name": "a"}, {"name": "b"}, {"open": True}])
    claimed = client.post(f"/v1/games/{game['id']}/seats/2/claim", json={"name": "c"})
    assert claimed.status_code == 201, claimed.get_json()
    game["seats"][2]["token"] = claimed.get_json()["token"]
    played(client, game)
    redis_client.publish(CHANNEL, "sentinel")
    got: list[bytes] = []
    while not got or got[-1] != b"sentinel":  # Redis delivers one connection's messages in order
        message = listener.get_message(timeout=30)
        assert message is not None, got
        got.append(message["data"])
    assert got == [b"sentinel"]
    listener.close()


def test_a_lost_subscription_is_forgotten_and_addresses_are_tested_in_redis_until_one_is_confirmed(
        redis_client: Any) -> None:
    limits: dict[str, Any] = {"RATE_LIMIT": "1000/1000", "AUTH_FAIL_LIMIT": "0.001/3"}
    clock = Clock()
    a, b_app = process(redis_client, **limits).test_client(), process(redis_client, **limits)
    b = b_app.test_client()
    pushed: Pushed = b_app.extensions["referee.service"].pushed  # the limiter's too
    pushed.clock = clock
    game = create(a, players=3)
    good, address = auth(game["seats"][0]["token"]), {"environ_base": {"REMOTE_ADDR": "203.0.113.9"}}
    path = f"/v1/games/{game['id']}"
    assert b.get(path, headers=good, **address).status_code == 200  # b knows the address unblocked
    redis_client.client_kill_filter(_type="pubsub")  # b's subscription is cut: the block is lost to it
    assert [a.get(path, headers=auth(f"guess-{n}"), **address).status_code for n in range(3)] == [401] * 3
    assert b.get(path, headers=good, **address).status_code == 429  # the broken socket is seen: Redis tested
    assert pushed.sync() is None  # not subscribed again yet (RETRY_S)
    clock.now += RETRY_S
    assert pushed.sync() is not None


def test_what_a_broken_subscription_taught_is_not_trusted(redis_client: Any) -> None:
    pushed = Pushed(redis_client)
    epoch = pushed.sync()  # subscribes, and waits for the confirmation
    assert epoch is not None
    pushed.learn_clean("who", epoch)
    assert pushed.blocked_for("who", epoch) == 0.0
    redis_client.client_kill_filter(_type="pubsub")
    assert pushed.sync() is None
    assert pushed.blocked_for("who", epoch) is None
    pushed.learn_clean("who", epoch)  # a test begun before the loss
    assert pushed.blocked_for("who", pushed.epoch) is None
    pushed.close()


def test_a_backlog_of_pushed_messages_is_read_but_that_request_tests_redis(redis_client: Any) -> None:
    pushed = Pushed(redis_client)
    assert pushed.sync() is not None
    for n in range(MAX_DRAIN + 10):  # a process idle while others were refused
        redis_client.publish(CHANNEL, f"b other-{n} 60000")
    assert pushed.sync() is None
    epoch = pushed.sync()  # caught up (the first drain stopped at MAX_DRAIN: the next message is read now)
    assert epoch is not None and pushed.blocked_for(f"other-{MAX_DRAIN}", epoch) is not None
    assert pushed.sync() == epoch
    pushed.close()


def _delivered(app: Flask, seconds: float = 30.0) -> None:
    """Wait until a message is in ``app``'s subscription socket. Redis writes
    the publishing command's reply and the message to two sockets in one
    pass of its loop; here the next request follows at once, from the same
    thread, and a busy machine can let it in between the two writes (a block
    a moment late lets a guess or two more through: ``referee.store.pushed``)."""
    pushed: Pushed = app.extensions["referee.service"].pushed
    conn: Any = pushed._conn
    deadline = time.monotonic() + seconds
    while conn is not None and not conn.can_read(timeout=0.01) and time.monotonic() < deadline:
        pass


def test_a_failed_authentication_block_reaches_every_process(redis_client: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    limits: dict[str, Any] = {"RATE_LIMIT": "1000/1000", "AUTH_FAIL_LIMIT": "0.001/3"}
    b_app = process(redis_client, **limits)
    a, b = process(redis_client, **limits).test_client(), b_app.test_client()
    game = create(a, players=3)
    good = auth(game["seats"][0]["token"])
    address = {"environ_base": {"REMOTE_ADDR": "203.0.113.9"}}
    path = f"/v1/games/{game['id']}"
    assert b.get(path, headers=good, **address).status_code == 200  # b has tested the address: unblocked
    assert [a.get(path, headers=auth(f"guess-{n}"), **address).status_code for n in range(3)] == [401] * 3
    _delivered(b_app)
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
    script = WindowStore(redis_client, lambda *_: None).window  # the store's own window.lua
    keys = ["w:{x}:7:100000", "w:{x}:10:100000"]
    args = ["hit", 5, "", "", 7, 100000, 10, 100000]
    assert [int(script(keys=keys, args=args)[0]) for _ in range(3)] == [5, 2, 0]
    assert redis_client.llen(keys[0]) == 7 and redis_client.llen(keys[1]) == 7
    assert int(script(keys=keys[1:], args=["hit", 5, "", "", 10, 100000])[0]) == 3


def test_a_hit_that_fills_a_published_window_says_when_it_has_room_again(redis_client: Any) -> None:
    """The hitter's own news of the block it published (``RateLimiter.after``):
    the reply's reset is when the window has room again, 0 while it has room."""
    script = WindowStore(redis_client, lambda *_: None).window  # the store's own window.lua
    listener = redis_client.pubsub()
    listener.subscribe("blocks")
    assert listener.get_message(timeout=5)["type"] == "subscribe"
    args = ["hit", 1, "blocks", "addr:x", 2, 60000]
    first, second = (script(keys=["w:{x}:2:60000"], args=args) for _ in range(2))
    assert int(first[0]) == 1 and int(first[1]) == 0  # room for one more: no block
    granted, reset_ms, now_ms = (int(x) for x in second)
    oldest = int(redis_client.lindex("w:{x}:2:60000", 1))
    assert granted == 1 and reset_ms == oldest + 60000 and 0 < reset_ms - now_ms <= 60000
    message = listener.get_message(timeout=5)
    assert message is not None and message["data"] == f"b addr:x {reset_ms - now_ms}".encode()
    assert int(script(keys=["w:{x}:2:60000"], args=args)[0]) == 0  # full: refused
    listener.close()


def test_a_move_among_humans_makes_one_round_trip_with_the_job_queue_on(
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


@pytest.mark.parametrize("limiter", ["off", "1000/1000"])
@pytest.mark.parametrize("reader", ["spectator", "another seat"])
def test_a_view_is_never_older_than_a_move_another_process_acknowledged(
        redis_client: Any, limiter: str, reader: str) -> None:
    """Process b's subscription runs through a proxy that holds what Redis
    pushes (as a busy machine may: the reply of a's append can reach a
    client, and its next request reach b, before b's socket has the pushed
    message). b's next view must still show a's acknowledged move."""
    b_app = process(redis_client, RATE_LIMIT=limiter)
    a, b = process(redis_client, RATE_LIMIT=limiter).test_client(), b_app.test_client()
    pushed: Pushed | None = b_app.extensions["referee.service"].pushed
    assert pushed is not None
    kwargs = redis_client.connection_pool.connection_kwargs
    with HoldProxy((kwargs["host"], kwargs["port"])) as proxy:
        pushed.kwargs = {**pushed.kwargs, "port": proxy.port}  # b subscribes through the proxy
        game = create(a, players=3)
        seat = None if reader == "spectator" else 2
        view(b, game, seat)
        view(b, game, seat)  # whatever b may keep of the game, it has it
        proxy.hold()
        version = played(a, game)
        assert view(b, game, seat)["version"] == version
        proxy.release()


def test_the_process_whose_count_fills_the_window_blocks_the_next_guess_before_any_push_arrives(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both processes' subscriptions run through a proxy that holds what
    Redis pushes (a busy machine may deliver the block after the guesser's
    next request). The process that counted the failure filling the window
    knows the block from the count's reply: its next request with a
    credential is refused without a round trip. Another process learns it
    from the push (a moment late: ``referee.store.pushed``), or from the
    reply to the count of a guess it let through."""
    limits: dict[str, Any] = {"RATE_LIMIT": "1000/1000", "AUTH_FAIL_LIMIT": "0.001/3"}
    apps = [process(redis_client, **limits) for _ in range(2)]
    a, b = (app.test_client() for app in apps)
    address = {"environ_base": {"REMOTE_ADDR": "203.0.113.9"}}
    kwargs = redis_client.connection_pool.connection_kwargs
    with HoldProxy((kwargs["host"], kwargs["port"])) as proxy:
        for app in apps:
            pushed: Pushed = app.extensions["referee.service"].pushed
            pushed.kwargs = {**pushed.kwargs, "port": proxy.port}  # subscribes through the proxy
        game = create(a, players=3)
        good, path = auth(game["seats"][0]["token"]), f"/v1/games/{game['id']}"
        assert [c.get(path, headers=good, **address).status_code for c in (a, b)] == [200, 200]  # known clean
        proxy.hold()
        assert [a.get(path, headers=auth(f"guess-{n}"), **address).status_code for n in range(3)] == [401] * 3
        out: list[Any] = []
        assert sent(monkeypatch, lambda: out.append(a.get(path, headers=auth("guess-3"), **address))) == []
        assert out[0].status_code == 429 and out[0].get_json()["code"] == "rate_limited"
        assert 0 < int(out[0].headers["Retry-After"]) <= 3000  # 0.001/3: 3 in 3,000 s
        assert a.get(path, headers=good, **address).status_code == 429  # a good one too (ratelimit's module doc)
        assert b.get(path, headers=good, **address).status_code == 200  # the push is held: b believes it clean
        assert b.get(path, headers=auth("guess-b"), **address).status_code == 401  # one guess more, counted...
        assert b.get(path, headers=good, **address).status_code == 429  # ...in a window found full: b knows now
        proxy.release()
        _delivered(apps[1])
        assert b.get(path, headers=good, **address).status_code == 429
