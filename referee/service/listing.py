"""Listing games and bots, newest first, a page at a time, as anyone may
see them: public facts only (no token, no seed, never a bot's URL or
secret)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.archive import ArchiveUnavailable
from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.service import spectators
from referee.store.listing import BadCursor, cursor_of, read_cursor
from referee.store.redis_store import EventStore, summary_of

if TYPE_CHECKING:
    from referee.archive.db import Archive

#: the most games ``list_games`` looks at for one page
LIST_SCAN = 1000
#: the games read from the index in one round trip
LIST_BATCH = 100


def after_cursor(cursor: str | None) -> tuple[int, str] | None:
    """Where a page starts (``None``: at the newest); 422 for a cursor not of the shape ``<score>.<id>``."""
    try:
        return read_cursor(cursor) if cursor else None
    except BadCursor:
        raise ApiError(422, "invalid_cursor",
                       "cursor: `<created_at ms>.<id>`, the `next` of a page this referee served") from None


def claimable(header: Json, summary: Json) -> list[int]:
    """The seats anyone may claim: the open ones, but a rematch's, each kept for its player
    (``referee.service.rematch``)."""
    return [] if "rematch" in header else list(summary.get("open") or [])


def listed(game_id: str, header: Json, summary: Json) -> Json:
    """A game as ``GET /v1/games`` lists it: public facts only."""
    names = summary.get("names") or [s["name"] for s in header["seats"]]
    out: Json = {"id": game_id, "ruleset": header["ruleset"], "status": summary["status"],
                 "version": summary["version"], "players": header["players"], "created_at": header["created_at"],
                 "custom": header.get("custom", False), "open_seats": claimable(header, summary),
                 "seats": [{"seat": s["seat"], "name": names[s["seat"]],
                            "bot": summary.get("given", {}).get(s["seat"], s["bot"])} for s in header["seats"]]}
    if header.get("tournament") is not None:
        out["tournament"] = header["tournament"]
    if header.get("pool") is not None:
        out["pool"] = header["pool"]
    return out


#: who started a game, as ``GET /v1/games?source=`` filters: a tournament, a ladder's pool, or anyone's POST
SOURCES = ("tournament", "pool", "people")


def source_of(header: Json) -> str:
    """Who started the game of ``header``: ``tournament``, ``pool`` or ``people``."""
    if header.get("tournament") is not None:
        return "tournament"
    return "pool" if header.get("pool") is not None else "people"


class GameFilter:
    """Which games a page lists: of ``ruleset``, in ``status``, with or
    without open seats, started by ``source`` (``None``: any)."""

    def __init__(self, ruleset: str | None, status: str | None, open_seats: bool | None,
                 source: str | None = None) -> None:
        self.ruleset = ruleset
        self.status = status
        self.open_seats = open_seats
        self.source = source

    def __call__(self, summary: dict[str, Any]) -> bool:
        header = summary["header"]
        return (self.ruleset is None or header["ruleset"] == self.ruleset) \
            and (self.status is None or summary["status"] == self.status) \
            and (self.open_seats is None or bool(claimable(header, summary)) == self.open_seats) \
            and (self.source is None or source_of(header) == self.source)


def _scan(store: EventStore, ids: list[tuple[str, int]], wanted: GameFilter, found: list[Json],
          limit: int) -> tuple[int, tuple[int, str]]:
    """Look at a batch of the index (``ids``: game id and when it was
    created), adding the games ``wanted`` to ``found`` up to ``limit``; the
    games looked at and the last one's place. Games expired meanwhile leave
    the index."""
    expired = []
    scanned, last = 0, (ids[0][1], ids[0][0])
    for (game_id, at), summary in zip(ids, store.summaries([i for i, _ in ids])):
        scanned, last = scanned + 1, (at, game_id)
        if summary is None:
            expired.append(game_id)
            continue
        if wanted(summary):
            found.append(spectators.listed_late(store, listed(game_id, summary["header"], summary), summary["header"]))
            if len(found) == limit:
                break
    store.games_index.drop(*expired)
    return scanned, last


def with_archived(page: Json, archive: Archive | None, wanted: GameFilter, cursor: str | None,
                  limit: int) -> Json:
    """``page`` (Redis's games) with the archive's finished games merged in
    (issue 41: a game Redis forgot is listed as it was), newest created
    first. Where Redis's page ended early (``next``), no archived game past
    that point is taken, so the next page misses none of Redis's."""
    if archive is None or wanted.status == "active" or wanted.open_seats:
        return page
    try:
        archived = archive.created_before(wanted.ruleset, after_cursor(cursor), limit)
    except ArchiveUnavailable:
        return page  # the live games still list; the archive's come back with its database
    have = {g["id"] for g in page["games"]}
    found = list(page["games"])
    stop = read_cursor(page["next"]) if page["next"] else None
    for game_id, meta in archived:
        summary = summary_of(meta["header"], meta["status"], meta["version"], meta.get("tokens"), meta.get("names"))
        at = (int(summary["header"]["created_at"]), game_id)
        if game_id not in have and (stop is None or at > stop) and wanted(summary):
            found.append(listed(game_id, summary["header"], summary))
    found.sort(key=lambda g: (g["created_at"], g["id"]), reverse=True)
    if len(found) > limit or (len(found) == limit and len(archived) == limit):
        found = found[:limit]
        return {"games": found, "next": cursor_of(found[-1]["created_at"], found[-1]["id"])}
    return {"games": found, "next": page["next"]}


def list_games(store: EventStore, wanted: GameFilter, cursor: str | None, limit: int) -> Json:
    """Games newest first, after ``cursor``, those ``wanted``; ``next`` is
    the cursor of the next page (``None``: the last). At most ``LIST_SCAN``
    games are looked at per page, so a filter that matches few ends a page
    early (with a ``next``) rather than scan everything."""
    found: list[Json] = []
    scanned, last = 0, after_cursor(cursor)
    while len(found) < limit and scanned < LIST_SCAN:
        ids = store.games_index.page(last, min(LIST_BATCH, LIST_SCAN - scanned))
        if not ids:
            return {"games": found, "next": None}
        looked, last = _scan(store, ids, wanted, found, limit)
        scanned += looked
    return {"games": found, "next": cursor_of(*last) if last is not None else None}


def list_bots(store: EventStore, cursor: str | None, limit: int) -> Json:
    """Registered bots newest first: id, name, kind, rulesets, seating, owner, created_at (never a URL or a secret)."""
    page = store.bots.page(after_cursor(cursor), limit)
    bots = [{"id": bot_id, "name": r["name"], "kind": r.get("kind", "webhook"), "rulesets": r["rulesets"],
             "seating": r["seating"], "owner": r["owner"], "created_at": at} for bot_id, at, r in page]
    return {"bots": bots, "next": cursor_of(page[-1][1], page[-1][0]) if len(page) == limit else None}
