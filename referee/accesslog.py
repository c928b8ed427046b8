"""gunicorn's access log without secrets: ``referee serve --access-log``
uses this logger class, which blanks a ``token`` query parameter (the SSE
stream takes one, for EventSource) and the Authorization header in every
field a log format can print."""
from __future__ import annotations

import datetime
import re
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

REDACTED = "[redacted]"
_TOKEN = re.compile(r"((?:^|[?&;])token=)[^&;#\s]*", re.IGNORECASE)
_SECRET_HEADERS = ("{authorization}i", "{cookie}i")


def redact(text: str) -> str:
    """``/s?after=3&token=abc`` -> ``/s?after=3&token=[redacted]``."""
    return _TOKEN.sub(lambda m: m.group(1) + REDACTED, text)


class RedactingLogger(Logger):  # type: ignore[misc]
    def atoms(self, resp: Any, req: Any, environ: dict[str, Any],
              request_time: datetime.timedelta) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for name, value in atoms.items():
            if name in _SECRET_HEADERS:
                atoms[name] = REDACTED
            elif isinstance(value, str) and "token=" in value.lower():
                atoms[name] = redact(value)
        return atoms
