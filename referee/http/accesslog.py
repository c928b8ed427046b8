"""gunicorn's access log without secrets: ``referee serve --access-log``
uses this logger class, which blanks a ``token`` query parameter (the SSE
stream takes one, for EventSource) and the Authorization header in every
field a log format can print. ``referee serve --log-requests`` (what
``referee run`` shows) uses ``RequestLines``: a short line a request, and
none for a client waiting (long-polls, event streams, health checks).

Without ``--access-log`` the log goes to ``/dev/null``: then no line is built
at all (gunicorn would make, redact and format every request's line and
write it to nowhere, a tenth of a trivial request's time in its worker)."""
from __future__ import annotations

import datetime
import os
import re
import time
from typing import Any
from urllib.parse import parse_qs

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

REDACTED = "[redacted]"
_TOKEN = re.compile(r"((?:^|[?&;])token=)[^&;#\s]*", re.IGNORECASE)
_SECRET_HEADERS = ("{authorization}i", "{cookie}i")


def redact(text: str) -> str:
    """``/s?after=3&token=abc`` -> ``/s?after=3&token=[redacted]``."""
    return _TOKEN.sub(lambda m: m.group(1) + REDACTED, text)


class RedactingLogger(Logger):  # type: ignore[misc]
    def _compute_access_log_enabled(self) -> bool:
        """gunicorn's answer (read by ``access`` and its workers), but no when
        the access log goes to ``/dev/null`` and nowhere else (no logging
        config, no syslog)."""
        cfg = self.cfg
        nowhere = cfg.accesslog == os.devnull and not (
            cfg.logconfig or cfg.logconfig_dict or cfg.logconfig_json or cfg.syslog)
        return not nowhere and bool(super()._compute_access_log_enabled())

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any],
              request_time: datetime.timedelta) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for name, value in atoms.items():
            if name in _SECRET_HEADERS:
                atoms[name] = REDACTED
            elif isinstance(value, str) and "token=" in value.lower():
                atoms[name] = redact(value)
        return atoms


#: the requests that only wait (a long-poll, an event stream held open) or
#: ask whether the server is up: the steady traffic of an idle referee with
#: a page or a bot open, so a line a request would drown the rest
_WAITING_PATHS = re.compile(r"^/v1/games/[^/]+/events/stream$|^/v1/bots/[^/]+/turns$")
_CHECKS = ("/health", "/metrics")


def is_idle(method: str, path: str, query: str, status: int) -> bool:
    """Whether a request is idle polling, left out of ``RequestLines``: a
    successful GET that waits or checks health. An error is never idle."""
    if method not in ("GET", "HEAD") or status >= 400:
        return False
    if path in _CHECKS or _WAITING_PATHS.match(path):
        return True
    if path.startswith("/v1/games/") and path.endswith("/events"):  # a long-poll when it waits
        return any(w not in ("", "0", "0.0") for w in parse_qs(query).get("wait", []))
    return False


def took(seconds: float) -> str:
    """``0.0123`` -> ``12 ms``; ``2.5`` -> ``2.5 s``."""
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def stamped(line: str) -> str:
    """A line of the terminal ``referee run`` prints to, after the time of day."""
    return f"{time.strftime('%H:%M:%S')} {line}"


def request_line(method: str, path: str, status: int, seconds: float) -> str:
    """``POST /v1/games 201 12 ms``: the path without its query (no token in it, ever)."""
    return f"{method:<6} {path} {status}  {took(seconds)}"


class RequestLines(RedactingLogger):
    """``referee serve --log-requests``: ``request_line`` a request, idle polling left out."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: datetime.timedelta) -> None:
        if not self.access_log_enabled:
            return
        status = int(str(resp.status).split(None, 1)[0])
        method = str(environ.get("REQUEST_METHOD", "-"))
        raw = str(environ.get("RAW_URI") or environ.get("PATH_INFO") or "/")
        path, _, query = raw.partition("?")
        if is_idle(method, path, query, status):
            return
        self.access_log.info(stamped(request_line(method, path, status, request_time.total_seconds())))
