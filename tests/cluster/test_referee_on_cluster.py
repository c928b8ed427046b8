"""The referee on a real Redis Cluster (3 masters, 3 replicas) with RQ on a
standalone queue Redis, through the Flask test client: every ruleset played
to its end, a tournament of bots, a long-poll, the rate limiter, bots'
registration — so every script, pipeline and transaction the referee sends
meets a cluster, and any access across slots fails the test (a cluster
answers CROSSSLOT, the API a 500). Then a master is killed with SIGKILL in
the middle of a game: every move acknowledged (201) is in the log."""
from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from rq import SimpleWorker

from referee.engine.platform import playing_moves
from referee.service.scheduling import QUEUE, queue_connection
from referee.store.cluster_server import LocalCluster, start_cluster
from tests.api.helpers import auth, create, play_to_end, view
from tests.conftest import Clock
from tests.processes import own_redis, stop

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with start_cluster(masters=3, replicas=1) as found:
        yield found


@pytest.fixture(scope="module")
def queue_url() -> Iterator[str]:
    port, proc = own_redis()
    yield f"redis://127.0.0.1:{port}/0"
    stop(proc)


@pytest.fixture
def app(cluster: LocalCluster, queue_url: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    from referee.http.app import create_app
    monkeypatch.setenv("REDIS_URL", cluster.url)
    monkeypatch.setenv("RQ_REDIS_URL", queue_url)
    monkeypatch.setenv("REFEREE_BOT_ALLOW_PRIVATE", "1")
    clock = Clock()
    made = create_app({"CLOCK": clock, "RATE_LIMIT": "1000/second", "REDIS_URL": cluster.url})
    made.config["TEST_CLOCK"] = clock
    return made


def work_queue() -> None:
    """Every job on the queue, in this process (RQ on the standalone queue Redis)."""
    SimpleWorker([QUEUE], connection=queue_connection()).work(burst=True, with_scheduler=True,
                                                              logging_level="WARNING")


def test_the_referee_knows_it_is_on_a_cluster_and_waits_for_a_replica(app: Any) -> None:
    svc = app.extensions["referee.service"]
    assert svc.store.cluster and svc.store.wait_replicas == 1
    assert svc.pushed is None  # a block published on one node reaches the others late: not trusted
    health = app.test_client().get("/health")
    assert health.status_code == 200 and health.get_json()["redis"] == "ok"


@pytest.mark.parametrize("ruleset,players", [("bang", 4), ("bang-faceoff", 2), ("bang-dice", 5),
                                             ("bluffaneer", 4)])
def test_every_ruleset_plays_to_its_end_and_audits_clean_on_a_cluster(app: Any, ruleset: str,
                                                                      players: int) -> None:
    client, svc = app.test_client(), app.extensions["referee.service"]
    game = create(client, ruleset, players)
    end = play_to_end(client, game, app.config["TEST_CLOCK"], svc)
    assert end["result"] is not None
    events = client.get(f"/v1/games/{game['id']}/events?after=0")
    assert events.status_code == 200
    audit = client.get(f"/v1/games/{game['id']}/audit")
    assert audit.status_code == 200 and audit.get_json()["ok"], audit.get_json()
    assert client.get(f"/v1/games/{game['id']}/events?after={end['version']}&wait=1").status_code == 200


def test_a_tournament_of_bots_runs_to_its_standings_on_a_cluster(app: Any) -> None:
    client = app.test_client()
    made = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 4, "parallel": 2,
                                                "entrants": ["random", "heuristic", "random"]})
    assert made.status_code == 201, made.get_json()
    work_queue()
    done = client.get(f"/v1/tournaments/{made.get_json()['id']}").get_json()
    assert done["status"] == "finished" and done["games_finished"] == 4
    assert sum(row["games"] for row in done["standings"]) == 4 * 3
    # its games are rated: the ladder's scripts ran on the ladder's slot (issue 42)
    ladder = client.get("/v1/ladder/bluffaneer").get_json()
    assert sum(item["games"] for item in ladder["items"]) == 4 * 3
    assert client.get("/v1/bots/heuristic/profile").get_json()["ladders"]["bluffaneer"]["games"] == 4
    cancel = client.delete(f"/v1/tournaments/{done['id']}", headers=auth(made.get_json()["cancel_token"]))
    assert cancel.status_code == 409  # over: nothing to cancel (the script ran on the tournament's slot)


def test_bots_and_the_limiter_on_a_cluster(app: Any) -> None:
    client = app.test_client()
    bot = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/move", "rulesets": ["bang"]})
    assert bot.status_code == 201, bot.get_json()
    assert client.get(f"/v1/bots/{bot.get_json()['id']}", headers=auth(bot.get_json()["secret"])).status_code == 200
    for _ in range(3):  # failed authentications are counted per address, on the address's slot
        assert client.get(f"/v1/bots/{bot.get_json()['id']}", headers=auth("wrong")).status_code == 401


def test_no_acknowledged_move_is_lost_when_a_master_dies(app: Any, cluster: LocalCluster) -> None:
    """Moves with idempotency keys, a master killed with SIGKILL among them:
    a 503 (with Retry-After) is retried under the same key until it is
    acknowledged; at the end every acknowledged move is in the log, in order."""
    client = app.test_client()
    game = create(client, "bluffaneer", 4)
    master = cluster.client().get_node_from_key(f"game:{{{game['id']}}}:meta")  # the game's slot's master
    acknowledged: list[int] = []
    unavailable = 0
    rng = random.Random(7)
    for step in range(2000):  # to the game's end: its log is open then
        if step == 10:
            cluster.kill_master(master.port)
        state = view(client, game)
        if state["result"] is not None:
            break
        seat = sorted(state["to_act"])[0]
        mine = view(client, game, seat)
        key = f"m-{step}"
        for _ in range(60):  # a failover lasts seconds; each 503 waits out the referee's own retries
            sent = client.post(f"/v1/games/{game['id']}/moves", headers={**auth(game["seats"][seat]["token"]),
                                                                          "Idempotency-Key": key},
                               json={"move": rng.choice(list(playing_moves(mine["legal_moves"]))),
                                     "expected_version": mine["version"]})
            if sent.status_code != 503:
                break
            assert sent.headers.get("Retry-After"), sent.get_json()
            unavailable += 1
        assert sent.status_code == 201, sent.get_json()
        acknowledged.append(sent.get_json()["version"])
    assert state["result"] is not None
    cluster.wait_failover()
    log = client.get(f"/v1/games/{game['id']}/log")
    assert log.status_code == 200
    logged = {json.loads(line).get("seq") for line in log.data.decode().splitlines() if line.strip()}  # a header first
    lost = [v for v in acknowledged if v not in logged]
    print(f"failover: {len(acknowledged)} moves acknowledged, {unavailable} answers 503 (retried), "
          f"{len(lost)} acknowledged moves lost")
    assert lost == []
    audit = client.get(f"/v1/games/{game['id']}/audit")
    assert audit.get_json()["ok"], audit.get_json()
    assert os.environ["RQ_REDIS_URL"] != os.environ["REDIS_URL"]


def test_a_cluster_without_a_queue_redis_is_refused_at_start(cluster: LocalCluster,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.http.app import create_app
    monkeypatch.setenv("REDIS_URL", cluster.url)
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)
    with pytest.raises(SystemExit, match="set RQ_REDIS_URL to a standalone Redis"):
        create_app({"REDIS_URL": cluster.url})
    monkeypatch.setenv("RQ_REDIS_URL", cluster.url)
    with pytest.raises(SystemExit, match="RQ needs a standalone Redis"):
        queue_connection()
