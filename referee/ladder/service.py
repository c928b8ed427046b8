"""The ladders' use cases (issue 42; docs/ladder.md, "Ratings"): record a
finished rated game (the job ``workers.ladder.record_game``), and read the
ladders, one ladder's table a page at a time, and a bot's profile
(``GET /v1/ladder``, ``/v1/ladder/{key}``, ``/v1/bots/{id}/profile``)."""
from __future__ import annotations

from typing import Any

from referee.bots import BUILT_IN
from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.ladder import ledger
from referee.ladder.ratings import (
    ANCHORS,
    BUILT_IN_OWNER,
    GAMES_KEPT,
    HISTORY_KEPT,
    PROVISIONAL_BELOW,
    RANKED_BY,
    entry_of,
    games_of,
    history_of,
    ladder_of,
    ranked,
    shown,
)
from referee.service import Game, GameService
from referee.service.metrics import RATED_GAMES
from referee.service.rated import is_rated
from referee.store.ladder import LadderBook, ladder_keys

#: how long a recording waits for its ladder's lock (``LadderBook.locked``) before ``LadderBusy``
LOCK_WAIT_S = 30.0

#: the longest page of a ladder
MAX_LIMIT = 200


class Ladders:
    """The ladders over a game service's Redis."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        self.redis: Any = svc.store.redis

    def book(self, key: str) -> LadderBook:
        return LadderBook(self.redis, key)

    # -- recording --------------------------------------------------------------
    def record(self, game_id: str) -> str:
        """Fold a finished game into its ladder: ``recorded`` (rated or not,
        ``recorded unrated``), ``duplicate`` (in the ledger already: the table
        is caught up all the same), or nothing to do: ``not_rated``, ``not_over``,
        ``no_result``. Raises ``LadderBusy`` while another process folds too long."""
        return self.record_game(self.svc.load(game_id))

    def record_game(self, game: Game, wait_s: float = LOCK_WAIT_S) -> str:
        """``record`` of ``game`` as this process holds it (a finished game
        never changes); ``wait_s``: how long to wait for the ladder's lock
        before ``LadderBusy`` (the entry is in the ledger by then: whoever
        folds next folds it, and a second recording counts it once)."""
        if game.status == "active":
            return "not_over"
        if not is_rated(game.header):
            return "not_rated"
        # the header as the log commits to it: what ``referee ratings recompute`` reads from the archive
        entry = entry_of(game.id, game.header, game.ruleset.result(game.state), (), game.last_at,
                         health=self.svc.loader.timing(game).health())
        if entry is None:
            return "no_result"
        book = self.book(entry["ladder"])
        added = book.add(entry)
        if added:  # counted once it is in the ledger (a retry after ``LadderBusy`` finds it there)
            RATED_GAMES.labels(ladder=entry["ladder"], rated=str(entry["rated"]).lower()).inc()
        with book.locked(wait_s):
            ledger.catch_up(book, entry["ladder"])
        if not added:
            return "duplicate"
        return "recorded" if entry["rated"] else "recorded unrated"

    # -- reading ----------------------------------------------------------------
    def ladders(self) -> Json:
        """Every ladder: its key, ruleset, player count (``None``: all), bots and rated games. A ladder
        is listed once its table is saved, as ``table`` serves it: a game enters the ledger (and its
        ladder the keys) before the fold that saves the table, which another process may be doing."""
        out = []
        for key in ladder_keys(self.redis):
            head = self.book(key).head()
            if head is None:
                continue
            ruleset, players = ladder_of(key)
            out.append({"key": key, "ruleset": ruleset, "players": players, "bots": int(head.get("bots", 0)),
                        "games": int(head.get("games", 0))})
        return {"ladders": out}

    def table(self, key: str, cursor: str | None, limit: int) -> Json:
        """One ladder's rows from ``cursor`` (a rank already shown), ``limit`` of them."""
        book = self.book(key)
        if key not in ladder_keys(self.redis) or book.head() is None:
            raise ApiError(404, "unknown_ladder", f"no ladder {key!r}; see GET /v1/ladder")
        start = _offset(cursor)
        rows = ranked(book.rows().values())
        page = rows[start:start + limit]
        bots = self._bots([row["bot"] for row in page], {row["bot"]: row for row in page})
        items = [{"rank": start + i + 1, "bot": bots[row["bot"]], **shown(row)} for i, row in enumerate(page)]
        ruleset, players = ladder_of(key)
        more = start + limit < len(rows)
        return {"key": key, "ruleset": ruleset, "players": players, "ranked_by": RANKED_BY,
                "provisional_below": PROVISIONAL_BELOW, "items": items,
                "next_cursor": str(start + limit) if more else None}

    def profile(self, bot_id: str) -> Json:
        """A bot's record, its row in every ladder it plays (with its rating
        history) and its last games, newest first; 404 ``bot_not_found`` for
        a bot neither built in, registered, nor in a ladder."""
        ladders: dict[str, Json] = {}
        games: list[Json] = []
        found: Json | None = None
        for key in ladder_keys(self.redis):
            book = self.book(key)
            standing = book.standing(bot_id, GAMES_KEPT, HISTORY_KEPT)
            if standing is None:
                continue
            found = standing.row
            recent, rated = standing.recent, standing.rated
            entries = book.entries_of(sorted(set(recent) | set(rated)))  # an entry never changes once in
            history = history_of(bot_id, [entries[g] for g in rated if g in entries], standing.after)
            ladders[key] = {**shown(standing.row), "history": history}
            games += games_of(bot_id, [entries[g] for g in recent if g in entries])
        bot = self._bots([bot_id], {bot_id: found} if found is not None else {})[bot_id]
        if bot["kind"] == "gone" and found is None:
            raise ApiError(404, "bot_not_found", f"no bot {bot_id!r}: neither built in, registered nor rated")
        games.sort(key=lambda g: (g["finished_at"], g["id"], g["seat"]), reverse=True)
        return {"bot": bot, "ladders": ladders, "games": games[:GAMES_KEPT]}

    def _bots(self, ids: list[str], rows: dict[str, Json]) -> dict[str, Json]:
        """Each bot's public record as a ladder shows it: a registered bot's
        from its directory (one gone: its id, kind ``gone``), a built-in's."""
        out = {}
        for bot_id in ids:
            if bot_id in BUILT_IN:
                out[bot_id] = {"id": bot_id, "name": bot_id, "kind": "builtin", "owner": BUILT_IN_OWNER,
                               "builtin": True}
                continue
            found = self.svc.bots.get(bot_id)
            row = rows.get(bot_id)
            if found is None:
                out[bot_id] = {"id": bot_id, "name": bot_id, "kind": "gone",
                               "owner": row["owner"] if row else bot_id, "builtin": False}
            else:
                record = found[0]
                out[bot_id] = {"id": bot_id, "name": record["name"], "kind": record["kind"],
                               "owner": record.get("owner") or bot_id, "builtin": False}
        return out

    # -- recompute ----------------------------------------------------------------
    def live(self, key: str) -> Json | None:
        """The live table of ``key`` (rows and counts), ``None`` for a ladder never recorded."""
        return self.book(key).table()

    def skills(self, key: str, bots: list[str]) -> dict[str, float]:
        """Each of ``bots``' skill in ladder ``key``, its rating's ``mu`` (the
        pool matches by it, ``referee.ladder.pool.Ratings``): a built-in bot's
        is its anchor's, a bot the ladder has not rated yet is left out (the
        pool counts it as new)."""
        out = {bot: ANCHORS[bot][0] for bot in bots if bot in ANCHORS}
        rated = self.book(key).rows([bot for bot in bots if bot not in out])
        out.update({bot: float(row["mu"]) for bot, row in rated.items()})
        return out

    def keys(self) -> list[str]:
        return ladder_keys(self.redis)


def _offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit() or len(cursor) > 9:
        raise ApiError(422, "invalid_cursor", "a ladder's cursor is the next_cursor of the page before")
    return int(cursor)
