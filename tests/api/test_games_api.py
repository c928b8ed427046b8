"""The v1 API through the Flask test client against a real Redis; every
response is checked against openapi.yaml by the client fixture."""
from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from flask.testing import FlaskClient

from referee.engine import canonical, sha256_hex, verify_received
from referee.http.contract import read_yaml
from tests.api.helpers import auth, create, move, ndjson, play_to_end, view
from tests.conftest import contract_app

SETUP = {"turn": 0, "seats": [{"card": ["chest", "sword"]}, {"card": ["ship", "skull"]},
                              {"card": ["chest", "ship"]}, {"card": ["sword", "skull"]}]}


# -- meta --------------------------------------------------------------------
def test_rulesets_lists_bluffaneer_with_player_counts(client: Any) -> None:
    body = client.get("/v1/rulesets").get_json()
    blu = next(r for r in body["rulesets"] if r["name"] == "bluffaneer")
    assert (blu["min_players"], blu["max_players"]) == (3, 6)
    assert "claim_window_ms" in json.dumps(blu["options"])


def test_health_checks_redis(client: Any) -> None:
    assert client.get("/health").get_json() == {"status": "ok", "redis": "ok"}


def test_metrics_are_prometheus_text(client: Any) -> None:
    client.get("/health")
    text = client.get("/metrics").get_data(as_text=True)
    assert "referee_http_requests_total" in text


def test_openapi_is_served_and_valid(client: Any) -> None:
    from openapi_spec_validator import validate
    validate(read_yaml(client.get("/openapi.yaml").get_data(as_text=True)))


# -- creation ----------------------------------------------------------------
def test_create_returns_tokens_and_a_seed_commitment(client: Any) -> None:
    game = create(client)
    assert [s["seat"] for s in game["seats"]] == [0, 1, 2, 3]
    assert len({s["token"] for s in game["seats"]}) == 4
    assert len(game["seed_commitment"]) == 64 and game["custom"] is False


def test_client_seed_commits_to_its_hash_and_marks_custom(client: Any) -> None:
    game = create(client, seed="my-seed")
    assert game["seed_commitment"] == hashlib.sha256(b"my-seed").hexdigest()
    assert game["custom"] is True


def test_same_seed_deals_the_same_game(client: Any) -> None:
    a, b = create(client, seed="same"), create(client, seed="same")
    assert view(client, a, 0)["state"] == view(client, b, 0)["state"]


def test_f1_player_count_outside_3_to_6_is_refused(client: Any) -> None:
    for n in (2, 7):
        r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": n})
        assert r.status_code == 422 and r.get_json()["code"] == "bad_player_count"


def test_malformed_create_bodies_are_400(client: Any) -> None:
    for body in ({}, {"ruleset": "bluffaneer"}, {"ruleset": "bluffaneer", "players": "4"},
                 {"ruleset": "bluffaneer", "players": 4, "colour": "red"}, [1, 2]):
        r = client.post("/v1/games", json=body)
        assert r.status_code == 400, body
        assert r.content_type == "application/problem+json"
    r = client.post("/v1/games", data="{not json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["code"] == "invalid_json"


def test_unknown_ruleset_and_bad_options_are_422(client: Any) -> None:
    assert client.post("/v1/games", json={"ruleset": "chess", "players": 2}).get_json()["code"] == "unknown_ruleset"
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 4, "options": {"claim_window_ms": 5}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_options"


def test_invalid_scenario_is_422_naming_the_problem(client: Any) -> None:
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3,
                                       "setup": {"seats": [{"coins": 0}, {}, {}]}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_setup"
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3, "setup": {"arrow_pile": 3}})
    assert r.status_code == 422


def test_body_too_large_is_413(client: Any) -> None:
    r = client.post("/v1/games", data=json.dumps({"ruleset": "x" * 100_000}), content_type="application/json")
    assert r.status_code == 413 and r.get_json()["code"] == "body_too_large"


# -- views -------------------------------------------------------------------
def test_view_shows_own_card_only(client: Any) -> None:
    game = create(client, setup=SETUP, seed="v")
    me = view(client, game, 1)
    assert me["seat"] == 1 and "SHIP-SKULL" in json.dumps(me["state"])
    assert "CHEST-SWORD" not in json.dumps(me["state"])
    spectator = view(client, game)
    assert spectator["seat"] is None and spectator["legal_moves"] == []


