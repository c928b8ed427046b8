"""Issue 36 item 4: a fair share for every client. Open-seat claims, game
creations, active games and registered bots are counted per client (its
address; the admin token is exempt), each past its limit a 429 naming the
quota with its ``limit`` and ``Retry-After``; a game with open seats gets a
turn clock once full; a registered bot is seated only where its owner agrees;
an unused bot expires and its owner can delete it.

The moving windows are counted by Redis's own clock (``window.lua``), so no
test waits for one to pass: "after the window" is its hits aged in Redis."""
from __future__ import annotations

import time
from typing import Any

import pytest

from referee.bots.webhook import UrlPolicy
from tests.api.helpers import auth, ndjson, view
from tests.api.test_rate_limit import from_address, limited_app
from workers import jobs

ADDRESS = "203.0.113.50"
OPEN_TABLE = [{"name": "host"}] + [{"open": True}] * 6  # BANG!, 7 players: 6 open seats


def app_with(redis_client: Any, clock: Any = None, **quotas: Any) -> Any:
    """An app with the quotas given and every other one off (the rate limit too high to matter)."""
    config = {"GAMES_PER_CLIENT": "off", "GAME_CREATIONS_PER_CLIENT": "off", "CLAIMS_PER_CLIENT": "off",
              "BOTS_PER_CLIENT": "off", "BOT_URL_POLICY": UrlPolicy(allow_private=True), **quotas}
    return limited_app(redis_client, clock, **config)


def refused(r: Any, code: str, limit: int) -> bool:
    body = r.get_json()
    return (r.status_code == 429 and body["code"] == code and body["limit"] == limit
            and int(r.headers["Retry-After"]) >= 1 and body["retry_after"] == int(r.headers["Retry-After"]))


def age_windows(redis_client: Any, prefix: str) -> None:
    """Every hit of the windows under ``prefix`` left them (as if their time had passed)."""
    for key in redis_client.scan_iter(match=f"{prefix}:*"):
        redis_client.delete(key)


def tables(client: Any, count: int) -> list[dict[str, Any]]:
    made = [client.post("/v1/games", json={"ruleset": "bang", "seats": OPEN_TABLE}, headers=auth("admin-secret"))
            for _ in range(count)]
    assert all(r.status_code == 201 for r in made)
    return [r.get_json() for r in made]


def claim(client: Any, game: dict[str, Any], seat: int, address: str = ADDRESS, **kwargs: Any) -> Any:
    return client.post(f"/v1/games/{game['id']}/seats/{seat}/claim", json={"name": f"p{seat}"},
                       **from_address(address), **kwargs)


# -- open-seat claims -------------------------------------------------------------------
def test_two_hundred_claims_from_one_address_get_twenty_seats_and_a_clear_429(redis_client: Any) -> None:
    # Regression: one address claimed all 210 open seats of 30 tables in 6.4 s.
    client = app_with(redis_client, CLAIMS_PER_CLIENT="20/hour").test_client()
    open_seats = [(game, seat) for game in tables(client, 34) for seat in range(1, 7)]
    answers = [claim(client, game, seat) for game, seat in open_seats[:200]]
    assert [r.status_code for r in answers] == [201] * 20 + [429] * 180
    last = answers[-1]
    assert refused(last, "claims_limit", 20) and last.get_json()["window_s"] == 3600
    assert 3500 < int(last.headers["Retry-After"]) <= 3600
    # nothing was taken by a refused claim: the seat is still open for someone else
    game, seat = open_seats[20]
    assert claim(client, game, seat, address="203.0.113.51").status_code == 201
    # the admin is exempt
    assert claim(client, *open_seats[21], headers=auth("admin-secret")).status_code == 201
    # once the window has passed, the address claims again
    age_windows(redis_client, "referee:claims")
    assert claim(client, *open_seats[22]).status_code == 201


