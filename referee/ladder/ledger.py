"""A ladder's table kept equal to the fold of all its entries in ladder
order, however the games' recording jobs race (docs/ladder.md, "Ratings").

Every entry goes first into the ladder's *ledger*, kept sorted by
``(finished_at, game id)`` (a Redis sorted set scored by ``finished_at``,
whose equal scores sort by member: the very order). Then, one process at a
time (the ladder's lock), :func:`catch_up` folds what the table lacks:

- the table records how many entries it folded (``folded``) and the last
  one (``cursor``). While that entry is still at place ``folded - 1`` of the
  ledger, nothing arrived before it: the entries after it are folded on.
- An entry that finished before the cursor but arrived after it (a slower
  worker; entries are added without the lock, so even while a fold runs)
  moved the cursor down a place: the table is refolded from the
  newest *checkpoint* still valid by the same test (a table kept every
  ``CHECKPOINT_EVERY`` entries: the last ``CHECKPOINTS_KEPT`` of them and
  every ``SPARSE``-th one), or from scratch when none is.

The ledger is the truth; the table and its checkpoints are caches of its
fold. ``MemoryBook`` is a ledger in memory (tests, and the proof that the
plan alone is right); ``referee.store.ladder`` keeps one in Redis."""
from __future__ import annotations

import bisect
import json
from typing import Protocol

from referee.engine.protocol import Json
from referee.ladder.ratings import Table, order

#: a checkpoint of the table is kept every this many entries folded
CHECKPOINT_EVERY = 100
#: the newest checkpoints kept, and every ``SPARSE``-th one besides: a game however late refolds
#: at most ``CHECKPOINT_EVERY * SPARSE`` games (a second or two), never the whole ladder
CHECKPOINTS_KEPT = 8
SPARSE = 10
#: entries read from the ledger at a time
BATCH = 200


class Book(Protocol):
    """One ladder's ledger, table and checkpoints, wherever they are kept."""

    def add(self, entry: Json) -> bool:
        """Enter ``entry`` in the ledger (``False``: its game is in it already)."""

    def size(self) -> int:
        """Entries in the ledger."""

    def rank(self, game_id: str) -> int | None:
        """The place of ``game_id``'s entry in the ledger (from 0)."""

    def entries(self, start: int, count: int) -> list[Json]:
        """``count`` entries of the ledger from place ``start``."""

    def head(self) -> Json | None:
        """The table as last saved, without its rows (``None``: never saved)."""

    def rows(self, bots: list[str] | None = None) -> dict[str, Json]:
        """The saved rows of ``bots`` that there are (``None``: every row)."""

    def save(self, state: Json, touched: set[str], after: dict[str, dict[str, list[float]]]) -> None:
        """Save the table's head, its ``touched`` rows (the others are as saved)
        and the ratings ``after`` each rated game folded (``Table.after``)."""

    def checkpoints(self) -> list[int]:
        """The ``folded`` counts of the checkpoints kept."""

    def checkpoint(self, folded: int) -> Json | None:
        """The whole table as it was after ``folded`` entries."""

    def put_checkpoint(self, state: Json, drop: list[int]) -> None:
        """Keep the whole table as it is (by its ``folded``), and drop the checkpoints ``drop``."""


def _valid(book: Book, state: Json | None) -> bool:
    """Whether ``state`` is the fold of the ledger's first ``folded`` entries now."""
    return state is not None and (state["folded"] == 0 or book.rank(state["cursor"]) == state["folded"] - 1)


def start(book: Book, key: str) -> Table:
    """The table to fold on from: the saved one if still valid (its head
    only: rows are read as entries need them), else the newest valid
    checkpoint, else an empty one; a refolded table rewrites every row."""
    head = book.head()
    if head is not None and _valid(book, head):
        table = Table(key, {**head, "rows": {}})
        table.partial = True
        return table
    saved = set(book.rows()) if head is not None else set()
    for folded in sorted(book.checkpoints(), reverse=True):
        found = book.checkpoint(folded)
        if _valid(book, found):
            table = Table(key, found)
            break
    else:
        table = Table(key)
    table.touched.update(saved | set(table.rows))
    return table


