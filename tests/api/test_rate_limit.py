"""Rate limiting (issue 8, Found 4 and 8): Flask-Limiter on the app's Redis,
keyed on the verified caller, failed authentication counted per address;
tokens in URLs only on the SSE stream.

Limits here use windows of thousands of seconds (``0.001/5`` is 5 requests
per 5,000 s), so no assertion depends on how fast the test runs."""
from __future__ import annotations

import datetime
import os
import secrets
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.http.app import create_app
from tests.api.helpers import auth, create, move, redis_sent, view
from tests.conftest import ContractClient


def limited_app(redis_client: Any, clock: Any = None, **config: Any) -> Flask:
    settings = {"REDIS": redis_client, "ENQUEUE_JOBS": False, "ADMIN_TOKEN": "admin-secret",
                "RATE_LIMIT": "0.001/1000", "AUTH_FAIL_LIMIT": "off", **config}
    if clock is not None:
        settings["CLOCK"] = clock
    app = create_app(settings)
    app.test_client_class = ContractClient
    return app


def from_address(address: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": address}}


BODY = {"ruleset": "bluffaneer", "players": 3}


# -- Found 4: a junk bearer no longer buys a fresh bucket ----------------------
def test_a_fresh_junk_token_per_request_is_limited_exactly_like_no_token(redis_client: Any) -> None:
    # Regression: the bucket was keyed on the Authorization header's hash even on
    # routes that never check it, so a fresh `Bearer <junk>` per request was never limited.
    client = limited_app(redis_client, RATE_LIMIT="0.001/5").test_client()
    anonymous = [client.post("/v1/games", json=BODY, **from_address("198.51.100.1")).status_code
                 for _ in range(30)]
    junk = [client.post("/v1/games", json=BODY, headers=auth(secrets.token_urlsafe(16)),
                        **from_address("198.51.100.2")).status_code for _ in range(30)]
    assert anonymous == [201] * 5 + [429] * 25
    assert junk == anonymous


def test_two_processes_on_one_redis_share_the_limit(redis_client: Any) -> None:
    # Regression: each referee process kept its own buckets, so N processes gave N times the rate.
    one = limited_app(redis_client, RATE_LIMIT="0.001/6").test_client()
    two = limited_app(redis_client, RATE_LIMIT="0.001/6").test_client()
    statuses = [(one if i % 2 else two).get("/v1/rulesets").status_code for i in range(10)]
    assert statuses == [200] * 6 + [429] * 4


def test_a_valid_seat_token_has_its_own_bucket_a_junk_one_does_not(redis_client: Any) -> None:
    client = limited_app(redis_client, RATE_LIMIT="0.001/3").test_client()
    game = create(client, players=3)
    assert [client.get("/v1/rulesets").status_code for _ in range(3)] == [200, 200, 429]
    seat0, seat1 = (auth(game["seats"][i]["token"]) for i in (0, 1))
    assert [client.get(f"/v1/games/{game['id']}", headers=seat0).status_code for _ in range(4)] == \
        [200, 200, 200, 429]
    assert client.get(f"/v1/games/{game['id']}", headers=seat1).status_code == 200
    # a junk token, or a seat token of this game on another route, counts as the address: spent
    assert client.get(f"/v1/games/{game['id']}", headers=auth("junk")).status_code == 429
    assert client.post("/v1/games", json=BODY, headers=seat1).status_code == 429
    assert client.get("/v1/rulesets", headers=auth("admin-secret")).status_code == 200  # the admin's own


def test_a_bot_secret_and_a_cancel_token_are_identities_on_their_own_routes(redis_client: Any) -> None:
    from referee.bots.webhook import UrlPolicy
    app = limited_app(redis_client, RATE_LIMIT="0.001/3", BOT_URL_POLICY=UrlPolicy(allow_private=True))
    client = app.test_client()
    bot = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"]})
    t = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 1, "entrants": ["random"] * 3})
    assert client.get("/v1/rulesets").status_code == 200
    assert client.get("/v1/rulesets").status_code == 429  # the address is spent
    secret, bot_id = bot.get_json()["secret"], bot.get_json()["id"]
    assert client.get(f"/v1/bots/{bot_id}", headers=auth(secret)).status_code == 200
    tid, cancel = t.get_json()["id"], t.get_json()["cancel_token"]
    assert client.delete(f"/v1/tournaments/{tid}", headers=auth(cancel)).status_code == 200
    # the same secrets elsewhere prove nothing: the address counts
    assert client.get(f"/v1/tournaments/{tid}", headers=auth(secret)).status_code == 429


