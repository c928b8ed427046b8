"""The archive's faults over real processes (issue 41 item 6): a real
PostgreSQL (started by the test), a real Redis, ``referee serve`` and
``referee worker``. The database is killed mid-run: games go on being
refereed to their end, their archive writes wait, and once the database is
back the worker's sweeper lands every one — 0 games lost. Then Redis is
flushed, and every archived game is still served and audits clean."""
from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
import redis

from tests.e2e.conftest import live_stack
from tests.postgres import Postgres

BOTS = [{"bot": "random", "name": "ann"}, {"bot": "random"}, {"bot": "random"}]
PATIENCE_S = 300.0  # polling with generous patience: a busy machine is slow, never wrong


def _until(what: str, check: Any) -> Any:
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"not within {PATIENCE_S} s: {what}")


@pytest.mark.e2e
def test_the_database_killed_mid_run_loses_no_game_and_a_flushed_redis_loses_none_either() -> None:
    server = Postgres()
    try:
        settings = {"REFEREE_ARCHIVE_URL": server.url, "REFEREE_ARCHIVE_RETRY_S": "off", "REFEREE_STALL_S": "1",
                    "REFEREE_ARCHIVE_TIMEOUT_S": "1"}
        with live_stack(**settings) as live:
            http = httpx.Client(base_url=live.url, timeout=30)
            server.stop()  # killed: an immediate shutdown
            ids = [http.post("/v1/games", json={"ruleset": "bluffaneer", "seats": BOTS}).json()["id"]
                   for _ in range(4)]
            _until("every game refereed to its end while the database is down",
                   lambda: all(http.get(f"/v1/games/{g}").json()["status"] == "finished" for g in ids))
            down = http.get("/v1/archive/games")
            assert down.status_code == 503 and down.json()["code"] == "archive_unavailable"
            server.start()
            archived = _until("every write landed once the database is back", lambda: (
                {g["id"] for g in http.get("/v1/archive/games?seat=ann").json()["games"]} >= set(ids)))
            lost = [g for g in ids if g not in {x["id"] for x in http.get("/v1/archive/games").json()["games"]}]
            print(f"archive faults: {len(ids)} games finished while the database was down, {len(lost)} lost")
            assert archived and lost == []
            logs = {g: http.get(f"/v1/games/{g}/log").content for g in ids}
            redis.Redis.from_url(live.redis_url).flushall()  # Redis lost entirely
            for game_id in ids:
                assert http.get(f"/v1/games/{game_id}/log").content == logs[game_id]
                assert http.get(f"/v1/games/{game_id}/audit").json()["ok"] is True
    finally:
        server.close()
