"""The archive's tables and its reads and writes (``referee.archive``),
through SQLAlchemy Core; every error of the database comes out as
``ArchiveUnavailable`` (``records``), raised from it."""
from __future__ import annotations

import functools
import json
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    inspect,
    or_,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from referee.archive.records import ArchivedGame, ArchiveUnavailable, Query, cursor_at, parse_cursor, reason_of

P = ParamSpec("P")
R = TypeVar("R")


def answering(method: Callable[P, R]) -> Callable[P, R]:
    """``method``, its database's errors raised as ``ArchiveUnavailable`` (their words kept)."""
    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except SQLAlchemyError as err:
            raise ArchiveUnavailable(str(err)) from err
    return call

METADATA = MetaData()
GAMES = Table(
    "games", METADATA,
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(64), nullable=False, index=True),
    Column("ruleset_version", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("custom", Boolean, nullable=False),
    Column("tournament", String(64), index=True),
    Column("created_at", BigInteger, nullable=False, index=True),
    Column("finished_at", BigInteger, nullable=False, index=True),
    Column("head", String(64), nullable=False),
    Column("signature", Text),  # JSON: the referee's signature of the final head ({kid, sig}), null if none
    Column("result", Text),  # JSON: the ruleset's result
    Column("reason", String(64), index=True),  # the result's reason, for search
    Column("seats", Text, nullable=False),  # JSON: the seats as everyone sees them (number, name, bot)
    Column("log", LargeBinary, nullable=False),  # zlib of the exact bytes /log serves
    Column("log_bytes", Integer, nullable=False),
    Column("stored_bytes", Integer, nullable=False),
    Column("restore", LargeBinary, nullable=False),  # zlib of JSON: the stored meta and secret fields
    Column("archived_at", BigInteger, nullable=False),
    # the game's leaf in the transparency log: its index and its input (the signed final head's statement),
    # so the tree is rebuilt from the archive alone, leaf for leaf in the order it was appended
    Column("tlog_index", BigInteger, index=True),
    Column("tlog_leaf", Text),
)
#: the columns added since the first tables: added to a database that has the table without them
ADDED = ("tlog_index", "tlog_leaf")
SEATS = Table(
    "seats", METADATA,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(200), index=True),
    Column("bot", String(200), index=True),
)
#: a secret the archive never keeps: it signs the creator's webhooks, and is no one else's
NOT_KEPT = ("callback_secret",)