def test_guessing_tokens_is_limited_per_address_and_then_even_a_good_token_is_refused(
        redis_client: Any) -> None:
    # Regression: token and admin-token guessing were unthrottled (each guess its own bucket).
    from referee.bots.webhook import UrlPolicy
    app = limited_app(redis_client, AUTH_FAIL_LIMIT="5/hour", BOT_URL_POLICY=UrlPolicy(allow_private=True))
    client = app.test_client()
    game = create(client, players=3)
    gid = game["id"]
    bot = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"]})
    guesses = [
        lambda t: client.get(f"/v1/games/{gid}", headers=auth(t)),
        lambda t: client.post(f"/v1/games/{gid}/moves", json={"move": {"type": "pass"}}, headers=auth(t)),
        lambda t: client.get(f"/v1/games/{gid}/events", headers=auth(t)),
        lambda t: client.get(f"/v1/games/{gid}/events/stream?token={t}"),
        lambda t: client.get(f"/v1/bots/{bot.get_json()['id']}", headers=auth(t)),
    ]
    statuses = [guess(secrets.token_urlsafe(24)).status_code for guess in guesses]
    assert statuses == [401] * 5
    refused = client.get(f"/v1/games/{gid}", headers=auth("another-guess"))
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert "failed authentications" in refused.get_json()["detail"]
    # the right token gets the same 429 (a 429 only for wrong guesses would be an oracle)
    assert client.get(f"/v1/games/{gid}", headers=auth(game["seats"][0]["token"])).status_code == 429
    # requests without a credential from the address are served; other addresses are not affected
    assert client.get(f"/v1/games/{gid}").status_code == 200
    assert client.get(f"/v1/games/{gid}", headers=auth("guess"), **from_address("192.0.2.9")).status_code == 401
    assert client.get(f"/v1/games/{gid}", headers=auth(game["seats"][1]["token"]),
                      **from_address("192.0.2.10")).status_code == 200


def test_guessing_the_admin_token_is_limited_like_a_seat_token(redis_client: Any) -> None:
    # Regression: /log of an active game answered 403 to a wrong admin token and 200 to the
    # right one, unthrottled.
    client = limited_app(redis_client, AUTH_FAIL_LIMIT="3/hour").test_client()
    game = create(client, players=3)
    statuses = [client.get(f"/v1/games/{game['id']}/log", headers=auth(f"guess{i}")).status_code
                for i in range(5)]
    assert statuses == [403, 403, 403, 429, 429]
    assert client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).status_code == 429
    # a seat's own token does not fail: it is verified, whatever /log answers it
    other = client.post("/v1/games", json=BODY, **from_address("192.0.2.20")).get_json()
    seat = auth(other["seats"][0]["token"])
    assert [client.get(f"/v1/games/{other['id']}/log", headers=seat, **from_address("192.0.2.20")).status_code
            for _ in range(4)] == [403] * 4


def test_429_is_a_problem_with_retry_after_and_probes_are_never_limited(redis_client: Any) -> None:
    client = limited_app(redis_client, RATE_LIMIT="0.001/2").test_client()
    assert [client.get("/v1/rulesets").status_code for _ in range(2)] == [200, 200]
    r = client.get("/v1/rulesets")
    assert r.status_code == 429 and r.mimetype == "application/problem+json"
    body = r.get_json()
    assert body["code"] == "rate_limited" and body["status"] == 429 and body["retry_after"] > 1000
    assert int(r.headers["Retry-After"]) > 1000  # the window is 2,000 s: the oldest call leaves it then
    for path in ("/health", "/metrics", "/openapi.yaml") * 3:
        assert client.get(path).status_code == 200


def test_the_watch_pages_own_files_are_never_limited_what_it_asks_the_api_is(redis_client: Any) -> None:
    # Regression (issue 38): a browser loads the page's forty-odd files at once; counted, the index and then
    # one's seat filled the default window and the table's scripts came back 429 ("did not load").
    app = limited_app(redis_client, RATE_LIMIT="0.001/2")
    app.test_client_class = FlaskClient  # the page's files are no part of openapi.yaml: a plain client
    client = app.test_client()
    files = ("/watch/", "/watch/0123abcd", "/watch/watch.js", "/watch/verify.js", "/watch/table/main.js",
             "/watch/table/games/bang.js", "/watch/table/games.css", "/watch/client/index.js", "/watch/ladder.html",
             "/watch/ladder/main.js")
    for path in files * 3:
        assert client.get(path).status_code == 200, path
    assert [client.get("/v1/rulesets").status_code for _ in range(3)] == [200, 200, 429]
    assert client.get("/watch/table/main.js").status_code == 200


