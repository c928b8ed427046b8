"""Issue 36 item 7 over real HTTP: a view is never older than a move some
client has seen acknowledged, whichever referee process (and gunicorn
worker) answers it. Two `referee serve` processes with 2 workers each (one
with the rate limiter on: its round trip reads the view's head; one
without: the view reads it itself) on one Redis, with Redis's pushes on;
8 threads each move through one referee and at once read the spectator's
and another seat's view from both (``bench.fresh_reads``). Bounded by the
number of moves, not by time. The deterministic proof that a pushed head
could be stale is tests/api/test_pushed.py's proxy test."""
from __future__ import annotations

import pytest

from bench.fresh_reads import hammer, two_referees

pytestmark = pytest.mark.e2e  # real processes: started with the long ones (tests/conftest.py)

THREADS, MOVES = 8, 40


def test_no_view_is_older_than_an_acknowledged_move_across_two_referee_processes() -> None:
    with two_referees() as urls:
        tally = hammer(urls, threads=THREADS, moves=MOVES)
    assert tally.stale == 0, tally.examples
    # every attempt moved (then 4 reads), was refused or found its game over; each began with a read
    assert tally.moves + tally.refused + tally.ended == THREADS * MOVES
    assert tally.moves >= THREADS * MOVES // 2 and tally.reads >= THREADS * MOVES + 4 * tally.moves
