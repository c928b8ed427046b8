"""What the archive holds and is asked, with no database library loaded:
the records (``ArchivedGame``, ``Query``, the search cursor) and the error
of a database that does not answer. SQLAlchemy (``db``) is imported only
where an archive is opened (``referee.archive.from_env``, ``Archive``): a
referee keeping no archive starts without it."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


class ArchiveUnavailable(Exception):
    """The archive's database did not answer, or refused what it was asked
    (any error of its driver, SQLAlchemy's, which it is raised from, with
    that error's words): a job retries, a read falls back to nothing."""


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """A finished game as the archive holds it (``log``: the bytes ``/log`` serves)."""

    id: str
    ruleset: str
    ruleset_version: str
    status: str
    version: int
    custom: bool
    tournament: str | None
    created_at: int
    finished_at: int
    head: str
    signature: Any
    result: Any
    seats: list[dict[str, Any]]
    log: bytes
    meta: dict[str, str] = field(default_factory=dict)
    secret: dict[str, str] = field(default_factory=dict)
    tlog_index: int | None = None  # its leaf's index in the transparency log (``None``: not logged)
    tlog_leaf: str | None = None  # its leaf's input

    def summary(self, stored_bytes: int | None = None) -> dict[str, Any]:
        """Its public facts, as search lists them."""
        out = {"id": self.id, "ruleset": self.ruleset, "ruleset_version": self.ruleset_version,
               "status": self.status, "version": self.version, "custom": self.custom,
               "tournament": self.tournament, "created_at": self.created_at, "finished_at": self.finished_at,
               "head": self.head, "signature": self.signature, "result": self.result, "seats": self.seats}
        return out


@dataclass(frozen=True, slots=True)
class Query:
    """What search looks for; every field left ``None`` matches all."""

    ruleset: str | None = None
    seat: str | None = None  # a seat's name
    bot: str | None = None
    tournament: str | None = None
    result: str | None = None  # the result's reason
    since: int | None = None  # finished at or after (ms)
    until: int | None = None  # finished before (ms)


def reason_of(result: Any) -> str | None:
    """A result's reason (what search finds it by), ``None`` if it has none."""
    return str(result["reason"]) if isinstance(result, dict) and result.get("reason") is not None else None


def cursor_at(finished_at: int, game_id: str) -> str:
    """The search cursor of the game finished at ``finished_at`` (ms) with id ``game_id``."""
    return f"{finished_at}.{game_id}"


CURSOR = re.compile(r"(0|[1-9][0-9]{0,15})[.]([A-Za-z0-9_-]{1,64})")


def parse_cursor(cursor: str) -> tuple[int, str]:
    """A search cursor, ``<finished_at ms>.<id>``, back to (finished_at, id); ``ValueError`` if it is not one."""
    found = CURSOR.fullmatch(cursor)
    if found is None:
        raise ValueError("a cursor is the next of the page before: <finished_at ms>.<id>")
    return int(found[1]), found[2]
