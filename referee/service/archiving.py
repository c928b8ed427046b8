"""Finished games into the archive, and back out of it (issue 41;
docs/archive.md).

- **Write**: when a game ends, the scheduler enqueues its archive job
  (``workers.archive``; the game enters the pending set first). The job
  reads the game from Redis, writes its row (an upsert by id: a repeat
  changes nothing), reads the row's final head back and, only if it is the
  game's, marks the write confirmed in Redis — which shortens the life of
  the game's keys to ``REFEREE_RETENTION_ARCHIVED_S`` — and leaves the
  pending set. A database that does not answer fails the job: RQ tries it
  again after each interval of ``REFEREE_ARCHIVE_RETRY_S``, and past them the
  sweeper enqueues it again, until it lands. Nothing is lost meanwhile: the
  game stays in Redis, unconfirmed, with its finished TTL.
- **Read**: a game Redis has forgotten is looked up in the archive and
  written back to Redis for the archived TTL (``Archiving.restore``), so
  ``/log`` (the same bytes), ``/audit``, ``/replay`` and the views answer for
  it through the one path they answer a live game by.
- **Seam** (``Archiving.on_archived``): callbacks told of each game whose
  archive write was just confirmed — where a transparency log or an
  audit-speed measure hooks in, with no change here.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from referee.archive import ArchivedGame, ArchiveUnavailable, Query
from referee.engine import canonical
from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.service.game import Game
from referee.service.loading import Loader
from referee.store.redis_store import EventStore

if TYPE_CHECKING:
    from referee.archive.db import Archive

_log = logging.getLogger(__name__)

#: the most games one export bundles
EXPORT_MAX = 10_000
#: a job's outcomes that need no more job for the game
SETTLED = ("archived", "confirmed", "gone", "not_over", "no_archive")


class ArchiveMismatch(Exception):
    """The archive holds another head for this game than Redis does: never confirmed."""


def log_bytes(store: EventStore, game: Game) -> bytes:
    """The exact bytes ``/log`` serves for ``game``: its header, then every event, a line each."""
    lines = [canonical({"header": game.header, "hash": game.header_hash}) + "\n"]
    lines += [canonical(env) + "\n" for env in store.iter_envelopes(game.id)]
    return "".join(lines).encode()


def archived_game(store: EventStore, game: Game, log: bytes, leaf: tuple[int, str] | None = None) -> ArchivedGame:
    """``game`` (finished) as the archive keeps it (``leaf``: its index and input in the transparency log)."""
    meta = store.meta(game.id) or {}
    last = json.loads(log.rsplit(b"\n", 2)[-2]) if game.version else {}
    return ArchivedGame(
        id=game.id, ruleset=game.ruleset.name, ruleset_version=game.ruleset.version, status=game.status,
        version=game.version, custom=bool(game.header.get("custom")), tournament=game.header.get("tournament"),
        created_at=int(game.header["created_at"]), finished_at=game.last_at, head=game.last_hash,
        signature=last.get("signature"), result=game.ruleset.result(game.state),
        seats=[{"seat": s["seat"], "name": s.get("name"), "bot": s.get("bot")} for s in game.seats()],
        log=log, meta=meta, secret=store.archived.secret_fields(game.id),
        tlog_index=leaf[0] if leaf else None, tlog_leaf=leaf[1] if leaf else None)


class Archiving:
    """The service's side of the archive: write a finished game, restore a forgotten one."""

    def __init__(self, store: EventStore, loader: Loader, archive: Archive | None,
                 clock: Callable[[], int]) -> None:
        self.store = store
        self.loader = loader
        self.archive = archive
        self.clock = clock
        #: told of each game whose archive write was just confirmed (the seam for what builds on the archive)
        self.on_archived: list[Callable[[ArchivedGame], None]] = []
        #: a finished game's leaf in the transparency log (index, input), logged if it was not: kept in its row
        self.leaf_of: Callable[[Game], tuple[int, str]] | None = None

    def archive_game(self, game_id: str) -> str:
        """Write a finished game to the archive and confirm it: ``archived``;
        or nothing to do: ``confirmed`` (already), ``not_over``, ``gone``
        (neither Redis nor the archive has it), ``no_archive``. A database
        that does not answer raises (the job is tried again)."""
        if self.archive is None:
            return "no_archive"
        try:
            game = self.loader.load(game_id)
        except ApiError:
            return "confirmed" if self.archive.head(game_id) is not None else "gone"
        if game.status == "active":
            return "not_over"
        if self.store.archived.confirmed(game_id):
            return "confirmed"
        leaf = self.leaf_of(game) if self.leaf_of is not None and game.status == "finished" else None
        row = archived_game(self.store, game, log_bytes(self.store, game), leaf)
        self.archive.put(row, now=self.clock())
        if self.archive.head(game_id) != (game.version, game.last_hash):
            raise ArchiveMismatch(f"game {game_id}: the archive holds another final head than Redis")
        self.store.archived.confirm(game_id, self.clock())
        for hook in self.on_archived:
            hook(row)
        return "archived"

    def restore(self, game_id: str) -> bool:
        """Write an archived game back to Redis for the archived TTL; ``False``
        when there is no archive or it has no such game; 503
        ``archive_unavailable`` when its database does not answer."""
        if self.archive is None:
            return False
        try:
            found = self.archive.get(game_id)
        except ArchiveUnavailable as err:
            _log.warning("archive: game %s not looked up: %s", game_id, err)
            raise _unavailable() from None
        if found is None:
            return False
        envelopes = [json.loads(line) for line in found.log.splitlines()[1:]]
        meta = {**found.meta, "archived": str(self.clock())}
        self.store.archived.restore(game_id, meta, found.secret, envelopes)
        return True

    # -- history: search and export (GET /v1/archive/...) ---------------------------
    def _kept(self) -> Archive:
        if self.archive is None:
            raise ApiError(404, "no_archive", "this referee keeps no archive (REFEREE_ARCHIVE_URL is unset)")
        return self.archive

    def search(self, filters: dict[str, Any]) -> Json:
        """Archived games matching ``filters`` (``ArchiveQuery``), the latest
        finished first, a page of ``limit`` after ``cursor``; ``next``: the
        following page's cursor (``None``: the last)."""
        archive = self._kept()
        query = Query(**{k: v for k, v in filters.items() if k not in ("cursor", "limit")})
        try:
            found, cursor = archive.search(query, cursor=filters.get("cursor"), limit=filters["limit"])
        except ValueError as err:
            raise ApiError(422, "invalid_cursor", str(err)) from None
        except ArchiveUnavailable:
            raise _unavailable() from None
        return {"games": [g.summary() for g in found], "next": cursor}

    def export(self, filters: dict[str, Any]) -> Iterator[bytes]:
        """Every archived game matching ``filters`` (at most ``EXPORT_MAX``),
        the latest finished first, as one NDJSON bundle: each game's log as
        ``/log`` serves it, one after another (``referee audit`` checks a
        bundle in one go). The first page is read before the first byte, so
        a database that does not answer is a 503, not a cut stream."""
        archive = self._kept()
        query = Query(**{k: v for k, v in filters.items() if k not in ("cursor", "limit")})
        try:
            first, cursor = archive.search(query, limit=200, logs=True)
        except ArchiveUnavailable:
            raise _unavailable() from None
        return _bundle(archive, query, first, cursor)


def _unavailable() -> ApiError:
    return ApiError(503, "archive_unavailable", "the archive's database does not answer; try again shortly")


def _bundle(archive: Archive, query: Query, page: list[ArchivedGame], cursor: str | None) -> Iterator[bytes]:
    sent = 0
    while True:
        for game in page[:EXPORT_MAX - sent]:
            yield game.log
        sent += len(page)
        if cursor is None or sent >= EXPORT_MAX:
            return
        page, cursor = archive.search(query, cursor=cursor, limit=200, logs=True)
