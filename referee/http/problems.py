"""RFC 9457 problem responses (``application/problem+json`` with a stable
machine ``code``), apart from the app factory so that every view, the rate
limiter, the stream caps and gunicorn's error writer can import them at
module level: this module imports nothing of the app (issue 26 item 6, no
import cycle ``app`` <-> ``api`` <-> ``streams`` <-> ``ratelimit``)."""
from __future__ import annotations

from typing import Any

from flask import Response

from referee.engine import canonical

PROBLEM = "application/problem+json"


def problem_json(status: int, code: str, detail: str, *, kind: str | None = None, **extra: Any) -> bytes:
    """The body of an RFC 9457 problem with a stable machine ``code``; ``kind``
    (default: the code) names the problem type, e.g. ``illegal_move``."""
    kind = kind or code
    body = {"type": f"https://referee.dev/problems/{kind}", "title": kind.replace("_", " "),
            "status": status, "code": code, "detail": detail}
    body.update({k: v for k, v in extra.items() if v is not None})
    # a detail may quote client text: never let it break the error response itself
    return canonical(body).encode("utf-8", "backslashreplace")


def problem(status: int, code: str, detail: str, *, kind: str | None = None, **extra: Any) -> Response:
    """An ``application/problem+json`` response (see :func:`problem_json`)."""
    return Response(problem_json(status, code, detail, kind=kind, **extra), status=status, mimetype=PROBLEM)
