"""The failover run (``tests.cluster.failover``), the referee retrying a
Redis call through the failover for only 0.5 s: 503s with ``Retry-After``
reach the clients, which send the move again under its ``Idempotency-Key``."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.ops.topology import Topology
from tests.cluster import failover

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


@pytest.fixture
def topo() -> Iterator[Topology]:
    with failover.topology(failover.FAILOVER_S["client-retries"]) as started:
        yield started


def test_200_games_ride_out_a_master_a_referee_and_a_worker_killed(topo: Topology,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    failover.ride_out(topo, capsys)