def test_legal_moves_only_for_the_seat_to_act(client: Any) -> None:
    game = create(client, setup=SETUP)
    assert view(client, game, 0)["legal_moves"] == [{"type": "roll"}, {"type": "resign"}]  # F9, F34
    assert view(client, game, 1)["legal_moves"] == []
    assert view(client, game, 0)["to_act"] == [0]


def test_bad_token_is_401_and_unknown_game_404(client: Any) -> None:
    game = create(client)
    r = client.get(f"/v1/games/{game['id']}", headers=auth("nope"))
    assert r.status_code == 401 and r.get_json()["code"] == "bad_token"
    other = create(client)
    assert client.get(f"/v1/games/{game['id']}", headers=auth(other["seats"][0]["token"])).status_code == 401
    assert client.get("/v1/games/doesnotexist").get_json()["code"] == "game_not_found"
    r = client.get(f"/v1/games/{game['id']}", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401


# -- moves -------------------------------------------------------------------
def test_move_is_accepted_and_recorded_before_its_events(client: Any) -> None:
    game = create(client, setup={**SETUP, "dice": ["ship", "skull"]})
    r = move(client, game, 0, {"type": "roll"})
    assert r.status_code == 201
    body = r.get_json()
    assert body["events"][0]["type"] == "move" and body["events"][0]["data"]["move"] == {"type": "roll"}
    assert body["version"] == body["events"][-1]["seq"]


def test_moves_need_a_token(client: Any) -> None:
    game = create(client)
    r = client.post(f"/v1/games/{game['id']}/moves", json={"move": {"type": "roll"}})
    assert r.status_code == 401 and r.get_json()["code"] == "token_required"


def test_malformed_moves_are_400(client: Any) -> None:
    game = create(client, setup=SETUP)
    body: dict[str, Any]
    for body in ({}, {"move": "roll"}, {"move": {}}, {"move": {"type": 3}}, {"move": {"type": "roll"}, "x": 1},
                 {"move": {"type": "roll"}, "expected_version": "2"}):
        r = client.post(f"/v1/games/{game['id']}/moves", json=body, headers=auth(game["seats"][0]["token"]))
        assert r.status_code == 400, body
    r = move(client, game, 0, {"type": "fly"})
    assert r.status_code == 400 and r.get_json()["code"] == "malformed_move"
    r = move(client, game, 0, {"type": "steal", "target": True})
    assert r.status_code == 400


def test_out_of_turn_is_403_and_illegal_is_422_with_rule(client: Any) -> None:
    game = create(client, setup={**SETUP, "dice": ["ship", "skull"]})
    r = move(client, game, 1, {"type": "roll"})
    assert r.status_code == 403 and r.get_json()["rule"]
    before = view(client, game)["version"]
    r = move(client, game, 0, {"type": "accept"})  # seat 0 is awaited (to roll): the rules refuse the move
    assert r.status_code == 422 and r.get_json()["rule"] == "F21"
    assert view(client, game)["version"] == before  # nothing half-applied


def test_stale_expected_version_is_409_with_current_version(client: Any) -> None:
    game = create(client, setup={**SETUP, "dice": ["ship", "skull"]})
    v = view(client, game)["version"]
    assert move(client, game, 0, {"type": "roll"}, expected_version=v).status_code == 201
    r = move(client, game, 1, {"type": "pass"}, expected_version=v)
    assert r.status_code == 409
    assert r.get_json()["current_version"] == view(client, game)["version"]


def test_idempotent_retry_returns_the_original_bytes_and_appends_nothing(client: Any) -> None:
    game = create(client, setup={**SETUP, "dice": ["ship", "skull"]})
    key = {"Idempotency-Key": "k-1"}
    first = move(client, game, 0, {"type": "roll"}, headers=key)
    version = view(client, game)["version"]
    again = move(client, game, 0, {"type": "roll"}, headers=key)
    assert again.status_code == 201 and again.get_data() == first.get_data()
    assert view(client, game)["version"] == version
    changed = move(client, game, 0, {"type": "pass"}, headers=key)
    assert changed.status_code == 422 and changed.get_json()["code"] == "idempotency_key_reused"
    # keys are scoped to their caller: another seat's same key is its own, and
    # learns nothing of seat 0's
    other = move(client, game, 1, {"type": "pass"}, headers=key)
    assert other.status_code == 201 and other.get_json()["version"] == version + 2


def test_an_idempotent_retry_reaching_a_process_with_a_stale_cache_gets_the_original_bytes(
        app: Any, redis_client: Any, clock: Any) -> None:
    # Issue 36: the first process accepts the move; its retry reaches a second referee process
    # (one Redis) whose cache still holds the game at the version the move was decided on. A
    # reroll of die 1 that rolls a Beer is legal again after itself, so only the append's answer
    # (the key's record) tells the retry apart from a second reroll.
    other = contract_app(redis_client, clock)
    try:
        _retry_on_a_stale_process(app.test_client(), other.test_client())
    finally:
        pushed = other.extensions["referee.service"].pushed
        if pushed is not None:
            pushed.close()


def _retry_on_a_stale_process(first_process: Any, second_process: Any) -> None:
    game = create(first_process, "bang-dice", setup={"turn": 0, "roll": 1, "dice": ["beer"] * 5,
                                                     "queue": ["beer"] * 5})
    reroll = {"type": "reroll", "dice": [1]}
    assert reroll in view(second_process, game, 0)["legal_moves"]  # the second process caches this version
    key = {"Idempotency-Key": "k-stale"}
    first = move(first_process, game, 0, reroll, headers=key)
    assert first.status_code == 201 and reroll in view(first_process, game, 0)["legal_moves"]
    retry = move(second_process, game, 0, reroll, headers=key)
    assert retry.status_code == 201 and retry.get_data() == first.get_data()
    log = first_process.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True)
    assert len(ndjson(log)) == 1 + first.get_json()["version"]  # the header and each event once
    changed = move(second_process, game, 0, {"type": "stop"}, headers=key)
    assert changed.status_code == 422 and changed.get_json()["code"] == "idempotency_key_reused"
    # still stale there: a new move's append finds the game moved on, and is decided again on it
    stop = move(second_process, game, 0, {"type": "stop"})
    assert stop.status_code == 201 and stop.get_json()["events"][0]["seq"] == first.get_json()["version"] + 1