def test_the_claims_limit_edges_windows_and_setting(redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = app_with(redis_client, CLAIMS_PER_CLIENT="3/hour;2/minute").test_client()
    seats = [(game, seat) for game in tables(client, 1) for seat in range(1, 7)]
    assert [claim(client, *s).status_code for s in seats[:2]] == [201, 201]  # limit - 1, then the limit
    r = claim(client, *seats[2])
    assert refused(r, "claims_limit", 2) and r.get_json()["window_s"] == 60  # the window that is full is named
    for key in redis_client.scan_iter(match="referee:claims:*:60000"):  # the minute has passed
        redis_client.delete(key)
    # a claim refused for the seat counts too (every claim asked counts): the hour's third
    assert claim(client, *seats[0]).get_json()["code"] == "seat_taken"
    r = claim(client, *seats[3])
    assert refused(r, "claims_limit", 3) and r.get_json()["window_s"] == 3600
    monkeypatch.setenv("REFEREE_CLAIMS_PER_CLIENT", "off")  # the setting: off lifts it
    assert claim(app_with(redis_client, CLAIMS_PER_CLIENT=None).test_client(), *seats[3]).status_code == 201


def test_a_full_table_of_claimants_gets_a_turn_clock_so_a_silent_one_cannot_hold_it(
        client: Any, clock: Any, service: Any) -> None:
    game = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"open": True}] * 3}).get_json()
    assert view(client, game)["turn_deadline"] is None  # waiting for its seats: no clock yet
    for s in range(3):
        assert client.post(f"/v1/games/{game['id']}/seats/{s}/claim", json={"name": f"p{s}"}).status_code == 201
    seen = view(client, game)
    assert seen["turn_deadline"] == clock.now + 300_000  # REFEREE_OPEN_SEAT_TURN_TIMEOUT_S
    clock.advance(300_000)  # nobody moves
    assert jobs.fire_turn_clock(game["id"], seen["version"], svc=service) == "defaulted"
    log = ndjson(client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))
    assert [e["data"]["by"] for e in log[1:] if e["type"] == "move"] == [{"default": "turn_clock"}]


def test_the_open_seat_clock_is_a_default_a_game_may_name_its_own_or_the_operator_lift(
        client: Any, clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_game(**options: Any) -> dict[str, Any]:
        game = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{}, {}, {"open": True}],
                                              "options": options}).get_json()
        assert client.post(f"/v1/games/{game['id']}/seats/2/claim", json={"name": "x"}).status_code == 201
        return game
    assert view(client, full_game(turn_timeout_s=30))["turn_deadline"] == clock.now + 30_000
    monkeypatch.setenv("REFEREE_OPEN_SEAT_TURN_TIMEOUT_S", "off")
    assert view(client, full_game())["turn_deadline"] is None
    # a game with no open seat never got one
    monkeypatch.delenv("REFEREE_OPEN_SEAT_TURN_TIMEOUT_S")
    plain = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3}).get_json()
    assert view(client, plain)["turn_deadline"] is None


# -- games: active ones and creations ------------------------------------------------------
def create(client: Any, address: str = ADDRESS, headers: dict[str, str] | None = None, **body: Any) -> Any:
    sizing = {} if "seats" in body else {"players": 3}
    return client.post("/v1/games", json={"ruleset": "bluffaneer", **sizing, **body}, headers=headers or {},
                       **from_address(address))


