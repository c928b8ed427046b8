"""The ladders' matchmaking pool on a real Redis Cluster (3 masters, 3
replicas), RQ on a standalone queue Redis (issue 42 item 5): a bot put in,
games dealt and played to their end, the bot paused, the owner's places —
every script of the pool on one slot (a cluster answers CROSSSLOT
otherwise, the API a 500)."""
from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import auth
from tests.cluster.test_referee_on_cluster import app, cluster, queue_url, work_queue  # noqa: F401 (fixtures)

pytestmark = pytest.mark.cluster


def test_a_pool_deals_plays_and_pauses_on_a_cluster(app: Any) -> None:  # noqa: F811 (the fixture)
    import workers.jobs as jobs
    jobs.service_from_env.cache_clear()  # this test's cluster, not one an earlier test's service knew
    client = app.test_client()
    bot = client.post("/v1/bots", json={"name": "dead", "url": "http://127.0.0.1:9/move",
                                        "rulesets": ["bluffaneer"]}).get_json()
    put = client.put(f"/v1/ladder/bluffaneer/pool/{bot['id']}", json={"games_at_once": 1},
                     headers=auth(bot["secret"]))
    assert put.status_code == 200, put.get_json()
    work_queue()  # the match, the game's turns (the bot's defaults), its end's pool step: the bot paused
    pool = client.get("/v1/ladder/bluffaneer/pool").get_json()
    entry = next(e for e in pool["entries"] if e["bot"]["id"] == bot["id"])
    assert entry["status"] == "paused" and "invalid answers" in entry["paused_reason"], pool
    assert pool["stats"]["playing_games"] == 0  # its game released (the app's clock is the tests', the worker's
    # the wall's: the games per minute, counted on the app's clock, are no measure here)
    again = client.put(f"/v1/ladder/bluffaneer/pool/{bot['id']}", json={"games_at_once": 1},
                       headers=auth(bot["secret"]))
    assert again.get_json()["status"] == "waiting"
    out = client.delete(f"/v1/ladder/bluffaneer/pool/{bot['id']}", headers=auth(bot["secret"]))
    assert out.status_code == 200


def test_a_rated_game_is_recorded_in_its_ladder_on_a_cluster(app: Any) -> None:  # noqa: F811 (the fixture)
    """The run that finishes it records it (``workers.ending``): the ladder's
    scripts on its one slot; the ledger read back, a second recording counts once."""
    import workers.jobs as jobs
    from referee.store.ladder import LadderBook
    jobs.service_from_env.cache_clear()
    client = app.test_client()
    made = client.post("/v1/games", json={"ruleset": "bluffaneer", "options": {"rated": True},
                                           "seats": [{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}]})
    assert made.status_code == 201, made.get_json()
    book = LadderBook(app.extensions["referee.service"].store.redis, "bluffaneer")
    before, listed = book.size(), client.get("/v1/ladder").get_json()["ladders"]  # the pool's games before
    work_queue()
    assert client.get("/v1/ladder").get_json()["ladders"][0]["games"] == (listed[0]["games"] if listed else 0) + 1
    entries = book.entries(0, before + 10)
    assert [e["game"] for e in entries][-1:] == [made.get_json()["id"]] and book.entries(before + 1, 10) == []
    assert book.add(entries[-1]) is False