def test_race_many_threads_on_one_version_exactly_one_wins(app: Any) -> None:
    client = app.test_client()
    game = create(client, players=6, setup={"turn": 0, "dice": ["ship", "skull"], "seats": [
        {"card": ["chest", "sword"]}, {}, {}, {}, {}, {}]})
    move(client, game, 0, {"type": "roll"})
    version = view(client, game)["version"]
    statuses: list[int] = []
    barrier = threading.Barrier(15)

    def racer(seat: int) -> None:
        c = app.test_client()
        barrier.wait()
        statuses.append(move(c, game, seat, {"type": "pass"}, expected_version=version).status_code)

    threads = [threading.Thread(target=racer, args=(1 + i % 5,)) for i in range(15)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(201) == 1 and statuses.count(409) == 14
    log = ndjson(client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))
    assert verify_received(log[1:], prev=log[0]["hash"]) == []


def test_moves_after_the_end_are_410(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=3, seed="end")
    play_to_end(client, game, clock, service)
    r = move(client, game, 0, {"type": "roll"})
    assert r.status_code == 410 and r.get_json()["code"] == "game_over"


# -- events ------------------------------------------------------------------
def test_events_are_redacted_per_seat_and_sealed(client: Any) -> None:
    game = create(client, setup=SETUP)
    mine = client.get(f"/v1/games/{game['id']}/events", headers=auth(game["seats"][0]["token"])).get_json()
    text = json.dumps(mine)
    assert "CHEST-SWORD" in text and "SHIP-SKULL" not in text
    redacted = [e for e in mine["events"] if e.get("redacted")]
    assert redacted and all(len(e["commit"]) == 64 and "salt" not in e for e in redacted)
    assert all("salt" in e for e in mine["events"] if not e.get("redacted"))
    assert [e["seq"] for e in mine["events"]] == list(range(1, mine["version"] + 1))
    assert verify_received(mine["events"]) == []  # a seat checks the chain over what it received


