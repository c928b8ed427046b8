"""Refusals of the platform (the rules' own live in ``referee.engine.protocol``).

Every refusal becomes an RFC 9457 problem response with a stable ``code``.
"""
from __future__ import annotations

from typing import Any

from referee.engine.protocol import RefereeError


class ApiError(RefereeError):
    """A platform refusal with its HTTP status and any extra problem members."""

    def __init__(self, status: int, code: str, detail: str, *, rule: str | None = None, **extra: Any) -> None:
        super().__init__(code, detail=detail, rule=rule)
        self.status = status
        self.extra = extra


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "game_not_found", f"no game with id {game_id!r}")


def token_reissued() -> ApiError:
    """401: the token was its seat's, and the seat's token has been reissued since."""
    return ApiError(401, "bad_token", "this token is no longer its seat's: the seat's token was reissued")


def version_conflict(current: int, expected: int) -> ApiError:
    return ApiError(409, "version_conflict",
                    f"the game is at version {current}, not {expected}: reload and decide again",
                    current_version=current)


def game_over(version: int, rule: str | None = None) -> ApiError:
    """410: the game is over (``rule``: the ruleset's rule that says so, e.g. F33)."""
    return ApiError(410, "game_over", "the game is over: no move is accepted", rule=rule, current_version=version)
