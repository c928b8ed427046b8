"""The Flask app factory: blueprints, problem responses, metrics, rate limit, CORS."""
from __future__ import annotations

import os
import time
from typing import Any, Mapping

import redis
from flask import Flask, Response, g, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from referee.api.context import refuse_token_in_url
from referee.engine.protocol import IllegalMove, RefereeError
from referee.metrics import LATENCY, REQUESTS
from referee.service import GameService
from referee import ratelimit
from referee.store import EventStore, canonical

PROBLEM = "application/problem+json"


def problem(status: int, code: str, detail: str, *, kind: str | None = None, **extra: Any) -> Response:
    """An RFC 9457 problem response with a stable machine ``code``; ``kind``
    (default: the code) names the problem type, e.g. ``illegal_move``."""
    kind = kind or code
    body = {"type": f"https://referee.dev/problems/{kind}", "title": kind.replace("_", " "),
            "status": status, "code": code, "detail": detail}
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(canonical(body), status=status, mimetype=PROBLEM)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        ADMIN_TOKEN=os.environ.get("REFEREE_ADMIN_TOKEN"),
        MAX_CONTENT_LENGTH=64 * 1024,
        SCHEDULER=None,
        CLOCK=None,
        RATE_LIMIT=os.environ.get("REFEREE_RATE_LIMIT", "50/100"),
        CORS_ORIGINS=os.environ.get("REFEREE_CORS_ORIGINS", "*"),
    )
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    client = app.config.get("REDIS") or redis.Redis.from_url(app.config["REDIS_URL"])
    scheduler = app.config["SCHEDULER"]
    if scheduler is None and app.config.get("ENQUEUE_JOBS", True):
        from referee.scheduling import RqScheduler
        scheduler = RqScheduler(client)
    kwargs: dict[str, Any] = {"scheduler": scheduler}
    if app.config["CLOCK"] is not None:
        kwargs["clock"] = app.config["CLOCK"]
    app.extensions["referee.service"] = GameService(EventStore(client), **kwargs)

    from referee.api import bots, games, meta
    app.register_blueprint(games.bp)
    app.register_blueprint(meta.bp)
    app.register_blueprint(bots.bp)
    _register_errors(app)
    _register_metrics(app)
    app.before_request(refuse_token_in_url)
    _register_rate_limit(app)
    _register_cors(app)
    return app


def _register_cors(app: Flask) -> None:
    """Browser tables on other origins may call the API: seat tokens travel in
    the Authorization header, never in cookies, so no credentials are allowed.
    ``REFEREE_CORS_ORIGINS``: ``*`` (default), a comma-separated list, or ``off``."""
    setting = str(app.config["CORS_ORIGINS"]).strip()
    if setting.lower() in ("off", ""):
        return
    allowed = None if setting == "*" else {o.strip() for o in setting.split(",") if o.strip()}

    @app.after_request
    def cors(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin is None or (allowed is not None and origin not in allowed):
            return response
        response.headers["Access-Control-Allow-Origin"] = "*" if allowed is None else origin
        if allowed is not None:
            response.headers.add("Vary", "Origin")
        response.headers["Access-Control-Allow-Headers"] = \
            "Authorization, Content-Type, Idempotency-Key, Last-Event-ID"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Expose-Headers"] = "Retry-After"
        response.headers["Access-Control-Max-Age"] = "600"
        return response


def _register_rate_limit(app: Flask) -> None:
    """Flask-Limiter on the app's Redis, keyed on the verified caller, failed
    authentication counted per address; the client address honours
    ``REFEREE_TRUSTED_PROXIES`` (see ``referee.ratelimit``)."""
    ratelimit.trust_proxies(app)
    ratelimit.install(app, app.extensions["referee.service"].store.redis)


def _register_errors(app: Flask) -> None:
    @app.errorhandler(RefereeError)
    def refused(err: RefereeError) -> Response:
        kind = "illegal_move" if isinstance(err, IllegalMove) else err.code
        return problem(err.status, err.code, err.detail, kind=kind, rule=err.rule, **getattr(err, "extra", {}))

    @app.errorhandler(ValidationError)
    def invalid(err: ValidationError) -> Response:
        return problem(400, "invalid_body", "the request does not match the contract", errors=err.messages)

    @app.errorhandler(HTTPException)
    def http(err: HTTPException) -> Response:
        codes = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large", 415: "unsupported_media_type"}
        status = err.code or 500
        return problem(status, codes.get(status, f"http_{status}"), err.description or err.name)

    @app.errorhandler(redis.exceptions.ConnectionError)
    def redis_down(err: Exception) -> Response:
        return problem(503, "redis_unavailable", "the event store is unreachable; retry later")

    @app.errorhandler(Exception)
    def crashed(err: Exception) -> Response:
        app.logger.exception("unhandled error")
        return problem(500, "internal_error", "the referee failed; nothing was recorded by this request")


def _register_metrics(app: Flask) -> None:
    @app.before_request
    def start() -> None:
        g.started = time.perf_counter()

    @app.after_request
    def record(response: Response) -> Response:
        endpoint = request.endpoint or "unknown"
        REQUESTS.labels(endpoint=endpoint, method=request.method, status=str(response.status_code)).inc()
        LATENCY.labels(endpoint=endpoint).observe(time.perf_counter() - g.get("started", time.perf_counter()))
        return response