def test_events_after_n_and_long_poll_wakes_on_a_move(app: Any) -> None:
    client = app.test_client()
    game = create(client, setup={**SETUP, "dice": ["ship", "skull"]})
    v = view(client, game)["version"]
    assert client.get(f"/v1/games/{game['id']}/events?after={v}").get_json()["events"] == []
    got: dict[str, Any] = {}

    def poll() -> None:
        got["body"] = app.test_client().get(f"/v1/games/{game['id']}/events?after={v}&wait=10").get_json()

    t = threading.Thread(target=poll)
    t.start()
    move(client, game, 0, {"type": "roll"})
    t.join(timeout=15)
    assert got["body"]["events"] and got["body"]["events"][0]["seq"] == v + 1


def test_events_query_is_validated(client: Any) -> None:
    game = create(client)
    assert client.get(f"/v1/games/{game['id']}/events?after=-1").status_code == 400
    assert client.get(f"/v1/games/{game['id']}/events?wait=99").status_code == 400
    assert client.get(f"/v1/games/{game['id']}/events?after=x").status_code == 400


def test_sse_stream_resumes_from_last_event_id(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=3, seed="sse")
    play_to_end(client, game, clock, service)
    r = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "3"})
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    text = r.get_data(as_text=True)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids[0] == 4 and ids == list(range(4, ids[-1] + 1))
    assert "event: end" in text


# -- replay, log, audit ------------------------------------------------------
def test_replay_at_a_version_and_full_views_at_the_end(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=3, seed="replay")
    dealt = game["version"]  # the first version anyone was shown: the whole deal
    early = client.get(f"/v1/games/{game['id']}/replay?version={dealt}").get_json()
    assert early["version"] == dealt and "views" not in early and early["shown_versions"] == [dealt]
    assert client.get(f"/v1/games/{game['id']}/replay?version=99999").status_code == 422
    # regression: version 0 (before the deal) crashed the ruleset with a 500; found by test_fuzz
    assert client.get(f"/v1/games/{game['id']}/replay?version=0").status_code == 400
    end = play_to_end(client, game, clock, service)
    final = client.get(f"/v1/games/{game['id']}/replay").get_json()
    assert final["result"] == end["result"] and len(final["views"]) == 3


def test_replay_serves_only_versions_a_client_was_shown(client: Any, clock: Any, service: Any) -> None:
    """Issue 24, item 7: a version inside a move (its events half applied,
    ``to_act`` empty) was nobody's view: 422, naming the shown ones around it."""
    game = create(client, players=3, seed="shown")
    seen = [game["version"]]

    def note(_step: int) -> None:
        seen.append(view(client, game)["version"])
    play_to_end(client, game, clock, service, on_step=note)
    final = client.get(f"/v1/games/{game['id']}/replay").get_json()
    shown = final["shown_versions"]
    assert set(seen) <= set(shown) and shown == sorted(shown) and shown[-1] == final["latest_version"]
    inside = [v for v in range(shown[0] + 1, final["latest_version"]) if v not in shown]
    assert inside, "every move of this game is more than one event"
    for version in inside[:5]:
        r = client.get(f"/v1/games/{game['id']}/replay?version={version}")
        assert r.status_code == 422 and r.get_json()["code"] == "not_a_shown_version"
        before = max(v for v in shown if v < version)
        assert f"around it are {before} and" in r.get_json()["detail"]
    dealing = client.get(f"/v1/games/{game['id']}/replay?version=1").get_json()
    assert dealing["code"] == "not_a_shown_version" and f"first shown at version {shown[0]}" in dealing["detail"]
    for version in shown[:5]:
        assert client.get(f"/v1/games/{game['id']}/replay?version={version}").get_json()["to_act"] or \
            version == shown[-1]


def test_log_is_private_until_the_end_then_ndjson_with_a_chain(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=4, seed="log")
    r = client.get(f"/v1/games/{game['id']}/log")
    assert r.status_code == 403 and r.get_json()["code"] == "log_not_public"
    play_to_end(client, game, clock, service)
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    head = lines[0]
    assert head["hash"] == sha256_hex(canonical(head["header"]))
    assert "token" not in json.dumps(head["header"])
    assert lines[-1]["type"] == "seed_revealed"
    assert hashlib.sha256(lines[-1]["data"]["seed"].encode()).hexdigest() == game["seed_commitment"]


