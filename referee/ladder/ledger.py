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
  worker) moved the cursor down a place: the table is refolded from the
  newest *checkpoint* still valid by the same test (a table kept every
  ``CHECKPOINT_EVERY`` entries, the last ``CHECKPOINTS_KEPT`` of them), or
  from scratch when none is.

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
#: the newest checkpoints kept (a game arriving later than these many checkpoints refolds from scratch)
CHECKPOINTS_KEPT = 8
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

    def table(self) -> Json | None:
        """The table's state as last saved."""

    def save(self, state: Json, touched: set[str]) -> None:
        """Save the table (``touched``: the rows changed since it was read)."""

    def checkpoints(self) -> list[int]:
        """The ``folded`` counts of the checkpoints kept."""

    def checkpoint(self, folded: int) -> Json | None:
        """The table as it was after ``folded`` entries."""

    def put_checkpoint(self, state: Json, keep: int) -> None:
        """Keep the table as it is (by its ``folded``), dropping all but the newest ``keep``."""


def _valid(book: Book, state: Json | None) -> bool:
    """Whether ``state`` is the fold of the ledger's first ``folded`` entries now."""
    return state is not None and (state["folded"] == 0 or book.rank(state["cursor"]) == state["folded"] - 1)


def start(book: Book, key: str) -> tuple[Table, bool]:
    """The table to fold on from: the saved one if still valid, else the
    newest valid checkpoint, else an empty one; and whether it was refolded."""
    saved = book.table()
    if _valid(book, saved):
        return Table(key, saved), False
    for folded in sorted(book.checkpoints(), reverse=True):
        found = book.checkpoint(folded)
        if _valid(book, found):
            table = Table(key, found)
            table.touched.update(table.rows)  # every row is rewritten
            return table, True
    table = Table(key)
    table.touched.update((saved or {}).get("rows", {}))
    return table, True


def catch_up(book: Book, key: str) -> Table:
    """Fold into the table every ledger entry it lacks, in ledger order,
    checkpointing on the way; the caller holds the ladder's lock."""
    table, _ = start(book, key)
    size = book.size()
    while table.state["folded"] < size:
        for entry in book.entries(table.state["folded"], BATCH):
            table.fold(entry)
            if table.state["folded"] % CHECKPOINT_EVERY == 0:
                book.put_checkpoint(table.state, CHECKPOINTS_KEPT)
        size = book.size()
    book.save(table.state, table.touched)
    return table


class MemoryBook:
    """A ledger in memory: what ``referee.store.ladder`` keeps in Redis, by the same contract."""

    def __init__(self) -> None:
        self.ledger: list[Json] = []
        self.saved: str | None = None
        self.kept: dict[int, str] = {}

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

    def table(self) -> Json | None:
        return None if self.saved is None else json.loads(self.saved)

    def save(self, state: Json, touched: set[str]) -> None:
        self.saved = json.dumps(state)

    def checkpoints(self) -> list[int]:
        return list(self.kept)

    def checkpoint(self, folded: int) -> Json | None:
        found = self.kept.get(folded)
        return None if found is None else json.loads(found)

    def put_checkpoint(self, state: Json, keep: int) -> None:
        self.kept[state["folded"]] = json.dumps(state)
        for old in sorted(self.kept)[:-keep]:
            del self.kept[old]
