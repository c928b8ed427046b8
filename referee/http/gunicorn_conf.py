"""gunicorn settings of ``referee serve`` (``-c python:referee.http.gunicorn_conf``).

gunicorn refuses some requests before the app sees them: a request line over
``limit_request_line`` (414), too many or too long headers (431), a malformed
request (400). It writes those as HTML; the contract says every error is
``application/problem+json`` with a ``code``. gunicorn has no setting for the
format, so each worker swaps the one function that writes them
(``gunicorn.util.write_error``) for one writing a problem.
"""
from __future__ import annotations

from typing import Any

# gunicorn's own defaults, stated: openapi.yaml documents them (414, 431)
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

#: gunicorn's status -> the problem's stable code
CODES = {400: "bad_request", 403: "forbidden", 414: "uri_too_long", 417: "expectation_failed",
         431: "headers_too_large", 500: "internal_error", 501: "not_implemented"}


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's ``util.write_error``, answering a problem+json instead of HTML."""
    from gunicorn import util  # type: ignore[import-untyped]

    from referee.http.problems import problem_json
    detail = mesg or reason
    body = problem_json(status_int, CODES.get(status_int, f"http_{status_int}"), detail[:300])
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def post_worker_init(worker: Any) -> None:
    from gunicorn import util
    util.write_error = write_problem
