"""The one documented random generator (DESIGN.md, "Randomness that anyone can check").

Block ``i`` (from 0) is ``HMAC-SHA256(key=seed, msg=str(i))``, read as four
big-endian unsigned 64-bit words. ``below(n)`` takes the next word ``u``,
rejects it while ``u >= 2**64 - 2**64 % n`` and returns ``u % n``. A shuffle
is Fisher–Yates from the last index down (``j = below(i + 1)``).

The generator is positioned by ``position`` — the number of 64-bit words
consumed so far — so a game can resume it between moves and an auditor can
check that every move drew from where the previous one stopped.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import TypeVar

from referee.engine.chain import keyed_hmac_sha256

T = TypeVar("T")

_WORD = 2**64
_WORDS: Callable[[bytes], tuple[int, int, int, int]] = struct.Struct(">4Q").unpack


class Rng:
    """Deterministic stream of 64-bit words from a secret seed."""

    __slots__ = ("_seed", "_position", "_block", "_block_index", "_mac")

    def __init__(self, seed: bytes, position: int = 0, *, mac: Callable[[bytes], bytes] | None = None) -> None:
        """``mac``: ``keyed_hmac_sha256(seed)`` if the caller holds one already
        (the service keeps one per game); else made at the first draw."""
        if position < 0:
            raise ValueError("position must be >= 0")
        self._seed = seed
        self._position = position
        self._block: tuple[int, int, int, int] | None = None
        self._block_index = -1
        self._mac = mac  # HMAC-SHA256 keyed with the seed

    @property
    def position(self) -> int:
        """Words consumed so far; hand it to ``Rng(seed, position)`` to resume."""
        return self._position

    def _word(self) -> int:
        index, offset = divmod(self._position, 4)
        if index != self._block_index or self._block is None:
            if self._mac is None:
                self._mac = keyed_hmac_sha256(self._seed)
            self._block = _WORDS(self._mac(str(index).encode()))  # four big-endian 64-bit words
            self._block_index = index
        self._position += 1
        return self._block[offset]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = _WORD - _WORD % n
        while True:
            u = self._word()
            if u < limit:
                return u % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher–Yates from the last index down."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One element, drawn with ``below(len(items))``."""
        return items[self.below(len(items))]
