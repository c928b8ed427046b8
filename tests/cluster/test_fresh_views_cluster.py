"""Issue 36 item 7 on a Redis Cluster: a view is never older than a move
some client has seen acknowledged, whichever of two referees (2 gunicorn
workers each, the rate limiter on) answers, directly or through haproxy.
8 threads each move through one of them and at once read the spectator's
and another seat's view from all three (``bench.fresh_reads``); bounded by
the number of moves, not by time. Skipped, loudly, without haproxy."""
from __future__ import annotations

import pytest

from bench.fresh_reads import LIMITER, hammer
from referee.ops.topology import Topology
from tests.cluster.conftest import require_haproxy

pytestmark = pytest.mark.cluster
THREADS, MOVES = 8, 30


def test_no_view_is_older_than_an_acknowledged_move_on_a_cluster() -> None:
    require_haproxy()
    with Topology(referees=2, workers=0, env={"REFEREE_RATE_LIMIT": LIMITER}, gunicorn_workers=2) as topo:
        tally = hammer([r.url for r in topo.referees] + [topo.url], threads=THREADS, moves=MOVES)
    assert tally.stale == 0, tally.examples
    assert tally.moves + tally.refused + tally.ended == THREADS * MOVES
    assert tally.moves >= THREADS * MOVES // 2 and tally.reads >= THREADS * MOVES + 6 * tally.moves