def test_active_games_per_client_edges_finish_idle_and_a_failed_creation(redis_client: Any, clock: Any,
                                                                        work: Any) -> None:
    # Regression: 1,070 games created in 30 s from one address.
    client = app_with(redis_client, clock, GAMES_PER_CLIENT="3", ENQUEUE_JOBS=True).test_client()
    bots = [{"bot": "random"}] * 3
    assert [create(client).status_code for _ in range(2)] == [201, 201]  # limit - 1
    assert create(client, seats=bots).status_code == 201  # the limit (a game of bots)
    r = create(client)
    assert refused(r, "games_limit", 3) and 3500 < int(r.headers["Retry-After"]) <= 3600
    assert create(client, address="203.0.113.51").status_code == 201  # another client
    assert create(client, headers=auth("admin-secret")).status_code == 201  # the admin is exempt
    work()  # the game of bots finishes: its place is free
    assert create(client).status_code == 201
    assert refused(create(client), "games_limit", 3)
    # a creation refused for its body takes no place
    clock.advance(3600 * 1000)  # every game went an hour without a move: none counts
    assert create(client, options={"turn_timeout_s": 0}).status_code == 422
    assert [create(client).status_code for _ in range(4)] == [201, 201, 201, 429]


def test_game_creations_per_client_are_a_moving_window(redis_client: Any) -> None:
    client = app_with(redis_client, GAME_CREATIONS_PER_CLIENT="2/hour").test_client()
    assert [create(client).status_code for _ in range(2)] == [201, 201]
    r = create(client)
    assert refused(r, "game_creations_limit", 2) and r.get_json()["window_s"] == 3600
    assert len(list(redis_client.scan_iter(match="game:*:meta"))) == 2  # nothing half-made
    age_windows(redis_client, "referee:creations")
    assert create(client).status_code == 201


def test_a_creation_refused_by_the_window_gives_its_place_back(redis_client: Any) -> None:
    client = app_with(redis_client, GAMES_PER_CLIENT="2", GAME_CREATIONS_PER_CLIENT="1/hour").test_client()
    assert create(client).status_code == 201
    assert refused(create(client), "game_creations_limit", 1)
    age_windows(redis_client, "referee:creations")
    assert create(client).status_code == 201  # the refused creation held no place of the two


# -- bots ----------------------------------------------------------------------------------
def register(client: Any, address: str = ADDRESS, headers: dict[str, str] | None = None, **body: Any) -> Any:
    return client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"],
                                         **body}, headers=headers or {}, **from_address(address))


def test_bots_per_client_edges_delete_and_expiry(redis_client: Any, clock: Any) -> None:
    # Regression: 903 bots registered in 60 s, never expiring.
    client = app_with(redis_client, clock, BOTS_PER_CLIENT="3").test_client()
    made = [register(client) for _ in range(3)]
    assert [r.status_code for r in made] == [201] * 3
    assert refused(register(client), "bots_limit", 3)
    assert register(client, address="203.0.113.51").status_code == 201
    assert register(client, headers=auth("admin-secret")).status_code == 201
    first, second = made[0].get_json(), made[1].get_json()
    # only the owner deletes: no credential, another's secret
    assert client.delete(f"/v1/bots/{first['id']}").status_code == 401
    assert client.delete(f"/v1/bots/{first['id']}", headers=auth(second["secret"])).status_code == 401
    r = client.delete(f"/v1/bots/{first['id']}", headers=auth(first["secret"]))
    assert r.status_code == 200 and r.get_json() == {"id": first["id"], "deleted": True}
    assert client.get(f"/v1/bots/{first['id']}", headers=auth(first["secret"])).status_code == 404
    assert client.delete(f"/v1/bots/{first['id']}", headers=auth(first["secret"])).status_code == 404
    assert first["id"] not in [b["id"] for b in client.get("/v1/bots").get_json()["bots"]]
    assert register(client).status_code == 201  # its place was free
    assert refused(register(client), "bots_limit", 3)
    # a bot unused for REFEREE_RETENTION_IDLE_S expires, and its place with it
    redis_client.pexpire(f"bot:{{{second['id']}}}", 1)
    while redis_client.exists(f"bot:{{{second['id']}}}"):
        time.sleep(0.01)
    clock.advance(60_000)  # (a place taken within the last minute may be a registration under way: kept)
    assert register(client).status_code == 201
    assert refused(register(client), "bots_limit", 3)


