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

import fnmatch
import hashlib
import hmac
import ipaddress
import json
import socket
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import requests

from referee.errors import ApiError

MAX_SKEW_S = 300


class BotFailure(Exception):
    """The bot gave no usable answer; ``cause`` is recorded with the default move."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


@dataclass(frozen=True)
class UrlPolicy:
    """Which bot URLs may be called: an optional host allowlist (glob
    patterns) and whether private, loopback and link-local addresses are allowed."""

    allowlist: tuple[str, ...] = ()
    allow_private: bool = False

    @classmethod
    def from_env(cls, env: Any) -> "UrlPolicy":
        allow = tuple(p.strip() for p in env.get("REFEREE_BOT_URL_ALLOWLIST", "").split(",") if p.strip())
        return cls(allow, env.get("REFEREE_BOT_ALLOW_PRIVATE", "") in ("1", "true", "yes"))

    def check(self, url: str) -> None:
        """Refuse (422 ``bot_url_refused``) a URL this referee must not call."""
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ApiError(422, "bot_url_refused", "a bot URL is an absolute http(s) URL")
        host = parsed.hostname
        if self.allowlist and not any(fnmatch.fnmatch(host, pattern) for pattern in self.allowlist):
            raise ApiError(422, "bot_url_refused", f"{host} is not on the bot URL allowlist")
        try:
            infos = socket.getaddrinfo(host, parsed.port or (443 if parsed.scheme == "https" else 80))
        except socket.gaierror:
            raise ApiError(422, "bot_url_refused", f"{host} does not resolve") from None
        for info in infos:
            address = ipaddress.ip_address(info[4][0])
            private = (address.is_private or address.is_loopback or address.is_link_local
                       or address.is_multicast or address.is_reserved or address.is_unspecified)
            if private and not self.allow_private:
                raise ApiError(422, "bot_url_refused",
                               f"{host} resolves to a private or loopback address ({address}); "
                               "set REFEREE_BOT_ALLOW_PRIVATE=1 to allow it")


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str, *, now: float | None = None) -> bool:
    """What a bot runs on each request: signature valid and timestamp fresh."""
    try:
        ts = int(timestamp)
    except ValueError:
        return False
    if abs((now if now is not None else time.time()) - ts) > MAX_SKEW_S:
        return False
    return hmac.compare_digest(sign(secret, ts, body), signature)


def ask(url: str, secret: str, payload: dict[str, Any], *, delivery: str, policy: UrlPolicy,
        timeout_s: float = 5.0, attempts: int = 2) -> dict[str, Any]:
    """POST the turn to the bot and return its move; ``BotFailure`` when it
    times out, errs, or answers something that is not ``{"move": {...}}``.
    Retries (bounded) carry the same delivery id."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    cause = "no_attempt"
    for _ in range(max(1, attempts)):
        try:
            policy.check(url)  # again at call time: DNS may have changed since registration
        except ApiError as err:
            raise BotFailure("url_refused") from err
        ts = int(time.time())
        headers = {"Content-Type": "application/json", "X-Referee-Timestamp": str(ts),
                   "X-Referee-Delivery": delivery, "X-Referee-Signature": sign(secret, ts, body)}
        try:
            response = requests.post(url, data=body, headers=headers, timeout=timeout_s, allow_redirects=False)
        except requests.Timeout:
            cause = "timeout"
            continue
        except requests.RequestException:
            cause = "unreachable"
            continue
        if response.status_code >= 500:
            cause = f"http_{response.status_code}"
            continue
        if response.status_code != 200:
            raise BotFailure(f"http_{response.status_code}")
        try:
            answer = response.json()
        except ValueError:
            raise BotFailure("not_json") from None
        move = answer.get("move") if isinstance(answer, dict) else None
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise BotFailure("no_move")
        return move
    raise BotFailure(cause)
