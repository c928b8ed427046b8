"""Redis clients of the API: ordinary commands with a short socket timeout,
and a twin for blocking reads whose timeout outlasts the longest block.

A Redis that stops answering (paused, swapping, SIGSTOPped: not down) must
cost a request at most ``timeout_s``, answered by a 503 ``redis_unavailable``,
not a hung thread; a long-poll's ``XREAD BLOCK`` must hold its full wait.
One socket timeout cannot do both, so blocking reads get their own pool.
"""
from __future__ import annotations

import threading

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

#: a stopped or unreachable Redis: the request may be retried later (503)
REDIS_UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,  # refused, reset, loading, too many clients, auth
    redis.exceptions.TimeoutError,  # no answer within the socket timeout
    redis.exceptions.ReadOnlyError,  # a replica, during a failover
    redis.exceptions.OutOfMemoryError,  # maxmemory reached
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
)

#: default socket timeout of ordinary commands, seconds (``REFEREE_REDIS_TIMEOUT_S``)
DEFAULT_TIMEOUT_S = 2.0


def connect(url: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> redis.Redis:
    """A client whose connects and commands give up after ``timeout_s``.

    A dropped connection is retried once at once (Redis closed an idle
    socket); a timeout is not retried, so a stalled Redis costs one timeout."""
    return redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s,
                                retry=Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)))


def blocking_twin(client: redis.Redis, block_max_s: float) -> redis.Redis:
    """A client on the same server as ``client`` for blocking reads of up to
    ``block_max_s``: its own pool, whose socket timeout is that block plus
    the ordinary timeout as a margin (none if ``client`` has none)."""
    pool = client.connection_pool
    kwargs = dict(pool.connection_kwargs)
    timeout = kwargs.get("socket_timeout")
    kwargs["socket_timeout"] = None if timeout is None else block_max_s + float(timeout)
    # as wide as ``client``'s pool (widened for many greenlets under gevent, referee.wsgi)
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                            max_connections=pool.max_connections, **kwargs))


#: a blocking read's time is rounded up to one of these steps (s), each with a
#: pool of its own: a read is cut about its own block plus the margin, not the longest
BLOCK_STEPS_S = (1.0, 2.0, 5.0, 10.0, 15.0, 30.0)


class BlockingReads:
    """Twins of ``client`` for blocking reads (see :func:`blocking_twin`), one
    for each of :data:`BLOCK_STEPS_S`, made when first needed."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._twins: dict[float, redis.Redis] = {}
        self._lock = threading.Lock()

    def client(self, block_s: float) -> tuple[redis.Redis, float]:
        """A client for a read blocking ``block_s`` (at most the last step), and that block."""
        step = next((s for s in BLOCK_STEPS_S if s >= block_s), BLOCK_STEPS_S[-1])
        with self._lock:
            twin = self._twins.get(step)
            if twin is None:
                twin = self._twins[step] = blocking_twin(self._client, step)
        return twin, min(block_s, step)