def test_an_unused_bot_expires_like_a_game_and_use_keeps_it(redis_client: Any, loopback_app: Any) -> None:
    client = loopback_app.test_client()
    idle_ms = 7 * 86400 * 1000  # REFEREE_RETENTION_IDLE_S
    bot = register(client).get_json()
    key = f"bot:{{{bot['id']}}}"
    assert idle_ms - 60_000 < redis_client.pttl(key) <= idle_ms
    redis_client.pexpire(key, 5_000)
    # seated (its owner agrees), the bot is in use: it lives the idle time again
    seats = [{"bot": bot["id"], "bot_secret": bot["secret"]}, {}, {}]
    assert client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": seats}).status_code == 201
    assert redis_client.pttl(key) > idle_ms - 60_000
    # a read that proves no one does not keep it alive; its owner's does
    redis_client.pexpire(key, 5_000)
    assert client.get(f"/v1/bots/{bot['id']}", headers=auth("not-its-secret")).status_code == 401
    assert redis_client.pttl(key) <= 5_000
    assert client.get(f"/v1/bots/{bot['id']}", headers=auth(bot["secret"])).status_code == 200
    assert redis_client.pttl(key) > idle_ms - 60_000


# -- whose bot sits where -----------------------------------------------------------------
def test_a_bot_is_seated_only_where_its_owner_agrees(loopback_app: Any, redis_client: Any) -> None:
    # Regression: anyone could put anyone's registered bot into games and tournaments.
    client = loopback_app.test_client()
    mine = register(client).get_json()
    assert mine["seating"] == "owner"  # the safe default
    games_before = len(list(redis_client.scan_iter(match="game:*:meta")))

    def seat(**spec: Any) -> Any:
        return client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"bot": mine["id"], **spec},
                                                                                  {}, {}]})
    r = seat()
    assert r.status_code == 403 and r.get_json()["code"] == "bot_not_public"
    r = seat(bot_secret="not-its-secret")
    assert r.status_code == 403 and r.get_json()["code"] == "bad_bot_secret"
    assert len(list(redis_client.scan_iter(match="game:*:meta"))) == games_before  # nothing half-made
    made = seat(bot_secret=mine["secret"])
    assert made.status_code == 201
    stored = b"".join(v for v in redis_client.hgetall(f"game:{{{made.get_json()['id']}}}:meta").values())
    assert mine["secret"].encode() not in stored  # never stored with the game

    def enter(entrant: Any) -> Any:
        return client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 1,
                                                    "entrants": [entrant, "random", "random"]})
    for entrant, code in ((mine["id"], "bot_not_public"), ({"bot": mine["id"]}, "bot_not_public"),
                          ({"bot": mine["id"], "bot_secret": "x"}, "bad_bot_secret")):
        r = enter(entrant)
        assert r.status_code == 403 and r.get_json()["code"] == code
    r = enter({"bot": mine["id"], "bot_secret": mine["secret"]})
    assert r.status_code == 201 and mine["secret"] not in r.get_data(as_text=True)

    public = register(client, seating="public").get_json()
    assert public["seating"] == "public"
    assert client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"bot": public["id"]}, {}, {}]}
                       ).status_code == 201
    listed = {b["id"]: b["seating"] for b in client.get("/v1/bots").get_json()["bots"]}
    assert listed[mine["id"]] == "owner" and listed[public["id"]] == "public"
    assert register(client, seating="anyone").status_code == 400


@pytest.mark.parametrize("setting,value", [("CLAIMS_PER_CLIENT", "lots"), ("GAME_CREATIONS_PER_CLIENT", "0/hour"),
                                           ("GAMES_PER_CLIENT", "-1"), ("BOTS_PER_CLIENT", "many")])
def test_a_bad_quota_setting_stops_the_start_not_every_request(redis_client: Any, setting: str, value: str) -> None:
    with pytest.raises(ValueError):
        app_with(redis_client, **{setting: value})
