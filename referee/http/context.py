"""Per-request access to the app's service and the caller's credentials.

Beside the blueprints (``referee.http.api``), not among them: the rate limiter and
the stream caps read it too, and the blueprints import those (a module here
keeps the packages acyclic, issue 26 item 6)."""
from __future__ import annotations

import hmac
import os
from collections.abc import Callable, Mapping
from typing import Any

from flask import current_app, g, request
from marshmallow import Schema

from referee.bots.webhook import UrlPolicy
from referee.errors import ApiError
from referee.json_boundary import check_value, load_json
from referee.service import GameService

#: the longest ``Idempotency-Key`` a move may carry (openapi.yaml)
IDEMPOTENCY_KEY_MAX = 256


def service() -> GameService:
    svc: GameService = current_app.extensions["referee.service"]
    return svc


def url_policy() -> UrlPolicy:
    """Which URLs the referee may call (a bot's, a game's callback): the app's
    ``BOT_URL_POLICY`` (tests allow loopback), else the environment's."""
    configured = current_app.config.get("BOT_URL_POLICY")
    return configured if configured is not None else UrlPolicy.from_env(os.environ)


#: the one route whose clients cannot set headers (EventSource): only it takes ``?token=``
QUERY_TOKEN_ENDPOINTS = frozenset({"games.stream_events"})


def bearer_token() -> str | None:
    """The token from ``Authorization: Bearer …`` (or ``?token=`` on the SSE
    stream, for EventSource, which cannot set headers)."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "bad_authorization", "use Authorization: Bearer <seat token>")
        return token.strip()
    if request.endpoint in QUERY_TOKEN_ENDPOINTS:
        return request.args.get("token") or None
    return None


def refuse_token_in_url() -> None:
    """``before_request``: a ``token`` query parameter anywhere but the SSE
    stream is refused (400 ``token_in_url``), not ignored: URLs land in
    access logs, proxies and browser history, and a client that sends one
    learns at once to use the header."""
    if request.routing_exception is not None:  # no such route or method: its 404/405 says so
        return
    if "token" in request.args and request.endpoint not in QUERY_TOKEN_ENDPOINTS:
        raise ApiError(400, "token_in_url", "tokens in URLs leak into logs and proxies: send "
                       "Authorization: Bearer <token> (only the SSE stream takes ?token=)")


def is_admin() -> bool:
    """The caller presents the admin token. Any other token presented here is
    marked refused, so the rate limiter counts it as a failed authentication
    (guessing the admin token is throttled like guessing a seat's)."""
    admin = current_app.config.get("ADMIN_TOKEN")
    token = bearer_token()
    if token is None:
        return False
    if bool(admin) and hmac.compare_digest(token.encode(), str(admin).encode()):
        return True
    g.admin_token_refused = True
    return False


def json_body(schema: Schema, quick: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
              ) -> dict[str, Any]:
    """The request's JSON object, validated (400 on anything malformed: bad
    syntax, too deep, not Unicode, or not what ``schema`` takes). ``quick``:
    what ``schema`` would load, found faster for a plainly good body, or
    ``None`` (then ``schema`` loads it, or names what is wrong)."""
    if not request.is_json:
        raise ApiError(400, "invalid_json", "the body must be a JSON object (Content-Type: application/json)")
    body = load_json(request.get_data(cache=True))  # over MAX_CONTENT_LENGTH: 413
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_json", "the body must be a JSON object (Content-Type: application/json)")
    fast = quick(body) if quick is not None else None
    if fast is not None:
        return fast
    loaded: dict[str, Any] = schema.load(body)
    return loaded


def query(schema: Schema, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The query string, validated by ``schema`` (400 when it does not fit)."""
    raw = dict(args if args is not None else request.args)
    check_value(raw)
    loaded: dict[str, Any] = schema.load(raw)
    return loaded


def idempotency_key() -> str | None:
    """The move's ``Idempotency-Key`` header (at most 256 characters)."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and len(key) > IDEMPOTENCY_KEY_MAX:
        raise ApiError(400, "invalid_idempotency_key",
                       f"Idempotency-Key is at most {IDEMPOTENCY_KEY_MAX} characters, not {len(key)}")
    return key
