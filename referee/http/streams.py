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
import select
import socket
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, request

from referee import settings
from referee.errors import ApiError
from referee.http.context import service
from referee.http.problems import problem
from referee.http.ratelimit import client_address
from referee.store.slots import client_key as _client_key

#: longer than any stream (60 s) or long-poll (30 s) lives
LEASE_S = 120
#: the Retry-After of each refusal: a client's own stream may end soon; the
#: whole deployment being full is worth a longer pause
RETRY_CLIENT_S, RETRY_GLOBAL_S = 5, 15
DEFAULT_PER_CLIENT, DEFAULT_MAX = 64, 4000
class StreamsBusy(ApiError):
    """A stream or long-poll refused by a cap; answered with ``Retry-After``."""

    def __init__(self, status: int, code: str, detail: str, retry_after: int) -> None:
        super().__init__(status, code, detail, retry_after=retry_after)
        self.retry_after = retry_after


def busy_response(err: StreamsBusy) -> Response:
    """The problem response of a refusal, with its ``Retry-After`` header."""
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

    kept: Any  # ``referee.store.slots.SlotStore`` (None: caps only read, as ``referee.http.wsgi`` does)
    per_client: int = DEFAULT_PER_CLIENT
    most: int = DEFAULT_MAX
    lease_s: int = LEASE_S

    @classmethod
    def from_config(cls, kept: Any, config: Mapping[str, Any]) -> StreamSlots:
        """Caps from the app config (``STREAMS_PER_CLIENT``, ``STREAMS_MAX``), else the environment."""
        per_client = config.get("STREAMS_PER_CLIENT", settings.get("REFEREE_STREAMS_PER_CLIENT"))
        most = config.get("STREAMS_MAX", settings.get("REFEREE_STREAMS_MAX"))
        return cls(kept, parse_cap(per_client, DEFAULT_PER_CLIENT), parse_cap(most, DEFAULT_MAX))

    @staticmethod
    def client_key(client: str) -> str:
        return _client_key(client)

    @contextlib.contextmanager
    def hold(self, client: str) -> Iterator[None]:
        """Hold one slot for ``client`` while the block runs; raise
        :class:`StreamsBusy` (429 or 503) if a cap is reached."""
        if not self.per_client and not self.most:
            yield
            return
        slot = uuid.uuid4().hex
        verdict = self.kept.acquire(slot, client, self.per_client, self.most, self.lease_s * 1000)
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
            self.kept.release(slot, client)


def slots() -> StreamSlots:
    """This app's stream caps (made on first use from its config and Redis client)."""
    found = current_app.extensions.get("referee.http.streams")
    if found is None:
        found = StreamSlots.from_config(service().store.stream_slots(), current_app.config)
        current_app.extensions["referee.http.streams"] = found
    return found


def slot() -> contextlib.AbstractContextManager[None]:
    """One slot for the current request's client address (enter it to hold
    it): the rate limit's notion of an address, so ``REFEREE_TRUSTED_PROXIES``
    applies and an IPv6 client counts by its /64."""
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
