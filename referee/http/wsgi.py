"""WSGI entry point for gunicorn: ``referee.http.wsgi:app``.

Under the gevent worker class (the default of ``referee serve``) a request's
body must arrive whole within ``REFEREE_READ_TIMEOUT_S`` (default 10 s): a
client that sends half a body and stalls gets 408 and loses its connection
instead of holding it forever. gunicorn bounds the headers by the same time
(``--keep-alive``)."""
from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask

from referee import settings
from referee.http.app import create_app
from referee.http.problems import problem

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


def _gevent_patched() -> bool:
    """True in a gunicorn gevent worker (sockets are cooperative there)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))


class BodyDeadline:
    """Reads a request's body whole, within ``timeout_s``, before the app runs.

    A body larger than ``max_bytes`` is left to the app (Flask answers 413
    without reading it). Only a gevent worker can interrupt a blocked read;
    elsewhere (tests, the Flask dev server) requests pass through untouched."""

    def __init__(self, app: WSGIApplication, timeout_s: float, max_bytes: int) -> None:
        self.app, self.timeout_s, self.max_bytes = app, timeout_s, max_bytes

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if (length <= 0 and not chunked) or length > self.max_bytes:
            return self.app(environ, start_response)
        import gevent
        try:
            with gevent.Timeout(self.timeout_s):
                body = self._read(environ["wsgi.input"], length if length > 0 else self.max_bytes + 1)
        except gevent.Timeout:
            # the connection is closed after this answer: gunicorn cannot find where
            # the next request starts, and its drain of the rest is bounded by --keep-alive
            refused = problem(408, "request_timeout",
                              f"the request body did not arrive within {self.timeout_s:g} s")
            return refused(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        return self.app(environ, start_response)

    @staticmethod
    def _read(stream: Any, size: int) -> bytes:
        parts: list[bytes] = []
        left = size
        while left > 0:
            part = stream.read(min(left, 65536))
            if not part:
                break
            parts.append(part)
            left -= len(part)
        return b"".join(parts)


def _widen_redis_pool(flask_app: Flask) -> None:
    """Let every greenlet have a Redis connection: each open stream or
    long-poll blocks one in ``XREAD``, and redis-py's pool refuses past 100
    (``MaxConnectionsError``), which would fail every route. The pool is as
    wide as the deployment's stream cap plus room for everything else
    (``REFEREE_REDIS_MAX_CONNECTIONS`` overrides it)."""
    from referee.http.streams import StreamSlots
    wanted = settings.get("REFEREE_REDIS_MAX_CONNECTIONS")
    if wanted is None:
        most = StreamSlots.from_config(None, flask_app.config).most
        wanted = str(most + 1000 if most else 10000)
    flask_app.extensions["referee.service"].store.widen_pool(int(wanted))


def wrap(flask_app: Flask) -> WSGIApplication:
    """The app as gunicorn serves it: with a body read deadline and a Redis
    pool for thousands of greenlets under gevent."""
    if not _gevent_patched():
        return flask_app
    _widen_redis_pool(flask_app)
    timeout_s = float(settings.text("REFEREE_READ_TIMEOUT_S"))
    return BodyDeadline(flask_app, timeout_s, int(flask_app.config.get("MAX_CONTENT_LENGTH") or 64 * 1024))


app = wrap(create_app())
