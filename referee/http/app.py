"""The Flask app factory: blueprints, problem responses, metrics, rate limit, CORS."""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from flask import Flask, Response, g, request
from flask.json.provider import DefaultJSONProvider
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Rule

from referee import settings
from referee.engine import jsonenc
from referee.engine.protocol import IllegalMove, RefereeError
from referee.games import registry
from referee.http import quotas, ratelimit
from referee.http.context import refuse_token_in_url
from referee.http.credentials import ServiceCredentials
from referee.http.problems import problem
from referee.service import GameService
from referee.service.metrics import REDIS_ERRORS, install_live, observe_request
from referee.store.clients import REDIS_UNAVAILABLE, connect, is_cluster
from referee.store.pushed import Pushed
from referee.store.redis_store import EventStore


class JsonProvider(DefaultJSONProvider):
    """Flask's JSON (a view's returned dict, ``jsonify``, ``request.get_json``)
    through the referee's one encoder (``referee.engine.jsonenc``): compact,
    UTF-8 as is. Flask's own encoder where that one cannot serve: sorted
    keys or an indent asked for, a type JSON lacks (a date…), or a lone
    surrogate (an audit quoting a forged log), which Flask escapes."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if self.sort_keys or kwargs.keys() - {"separators"}:
            return super().dumps(obj, **kwargs)
        try:
            return jsonenc.dumps(obj).decode()
        except (TypeError, ValueError):  # UnicodeEncodeError is a ValueError
            return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return jsonenc.loads(s) if not kwargs else super().loads(s, **kwargs)


class SharedBuilderRule(Rule):
    """werkzeug's ``Rule``, whose URL builder (Python code generated and
    compiled for every rule of every app: 16 ms of the 18 that building the
    referee's app takes) is made once a process for a rule that reads the same
    and shared by the apps built after it (the tests build hundreds, a
    gunicorn worker one). A builder reads its rule's converters from the rule
    it is bound to when it runs; a rule with defaults, which the builder
    writes in as text, builds its own."""

    #: the builders made, by what a builder is made of: the rule's parts as parsed (its host or subdomain
    #: and its path, slashes merged), its text (the builder's name), with or without ?query
    BUILT: ClassVar[dict[tuple[Any, ...], Callable[..., tuple[str, str]]]] = {}

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        if self.defaults:
            return super()._compile_builder(append_unknown)
        key = (tuple(self._trace), self.rule, append_unknown)
        built = self.BUILT.get(key)
        if built is None:
            built = self.BUILT[key] = super()._compile_builder(append_unknown)
        return built


class RefereeFlask(Flask):
    """Flask, asking once per function whether it is a coroutine function:
    ``ensure_sync`` (Flask's override point for async views) asks
    ``inspect.iscoroutinefunction`` of every hook and view on every request,
    seven times a request here, for an answer that never changes (the
    referee's hooks and views are all plain functions)."""

    url_rule_class = SharedBuilderRule
    #: functions remembered at most (hooks, views and error handlers number a few dozen)
    SYNC_CACHE = 512

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        found = self._sync.get(func)
        if found is None:
            found = super().ensure_sync(func)
            if len(self._sync) < self.SYNC_CACHE:
                self._sync[func] = found
        return found


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = RefereeFlask(__name__)
    app.json = JsonProvider(app)
    app.config.update(
        REDIS_URL=settings.get("REDIS_URL"),
        REDIS_TIMEOUT_S=float(settings.text("REFEREE_REDIS_TIMEOUT_S")),
        ADMIN_TOKEN=settings.get("REFEREE_ADMIN_TOKEN"),
        MAX_CONTENT_LENGTH=64 * 1024,
        SCHEDULER=None,
        CLOCK=None,
        RATE_LIMIT=settings.get("REFEREE_RATE_LIMIT"),
        CORS_ORIGINS=settings.get("REFEREE_CORS_ORIGINS"),
        # failed-authentication blocks pushed by Redis (never games' heads: referee.store.pushed)
        PUSHED=settings.text("REFEREE_PUSHED").strip().lower() not in ("off", "0", "no", "false"),
    )
    app.config.update(config or {})
    app.json.sort_keys = False
    registry.load_all()  # every ruleset and its compiled move checks ready before the first request
    client = app.config.get("REDIS") or connect(app.config["REDIS_URL"],
                                                timeout_s=float(app.config["REDIS_TIMEOUT_S"]))
    scheduler = app.config["SCHEDULER"]
    if scheduler is None and app.config.get("ENQUEUE_JOBS", True):
        from referee.service.scheduling import RqScheduler, queue_connection
        scheduler = RqScheduler(app.config.get("RQ_REDIS") or queue_connection(
            client, timeout_s=float(app.config["REDIS_TIMEOUT_S"])))
    # on a cluster a block is published on one node and reaches the others
    # later: nothing pushed is trusted there (docs/operations.md, "Running at scale")
    pushed = app.config["PUSHED"] and not is_cluster(client)
    kwargs: dict[str, Any] = {"scheduler": scheduler, "pushed": Pushed(client) if pushed else None}
    if app.config["CLOCK"] is not None:
        kwargs["clock"] = app.config["CLOCK"]
    if app.config.get("ARCHIVE") is not None:  # an archive of the caller's (tests); else REFEREE_ARCHIVE_URL's
        kwargs["archive"] = app.config["ARCHIVE"]
    app.extensions["referee.service"] = svc = GameService(EventStore(client), **kwargs)
    _install_live(svc, scheduler)

    _register_blueprints(app)
    _register_errors(app)
    _register_metrics(app)
    app.before_request(_refuse_token_in_query)
    _register_rate_limit(app)
    quotas.install(app)  # the per-client quotas, read once
    _register_cors(app)
    return app


def _register_blueprints(app: Flask) -> None:
    """Every route's blueprint."""
    from referee.http.api import archive, bots, chat, games, meta, pool, reference, rematch, spectators, watch
    app.register_blueprint(games.bp)
    app.register_blueprint(chat.bp)  # the table chat in the chain (issue 40 item 5)
    app.register_blueprint(rematch.bp)  # rematches and series (issue 40 item 4)
    app.register_blueprint(spectators.bp)  # the delayed omniscient broadcast (issue 40 item 6)
    app.register_blueprint(meta.bp)
    app.register_blueprint(bots.bp)
    app.register_blueprint(watch.bp)  # the page that watches, replays and verifies a game (issue 25)
    app.register_blueprint(reference.bp)  # /docs: the live API reference (issue 39)
    from referee.http.api import webhooks
    app.register_blueprint(webhooks.bp)  # a game's end webhook deliveries (issue 40 item 3)
    from referee.http.api import transparency
    app.register_blueprint(transparency.bp)  # the transparency log of final heads (issue 41 item 4)
    app.register_blueprint(archive.bp)  # finished games' history: search and export (issue 41)
    from referee.http.api import ladder
    app.register_blueprint(ladder.bp)  # the bots' lasting ratings (issue 42)
    app.register_blueprint(pool.bp)  # the ladders' matchmaking pools (issue 42 item 3)


def _install_live(svc: GameService, scheduler: Any) -> None:
    """The gauges read from Redis when scraped: open streams, the queue's depth, the pools' waiting bots."""
    slots = svc.store.stream_slots()
    install_live("referee_stream_slots", "open event streams and long-polls (every referee's)", slots.open)
    if hasattr(scheduler, "depth"):
        install_live("referee_queue_depth", "jobs waiting on the queue", scheduler.depth)
    from referee.ladder.pool import Pool
    install_live("referee_pool_queue", "bots waiting for a game in the ladders' pools (every pool's)",
                 Pool(svc).queue)


def _refuse_token_in_query() -> None:
    """``refuse_token_in_url``, asked only of a request with a query string
    (most have none, and ``request.args`` parses it)."""
    if request.query_string:
        refuse_token_in_url()


def _register_cors(app: Flask) -> None:
    """Browser tables on other origins may call the API: seat tokens travel in
    the Authorization header, never in cookies, so no credentials are allowed.
    A preflight is answered with the route's own methods (``DELETE`` of a
    tournament included). ``REFEREE_CORS_ORIGINS``: ``*`` (default), a comma-separated list, or ``off``."""
    setting = str(app.config["CORS_ORIGINS"]).strip()
    if setting.lower() in ("off", ""):
        return
    allowed = None if setting == "*" else {o.strip() for o in setting.split(",") if o.strip()}
    by_rule: dict[str, str] = {}

    def methods() -> str | None:
        """The methods of the request's route (every rule of its path: GET
        and DELETE of a tournament are two views), as a preflight lists them."""
        rule = request.url_rule
        if rule is None:
            return None
        found = by_rule.get(rule.rule)
        if found is None:
            adapter = app.create_url_adapter(request)
            names = adapter.allowed_methods(request.path) if adapter is not None else sorted(rule.methods or ())
            found = by_rule[rule.rule] = ", ".join(m for m in sorted(names) if m != "HEAD")
        return found

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
        route_methods = methods()
        if route_methods:
            response.headers["Access-Control-Allow-Methods"] = route_methods
        response.headers["Access-Control-Expose-Headers"] = "Retry-After"
        response.headers["Access-Control-Max-Age"] = "600"
        return response


def _register_rate_limit(app: Flask) -> None:
    """Moving windows on the app's Redis, keyed on the verified caller, failed
    authentication counted per address; the client address honours
    ``REFEREE_TRUSTED_PROXIES`` (see ``referee.http.ratelimit``)."""
    ratelimit.trust_proxies(app)
    svc = app.extensions["referee.service"]
    ratelimit.install(app, svc.store.windows(), ServiceCredentials(svc), svc.pushed)


def _register_errors(app: Flask) -> None:
    @app.errorhandler(RefereeError)
    def refused(err: RefereeError) -> Response:
        kind = "illegal_move" if isinstance(err, IllegalMove) else err.code
        response = problem(err.status, err.code, err.detail, kind=kind, rule=err.rule, **getattr(err, "extra", {}))
        if err.status == 503:  # /health's redis_unavailable, like every other route's
            response.headers["Retry-After"] = "1"
        return response

    @app.errorhandler(ValidationError)
    def invalid(err: ValidationError) -> Response:
        return problem(400, "invalid_body", "the request does not match the contract", errors=err.messages)

    @app.errorhandler(HTTPException)
    def http(err: HTTPException) -> Response:
        codes = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large", 415: "unsupported_media_type"}
        status = err.code or 500
        response = problem(status, codes.get(status, f"http_{status}"), err.description or err.name)
        for name, value in err.get_headers():  # e.g. a 405's Allow (RFC 9110)
            if name.lower() not in ("content-type", "content-length"):
                response.headers[name] = value
        return response

    def redis_down(err: Exception) -> Response:
        # a stopped, paused, loading or failing-over Redis; a move that timed out
        # may have been recorded: a retry with its Idempotency-Key is safe
        app.logger.warning("Redis unavailable: %r", err)
        REDIS_ERRORS.labels(error=type(err).__name__).inc()
        response = problem(503, "redis_unavailable",
                           f"the event store does not answer ({type(err).__name__}); retry later")
        response.headers["Retry-After"] = "1"
        return response

    for unavailable in REDIS_UNAVAILABLE:
        app.register_error_handler(unavailable, redis_down)

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
        req = request._get_current_object()  # type: ignore[attr-defined]  # the proxy resolved once
        now = time.perf_counter()
        observe_request(req.endpoint or "unknown", req.method, response.status_code, now - g.get("started", now))
        return response
