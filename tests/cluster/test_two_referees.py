"""Two referee processes on one Redis Cluster (issue 21): a view served by
referee B reflects every move referee A acknowledged — B reads the game's
head in the request, as every view does (issue 36 item 7) — and a client
through haproxy sees the same. Skipped, loudly, without haproxy."""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import requests

from referee.engine.platform import playing_moves
from referee.ops.topology import Topology
from tests.cluster.conftest import require_haproxy

pytestmark = pytest.mark.cluster
DEADLINE_S = 30.0


@pytest.fixture(scope="module")
def topology() -> Iterator[Topology]:
    require_haproxy()
    with Topology(referees=2, workers=1, env={"REFEREE_RATE_LIMIT": "off"}) as topo:
        yield topo


def test_a_view_on_referee_b_reflects_a_move_acknowledged_by_referee_a(topology: Topology) -> None:
    a, b = (r.url for r in topology.referees)
    created = requests.post(topology.url + "/v1/games", json={"ruleset": "bluffaneer", "players": 3},
                            timeout=DEADLINE_S)
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = [s["token"] for s in game["seats"]]
    rng = random.Random(3)
    checked = 0
    for step in range(40):
        writer, reader = (a, b) if step % 2 == 0 else (b, a)
        spectator = requests.get(f"{reader}/v1/games/{game['id']}", timeout=DEADLINE_S).json()
        if spectator["result"] is not None:
            break
        seat = sorted(spectator["to_act"])[0]
        mine = requests.get(f"{writer}/v1/games/{game['id']}", headers={"Authorization": f"Bearer {tokens[seat]}"},
                            timeout=DEADLINE_S).json()
        sent = requests.post(f"{writer}/v1/games/{game['id']}/moves",
                             headers={"Authorization": f"Bearer {tokens[seat]}", "Idempotency-Key": f"k{step}"},
                             json={"move": rng.choice(list(playing_moves(mine["legal_moves"]))),
                                   "expected_version": mine["version"]},
                             timeout=DEADLINE_S)
        assert sent.status_code == 201, sent.text
        acked = sent.json()["version"]
        for url in (reader, topology.url):  # the other referee at once, and whichever haproxy picks
            seen = requests.get(f"{url}/v1/games/{game['id']}", timeout=DEADLINE_S).json()
            assert seen["version"] >= acked, (url, seen["version"], acked)
        checked += 1
    assert checked >= 10
