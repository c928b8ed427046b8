"""A real local Redis Cluster (3 masters + 3 replicas on loopback): it forms,
serves every slot, keeps one-slot scripts and refuses cross-slot commands,
and survives the SIGKILL of a master without losing a replicated write."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from redis.cluster import RedisCluster
from redis.crc import key_slot

from referee.store.cluster_server import SLOTS, LocalCluster, keys_per_range, start_cluster

pytestmark = pytest.mark.cluster
DEADLINE_S = 30.0  # generous: a loaded machine is slow, never wrong


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """One cluster for the read-only checks of this module."""
    started = time.monotonic()
    local = start_cluster(masters=3, replicas=1)
    print(f"cluster formed in {time.monotonic() - started:.2f} s")
    try:
        yield local
    finally:
        local.stop()
        assert all(n.proc.poll() is not None for n in local.nodes)


def until(what: str, attempt: Callable[[], Any], deadline_s: float = DEADLINE_S,
          on_error: Callable[[], None] = lambda: None) -> tuple[Any, float, int]:
    """Call ``attempt`` until it returns without a Redis error; its result,
    the seconds it took and the failed tries. Between tries ``on_error`` (a
    topology refresh) and a short sleep: redis-py's own retries do not sleep."""
    start, failures = time.monotonic(), 0
    while True:
        try:
            return attempt(), time.monotonic() - start, failures
        except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException) as exc:
            failures += 1
            if time.monotonic() - start > deadline_s:
                raise AssertionError(f"{what}: still failing after {deadline_s} s: {exc!r}") from exc
            try:
                on_error()
            except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException):
                pass
            time.sleep(0.1)


def test_the_cluster_has_three_masters_each_with_one_replica(cluster: LocalCluster) -> None:
    masters, replicas = cluster.masters, cluster.replicas
    assert len(masters) == 3 and len(replicas) == 3
    assert sorted(r.master_port for r in replicas) == sorted(m.port for m in masters)  # type: ignore[type-var]
    covered = sorted(r for m in masters for r in m.slots)
    assert covered[0][0] == 0 and covered[-1][1] == SLOTS - 1
    assert all(a[1] + 1 == b[0] for a, b in zip(covered, covered[1:]))
    ports = [p for n in cluster.nodes for p in (n.port, n.bus_port)]
    assert len(set(ports)) == len(ports) and max(ports) <= 65535
    assert cluster.url in {f"redis://127.0.0.1:{m.port}/0" for m in masters}
    assert {(n.host, n.port) for n in cluster.startup_nodes} == {("127.0.0.1", n.port) for n in cluster.nodes}


def test_a_key_in_every_slot_range_is_written_and_read(cluster: LocalCluster) -> None:
    client = cluster.client()
    ranges = [r for m in cluster.masters for r in m.slots]
    keys = list(keys_per_range(ranges, prefix="range:"))
    for key in keys:
        assert client.set(key, f"value of {key}")
    for key, master in zip(keys, cluster.masters):
        assert client.get(key) == f"value of {key}"
        assert client.get_node_from_key(key).port == master.port
        assert cluster.node_of_key(key) is master
    client.close()


def test_a_script_on_one_key_runs(cluster: LocalCluster) -> None:
    client = cluster.client()
    body = "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCR', KEYS[1])"
    script = client.register_script(body)  # type: ignore[misc]
    for key in keys_per_range([r for m in cluster.masters for r in m.slots], prefix="lua:"):
        assert script(keys=[key], args=[41]) == 42
    two_keys = "redis.call('SET', KEYS[1], 1); return redis.call('SET', KEYS[2], 2)"
    assert client.eval(two_keys, 2, "{g1}:a", "{g1}:b") == "OK"  # one hash tag: one slot
    client.close()


def _two_keys_of(node_slots: list[tuple[int, int]]) -> tuple[str, str]:
    """Two keys in different slots, both served by the same master."""
    low, high = node_slots[0]
    found: list[str] = []
    i = 0
    while len(found) < 2 and i < 1_000_000:
        key = f"x{i}"
        slot = key_slot(key.encode())
        if low <= slot <= high and all(key_slot(k.encode()) != slot for k in found):
            found.append(key)
        i += 1
    assert len(found) == 2, f"no two keys found in slots {low}-{high}"
    return found[0], found[1]


def test_a_cross_slot_mset_is_refused(cluster: LocalCluster) -> None:
    client = cluster.client()
    with pytest.raises(redis.exceptions.RedisClusterException, match="same key slot"):
        client.mset({"{a}1": 1, "{b}1": 2})  # redis-py refuses before sending
    master = cluster.masters[0]
    first, second = _two_keys_of(master.slots)
    with pytest.raises(redis.exceptions.ResponseError, match="same slot"):
        master.client().mset({first: 1, second: 2})  # the server refuses: same node, two slots
    script = "redis.call('SET', KEYS[1], 1); return redis.call('SET', KEYS[2], 2)"
    with pytest.raises(redis.exceptions.ResponseError):
        master.client().eval(script, 2, first, second)  # a script that declares two slots
    client.close()


def _write_every_range(client: RedisCluster, ranges: list[tuple[int, int]], tag: str) -> int:
    """SET a key in every slot range; how many were written."""
    for key in keys_per_range(ranges, prefix=f"after-{tag}:"):
        client.set(key, tag)
    return len(ranges)


def test_a_replica_takes_over_a_killed_master_and_keeps_its_replicated_write() -> None:
    local = start_cluster(masters=3, replicas=1)
    try:
        ranges = [r for m in local.masters for r in m.slots]
        victim = local.masters[1]
        key = next(keys_per_range(victim.slots, prefix="acked:"))
        direct = victim.client()
        direct.set(key, "acknowledged")
        assert direct.wait(1, 1000) == 1  # on the replica before the kill
        client = local.client()

        killed_at = time.monotonic()
        local.kill_master(victim.port)
        assert not victim.alive
        _, writes_back_s, failures = until("writes after the failover",
                                           lambda: _write_every_range(client, ranges, "failover"),
                                           on_error=lambda: client.nodes_manager.initialize())
        failover_s = local.wait_failover(DEADLINE_S)
        print(f"kill -9 of master {victim.port}: writes in every slot range again after {writes_back_s:.2f} s "
              f"({failures} failed tries); cluster_state ok everywhere {time.monotonic() - killed_at:.2f} s "
              f"after the kill (wait_failover waited {failover_s:.2f} s)")

        value, _, _ = until("read the acknowledged key", lambda: client.get(key),
                            on_error=lambda: client.nodes_manager.initialize())
        assert value == "acknowledged"
        promoted = local.node(client.get_node_from_key(key).port)
        assert local.node_of_key(key) is promoted
        assert promoted.role == "master" and promoted.alive and promoted.port != victim.port
        assert len(local.masters) == 3 and len(local.replicas) == 2
        client.close()
    finally:
        local.stop()
    assert all(n.proc.poll() is not None for n in local.nodes)
    assert not local.directory.exists()
