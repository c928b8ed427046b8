"""Typed errors of :mod:`referee.client`.

Every problem response of the referee (RFC 9457, ``application/problem+json``:
``type, title, status, code, detail`` and, where they apply, ``rule``,
``current_version``, ``retry_after`` …) is raised as an :class:`HttpProblem`,
or as the subclass that names what went wrong, so a bot can catch exactly
what it can handle::

    try:
        client.games.move(game_id, move, token=token)
    except VersionConflict as conflict:   # someone moved first: look again
        view = client.games.view(game_id, token=token)
    except IllegalMove as illegal:        # the rules said no
        print(illegal.rule, illegal.detail)
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

#: what a problem body is: JSON, as the server sent it
Body = dict[str, Any]


class HttpProblem(Exception):
    """A problem response (any status >= 400): the base of every typed error.

    ``status`` is the HTTP status, ``body`` the problem document as sent (or a
    stand-in ``{"code": "http_<status>", "detail": <text>}`` when the answer
    was not JSON, e.g. from a proxy); ``code``, ``detail``, ``rule``,
    ``title`` and ``type`` are read from it, ``retry_after`` (seconds) from the
    ``Retry-After`` header, else the body. ``HttpProblem(status, body)`` is the
    constructor the earlier client had; it still works."""

    def __init__(self, status: int, body: Mapping[str, Any], *, retry_after: float | None = None,
                 method: str | None = None, url: str | None = None) -> None:
        self.status = status
        self.body: Body = dict(body)
        self.method, self.url = method, url
        found = self.body.get("retry_after")
        self.retry_after: float | None = retry_after if retry_after is not None else (
            float(found) if isinstance(found, (int, float)) and not isinstance(found, bool) else None)
        super().__init__(f"{status} {self.code}: {self.detail}")

    @property
    def code(self) -> str | None:
        """The stable machine code (``version_conflict``, ``bang_limit`` …)."""
        code = self.body.get("code")
        return code if isinstance(code, str) else None

    @property
    def detail(self) -> str | None:
        """The human-readable explanation."""
        detail = self.body.get("detail")
        return detail if isinstance(detail, str) else None

    @property
    def rule(self) -> str | None:
        """The rule ID broken (``R…``, ``FO…``, ``D…``, ``F…``), where a rule was."""
        rule = self.body.get("rule")
        return rule if isinstance(rule, str) and rule else None

    @property
    def title(self) -> str | None:
        """The problem's title (the status's reason phrase)."""
        title = self.body.get("title")
        return title if isinstance(title, str) else None

    @property
    def type(self) -> str | None:
        """The problem's ``type`` URI."""
        kind = self.body.get("type")
        return kind if isinstance(kind, str) else None


class BadRequest(HttpProblem):
    """400: the request is malformed (bad JSON, a move of no known shape, a token in the URL …)."""


class Unauthorized(HttpProblem):
    """401: no credential, or one that does not authenticate (``token_required``, ``bad_token`` …)."""


class Forbidden(HttpProblem):
    """403: authenticated, but not allowed (``log_not_public`` …)."""


class NotYourTurn(Forbidden):
    """403 to a move: the referee does not await this seat now (``not_your_turn``,
    ``seat_required`` …; ``rule`` names the turn rule)."""


class NotFound(HttpProblem):
    """404: no such game, bot, tournament or ruleset."""


class Conflict(HttpProblem):
    """409: the request conflicts with the resource's state (``tournament_finished`` …)."""


class VersionConflict(Conflict):
    """409 ``version_conflict``: the game moved on since ``expected_version``;
    ``current_version`` is where it is now. Look at the game again, then decide."""

    @property
    def current_version(self) -> int | None:
        """The game's version when the move was refused."""
        found = self.body.get("current_version")
        return found if isinstance(found, int) and not isinstance(found, bool) else None


class GameOver(HttpProblem):
    """410 ``game_over``: the game is finished (or aborted); no move is taken."""


class Unprocessable(HttpProblem):
    """422: well-formed but refused (an unknown ruleset, bad options …)."""


class IllegalMove(Unprocessable):
    """422 to a move: the rules refuse it; ``rule`` names the rule broken."""


class RateLimited(HttpProblem):
    """429 (``rate_limited``, ``too_many_streams``, ``tournament_quota``): wait
    ``retry_after`` seconds. Safe requests are retried for you first."""


class Unavailable(HttpProblem):
    """503 (``redis_unavailable``, ``streams_full``, ``tournaments_busy``): wait
    ``retry_after`` seconds. Safe requests are retried for you first."""


_BY_STATUS: dict[int, type[HttpProblem]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 410: GameOver,
    422: Unprocessable, 429: RateLimited, 503: Unavailable,
}


def retry_after_header(value: str | None) -> float | None:
    """``Retry-After`` in seconds (the referee sends delta-seconds; an HTTP date is not used)."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def problem_for(status: int, body: Mapping[str, Any], *, retry_after: float | None = None, move: bool = False,
                method: str | None = None, url: str | None = None) -> HttpProblem:
    """The typed error of a problem response: by status, refined by code, and
    for a move (``move=True``) a 403 is :class:`NotYourTurn` and a 422 an
    :class:`IllegalMove`."""
    kind: type[HttpProblem] = _BY_STATUS.get(status, HttpProblem)
    if status == 409 and body.get("code") == "version_conflict":
        kind = VersionConflict
    elif move and status == 403:
        kind = NotYourTurn
    elif move and status == 422:
        kind = IllegalMove
    return kind(status, body, retry_after=retry_after, method=method, url=url)
