"""The documented generator (DESIGN.md, Randomness that anyone can check)."""
from __future__ import annotations

import hashlib
import hmac

from hypothesis import given
from hypothesis import strategies as st

from referee.engine.rng import Rng


def _words(seed: bytes, block: int) -> list[int]:
    digest = hmac.new(seed, str(block).encode(), hashlib.sha256).digest()
    return [int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8)]


def test_words_are_hmac_blocks_read_big_endian() -> None:
    rng = Rng(b"seed")
    expected = _words(b"seed", 0) + _words(b"seed", 1)
    got = [rng.below(2**64 - 1) for _ in range(8)]
    assert got == [u % (2**64 - 1) for u in expected]


def test_below_rejects_the_biased_tail() -> None:
    # with n = 2**63 + 1 the limit is 2**63 + 1: words at or above it are skipped
    seed = b"reject"
    n = 2**63 + 1
    limit = 2**64 - 2**64 % n
    words = _words(seed, 0) + _words(seed, 1) + _words(seed, 2)
    expected = next(u % n for u in words if u < limit)
    assert Rng(seed).below(n) == expected


def test_shuffle_is_fisher_yates_from_the_last_index_down() -> None:
    seed = b"shuffle"
    items = list(range(10))
    ref = list(items)
    r = Rng(seed)
    for i in range(len(ref) - 1, 0, -1):
        j = r.below(i + 1)
        ref[i], ref[j] = ref[j], ref[i]
    assert Rng(seed).shuffle(items) == ref
    assert items == list(range(10))


@given(st.binary(min_size=1, max_size=32), st.integers(min_value=0, max_value=50), st.integers(1, 1000))
def test_resuming_at_a_position_continues_the_same_stream(seed: bytes, skip: int, n: int) -> None:
    a = Rng(seed)
    for _ in range(skip):
        a.below(7)
    b = Rng(seed, a.position)
    assert [a.below(n) for _ in range(5)] == [b.below(n) for _ in range(5)]


@given(st.integers(1, 10**6))
def test_below_stays_in_range(n: int) -> None:
    rng = Rng(b"range")
    assert all(0 <= rng.below(n) < n for _ in range(20))
