"""The archive (issue 41): every finished game kept for good in a real
database — PostgreSQL in deployments, SQLite (a file in ``var/``) as the
embedded default of ``referee run`` — through one thin layer, SQLAlchemy
Core. Only this room talks to that database (an import contract says so),
as only ``referee.store`` talks to Redis.

One row a game (``games``): its public facts (ruleset and version, result,
tournament, times, final head and its signature), the exact bytes ``/log``
serves compressed (zlib), their sizes, and what the referee needs to serve
the game again once Redis has forgotten it (its stored header fields and
secrets, all public once the game is over, never a callback secret). One row
a seat (``seats``: name and bot), for search. A write is an upsert by id that
changes nothing once the row is there: a finished game's log is final, so a
write repeated (a retried job, a job run twice) is harmless."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee import settings
from referee.archive.records import ArchivedGame, ArchiveUnavailable, Query

if TYPE_CHECKING:
    from referee.archive.db import Archive

__all__ = ["Archive", "ArchivedGame", "ArchiveUnavailable", "Query", "from_env"]


def __getattr__(name: str) -> Any:
    """``Archive``, imported (with SQLAlchemy) at its first use, not with the package."""
    if name == "Archive":
        from referee.archive.db import Archive
        return Archive
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def from_env() -> Archive | None:
    """The archive ``REFEREE_ARCHIVE_URL`` names (``None``: unset or ``off``, no archive)."""
    url = (settings.get("REFEREE_ARCHIVE_URL") or "").strip()
    if not url or url.lower() == "off":
        return None
    from referee.archive.db import Archive  # here: SQLAlchemy only for a referee that keeps an archive
    return Archive(url, timeout_s=float(settings.text("REFEREE_ARCHIVE_TIMEOUT_S")))
