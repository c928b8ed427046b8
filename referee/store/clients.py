"""Redis clients of the API: ordinary commands with a short socket timeout,
and a twin for blocking reads whose timeout outlasts the longest block.

A Redis that stops answering (paused, swapping, SIGSTOPped: not down) must
cost a request at most ``timeout_s``, answered by a 503 ``redis_unavailable``,
not a hung thread; a long-poll's ``XREAD BLOCK`` must hold its full wait.
One socket timeout cannot do both, so blocking reads get their own pool.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

T = TypeVar("T")

#: a stopped or unreachable Redis: the request may be retried later (503)
REDIS_UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,  # refused, reset, loading, too many clients, auth
    redis.exceptions.TimeoutError,  # no answer within the socket timeout
    redis.exceptions.ReadOnlyError,  # a replica, during a failover
    redis.exceptions.OutOfMemoryError,  # maxmemory reached
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
    redis.exceptions.SlotNotCoveredError,  # a cluster's slot map mid-failover
    redis.exceptions.MasterDownError,
)

#: any error of a Redis command (``redis.RedisError``), for modules that must not import redis
REDIS_ERROR: type[Exception] = redis.RedisError

#: default socket timeout of ordinary commands, seconds (``REFEREE_REDIS_TIMEOUT_S``)
DEFAULT_TIMEOUT_S = 2.0


def connect(url: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Any:
    """A client whose connects and commands give up after ``timeout_s``: a
    ``redis.Redis``, or a ``redis.RedisCluster`` when the server at ``url``
    says it is a cluster node (``INFO cluster``), found out here so that one
    setting, ``REDIS_URL``, names either.

    A dropped connection is retried once at once (Redis closed an idle
    socket); a timeout is not retried, so a stalled Redis costs one timeout.
    A server that does not answer at all is taken as standalone (the first
    command then fails as it would have)."""
    client = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                                  retry=Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)))
    try:
        info: Any = client.info("cluster")
        clustered = str(info.get("cluster_enabled", 0)) == "1"
    except redis.RedisError:
        return client
    if not clustered:
        return client
    client.close()
    return RedisCluster.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                                 # a failover is waited out by ``through_failover``, sleeping between tries
                                 retry=Retry(NoBackoff(), 2))


def answers(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a Redis on ``host:port`` answers PING (one try)."""
    return refusal(f"redis://{host}:{port}") is None


def refusal(url: str, timeout_s: float = 1.0) -> BaseException | None:
    """Why the Redis at ``url`` does not answer PING (one try), or ``None`` when it does."""
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)
    try:
        client.ping()
    except redis.RedisError as err:
        return err
    finally:
        client.close()
    return None


def is_cluster(client: Any) -> bool:
    """Whether ``client`` speaks to a Redis Cluster."""
    return isinstance(client, RedisCluster)


#: how long a command on a cluster is tried again through a failover (a
#: replica takes over 2–3 s after its master dies), ``REFEREE_REDIS_FAILOVER_S``
DEFAULT_FAILOVER_S = 5.0
#: the pause between two tries, seconds
FAILOVER_PAUSE_S = 0.25
#: what a failover raises while it lasts: the slot's master gone, its replica not yet promoted
FAILOVER_ERRORS: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError, redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError,
    redis.exceptions.SlotNotCoveredError, redis.exceptions.MasterDownError, redis.exceptions.ReadOnlyError,
)


def through_failover(client: Any, call: Callable[[], T], *, deadline_s: float,
                     clock: Callable[[], float] = time.monotonic) -> T:
    """``call()``, tried again through a cluster failover until ``deadline_s``
    has passed (redis-py's cluster client retries at once, without a pause:
    a failover outlasts its tries). The last error is raised at the deadline
    (the API answers 503 with ``Retry-After``). On a standalone Redis, one try.

    Only for calls that are safe to repeat: reads, and writes that carry an
    idempotency key (a repeat of an append that did land is answered from
    its record)."""
    if not is_cluster(client):
        return call()
    until = clock() + deadline_s
    while True:
        try:
            return call()
        except FAILOVER_ERRORS:
            if clock() >= until:
                raise
            time.sleep(FAILOVER_PAUSE_S)
            try:
                client.nodes_manager.initialize()  # the new master, once a replica took over
            except redis.RedisError:
                pass


def blocking_twin(client: Any, block_max_s: float) -> Any:
    """A client on the same server as ``client`` for blocking reads of up to
    ``block_max_s``: its own pool, whose socket timeout is that block plus
    the ordinary timeout as a margin (none if ``client`` has none). On a
    cluster, a cluster client of its own with that timeout."""
    if is_cluster(client):
        node = client.get_default_node()
        options = client.get_connection_kwargs()
        timeout = options.get("socket_timeout")
        return RedisCluster(host=node.host, port=node.port,
                            socket_connect_timeout=options.get("socket_connect_timeout"),
                            socket_timeout=None if timeout is None else block_max_s + float(timeout),
                            retry=Retry(NoBackoff(), 2))
    pool = client.connection_pool
    kwargs = dict(pool.connection_kwargs)
    timeout = kwargs.get("socket_timeout")
    kwargs["socket_timeout"] = None if timeout is None else block_max_s + float(timeout)
    # as wide as ``client``'s pool (widened for many greenlets under gevent, referee.http.wsgi)
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                            max_connections=pool.max_connections, **kwargs))


#: a blocking read's time is rounded up to one of these steps (s), each with a
#: pool of its own: a read is cut about its own block plus the margin, not the longest
BLOCK_STEPS_S = (1.0, 2.0, 5.0, 10.0, 15.0, 30.0)


class BlockingReads:
    """Twins of ``client`` for blocking reads (see :func:`blocking_twin`), one
    for each of :data:`BLOCK_STEPS_S`, made when first needed."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._twins: dict[float, Any] = {}
        self._lock = threading.Lock()

    def client(self, block_s: float) -> tuple[Any, float]:
        """A client for a read blocking ``block_s`` (at most the last step), and that block."""
        step = next((s for s in BLOCK_STEPS_S if s >= block_s), BLOCK_STEPS_S[-1])
        with self._lock:
            twin = self._twins.get(step)
            if twin is None:
                twin = self._twins[step] = blocking_twin(self._client, step)
        return twin, min(block_s, step)
