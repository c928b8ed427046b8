"""The generator's edges (DESIGN.md, "Randomness that anyone can check"): a
word at or above the rejection limit is skipped (a seed is found whose first
word is), a position or a bound out of range is refused, and the generator
holds only what it documents."""
from __future__ import annotations

import hashlib
import hmac

import pytest

from referee.engine.rng import Rng


def _words(seed: bytes, block: int) -> list[int]:
    digest = hmac.new(seed, str(block).encode(), hashlib.sha256).digest()
    return [int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8)]


N = 2**63 + 1  # the limit is 2**64 - 2**64 % N = 2**63 + 1: about half the words are rejected
LIMIT = 2**64 - 2**64 % N


def _seed_whose_first_words_are(rejected: int) -> bytes:
    """A seed whose first ``rejected`` words are at or above the limit, and the next one below."""
    for i in range(10_000):
        seed = b"reject-%d" % i
        words = _words(seed, 0)
        if all(w >= LIMIT for w in words[:rejected]) and words[rejected] < LIMIT:
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("rejected", [0, 1, 2])
def test_below_skips_every_word_at_or_above_the_limit(rejected: int) -> None:
    seed = _seed_whose_first_words_are(rejected)
    rng = Rng(seed)
    assert rng.below(N) == _words(seed, 0)[rejected] % N
    assert rng.position == rejected + 1


def test_a_word_below_the_limit_is_taken_modulo_n() -> None:
    seed = _seed_whose_first_words_are(0)
    word = _words(seed, 0)[0]
    for n in (1, 2, 3, 6, 1000, 2**32 + 7):
        assert Rng(seed).below(n) == word % n if word < 2**64 - 2**64 % n else True
    assert Rng(seed).below(1) == 0


def test_the_words_cross_from_block_to_block_and_resume_anywhere() -> None:
    seed = b"blocks"
    words = _words(seed, 0) + _words(seed, 1) + _words(seed, 2)
    rng = Rng(seed)
    assert [rng.below(2**64 - 1) for _ in range(12)] == [w % (2**64 - 1) for w in words]
    for start in (0, 3, 4, 5, 8):
        again = Rng(seed, start)
        assert again.position == start
        assert [again.below(2**64 - 1) for _ in range(3)] == [w % (2**64 - 1) for w in words[start:start + 3]]
        assert again.position == start + 3


@pytest.mark.parametrize("position", [-1, -5])
def test_a_negative_position_is_refused(position: int) -> None:
    with pytest.raises(ValueError, match="position must be >= 0"):
        Rng(b"seed", position)
    assert Rng(b"seed", 0).position == 0


@pytest.mark.parametrize("n", [0, -1, -2**64])
def test_a_bound_below_one_is_refused(n: int) -> None:
    rng = Rng(b"seed")
    with pytest.raises(ValueError, match="below\\(n\\) needs n >= 1"):
        rng.below(n)
    assert rng.position == 0  # nothing drawn


def test_shuffle_and_choice_draw_as_documented() -> None:
    assert Rng(b"s").shuffle([]) == [] and Rng(b"s").shuffle([7]) == [7]
    rng = Rng(b"s")
    assert rng.shuffle([7]) == [7] and rng.position == 0  # one item: nothing to draw
    items = ["a", "b", "c", "d"]
    ref = Rng(b"s")
    assert Rng(b"s").choice(items) == items[ref.below(len(items))]
    assert sorted(Rng(b"s").shuffle(items)) == items
    two = Rng(b"two")
    out = two.shuffle([1, 2])
    assert out == ([2, 1] if Rng(b"two").below(2) == 0 else [1, 2]) and two.position == 1


def test_the_generator_holds_only_its_slots() -> None:
    rng = Rng(b"seed")
    with pytest.raises(AttributeError):
        rng.extra = 1  # type: ignore[attr-defined]
