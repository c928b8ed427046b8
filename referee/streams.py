"""Caps on open event streams and long-polls (HTTP 429 per client, 503 in all).

Every SSE stream and every long-poll that waits holds a *slot* while it is
open. Slots live in Redis, so the caps hold across every referee process
and machine: two sorted sets (all slots, and the client's), each member
scored with its lease's end. A slot is given back when its stream ends; a
crashed process's slots lapse with their lease, which outlasts the longest
stream (``LEASE_S``), so nothing has to renew them.

``REFEREE_STREAMS_PER_CLIENT`` (default 64) caps one client address;
``REFEREE_STREAMS_MAX`` (default 4000) caps the whole deployment; ``off``
lifts either. No maintained library keeps a counting semaphore with leases
in Redis (redis-py has a lock, the rate limiter counts requests, not open
ones), so this is one short Lua script.
"""
from __future__ import annotations

import contextlib
import os
import select
import socket
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from flask import Response, current_app, request

from referee.errors import ApiError

#: longer than any stream (60 s) or long-poll (30 s) lives
LEASE_S = 120
#: the Retry-After of each refusal: a client's own stream may end soon; the
#: whole deployment being full is worth a longer pause
RETRY_CLIENT_S, RETRY_GLOBAL_S = 5, 15
DEFAULT_PER_CLIENT, DEFAULT_MAX = 64, 4000
ALL_KEY = "referee:{streams}:all"  # one hash tag: both sets live in one cluster slot

_ACQUIRE = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local per_client, most, lease = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if per_client > 0 and redis.call('ZCARD', KEYS[2]) >= per_client then return 1 end
if most > 0 and redis.call('ZCARD', KEYS[1]) >= most then return 2 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('ZADD', KEYS[2], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[2], lease)
redis.call('PEXPIRE', KEYS[1], lease)
return 0
"""


class StreamsBusy(ApiError):
    """A stream or long-poll refused by a cap; answered with ``Retry-After``."""

    def __init__(self, status: int, code: str, detail: str, retry_after: int) -> None:
        super().__init__(status, code, detail, retry_after=retry_after)
        self.retry_after = retry_after


def busy_response(err: StreamsBusy) -> Response:
    """The problem response of a refusal, with its ``Retry-After`` header."""
    from referee.app import problem
    response = problem(err.status, err.code, err.detail, retry_after=err.retry_after)
    response.headers["Retry-After"] = str(err.retry_after)
    return response


def parse_cap(value: str | int | None, default: int) -> int:
    """A cap setting: a whole number >= 1, or ``off`` (0: no cap)."""
    if value is None:
        return default
    if isinstance(value, int):
        return max(0, value)
    if value.strip().lower() in ("off", "none", "0", ""):
        return 0
    cap = int(value)
    if cap < 1:
        raise ValueError(f"bad stream cap {value!r}: use a whole number >= 1 or off")
    return cap


@dataclass(frozen=True)
class StreamSlots:
    """Counts open streams in Redis and refuses those past a cap."""

    redis: Any
    per_client: int = DEFAULT_PER_CLIENT
    most: int = DEFAULT_MAX
    lease_s: int = LEASE_S
    _acquire: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.redis is not None:  # EVALSHA, loaded once
            object.__setattr__(self, "_acquire", self.redis.register_script(_ACQUIRE))

    @classmethod
    def from_config(cls, redis: Any, config: Mapping[str, Any]) -> StreamSlots:
        """Caps from the app config (``STREAMS_PER_CLIENT``, ``STREAMS_MAX``), else the environment."""
        per_client = config.get("STREAMS_PER_CLIENT", os.environ.get("REFEREE_STREAMS_PER_CLIENT"))
        most = config.get("STREAMS_MAX", os.environ.get("REFEREE_STREAMS_MAX"))
        return cls(redis, parse_cap(per_client, DEFAULT_PER_CLIENT), parse_cap(most, DEFAULT_MAX))

    @staticmethod
    def client_key(client: str) -> str:
        return f"referee:{{streams}}:client:{client}"

    @contextlib.contextmanager
    def hold(self, client: str) -> Iterator[None]:
        """Hold one slot for ``client`` while the block runs; raise
        :class:`StreamsBusy` (429 or 503) if a cap is reached."""
        if not self.per_client and not self.most:
            yield
            return
        slot = uuid.uuid4().hex
        keys = [ALL_KEY, self.client_key(client)]
        verdict = int(self._acquire(keys=keys, args=[slot, self.per_client, self.most, self.lease_s * 1000]))
        if verdict == 1:
            raise StreamsBusy(429, "too_many_streams",
                              f"this client already has {self.per_client} open streams and long-polls: "
                              "close one, or retry later", RETRY_CLIENT_S)
        if verdict == 2:
            raise StreamsBusy(503, "streams_full",
                              f"the referee already serves {self.most} open streams and long-polls: retry later",
                              RETRY_GLOBAL_S)
        try:
            yield
        finally:
            try:
                pipe = self.redis.pipeline(transaction=False)
                for key in keys:
                    pipe.zrem(key, slot)
                pipe.execute()
            except Exception:  # noqa: BLE001 -- Redis unreachable: the lease lapses by itself
                pass


def slots() -> StreamSlots:
    """This app's stream caps (made on first use from its config and Redis client)."""
    from referee.api.context import service
    found = current_app.extensions.get("referee.streams")
    if found is None:
        found = StreamSlots.from_config(service().store.redis, current_app.config)
        current_app.extensions["referee.streams"] = found
    return found


def slot() -> contextlib.AbstractContextManager[None]:
    """One slot for the current request's client address (enter it to hold
    it): the rate limit's notion of an address, so ``REFEREE_TRUSTED_PROXIES``
    applies and an IPv6 client counts by its /64."""
    from referee.ratelimit import client_address  # it imports the API: not at module load
    return slots().hold(client_address())


def client_gone() -> Callable[[], bool]:
    """A check that the current request's client has hung up: its socket
    reads as closed. Without the socket (not under gunicorn) it never says so."""
    sock = request.environ.get("gunicorn.socket")
    if sock is None:
        return lambda: False

    def gone() -> bool:
        try:
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):  # closed under us
            return True
    return gone