def _complete(book: Book, table: Table, batch: list[Json]) -> None:
    """Read the rows ``batch`` folds into (all of them before a checkpoint, ``batch`` empty)."""
    if not table.partial:
        return
    if batch:
        wanted = sorted({str(seat["bot"]) for entry in batch for seat in entry["seats"]} - table.rows.keys())
        table.rows.update(book.rows(wanted))
        return
    table.rows.update({bot: row for bot, row in book.rows().items() if bot not in table.rows})
    table.partial = False


def dropped(kept: list[int], new: int) -> list[int]:
    """The checkpoints to drop when one is taken at ``new``: all but the newest
    ``CHECKPOINTS_KEPT`` (``new`` among them) and every ``SPARSE``-th."""
    newest = sorted({*kept, new})[-CHECKPOINTS_KEPT:]
    return sorted(n for n in kept if n not in newest and n % (CHECKPOINT_EVERY * SPARSE))


def _moved(table: Table, first: Json) -> bool:
    """Whether the ledger's next entry is not after the table's last: one came before it since it was read."""
    state = table.state
    return state["cursor"] is not None and order(first) <= (state["at"], state["cursor"])


def catch_up(book: Book, key: str) -> Table:
    """Fold into the table every ledger entry it lacks, in ledger order,
    checkpointing on the way; the caller holds the ladder's lock. Only the
    rows the new entries touch are read and written, but for a checkpoint."""
    table = start(book, key)
    size = book.size()
    while table.state["folded"] < size:
        batch = book.entries(table.state["folded"], BATCH)
        if batch and _moved(table, batch[0]):  # an older game entered the ledger meanwhile (no lock to add)
            table = start(book, key)
            continue
        _complete(book, table, batch)
        for entry in batch:
            table.fold(entry)
            if table.state["folded"] % CHECKPOINT_EVERY == 0:
                _complete(book, table, [])
                book.put_checkpoint(table.state, dropped(book.checkpoints(), table.state["folded"]))
        size = book.size()
    book.save(table.state, table.touched, table.after)
    return table


class MemoryBook:
    """A ledger in memory: what ``referee.store.ladder`` keeps in Redis, by the same contract."""

    def __init__(self) -> None:
        self.ledger: list[Json] = []
        self.saved: str | None = None
        self.kept: dict[int, str] = {}
        self.after: dict[str, dict[str, list[float]]] = {}

    def add(self, entry: Json) -> bool:
        if any(e["game"] == entry["game"] for e in self.ledger):
            return False
        bisect.insort(self.ledger, entry, key=order)
        return True

    def size(self) -> int:
        return len(self.ledger)

    def rank(self, game_id: str) -> int | None:
        return next((i for i, e in enumerate(self.ledger) if e["game"] == game_id), None)

    def entries(self, start: int, count: int) -> list[Json]:
        return [json.loads(json.dumps(e)) for e in self.ledger[start:start + count]]

    def head(self) -> Json | None:
        return None if self.saved is None else {k: v for k, v in json.loads(self.saved).items() if k != "rows"}

    def rows(self, bots: list[str] | None = None) -> dict[str, Json]:
        saved: dict[str, Json] = json.loads(self.saved)["rows"] if self.saved is not None else {}
        return saved if bots is None else {bot: saved[bot] for bot in bots if bot in saved}

    def table(self) -> Json | None:
        """The whole table as saved."""
        return None if self.saved is None else {**(self.head() or {}), "rows": self.rows()}

    def save(self, state: Json, touched: set[str], after: dict[str, dict[str, list[float]]]) -> None:
        rows = self.rows()
        rows.update({bot: state["rows"][bot] for bot in touched if bot in state["rows"]})
        self.saved = json.dumps({**state, "rows": rows})
        self.after.update(json.loads(json.dumps(after)))

    def checkpoints(self) -> list[int]:
        return list(self.kept)

    def checkpoint(self, folded: int) -> Json | None:
        found = self.kept.get(folded)
        return None if found is None else json.loads(found)

    def put_checkpoint(self, state: Json, drop: list[int]) -> None:
        self.kept[state["folded"]] = json.dumps(state)
        for old in drop:
            self.kept.pop(old, None)
