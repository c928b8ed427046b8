"""The event store against a real Redis: atomic append, idempotency, chain."""
from __future__ import annotations

import threading
from typing import Any

import redis

from referee.engine import canonical, envelope, sha256_hex
from referee.store.redis_store import Appended, AppendResult, EventStore


def _env(seq: int, prev: str) -> dict[str, Any]:
    return envelope("seed", seq, "x", {"n": seq}, 0, 1, prev)


def _new(store: EventStore, gid: str = "g1") -> str:
    first = _env(1, "h0")
    assert store.create(gid, {"version": "1", "last_hash": first["hash"], "rng": "0", "status": "active"},
                        {"seed": "s"}, [first])
    return first["hash"]


def test_canonical_json_is_sorted_compact_and_utf8() -> None:
    assert canonical({"b": 1, "a": "é", "c": [1, {"z": 0, "y": None}]}) == '{"a":"é","b":1,"c":[1,{"y":null,"z":0}]}'
    assert sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_create_refuses_an_existing_id(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    _new(store)
    assert not store.create("g1", {"version": "1"}, {}, [])


def test_append_checks_the_expected_version(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    last = _new(store)
    e2 = _env(2, last)
    assert store.append("g1", 1, [e2], last_hash=e2["hash"], rng=0, status="active").outcome == "ok"
    stale = store.append("g1", 1, [_env(2, last)], last_hash="x", rng=0, status="active")
    assert (stale.outcome, stale.version) == ("conflict", 2)
    assert [e["seq"] for e in store.read("g1")] == [1, 2]
    assert store.head("g1") == (2, e2["hash"], 0, "active", 0)


def test_append_to_a_missing_game_says_missing(redis_client: redis.Redis) -> None:
    assert EventStore(redis_client).append("nope", 0, [], last_hash="", rng=0, status="active").outcome == "missing"


def test_many_racers_on_one_version_exactly_one_wins(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    last = _new(store)
    outcomes: list[str] = []
    barrier = threading.Barrier(16)

    def racer() -> None:
        env = _env(2, last)
        barrier.wait()
        outcomes.append(EventStore(redis.Redis(connection_pool=redis_client.connection_pool))
                        .append("g1", 1, [env, _env(3, env["hash"])], last_hash="h", rng=0, status="active").outcome)

    threads = [threading.Thread(target=racer) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes).count("ok") == 1 and outcomes.count("conflict") == 15
    assert [e["seq"] for e in store.read("g1")] == [1, 2, 3]


def test_idempotency_record_is_written_with_the_append(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    last = _new(store)
    e2 = _env(2, last)
    assert store.append("g1", 1, [e2], last_hash=e2["hash"], rng=0, status="active",
                        idem_key=("seat:0", "k"), idem_record=b"fp\nbody").outcome == "ok"
    again = store.append("g1", 2, [_env(3, e2["hash"])], last_hash="z", rng=0, status="active",
                         idem_key=("seat:0", "k"), idem_record=b"other")
    assert (again.outcome, again.record) == ("idem", b"fp\nbody")
    head = store.head("g1")
    assert head is not None and head[0] == 2


def test_read_ranges_are_by_seq(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    prev = _new(store)
    for seq in range(2, 6):
        env = _env(seq, prev)
        store.append("g1", seq - 1, [env], last_hash=env["hash"], rng=0, status="active")
        prev = env["hash"]
    assert [e["seq"] for e in store.read("g1", after=2, upto=4)] == [3, 4]
    assert [e["seq"] for e in store.read_batch("g1", 1, 2)] == [2, 3]
    assert [e["seq"] for e in store.iter_envelopes("g1", batch=2)] == [1, 2, 3, 4, 5]


def test_several_moves_append_in_one_step_with_a_record_each(redis_client: redis.Redis) -> None:
    """A worker's run of bot turns: several moves, one round trip; every move's
    events in order, its own idempotency record, the head after the last."""
    store = EventStore(redis_client)
    last = _new(store)
    e2 = _env(2, last)
    e3 = _env(3, e2["hash"])
    e4 = _env(4, e3["hash"])
    run = [Appended([e2, e3], e3["hash"], 5, "active", 10, ("worker", "bot:1:0"), b"fp1\nbody1"),
           Appended([e4], e4["hash"], 7, "finished", 11, ("worker", "bot:3:1"), b"fp2\nbody2")]
    assert store.append_moves("g1", 1, run) == AppendResult("ok", version=4)
    assert [e["seq"] for e in store.read("g1")] == [1, 2, 3, 4]
    assert store.head("g1") == (4, e4["hash"], 7, "finished", 11)
    assert store.idem_record("g1", ("worker", "bot:1:0")) == b"fp1\nbody1"
    assert store.idem_record("g1", ("worker", "bot:3:1")) == b"fp2\nbody2"


def test_a_run_appends_whole_or_not_at_all(redis_client: redis.Redis) -> None:
    """A run decided at a version the game has left, or whose first move was
    played already, stores none of its moves."""
    store = EventStore(redis_client)
    last = _new(store)
    e2 = _env(2, last)
    assert store.append("g1", 1, [e2], last_hash=e2["hash"], rng=0, status="active",
                        idem_key=("worker", "bot:1:0"), idem_record=b"fp\nbody").outcome == "ok"
    late = [Appended([_env(2, last)], "x", 0, "active", 0, ("worker", "bot:1:1")),
            Appended([_env(3, "x")], "y", 0, "active", 0, ("worker", "bot:2:2"))]
    assert store.append_moves("g1", 1, late) == AppendResult("conflict", version=2)
    again = [Appended([_env(2, last)], "x", 0, "active", 0, ("worker", "bot:1:0")),
             Appended([_env(3, "x")], "y", 0, "active", 0, ("worker", "bot:2:2"))]
    assert store.append_moves("g1", 1, again).outcome == "idem"
    assert [e["seq"] for e in store.read("g1")] == [1, 2]
    assert store.idem_record("g1", ("worker", "bot:2:2")) is None
