"""Webhook bots: a third party's HTTP endpoint plays a seat.

The worker POSTs ``{game, seat, version, view, legal_moves, deadline}`` and
expects ``{"move": {...}}`` back. Every request is signed so the bot can
trust it came from this referee and is fresh:

* ``X-Referee-Timestamp``: Unix seconds when it was sent;
* ``X-Referee-Delivery``: a unique id (the same on a retry of the same turn);
* ``X-Referee-Signature``: ``sha256=`` + hex ``HMAC-SHA256(secret, timestamp + "." + body)``.

A bot should refuse a signature that does not verify, a timestamp more than
``MAX_SKEW_S`` away from its clock, and a delivery id it has already answered
with a different move (``verify`` does the first two).
"""
from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import math
import socket
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from referee.bots.bot_url import (
    Deadline,
    Target,
    UrlPolicy,
    address_refusal,
    parse_bot_url,
)
from referee.errors import ApiError
from referee.json_boundary import load_json

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer

__all__ = ["MAX_SKEW_S", "BotFailure", "CallLimits", "Deadline", "UrlPolicy", "address_refusal", "ask",
           "connect_tcp", "parse_bot_url", "post_signed", "sign", "signed_headers", "verify"]

MAX_SKEW_S = 300
DEFAULT_TIMEOUT_S = 5.0
DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024
HEADER_ALLOWANCE = 64 * 1024  # status line, headers and chunk framing, on top of the body cap
_CHUNK = 16 * 1024
_log = logging.getLogger(__name__)

Connector = Callable[[tuple[str, int], float], socket.socket]
"""``((address, port), timeout) -> connected socket``: ``connect_tcp``, or a recording one in tests."""


class BotFailure(Exception):
    """The bot gave no usable answer; ``cause`` is recorded with the default move."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


class ResponseTooLarge(Exception):
    """The bot's answer outgrew ``CallLimits.max_response_bytes``."""


