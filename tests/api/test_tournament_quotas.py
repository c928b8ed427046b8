"""Issue 22 (Deliver 5 and 6): tournament quotas per caller and for the
deployment, kept in Redis as leases; the contract's ruleset enum; a 401
before the rate limit where one is due; CORS preflights answered with each
route's own methods."""
from __future__ import annotations

from typing import Any

import pytest
from rq import Queue

from referee.bots.webhook import UrlPolicy
from referee.http.contract import built_in, read_yaml
from referee.play.tournaments import Tournaments
from referee.service.scheduling import QUEUE
from referee.store.tournaments import IN_FLIGHT, WAITING
from tests.api.helpers import auth, redis_sent
from tests.api.test_rate_limit import from_address, limited_app

BODY = {"ruleset": "bluffaneer", "games": 1, "entrants": ["random"] * 3}


def tournament(client: Any, headers: dict[str, str] | None = None, address: str = "203.0.113.7",
               **body: Any) -> Any:
    return client.post("/v1/tournaments", json={**BODY, **body}, headers=headers or {}, **from_address(address))


def quota_refused(r: Any) -> bool:
    return (r.status_code == 429 and r.get_json()["code"] == "tournament_quota"
            and r.headers["Retry-After"] == "60" and r.get_json()["max_tournaments"] == 2)


# -- the caller's quota -------------------------------------------------------------
def test_forty_quick_creations_from_one_address_are_refused_past_the_quota(client: Any, redis_client: Any) -> None:
    # Regression: one anonymous client created 40 capped tournaments in 1.3 s (40,000 games).
    answers = [tournament(client, games=1000) for _ in range(40)]
    assert [r.status_code for r in answers] == [201] * 2 + [429] * 38
    assert all(quota_refused(r) for r in answers[2:])
    assert "cancel" in answers[2].get_json()["detail"]
    # only two tournaments were stored
    assert len([k for k in redis_client.scan_iter(match="tournament:{*}") if k.count(b":") == 1]) == 2
    # another address has its own quota; the admin token is exempt
    assert tournament(client, address="203.0.113.8").status_code == 201
    assert [tournament(client, headers=auth("admin-secret")).status_code for _ in range(3)] == [201] * 3
    # a junk token proves no one: still the address's quota
    assert quota_refused(tournament(client, headers=auth("not-the-admin")))


def test_the_quota_counts_the_address_the_rate_limiter_counts(redis_client: Any) -> None:
    # behind one trusted proxy the client is X-Forwarded-For's, and an IPv6 client is its /64
    client = limited_app(redis_client, TRUSTED_PROXIES="1", RATE_LIMIT="off").test_client()
    forwarded = {"X-Forwarded-For": "198.51.100.9"}
    assert [tournament(client, headers=forwarded, address="10.0.0.1").status_code for _ in range(3)] == \
        [201, 201, 429]
    assert tournament(client, headers={"X-Forwarded-For": "198.51.100.10"}, address="10.0.0.1").status_code == 201
    v6 = [tournament(client, headers={"X-Forwarded-For": f"2001:db8:1:2::{i}"}).status_code for i in range(1, 4)]
    assert v6 == [201, 201, 429]


def test_a_cancelled_or_finished_tournament_frees_its_slot(client: Any, work: Any) -> None:
    first, second = (tournament(client).get_json() for _ in range(2))
    assert quota_refused(tournament(client))
    r = client.delete(f"/v1/tournaments/{first['id']}", headers=auth(first["cancel_token"]))
    assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
    third = tournament(client)
    assert third.status_code == 201
    assert quota_refused(tournament(client))
    # cancelling again, or by the admin, frees nothing more
    assert client.delete(f"/v1/tournaments/{first['id']}", headers=auth("admin-secret")).status_code == 200
    assert quota_refused(tournament(client))

    work(max_rounds=2000)  # the two running ones finish
    for made in (second, third.get_json()):
        assert client.get(f"/v1/tournaments/{made['id']}").get_json()["status"] == "finished"
    assert [tournament(client).status_code for _ in range(3)] == [201, 201, 429]


