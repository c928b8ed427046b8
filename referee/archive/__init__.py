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

from referee.archive.db import Archive, ArchivedGame, Query, from_env

__all__ = ["Archive", "ArchivedGame", "Query", "from_env"]
