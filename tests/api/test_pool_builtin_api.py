"""The admin puts a built-in bot in a ladder's pool (issue 42 items 3 and 6:
warming a pool and measuring it, ``python -m bench pool``): an entry like a
registered bot's, its tables of built-in bots only, its games rated as
usual (the anchors do not move), its jobs run by a real RQ worker (burst)."""
from __future__ import annotations

import json
from typing import Any

from rq import Queue

from referee.ladder.pool import Pool
from referee.service.scheduling import QUEUE
from tests.api.helpers import auth
from tests.conftest import BurstWorker

ADMIN = auth("admin-secret")


def _pool(client: Any, key: str = "bluffaneer") -> dict[str, Any]:
    got = client.get(f"/v1/ladder/{key}/pool")
    assert got.status_code == 200, got.get_json()
    return dict(got.get_json())


def test_only_the_admin_puts_a_built_in_bot_in_and_takes_it_out(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    bot = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"]})
    secret = bot.get_json()["secret"]
    none = client.put("/v1/ladder/bluffaneer/pool/random", json={})
    assert none.status_code == 401 and none.get_json()["code"] == "token_required"
    other = client.put("/v1/ladder/bluffaneer/pool/random", json={}, headers=auth(secret))
    assert other.status_code == 403 and other.get_json()["code"] == "admin_only"
    too_many = client.put("/v1/ladder/bluffaneer/pool/random", json={"same_table": 7}, headers=ADMIN)
    assert too_many.status_code == 422 and too_many.get_json()["code"] == "same_table_limit"
    put = client.put("/v1/ladder/bluffaneer/pool/random", json={"games_at_once": 3, "same_table": 3}, headers=ADMIN)
    assert put.status_code == 200, put.get_json()
    entry = put.get_json()
    assert entry["bot"] == {"id": "random", "name": "random", "builtin": True}
    assert (entry["status"], entry["games_at_once"], entry["same_table"]) == ("waiting", 3, 3)
    # the built-in bots play through their entries here: heuristic, not put in, is no anchor of this pool
    assert [e["bot"]["id"] for e in _pool(client)["entries"]] == ["random"]
    assert client.delete("/v1/ladder/bluffaneer/pool/random", headers=auth(secret)).status_code == 403
    left = client.delete("/v1/ladder/bluffaneer/pool/random", headers=ADMIN)
    assert left.status_code == 200 and left.get_json() == {"key": "bluffaneer", "bot": "random", "left": True,
                                                           "playing": 0}
    assert [e["bot"]["id"] for e in _pool(client)["entries"]] == ["random", "heuristic"]  # anchors again
    again = client.delete("/v1/ladder/bluffaneer/pool/random", headers=ADMIN)
    assert again.status_code == 404 and again.get_json()["code"] == "not_in_pool"


def test_a_built_in_bot_put_in_fills_its_games_at_once_and_plays_them_rated(
        loopback_app: Any, service: Any, work: Any, redis_client: Any) -> None:
    client = loopback_app.test_client()
    put = client.put("/v1/ladder/bluffaneer/pool/random", json={"games_at_once": 3, "same_table": 4}, headers=ADMIN)
    assert put.status_code == 200, put.get_json()
    Queue(QUEUE, connection=redis_client).empty()  # the PUT's match job: matched here instead
    dealt = Pool(service).fill("bluffaneer")
    assert len(dealt) == 3  # every free slot at once, not one game a round
    assert Pool(service).fill("bluffaneer") == []  # no slot left
    assert client.get("/v1/ladder/bluffaneer/pool").get_json()["entries"][0]["status"] == "playing"
    for game_id in dealt:
        header = json.loads(service.store.meta(game_id)["header"])
        assert header["pool"] == "bluffaneer"
        assert [seat["bot"] for seat in header["seats"]] == ["random"] * 4  # its largest table it fills alone
    queue = Queue(QUEUE, connection=redis_client)
    for _ in range(60):  # each game's end deals the next: run batches until the first three are over
        BurstWorker([queue], connection=redis_client).work(burst=True, max_jobs=40, logging_level="ERROR")
        if all(service.load(game_id).status == "finished" for game_id in dealt):
            break
    assert all(service.load(game_id).status == "finished" for game_id in dealt)
    ladder = client.get("/v1/ladder/bluffaneer").get_json()
    rows = {row["bot"]["id"]: row for row in ladder["items"]}
    assert rows["random"]["games"] >= 3 and rows["random"]["rating"]["mu"] == 20.0  # rated, the anchor unmoved