def _setting(env: Mapping[str, str], name: str, kind: Callable[[str], float], default: float) -> float:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = kind(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        _log.warning("%s=%r is not a positive number: using %s", name, raw, default)
        return default
    return value


@dataclass(frozen=True, slots=True)
class CallLimits:
    """What one webhook call may cost (issue 8, Deliver 4): ``timeout_s`` for the
    whole call (resolution, connection, TLS, request, answer and the retry
    together), and at most ``max_response_bytes`` of answer body."""

    timeout_s: float = DEFAULT_TIMEOUT_S
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> CallLimits:
        """``REFEREE_BOT_TIMEOUT_S`` and ``REFEREE_BOT_MAX_RESPONSE_BYTES``; a
        value that is not a positive number falls back to the default (logged)."""
        return cls(_setting(env, "REFEREE_BOT_TIMEOUT_S", float, DEFAULT_TIMEOUT_S),
                   int(_setting(env, "REFEREE_BOT_MAX_RESPONSE_BYTES", int, DEFAULT_MAX_RESPONSE_BYTES)))


class _Budget:
    """What is left to one attempt: the call's deadline, and bytes to read."""

    def __init__(self, deadline: Deadline, max_bytes: int) -> None:
        self.deadline, self.max_bytes, self.received = deadline, max_bytes, 0

    def count(self, n: int) -> int:
        self.received += n
        if self.received > self.max_bytes + HEADER_ALLOWANCE:
            raise ResponseTooLarge(f"more than {self.max_bytes} bytes")
        return n


class _BoundedSocket(socket.socket):
    """A TCP socket each of whose operations waits at most what is left of the
    call's deadline — a socket timeout alone is per operation, so a bot that
    trickles a byte at a time would never hit it (issue 8, Found 6)."""

    budget: _Budget

    def recv_into(self, buffer: WriteableBuffer, nbytes: int = 0, flags: int = 0) -> int:
        self.budget.deadline.arm(self)
        return self.budget.count(super().recv_into(buffer, nbytes, flags))

    def recv(self, bufsize: int, flags: int = 0, /) -> bytes:
        self.budget.deadline.arm(self)
        data = super().recv(bufsize, flags)
        self.budget.count(len(data))
        return data

    def send(self, data: ReadableBuffer, flags: int = 0, /) -> int:
        self.budget.deadline.arm(self)
        return super().send(data, flags)

    def sendall(self, data: ReadableBuffer, flags: int = 0, /) -> None:
        self.budget.deadline.arm(self)
        super().sendall(data, flags)


class _BoundedTlsSocket(ssl.SSLSocket):
    """``_BoundedSocket`` for TLS (``SSLContext.sslsocket_class``)."""

    budget: _Budget

    def recv_into(self, buffer: WriteableBuffer, nbytes: int | None = None, flags: int = 0) -> int:
        self.budget.deadline.arm(self)
        return self.budget.count(super().recv_into(buffer, nbytes, flags))

    def recv(self, buflen: int = 1024, flags: int = 0) -> bytes:
        self.budget.deadline.arm(self)
        data = super().recv(buflen, flags)
        self.budget.count(len(data))
        return data

    def send(self, data: ReadableBuffer, flags: int = 0) -> int:
        self.budget.deadline.arm(self)
        return super().send(data, flags)

    def sendall(self, data: ReadableBuffer, flags: int = 0) -> None:
        self.budget.deadline.arm(self)
        super().sendall(data, flags)


def connect_tcp(address: tuple[str, int], timeout: float) -> socket.socket:
    """Connect to one IP address (never a name: nothing is resolved here)."""
    sock = socket.socket(socket.AF_INET6 if ":" in address[0] else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(address)
    except BaseException:
        sock.close()
        raise
    return sock


_default_tls: ssl.SSLContext | None = None


def _tls_context() -> ssl.SSLContext:
    """Certificates verified against certifi's roots, as requests does."""
    global _default_tls
    if _default_tls is None:
        import certifi
        _default_tls = ssl.create_default_context(cafile=certifi.where())
    return _default_tls


class _PinnedConnection(http.client.HTTPConnection):
    """http.client to one already-checked address: no DNS of its own, the
    URL's Host header, and for https SNI and certificate checked against
    the URL's host name, not the address (issue 8, Deliver 4)."""

    def __init__(self, target: Target, address: str, budget: _Budget, connect: Connector,
                 tls: ssl.SSLContext | None) -> None:
        super().__init__(address, target.url.port, timeout=max(budget.deadline.remaining(), 0.001))
        self._pinned, self._url, self._budget, self._connector, self._tls = address, target.url, budget, connect, tls

    def connect(self) -> None:
        left = self._budget.deadline.remaining()
        if not left > 0:
            raise TimeoutError("the bot's deadline has passed")
        raw = self._connector((self._pinned, self._url.port), left)
        sock = _BoundedSocket(raw.family, raw.type, raw.proto, raw.detach())
        sock.budget = self._budget
        self.sock = sock  # from here on close() closes it, whatever fails next
        if self._url.scheme != "https":
            return
        context = self._tls or _tls_context()
        context.sslsocket_class = _BoundedTlsSocket
        tls = cast(_BoundedTlsSocket, context.wrap_socket(sock, server_hostname=self._url.host,
                                                          do_handshake_on_connect=False))
        tls.budget = self._budget
        self.sock = tls
        self._budget.deadline.arm(tls)  # the handshake as a whole is bounded by the socket timeout
        tls.do_handshake()


def _read_capped(response: http.client.HTTPResponse, cap: int) -> bytes:
    """The body, read in chunks and never more than ``cap`` bytes of it (issue 8, Found 6)."""
    declared = response.getheader("Content-Length", "")
    if declared.strip().isdigit() and int(declared) > cap:
        raise ResponseTooLarge(f"announced {declared} bytes")
    data = bytearray()
    while chunk := response.read(min(_CHUNK, cap + 1 - len(data))):
        data += chunk
        if len(data) > cap:
            raise ResponseTooLarge(f"more than {cap} bytes")
    return bytes(data)


def _post(target: Target, body: bytes, headers: dict[str, str], budget: _Budget, connect: Connector,
          tls: ssl.SSLContext | None) -> tuple[int, bytes]:
    """One POST to the first of the target's checked addresses that accepts a
    connection: ``(status, body)``, the body only for a 200."""
    failure: OSError = ConnectionError(f"{target.url.host}: no address")
    for address in target.addresses:
        conn = _PinnedConnection(target, address, budget, connect, tls)
        try:
            try:
                conn.connect()
            except (TimeoutError, ssl.SSLError):
                raise
            except OSError as err:  # refused or unreachable: the next checked address
                failure = err
                continue
            conn.request("POST", target.url.target, body=body,
                         headers={**headers, "Host": target.url.host_header, "Connection": "close"})
            response = conn.getresponse()
            return response.status, (_read_capped(response, budget.max_bytes) if response.status == 200 else b"")
        finally:
            conn.close()
    raise failure


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def signed_headers(secret: str, body: bytes, delivery: str, *, now: float | None = None) -> dict[str, str]:
    """The headers that sign ``body`` for its receiver (this module's docstring), stamped ``now``."""
    ts = int(time.time() if now is None else now)
    return {"Content-Type": "application/json", "X-Referee-Timestamp": str(ts),
            "X-Referee-Delivery": delivery, "X-Referee-Signature": sign(secret, ts, body)}


def verify(secret: str, timestamp: str, body: bytes, signature: str, *, now: float | None = None) -> bool:
    """What a bot runs on each request: signature valid and timestamp fresh."""
    try:
        ts = int(timestamp)
    except ValueError:
        return False
    if abs((now if now is not None else time.time()) - ts) > MAX_SKEW_S:
        return False
    return hmac.compare_digest(sign(secret, ts, body), signature)


def _move_of(data: bytes) -> dict[str, Any]:
    """The move in a bot's answer, read by the very parser and checks as a
    request body (``referee.json_boundary.load_json``): ``not_json`` for
    what it refuses (no JSON, ``NaN``, nested too deep, a lone surrogate),
    ``no_move`` without ``{"move": {"type": <string>, …}}``."""
    try:
        answer = load_json(data)
    except ApiError:
        raise BotFailure("not_json") from None
    move = answer.get("move") if isinstance(answer, dict) else None
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise BotFailure("no_move")
    return move


def ask(url: str, secret: str, payload: dict[str, Any], *, delivery: str, policy: UrlPolicy,
        limits: CallLimits | None = None, attempts: int = 2, connect: Connector = connect_tcp,
        tls: ssl.SSLContext | None = None) -> dict[str, Any]:
    """POST the turn to the bot and return its move; ``BotFailure`` when it
    times out, errs, or answers something that is not ``{"move": {...}}``.

    The whole call — resolving the host once, checking every address,
    connecting to a checked one, TLS, sending, reading, and one retry after a
    5xx or a refused connection with the same delivery id — ends by one
    deadline, and reads at most ``limits.max_response_bytes`` of answer
    (issue 8, Found 6 and 7, Deliver 4). Redirects are never followed."""
    limits = limits or CallLimits()
    deadline = Deadline(limits.timeout_s)
    try:
        target = policy.target(url, deadline)
    except ApiError as err:
        raise BotFailure("url_refused") from err
    except TimeoutError:
        raise BotFailure("timeout") from None
    body = json.dumps(payload, separators=(",", ":")).encode()
    cause = "no_attempt"
    for attempt in range(max(1, attempts)):
        if attempt and not deadline.remaining() > 0:
            break  # no time left for a retry: the last attempt's cause stands
        headers = signed_headers(secret, body, delivery)
        try:
            status, data = _post(target, body, headers, _Budget(deadline, limits.max_response_bytes), connect, tls)
        except TimeoutError:
            raise BotFailure("timeout") from None  # the deadline is spent: nothing left to retry with
        except ResponseTooLarge:
            raise BotFailure("response_too_large") from None
        except ssl.SSLError:
            raise BotFailure("tls_error") from None
        except (OSError, http.client.HTTPException):
            cause = "unreachable"
            continue
        if status >= 500:
            cause = f"http_{status}"
            continue
        if status != 200:  # a redirect too: it is not followed
            raise BotFailure(f"http_{status}")
        return _move_of(data)
    raise BotFailure(cause)


def post_signed(url: str, secret: str, body: bytes, *, delivery: str, policy: UrlPolicy,
                limits: CallLimits | None = None, connect: Connector = connect_tcp,
                tls: ssl.SSLContext | None = None) -> int:
    """One signed POST of ``body`` to ``url`` (a game's end webhook, issue 40
    item 3): the status the receiver answered, its body never read past the
    size limit. Held to everything a bot call is (``ask``): the URL policy
    and its checked addresses (no rebinding), one deadline for the whole
    call, the signature headers, no redirect followed. ``BotFailure`` when no
    status came back: ``url_refused``, ``timeout``, ``tls_error``,
    ``response_too_large``, ``unreachable``."""
    limits = limits or CallLimits()
    deadline = Deadline(limits.timeout_s)
    try:
        target = policy.target(url, deadline)
        status, _ = _post(target, body, signed_headers(secret, body, delivery),
                          _Budget(deadline, limits.max_response_bytes), connect, tls)
    except ApiError as err:
        raise BotFailure("url_refused") from err
    except TimeoutError:
        raise BotFailure("timeout") from None
    except ResponseTooLarge:
        raise BotFailure("response_too_large") from None
    except ssl.SSLError:
        raise BotFailure("tls_error") from None
    except (OSError, http.client.HTTPException):
        raise BotFailure("unreachable") from None
    return status
