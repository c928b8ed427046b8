"""The failover run (``tests.cluster.failover``), the referee retrying a
Redis call through the failover for its default ``REFEREE_REDIS_FAILOVER_S``
(5 s, outlasting the failover's ~2 s): it rides the failover out, and the
clients see no 503."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.ops.topology import Topology
from tests.cluster import failover

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


@pytest.fixture
def topo() -> Iterator[Topology]:
    with failover.topology(failover.FAILOVER_S["referee-retries"]) as started:
        yield started


def test_200_games_ride_out_a_master_a_referee_and_a_worker_killed(topo: Topology,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    failover.ride_out(topo, capsys)
