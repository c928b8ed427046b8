"""Retention (issue 8, Found 11): finished games used to live forever (a
7-player game is ~11 KiB). Now every key of a game expires together: the
idle TTL after its last move while it is active, the finished TTL once it is
over; idempotency records never outlive their game. Real Redis throughout."""
from __future__ import annotations

import time
from typing import Any, cast

import pytest
import redis

from referee.http.app import create_app
from referee.store.retention import FINISHED_DEFAULT_S, IDLE_DEFAULT_S, Retention, parse_seconds
from tests.api.helpers import auth, create, move, play_to_end, view
from tests.conftest import Clock, ContractClient

SETUP = {"turn": 0, "seats": [{"card": ["chest", "sword"]}, {"card": ["ship", "skull"]},
                              {"card": ["chest", "ship"]}, {"card": ["sword", "skull"]}]}
#: slack for the time between writing a TTL and reading it back (a slow CI box)
SLACK_MS = 60_000


@pytest.fixture
def configure(redis_client: redis.Redis, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Any:
    """An app whose store reads its retention from the environment, as in production."""
    def make(finished: str | None, idle: str | None) -> Any:
        for name, value in (("REFEREE_RETENTION_FINISHED_S", finished), ("REFEREE_RETENTION_IDLE_S", idle)):
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        app = create_app({"REDIS": redis_client, "CLOCK": clock, "TESTING": True, "RATE_LIMIT": "off"})
        app.test_client_class = ContractClient
        return app
    return make


def game_keys(client: redis.Redis, game_id: str) -> dict[str, int]:
    """Every key of the game with its PTTL (-1: none)."""
    return {key.decode(): int(cast(Any, client.pttl(key))) for key in client.scan_iter(match=f"game:{{{game_id}}}*")}


def near(ttl_ms: int, expected_s: int) -> bool:
    return expected_s * 1000 - SLACK_MS < ttl_ms <= expected_s * 1000


def test_settings_default_to_30_days_finished_and_7_days_idle_and_parse_strictly() -> None:
    assert (FINISHED_DEFAULT_S, IDLE_DEFAULT_S) == (30 * 24 * 3600, 7 * 24 * 3600)
    assert Retention() == Retention(finished_s=FINISHED_DEFAULT_S, idle_s=IDLE_DEFAULT_S)
    assert parse_seconds("X", None, 5) == 5 and parse_seconds("X", " ", 5) == 5
    assert parse_seconds("X", "3600", 5) == 3600
    assert [parse_seconds("X", v, 5) for v in ("0", "off", "OFF", "never")] == [0, 0, 0, 0]
    for bad in ("abc", "-1", "1.5", "7d"):
        with pytest.raises(ValueError, match="X="):
            parse_seconds("X", bad, 5)
    assert Retention(finished_s=600, idle_s=3600).idem_ttl_s(7 * 24 * 3600) == 600
    assert Retention(finished_s=0, idle_s=0).idem_ttl_s(7 * 24 * 3600) == 7 * 24 * 3600
    assert Retention(finished_s=0, idle_s=3600).game_ttl_ms("finished") == 0


def test_without_settings_a_new_game_expires_after_the_default_idle_time(configure: Any,
                                                                        redis_client: redis.Redis) -> None:
    # regression: games never expired
    client = configure(None, None).test_client()
    game = create(client, setup=SETUP)
    keys = game_keys(redis_client, game["id"])
    assert {k.rsplit(":", 1)[1] for k in keys} == {"events", "meta", "secret"}
    assert all(near(ttl, IDLE_DEFAULT_S) for ttl in keys.values()), keys


def test_an_active_game_keeps_the_idle_ttl_refreshed_by_each_move(configure: Any,
                                                                  redis_client: redis.Redis) -> None:
    client = configure("86400", "3600").test_client()
    game = create(client, setup=SETUP)
    assert all(near(ttl, 3600) for ttl in game_keys(redis_client, game["id"]).values())
    for key in game_keys(redis_client, game["id"]):  # as if most of the idle time had passed
        redis_client.pexpire(key, 5000)
    r = move(client, game, 0, {"type": "roll"}, headers={"Idempotency-Key": "k-1"})
    assert r.status_code == 201, r.get_json()
    keys = game_keys(redis_client, game["id"])
    assert {k.rsplit(":", 2)[1] for k in keys if ":idem:" in k} == {"idem"}
    # events, meta, secret, the record, and the set naming the game's records (issue 41: archived, they go with it)
    assert len(keys) == 5 and all(near(ttl, 3600) for ttl in keys.values()), keys


def test_a_finished_game_keeps_the_finished_ttl_and_its_idempotency_records_go_first(
        configure: Any, redis_client: redis.Redis, clock: Clock) -> None:
    app = configure("600", "3600")
    client = app.test_client()
    game = create(client, players=3, seed="end")
    to_act = view(client, game)["to_act"][0]
    legal = view(client, game, to_act)["legal_moves"][0]
    r = move(client, game, to_act, legal, headers={"Idempotency-Key": "early"})
    assert r.status_code == 201, r.get_json()
    clock.advance(1)
    assert play_to_end(client, game, clock, app.extensions["referee.service"])["status"] == "finished"
    keys = game_keys(redis_client, game["id"])
    game_ttls = [ttl for key, ttl in keys.items() if ":idem:" not in key]
    idem_ttls = [ttl for key, ttl in keys.items() if ":idem:" in key]
    assert len(game_ttls) == 4 and all(near(ttl, 600) for ttl in game_ttls), keys  # the :idems set with them
    # written with min(7 days, idle, finished) = 600 s, before the game's last write
    assert len(idem_ttls) == 1 and idem_ttls[0] <= min(game_ttls), keys


def test_off_keeps_games_forever_and_idempotency_records_for_their_own_week(configure: Any,
                                                                           redis_client: redis.Redis) -> None:
    client = configure("off", "0").test_client()
    game = create(client, setup=SETUP)
    assert set(game_keys(redis_client, game["id"]).values()) == {-1}
    r = move(client, game, 0, {"type": "roll"}, headers={"Idempotency-Key": "k-1"})
    assert r.status_code == 201
    keys = game_keys(redis_client, game["id"])
    assert [ttl for key, ttl in keys.items() if ":idem:" not in key] == [-1, -1, -1, -1]  # the :idems set too
    assert [near(ttl, 7 * 24 * 3600) for key, ttl in keys.items() if ":idem:" in key] == [True]


def test_switching_retention_off_persists_a_game_at_its_next_move(configure: Any,
                                                                 redis_client: redis.Redis) -> None:
    game = create(configure("86400", "3600").test_client(), setup=SETUP)
    client = configure("off", "off").test_client()
    assert move(client, game, 0, {"type": "roll"}).status_code == 201
    assert set(game_keys(redis_client, game["id"]).values()) == {-1}


def test_an_expired_game_is_a_plain_404(configure: Any, redis_client: redis.Redis) -> None:
    client = configure("1", "1").test_client()
    game = create(client, setup=SETUP)
    for _ in range(200):  # one real expiry: a 1 s TTL, waited for (at most 20 s)
        if not game_keys(redis_client, game["id"]):
            break
        time.sleep(0.1)
    assert game_keys(redis_client, game["id"]) == {}
    seat = auth(game["seats"][0]["token"])
    for response in (client.get(f"/v1/games/{game['id']}"), client.get(f"/v1/games/{game['id']}", headers=seat),
                     client.get(f"/v1/games/{game['id']}/events?after=0"),
                     move(client, game, 0, {"type": "roll"})):
        assert response.status_code == 404, response.get_json()
        assert response.get_json()["code"] == "game_not_found"