def test_the_client_address_comes_from_trusted_proxies_only(redis_client: Any) -> None:
    direct = limited_app(redis_client, RATE_LIMIT="0.001/2").test_client()
    forged = [direct.get("/v1/rulesets", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
              for i in range(3)]
    assert forged == [200, 200, 429]  # without trusted proxies the header is ignored

    redis_client.flushall()
    proxied = limited_app(redis_client, RATE_LIMIT="0.001/2", TRUSTED_PROXIES=1).test_client()
    a = {"X-Forwarded-For": "203.0.113.1"}
    assert [proxied.get("/v1/rulesets", headers=a).status_code for _ in range(3)] == [200, 200, 429]
    # what the client itself put first in the header is not trusted: the proxy's entry counts
    spoofed = {"X-Forwarded-For": "198.51.100.77, 203.0.113.1"}
    assert proxied.get("/v1/rulesets", headers=spoofed).status_code == 429
    assert proxied.get("/v1/rulesets", headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 200


def test_ipv6_clients_are_counted_by_their_64(redis_client: Any) -> None:
    client = limited_app(redis_client, RATE_LIMIT="0.001/2").test_client()
    hosts = ["2001:db8::1", "2001:db8::2:3", "2001:db8::ffff"]
    assert [client.get("/v1/rulesets", **from_address(h)).status_code for h in hosts] == [200, 200, 429]
    assert client.get("/v1/rulesets", **from_address("2001:db8:0:1::1")).status_code == 200


def test_an_ipv4_mapped_client_is_its_ipv4_address_in_the_bucket_and_the_failed_login_window(
        redis_client: Any) -> None:
    # Issue 36: a dual-stack listener ([::]) sees every IPv4 client as ::ffff:a.b.c.d. Counted by
    # its /64 (::/64), every IPv4 client would share one bucket and one failed-login window.
    client = limited_app(redis_client, RATE_LIMIT="0.001/3", AUTH_FAIL_LIMIT="2/hour").test_client()
    game = client.post("/v1/games", json=BODY, **from_address("192.0.2.99")).get_json()
    one, mapped = "198.51.100.7", "::ffff:198.51.100.7"
    assert [client.get("/v1/rulesets", **from_address(a)).status_code for a in (one, mapped, one, mapped)] == \
        [200, 200, 200, 429]
    assert client.get("/v1/rulesets", **from_address("::ffff:198.51.100.8")).status_code == 200

    guess, url = auth(secrets.token_urlsafe(16)), f"/v1/games/{game['id']}"
    two, mapped = "198.51.100.20", "::ffff:198.51.100.20"
    assert [client.get(url, headers=guess, **from_address(a)).status_code for a in (mapped, two)] == [401, 401]
    refused = client.get(url, headers=guess, **from_address(mapped))
    assert refused.status_code == 429 and "failed authentications" in refused.get_json()["detail"]
    assert client.get(url, headers=guess, **from_address("::ffff:198.51.100.21")).status_code == 401


def test_trusted_proxies_and_the_failed_login_limit_are_read_from_the_environment(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 36: REFEREE_TRUSTED_PROXIES and REFEREE_AUTH_FAIL_LIMIT, not the app config.
    monkeypatch.setenv("REFEREE_TRUSTED_PROXIES", "1")
    monkeypatch.setenv("REFEREE_AUTH_FAIL_LIMIT", "2/hour")
    app = create_app({"REDIS": redis_client, "ENQUEUE_JOBS": False, "RATE_LIMIT": "0.001/1000"})
    app.test_client_class = ContractClient
    client = app.test_client()
    game = create(client, players=3)
    url, guess = f"/v1/games/{game['id']}", auth(secrets.token_urlsafe(16))

    def from_proxy(client_address: str) -> dict[str, Any]:
        return {"headers": {**guess, "X-Forwarded-For": client_address}}
    assert [client.get(url, **from_proxy("203.0.113.1")).status_code for _ in range(3)] == [401, 401, 429]
    assert client.get(url, **from_proxy("203.0.113.2")).status_code == 401  # the proxy's word: another client
    # the proxy's entry is the last one: what the client wrote before it is not believed
    assert client.get(url, **from_proxy("203.0.113.3, 203.0.113.1")).status_code == 429


def test_rate_limit_settings_are_parsed_strictly() -> None:
    from referee.http.ratelimit import parse
    assert parse("off") is None and parse(None) is None
    assert parse("50/100") == "100 per 2 second"  # <per second>/<burst>, as before
    assert parse("5") == "10 per 2 second" and parse("0.001/5") == "5 per 5000 second"
    assert parse("600/minute") == "600/minute" and parse("20/second;600 per minute") == "20/second;600 per minute"
    for bad in ("0/5", "fast", "5/0.5", "10 per fortnight"):
        with pytest.raises(ValueError):
            parse(bad)


def test_rate_limit_off_limits_nothing(redis_client: Any) -> None:
    client = limited_app(redis_client, RATE_LIMIT="off", AUTH_FAIL_LIMIT="1/hour").test_client()
    assert {client.get("/v1/games/nope", headers=auth(str(i))).status_code for i in range(5)} == {404}
    assert not redis_client.keys("LIMITS*")


# -- Found 8: tokens in URLs ------------------------------------------------------
def test_a_token_in_the_url_is_refused_except_on_the_stream(client: Any, monkeypatch: Any) -> None:
    # Regression: ?token= was accepted on every route (moves, /log and /audit with the
    # admin token), so secrets landed in access logs and proxies.
    game = create(client, players=3)
    seat = view(client, game)["to_act"][0]
    gid, token = game["id"], game["seats"][seat]["token"]
    before = view(client, game)["version"]
    refused = [
        client.post(f"/v1/games/{gid}/moves?token={token}", json={"move": {"type": "pass"}}),
        client.get(f"/v1/games/{gid}?token={token}"),
        client.get(f"/v1/games/{gid}/events?token={token}"),
        client.get(f"/v1/games/{gid}/log?token=admin-secret"),
        client.get(f"/v1/games/{gid}/audit?token=admin-secret"),
        client.post(f"/v1/games?token={token}", json=BODY),
        client.get(f"/v1/tournaments/t_x?token={token}"),
    ]
    for r in refused:
        assert r.status_code == 400 and r.get_json()["code"] == "token_in_url", r.request.path
        assert "Authorization" in r.get_json()["detail"]
    assert view(client, game)["version"] == before
    # the same move with the header is accepted
    legal = view(client, game, seat)["legal_moves"]
    assert move(client, game, seat, legal[0]).status_code == 201
    # EventSource cannot set headers: the stream alone reads ?token=
    import referee.http.api.games as games_api
    monkeypatch.setattr(games_api, "STREAM_MAX_S", 0.1)
    assert client.get(f"/v1/games/{gid}/events/stream?token=junk").status_code == 401
    assert client.get(f"/v1/games/{gid}/events/stream?token={token}").status_code == 200


def test_access_logs_never_print_a_token_from_the_query_string() -> None:
    import datetime
    from types import SimpleNamespace

    from gunicorn.config import Config  # type: ignore[import-untyped]

    from referee.http.accesslog import RedactingLogger
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": "/v1/games/g1/events/stream?after=3&token=s3cr3t",
               "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/v1/games/g1/events/stream",
               "QUERY_STRING": "after=3&token=s3cr3t", "REMOTE_ADDR": "192.0.2.1"}
    request = SimpleNamespace(headers=[("AUTHORIZATION", "Bearer t0p")])
    response = SimpleNamespace(status="200 OK", headers=[], sent=10)
    atoms = RedactingLogger(Config()).atoms(response, request, environ, datetime.timedelta(seconds=1))
    printed = repr(atoms)
    assert "s3cr3t" not in printed and "t0p" not in printed
    assert "after=3&token=[redacted]" in atoms["r"] and atoms["q"] == "after=3&token=[redacted]"


def test_an_access_log_to_dev_null_builds_no_line_and_one_elsewhere_does(tmp_path: Any) -> None:
    """``referee serve`` without ``--access-log`` sends the log to ``/dev/null``:
    no line is built then; with a file, stdout or a logging config, every one is."""
    from types import SimpleNamespace

    from gunicorn.config import Config

    from referee.http.accesslog import RedactingLogger

    def logger(**settings: Any) -> Any:
        cfg = Config()
        for name, value in settings.items():
            cfg.set(name, value)
        return RedactingLogger(cfg)
    assert not logger(accesslog=os.devnull).access_log_enabled
    for settings in ({"accesslog": "-"}, {"accesslog": str(tmp_path / "access.log")},
                     {"accesslog": os.devnull, "logconfig_dict": {"version": 1}}):
        assert logger(**settings).access_log_enabled, settings
    written = tmp_path / "access.log"
    log = logger(accesslog=str(written))
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": "/health", "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/health",
               "QUERY_STRING": "", "REMOTE_ADDR": "192.0.2.1"}
    log.access(SimpleNamespace(status="200 OK", headers=[], sent=2), SimpleNamespace(headers=[]), environ,
               datetime.timedelta(seconds=1))
    assert "GET /health" in written.read_text()


# -- issue 10: the limiter's round trip also reads a view's head --------------------
def _round_trips(monkeypatch: Any, call: Any) -> int:
    return len(redis_sent(monkeypatch, call))


def test_a_seat_view_is_one_redis_round_trip_and_a_move_two_without_pushed_blocks(redis_client: Any,
                                                                                   monkeypatch: Any) -> None:
    # REFEREE_PUSHED=off: the address is tested in Redis with every credential, in the limiter's one
    # pipeline, which also reads the view's head
    client = limited_app(redis_client, RATE_LIMIT="19/1000", AUTH_FAIL_LIMIT="10/minute", PUSHED=False).test_client()
    game = create(client, players=3)
    seat = view(client, game)["to_act"][0]
    token = game["seats"][seat]["token"]
    legal = view(client, game, seat)["legal_moves"]  # warms the process's caches (state, token hashes)
    r: list[Any] = []
    assert _round_trips(monkeypatch, lambda: r.append(view(client, game, seat))) == 1
    assert r[0]["seat"] == seat and r[0]["legal_moves"] == legal
    assert _round_trips(monkeypatch, lambda: r.append(move(client, game, seat, legal[0]))) == 2
    assert r[1].status_code == 201
    # the head the limiter read is the latest: the view after the move shows its version
    after = view(client, game, seat)
    assert after["version"] == r[1].get_json()["version"]
    assert client.get(f"/v1/games/{game['id']}", headers=auth(token)).get_json()["version"] == after["version"]


def test_with_a_lease_a_view_of_a_known_game_is_one_round_trip_its_head_and_a_move_one(
        redis_client: Any, monkeypatch: Any) -> None:
    """A hit left of the caller's lease and the address known unblocked ask
    Redis nothing; the view's head is read all the same: a head known from
    before the request may be older than a move acknowledged since."""
    client = limited_app(redis_client, RATE_LIMIT="1000/1000", AUTH_FAIL_LIMIT="10/minute").test_client()
    game = create(client, players=3)
    seat = view(client, game)["to_act"][0]
    legal = view(client, game, seat)["legal_moves"]  # warms the caches, takes a lease
    r: list[Any] = []
    trips: list[list[bytes]] = redis_sent(monkeypatch, lambda: r.append(view(client, game, seat)))
    assert trips == [[b"HMGET"]], trips
    assert r[0]["seat"] == seat and r[0]["legal_moves"] == legal
    assert _round_trips(monkeypatch, lambda: r.append(move(client, game, seat, legal[0]))) == 1  # the append
    assert r[1].status_code == 201
    assert _round_trips(monkeypatch, lambda: r.append(view(client, game, seat))) == 1
    assert r[2]["version"] == r[1].get_json()["version"]


def test_a_restarted_redis_gets_the_window_script_again(redis_client: Any) -> None:
    client = limited_app(redis_client, RATE_LIMIT="0.001/3").test_client()
    assert client.get("/v1/rulesets").status_code == 200
    redis_client.script_flush()
    assert [client.get("/v1/rulesets").status_code for _ in range(3)] == [200, 200, 429]


def test_a_missing_game_is_a_404_when_the_limiter_read_its_head(redis_client: Any) -> None:
    client = limited_app(redis_client, RATE_LIMIT="1000/1000").test_client()
    r = client.get("/v1/games/nope", headers=auth("junk"))
    assert r.status_code in (401, 404) and r.mimetype == "application/problem+json"
    assert client.get("/v1/games/nope").status_code == 404