def test_audit_is_clean_for_an_honest_game(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=5)
    play_to_end(client, game, clock, service)
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report
    assert {c["name"] for c in report["checks"]} >= {"hash_chain", "seed_commitment", "randomness", "replay", "result"}


def test_audit_catches_an_altered_event(client: Any, clock: Any, service: Any, redis_client: Any) -> None:
    game = create(client, players=3, seed="tamper")
    play_to_end(client, game, clock, service)
    key = f"game:{{{game['id']}}}:events"
    entries = redis_client.xrange(key)
    redis_client.delete(key)
    for entry_id, fields in entries:
        env = json.loads(fields[b"e"])
        if env["seq"] == 5:
            env["actor"] = 99  # rewrite history without fixing the chain
        redis_client.xadd(key, {"e": canonical(env)}, id=entry_id)
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert not report["ok"]
    assert next(c for c in report["checks"] if c["name"] == "hash_chain")["ok"] is False


def test_audit_before_the_end_is_refused(client: Any) -> None:
    game = create(client)
    assert client.get(f"/v1/games/{game['id']}/audit").status_code == 403


def test_redis_down_is_a_503_problem_not_a_500() -> None:
    from referee.http.app import create_app
    from referee.store.redis_server import free_port
    from tests.conftest import ContractClient
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "ENQUEUE_JOBS": False})
    app.test_client_class = ContractClient
    client = app.test_client()
    r = client.get("/health")
    assert r.status_code == 503 and r.get_json()["code"] == "redis_unavailable"
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3})
    assert r.status_code == 503 and r.get_json()["code"] == "redis_unavailable"


def test_sse_stream_of_an_active_game_ends_and_resumes(app: Any) -> None:
    import referee.http.api.games as games_api
    client = app.test_client()
    game = create(client, setup={**SETUP, "dice": ["ship", "skull"]})
    old, games_api.STREAM_MAX_S = games_api.STREAM_MAX_S, 0.2
    try:
        text = client.get(f"/v1/games/{game['id']}/events/stream").get_data(as_text=True)
    finally:
        games_api.STREAM_MAX_S = old
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, view(client, game)["version"] + 1)) and "event: end" not in text


def test_browser_tables_on_other_origins_may_call_the_api(app: Any) -> None:
    client = app.test_client()
    preflight = client.options("/v1/games", headers={"Origin": "https://table.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]
    r = client.get("/v1/rulesets", headers={"Origin": "https://table.example"})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Origin" not in client.get("/v1/rulesets").headers


def test_cors_can_be_narrowed_to_listed_origins(redis_client: Any) -> None:
    from referee.http.app import create_app
    app = create_app({"REDIS": redis_client, "CORS_ORIGINS": "https://a.example", "RATE_LIMIT": "off",
                      "ENQUEUE_JOBS": False})
    client = app.test_client()
    assert client.get("/v1/rulesets", headers={"Origin": "https://a.example"}).headers[
        "Access-Control-Allow-Origin"] == "https://a.example"
    assert "Access-Control-Allow-Origin" not in client.get(
        "/v1/rulesets", headers={"Origin": "https://b.example"}).headers


def test_a_game_is_never_replayed_under_another_rules_version(client: Any, redis_client: Any,
                                                              monkeypatch: Any) -> None:
    from referee.games import registry
    from referee.http.app import create_app
    game = create(client)
    monkeypatch.setattr(type(registry.get("bluffaneer")), "version", "99")
    from tests.conftest import ContractClient
    other = create_app({"REDIS": redis_client, "RATE_LIMIT": "off", "ENQUEUE_JOBS": False})
    other.test_client_class = ContractClient
    fresh = other.test_client()
    r = fresh.get(f"/v1/games/{game['id']}")
    assert r.status_code == 409 and r.get_json()["code"] == "ruleset_version_changed"


def test_the_root_address_opened_in_a_browser_leads_to_the_page(app: Any) -> None:
    """A newcomer opens the address ``make run`` prints: the watch page, not a JSON 404 (``/`` and
    ``/watch/`` are no part of the API's contract, so a plain test client)."""
    browser = FlaskClient(app)
    r = browser.get("/")
    assert r.status_code == 302 and r.headers["Location"] == "/watch/", r.headers
    page = browser.get("/", follow_redirects=True)
    assert page.status_code == 200 and page.mimetype == "text/html"
