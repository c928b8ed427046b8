"""gunicorn's access log without secrets: ``referee serve --access-log``
uses this logger class, which blanks a ``token`` query parameter (the SSE
stream takes one, for EventSource) and the Authorization header in every
field a log format can print.

Without ``--access-log`` the log goes to ``/dev/null``: then no line is built
at all (gunicorn would make, redact and format every request's line and
write it to nowhere, a tenth of a trivial request's time in its worker)."""
from __future__ import annotations

import datetime
import os
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