def test_a_slot_nobody_frees_lapses_and_a_caller_s_slots_are_recounted(client: Any, clock: Any,
                                                                       redis_client: Any) -> None:
    made = [tournament(client).get_json() for _ in range(2)]
    assert quota_refused(tournament(client))
    # a worker that crashed between closing a tournament and freeing its slot: the next creation recounts
    redis_client.hset(f"tournament:{{{made[0]['id']}}}", "status", "finished")
    assert tournament(client).status_code == 201
    assert quota_refused(tournament(client))
    # a tournament no game of which finishes (lost jobs): its slot lapses after REFEREE_TOURNAMENT_LEASE_S
    clock.advance(899_000)
    assert quota_refused(tournament(client))
    clock.advance(2_000)
    assert [tournament(client).status_code for _ in range(3)] == [201, 201, 429]
    # the quota's key is one slot of the caller's, and expires by itself
    keys = list(redis_client.scan_iter(match="tournaments:quota:*"))
    assert keys == [b"tournaments:quota:{addr:203.0.113.7}"] and 0 < redis_client.ttl(keys[0]) <= 900


def test_the_quota_is_a_setting(client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app.config["TOURNAMENTS_PER_CLIENT"] = 3
    assert [tournament(client).status_code for _ in range(4)] == [201, 201, 201, 429]
    app.config["TOURNAMENTS_PER_CLIENT"] = None
    monkeypatch.setenv("REFEREE_TOURNAMENTS_PER_CLIENT", "off")
    assert [tournament(client).status_code for _ in range(3)] == [201] * 3


# -- the deployment's cap on tournament games being played -----------------------------
def test_the_deployment_cap_answers_503_and_running_tournaments_wait_for_a_slot(
        client: Any, service: Any, redis_client: Any, work: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_TOURNAMENT_GAMES_MAX", "2")
    a = tournament(client, games=3, parallel=2).get_json()["id"]
    b = tournament(client, address="203.0.113.9", games=2, parallel=2).get_json()["id"]
    # (their start jobs stay queued: run again later, they launch nothing more)
    assert Tournaments(service, service.store.tournaments).start(a) == "launched 2"
    assert Tournaments(service, service.store.tournaments).start(b) == "launched 0"  # no slot: it waits in line
    assert redis_client.zrange(WAITING, 0, -1) == [b.encode()]
    assert redis_client.zcard(IN_FLIGHT) == 2

    for headers in ({}, auth("admin-secret")):  # the admin's tournaments too
        r = tournament(client, headers=headers, address="203.0.113.10")
        assert r.status_code == 503 and r.get_json()["code"] == "tournaments_busy", r.get_json()
        assert r.headers["Retry-After"] == "10" and r.get_json()["max_games_in_flight"] == 2

    playing: list[int] = []
    create_game = service.create_game

    def counted(*args: Any, **kwargs: Any) -> Any:
        playing.append(redis_client.zcard(IN_FLIGHT))  # this game's slot is taken already
        return create_game(*args, **kwargs)
    monkeypatch.setattr(service, "create_game", counted)
    work(max_rounds=3000)
    for tid, games in ((a, 3), (b, 2)):
        t = client.get(f"/v1/tournaments/{tid}").get_json()
        assert t["status"] == "finished" and t["games_finished"] == games, t
    assert len(playing) == 3 and max(playing) <= 2  # a's third and b's two, never more than 2 at once
    assert redis_client.zcard(IN_FLIGHT) == 0 and redis_client.zcard(WAITING) == 0
    assert tournament(client, address="203.0.113.10").status_code == 201


def test_a_freed_game_slot_goes_to_the_tournament_that_waited_longest(
        client: Any, service: Any, clock: Any, work: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_TOURNAMENT_GAMES_MAX", "2")
    a, b, c = (tournament(client, address=f"203.0.113.{20 + i}", games=games, parallel=2).get_json()["id"]
               for i, games in enumerate((4, 1, 1)))
    assert Tournaments(service, service.store.tournaments).start(a) == "launched 2"
    assert Tournaments(service, service.store.tournaments).start(b) == "launched 0"  # no slot: first in line
    clock.advance(1)
    assert Tournaments(service, service.store.tournaments).start(c) == "in line"  # behind b, though no slot was tried
    clock.advance(10)
    launched: list[str] = []
    create_game = service.create_game

    def recorded(*args: Any, **kwargs: Any) -> Any:
        launched.append(kwargs["tournament"])
        return create_game(*args, **kwargs)
    monkeypatch.setattr(service, "create_game", recorded)
    work(max_rounds=3000)
    # a's games finishing do not keep their slots for a: b, then c, then a's last two
    assert launched == [b, c, a, a]
    assert all(client.get(f"/v1/tournaments/{t}").get_json()["status"] == "finished" for t in (a, b, c))


def test_a_worker_that_dies_after_recording_a_game_does_not_stall_its_tournament(
        client: Any, service: Any, redis_client: Any, work: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = tournament(client, games=2, parallel=1).get_json()["id"]
    Queue(QUEUE, connection=redis_client).empty()
    assert Tournaments(service, service.store.tournaments).start(tid) == "launched 1"
    kick, calls = Tournaments._kick, []

    def dies_once(self: Tournaments, *args: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise ConnectionError("the worker died after recording the game")
        kick(self, *args)
    monkeypatch.setattr(Tournaments, "_kick", dies_once)
    work(max_rounds=3000)  # the retried job finds the game recorded, and launches the next one all the same
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["status"] == "finished" and t["games_finished"] == 2 and len(calls) >= 2
    assert redis_client.zcard(IN_FLIGHT) == 0


def test_a_game_slot_a_crashed_worker_never_freed_lapses(client: Any, service: Any, clock: Any,
                                                         redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_TOURNAMENT_GAMES_MAX", "1")
    tid = tournament(client, games=2, parallel=1).get_json()["id"]
    Queue(QUEUE, connection=redis_client).empty()
    assert Tournaments(service, service.store.tournaments).start(tid) == "launched 1"
    assert tournament(client).status_code == 503
    clock.advance(900_001)  # its game never finished (its jobs were lost): the lease lapsed
    assert tournament(client).status_code == 201


# -- the contract: the ruleset enum ------------------------------------------------------
def test_ruleset_is_an_enum_of_the_installed_rulesets(client: Any) -> None:
    from tests.contract import spec
    committed = spec()
    assert committed["components"]["schemas"]["RulesetName"]["enum"] == built_in()
    ref = {"$ref": "#/components/schemas/RulesetName"}
    paths = committed["paths"]
    games = committed["components"]["schemas"]["CreateGame"]["properties"]["ruleset"]
    bots = paths["/v1/bots"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
    tournaments = paths["/v1/tournaments"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert games == ref and bots["rulesets"]["items"] == ref and tournaments["properties"]["ruleset"] == ref
    # the served contract names every ruleset this referee runs, a plugin's too
    served = read_yaml(client.get("/openapi.yaml").get_data())
    names = [r["name"] for r in client.get("/v1/rulesets").get_json()["rulesets"]]
    assert served["components"]["schemas"]["RulesetName"]["enum"] == sorted(names)
    assert set(built_in()) < set(names)


# -- a 401 before the rate limit -------------------------------------------------------
def test_a_cancel_without_credentials_is_401_before_the_rate_limit(redis_client: Any, monkeypatch: Any) -> None:
    # Regression: DELETE /v1/tournaments/{id} without credentials answered 429 before 401.
    client = limited_app(redis_client, RATE_LIMIT="0.001/2").test_client()
    t = client.post("/v1/tournaments", json=BODY).get_json()
    assert client.get("/v1/rulesets").status_code == 200
    assert client.get("/v1/rulesets").status_code == 429  # the address is spent
    for _ in range(3):
        r = client.delete(f"/v1/tournaments/{t['id']}")
        assert r.status_code == 401 and r.get_json()["code"] == "token_required"
    assert client.delete("/v1/tournaments/t_missing").status_code == 401
    # and it costs no round trip to Redis
    assert redis_sent(monkeypatch, lambda: client.delete(f"/v1/tournaments/{t['id']}")) == []
    # a credential that proves nothing is counted as the address: spent
    assert client.delete(f"/v1/tournaments/{t['id']}", headers=auth("junk")).status_code == 429
    # the cancel token is its own caller
    assert client.delete(f"/v1/tournaments/{t['id']}", headers=auth(t["cancel_token"])).status_code == 200


@pytest.mark.parametrize("method,path", [("POST", "/v1/games/{game}/moves"), ("GET", "/v1/bots/{bot}")])
def test_a_move_or_bot_read_without_credentials_is_401_before_the_rate_limit(
        redis_client: Any, monkeypatch: Any, method: str, path: str) -> None:
    client = limited_app(redis_client, RATE_LIMIT="0.001/2",
                         BOT_URL_POLICY=UrlPolicy(allow_private=True)).test_client()
    game = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3}).get_json()
    bot = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/act",
                                        "rulesets": ["bluffaneer"]}).get_json()
    assert client.get("/v1/rulesets").status_code == 429  # the address is spent
    url = path.format(game=game["id"], bot=bot["id"])
    for target in (url, path.format(game="g_missing", bot="bot_missing")):
        r = client.open(target, method=method, json={"move": {"type": "pass"}})
        assert r.status_code == 401 and r.get_json()["code"] == "token_required", r.get_json()
    # nothing read: no round trip to Redis
    assert redis_sent(monkeypatch, lambda: client.open(url, method=method, json={"move": {"type": "pass"}})) == []
    # a credential is counted (and the address is spent)
    assert client.open(url, method=method, json={"move": {"type": "pass"}},
                       headers=auth("junk")).status_code == 429


# -- CORS, per route ---------------------------------------------------------------------
def preflight(client: Any, path: str, method: str) -> Any:
    return client.options(path, headers={"Origin": "https://table.example", "Access-Control-Request-Method": method,
                                         "Access-Control-Request-Headers": "authorization"})


def test_a_browser_preflight_gets_each_route_s_own_methods(client: Any) -> None:
    # Regression: Access-Control-Allow-Methods listed only GET, POST, OPTIONS, so a
    # browser's preflight for DELETE /v1/tournaments/{id} was refused.
    t = tournament(client).get_json()
    r = preflight(client, f"/v1/tournaments/{t['id']}", "DELETE")
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == "*"
    assert r.headers["Access-Control-Allow-Methods"] == "DELETE, GET, OPTIONS"
    assert "Authorization" in r.headers["Access-Control-Allow-Headers"]
    assert preflight(client, "/v1/tournaments", "POST").headers["Access-Control-Allow-Methods"] == \
        "GET, OPTIONS, POST"
    assert preflight(client, "/v1/games/g_x/moves", "POST").headers["Access-Control-Allow-Methods"] == \
        "OPTIONS, POST"
    assert preflight(client, "/v1/games/g_x", "GET").headers["Access-Control-Allow-Methods"] == "GET, OPTIONS"
    # the actual request after the preflight
    r = client.delete(f"/v1/tournaments/{t['id']}", headers={**auth(t["cancel_token"]),
                                                             "Origin": "https://table.example"})
    assert r.status_code == 200 and "DELETE" in r.headers["Access-Control-Allow-Methods"]