class Archive:
    """Finished games in a SQL database (``url``: SQLAlchemy's, e.g.
    ``sqlite:///var/archive.sqlite3`` or ``postgresql+psycopg://…``)."""

    @answering
    def __init__(self, url: str, *, timeout_s: float = 5.0) -> None:
        self.url = url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        args: dict[str, Any] = {"timeout": timeout_s} if url.startswith("sqlite") else {
            "connect_timeout": max(1, int(timeout_s))}
        self.engine: Engine = create_engine(url, connect_args=args, pool_pre_ping=True)
        self._ready = False

    @answering
    def ready(self) -> None:
        """Create the tables where missing (once a process, once the database answers)."""
        if not self._ready:
            try:
                METADATA.create_all(self.engine)
            except SQLAlchemyError:  # another process created them between the check and the create
                METADATA.create_all(self.engine)
            self._add_columns()
            self._ready = True

    def _add_columns(self) -> None:
        """Add to an older ``games`` table the columns it lacks (``ADDED``; null in its rows)."""
        have = {c["name"] for c in inspect(self.engine).get_columns("games")}
        missing = [GAMES.c[name] for name in ADDED if name not in have]
        with self.engine.begin() as conn:
            for column in missing:
                kind = column.type.compile(dialect=self.engine.dialect)
                conn.exec_driver_sql(f"ALTER TABLE games ADD COLUMN {column.name} {kind}")

    def _upsert(self, table: Table) -> Any:
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        return insert(table)

    @answering
    def put(self, game: ArchivedGame, *, now: int) -> None:
        """Write ``game`` if the archive has no row of it (a repeat changes nothing)."""
        self.ready()
        log = zlib.compress(game.log, 9)
        restore = zlib.compress(json.dumps({"meta": game.meta, "secret": {
            k: v for k, v in game.secret.items() if k not in NOT_KEPT}}).encode(), 9)
        row = {"id": game.id, "ruleset": game.ruleset, "ruleset_version": game.ruleset_version,
               "status": game.status, "version": game.version, "custom": game.custom,
               "tournament": game.tournament, "created_at": game.created_at, "finished_at": game.finished_at,
               "head": game.head, "signature": json.dumps(game.signature), "result": json.dumps(game.result),
               "reason": reason_of(game.result), "seats": json.dumps(game.seats), "log": log,
               "log_bytes": len(game.log), "stored_bytes": len(log) + len(restore), "restore": restore,
               "archived_at": now, "tlog_index": game.tlog_index, "tlog_leaf": game.tlog_leaf}
        seats = [{"game_id": game.id, "seat": s["seat"], "name": s.get("name"), "bot": s.get("bot")}
                 for s in game.seats]
        with self.engine.begin() as conn:
            conn.execute(self._upsert(GAMES).values(row).on_conflict_do_nothing(index_elements=["id"]))
            if seats:
                conn.execute(self._upsert(SEATS).values(seats).on_conflict_do_nothing(
                    index_elements=["game_id", "seat"]))

    @answering
    def head(self, game_id: str) -> tuple[int, str] | None:
        """(version, final head) of the archived game, ``None`` if it is not archived."""
        self.ready()
        with self.engine.connect() as conn:
            row = conn.execute(select(GAMES.c.version, GAMES.c.head).where(GAMES.c.id == game_id)).first()
        return None if row is None else (int(row[0]), str(row[1]))

    @answering
    def get(self, game_id: str) -> ArchivedGame | None:
        """The archived game, its log and what restores it; ``None`` if not archived."""
        self.ready()
        with self.engine.connect() as conn:
            row = conn.execute(select(GAMES).where(GAMES.c.id == game_id)).mappings().first()
        return None if row is None else _game(row, full=True)

    @answering
    def sizes(self) -> dict[str, int]:
        """Games archived, the bytes of their logs, the bytes stored for them."""
        from sqlalchemy import func
        self.ready()
        with self.engine.connect() as conn:
            games, log, stored = conn.execute(select(func.count(), func.coalesce(func.sum(GAMES.c.log_bytes), 0),
                                                     func.coalesce(func.sum(GAMES.c.stored_bytes), 0))).one()
        return {"games": int(games), "log_bytes": int(log), "stored_bytes": int(stored)}

    @answering
    def search(self, query: Query, *, cursor: str | None = None, limit: int = 50,
               logs: bool = False) -> tuple[list[ArchivedGame], str | None]:
        """Archived games matching ``query``, the latest finished first, a page
        of ``limit`` after ``cursor``; and the next page's cursor (``None``: the last)."""
        self.ready()
        columns = list(GAMES.c) if logs else [c for c in GAMES.c if c.name not in ("log", "restore")]
        stmt = select(*columns).where(*_conditions(query))
        if cursor is not None:
            at, after = parse_cursor(cursor)
            stmt = stmt.where(or_(GAMES.c.finished_at < at, and_(GAMES.c.finished_at == at, GAMES.c.id < after)))
        stmt = stmt.order_by(GAMES.c.finished_at.desc(), GAMES.c.id.desc()).limit(limit + 1)
        with self.engine.connect() as conn:
            rows = conn.execute(stmt).mappings().all()
        found = [_game(r, full=logs) for r in rows[:limit]]
        more = len(rows) > limit and found
        return found, (cursor_at(found[-1].finished_at, found[-1].id) if more else None)

    @answering
    def created_before(self, ruleset: str | None, after: tuple[int, str] | None,
                       limit: int) -> list[tuple[str, dict[str, str]]]:
        """Archived games newest *created* first, after (created_at, id)
        ``after``, of ``ruleset``: each id with its stored meta fields (the listing's order)."""
        self.ready()
        stmt = select(GAMES.c.id, GAMES.c.restore)
        if ruleset is not None:
            stmt = stmt.where(GAMES.c.ruleset == ruleset)
        if after is not None:
            at, last = after
            stmt = stmt.where(or_(GAMES.c.created_at < at, and_(GAMES.c.created_at == at, GAMES.c.id < last)))
        stmt = stmt.order_by(GAMES.c.created_at.desc(), GAMES.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(stmt).all()
        return [(str(row[0]), json.loads(zlib.decompress(row[1])).get("meta", {})) for row in rows]

    def each(self, query: Query, *, page: int = 200) -> Iterator[ArchivedGame]:
        """Every archived game matching ``query``, logs included, page by page."""
        cursor: str | None = None
        while True:
            found, cursor = self.search(query, cursor=cursor, limit=page, logs=True)
            yield from found
            if cursor is None:
                return

    def leaves(self, *, page: int = 1000) -> Iterator[tuple[int, str, str]]:
        """Every logged game's leaf as (index, game id, leaf input), by index, page by page."""
        self.ready()
        at, last = -1, ""
        while True:  # paged by (index, id): two rows of one index (never meant) are both read
            rows = self._leaves_after(at, last, page)
            yield from rows
            if len(rows) < page:
                return
            at, last = rows[-1][0], rows[-1][1]

    @answering
    def _leaves_after(self, at: int, last: str, page: int) -> list[tuple[int, str, str]]:
        """The ``page`` leaves after (index ``at``, id ``last``)."""
        stmt = (select(GAMES.c.tlog_index, GAMES.c.id, GAMES.c.tlog_leaf)
                .where(or_(GAMES.c.tlog_index > at, and_(GAMES.c.tlog_index == at, GAMES.c.id > last)),
                       GAMES.c.tlog_leaf.is_not(None))
                .order_by(GAMES.c.tlog_index, GAMES.c.id).limit(page))
        with self.engine.connect() as conn:
            return [(int(r[0]), str(r[1]), str(r[2])) for r in conn.execute(stmt).all()]

    @answering
    def unlogged(self) -> int:
        """Archived finished games with no leaf kept (archived before the archive kept leaves)."""
        from sqlalchemy import func
        self.ready()
        with self.engine.connect() as conn:
            found = conn.execute(select(func.count()).where(GAMES.c.status == "finished",
                                                            GAMES.c.tlog_leaf.is_(None))).scalar_one()
        return int(found)

    @answering
    def set_leaf(self, game_id: str, index: int, leaf: str) -> None:
        """Keep ``game_id``'s leaf at ``index`` (it was logged again, after a lost log)."""
        self.ready()
        with self.engine.begin() as conn:
            conn.execute(GAMES.update().where(GAMES.c.id == game_id).values(tlog_index=index, tlog_leaf=leaf))

    def close(self) -> None:
        self.engine.dispose()


def _conditions(query: Query) -> list[Any]:
    found: list[Any] = []
    for column, value in ((GAMES.c.ruleset, query.ruleset), (GAMES.c.tournament, query.tournament),
                          (GAMES.c.reason, query.result)):
        if value is not None:
            found.append(column == value)
    for column, value in ((SEATS.c.name, query.seat), (SEATS.c.bot, query.bot)):
        if value is not None:
            found.append(GAMES.c.id.in_(select(SEATS.c.game_id).where(column == value)))
    if query.since is not None:
        found.append(GAMES.c.finished_at >= query.since)
    if query.until is not None:
        found.append(GAMES.c.finished_at < query.until)
    return found


def _game(row: Any, *, full: bool) -> ArchivedGame:
    restore = json.loads(zlib.decompress(row["restore"])) if full else {}
    return ArchivedGame(
        id=row["id"], ruleset=row["ruleset"], ruleset_version=row["ruleset_version"], status=row["status"],
        version=row["version"], custom=bool(row["custom"]), tournament=row["tournament"],
        created_at=int(row["created_at"]), finished_at=int(row["finished_at"]), head=row["head"],
        signature=json.loads(row["signature"]) if row["signature"] else None,
        result=json.loads(row["result"]) if row["result"] else None, seats=json.loads(row["seats"]),
        log=zlib.decompress(row["log"]) if full else b"", meta=restore.get("meta", {}),
        secret=restore.get("secret", {}), tlog_index=row.get("tlog_index"), tlog_leaf=row.get("tlog_leaf"))
