"""The transparency log rebuilt from the archive (issue 41 item 6;
docs/transparency.md, "Rebuilt from the archive").

The archive keeps each finished game's leaf (its input and its index in the
log, ``referee.archive``), so the tree is rebuilt from archive rows alone:
the leaves ``0, 1, 2, …`` in index order make the same tree, hence the same
root, as the live log of that size. A leaf missing (a game logged but not
archived yet, or lost with Redis before its archive write) ends the
rebuilt prefix; the leaves past it are *stray*.

``restore`` writes the rebuilt tree into an empty live log (Redis lost
entirely), so the referee keeps appending after it: every checkpoint of a
size up to the restored one stays provably consistent with the new ones.
Stray leaves cannot keep their index (the leaf before them is gone): they
are appended again after the prefix, and their rows learn their new index."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.engine import merkle
from referee.store.transparency import TransparencyStore

if TYPE_CHECKING:
    from referee.archive.db import Archive


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """The tree of the archive's leaves ``0 … size - 1``."""

    size: int
    root: bytes
    leaves: list[tuple[str, bytes]]  # (game id, leaf input), by index
    stray: list[tuple[int, str, str]] = field(default_factory=list)  # (index, game id, leaf) past a gap
    unlogged: int = 0  # archived finished games with no leaf kept (archived before leaves were kept)

    @property
    def first_missing(self) -> int | None:
        """The index of the first leaf the archive lacks below its highest one (``None``: none lacks)."""
        return self.size if self.stray else None


def prefix(rows: Iterable[tuple[int, str, str]]) -> tuple[list[tuple[str, bytes]], list[tuple[int, str, str]]]:
    """Rows (index, game id, leaf) by index, split into the leaves ``0, 1, …``
    with no gap and the rows past the first gap (or a second row of one index)."""
    leaves: list[tuple[str, bytes]] = []
    stray: list[tuple[int, str, str]] = []
    for index, game, leaf in rows:
        if not stray and index == len(leaves):
            leaves.append((game, leaf.encode()))
        else:
            stray.append((index, game, leaf))
    return leaves, stray


def rebuild(archive: Archive) -> Rebuilt:
    """The tree of the leaves the archive keeps (see the module's docstring)."""
    leaves, stray = prefix(archive.leaves())
    root = merkle.root_of([leaf for _, leaf in leaves])
    return Rebuilt(len(leaves), root, leaves, stray, archive.unlogged())


@dataclass(frozen=True, slots=True)
class Compared:
    """The rebuilt tree against the live log: its size now and its root at the rebuilt size."""

    live_size: int
    live_root: bytes | None  # the live tree's root at the rebuilt size (``None``: the live log is shorter)

    def same(self, rebuilt: Rebuilt) -> bool:
        return self.live_root == rebuilt.root


def compare(rebuilt: Rebuilt, live: TransparencyStore) -> Compared:
    """The live log's size, and its root at the rebuilt tree's size (a tree grows: an older size's
    root is the root of that checkpoint)."""
    size = live.size()
    return Compared(size, live.tree().root(rebuilt.size) if rebuilt.size <= size else None)


class NotEmpty(Exception):
    """The live log holds leaves: a restore would overwrite them."""


def restore(rebuilt: Rebuilt, live: TransparencyStore, archive: Archive) -> int:
    """Write the rebuilt tree into the empty live log, then append the stray
    leaves after it (their rows keep their new index); the log's size after."""
    if live.size():
        raise NotEmpty(f"the live log holds {live.size()} leaves: a restore only fills an empty one "
                       "(after Redis was lost)")
    live.rebuild(rebuilt.leaves)
    for _, game, leaf in rebuilt.stray:
        index, _ = live.append(game, leaf.encode())
        archive.set_leaf(game, index, leaf)
    return live.size()
