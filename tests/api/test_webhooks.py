"""Game-end webhooks (issue 40 item 3, docs/webhooks.md): a game created
with ``callback_url`` has its end POSTed there — result, final head and its
signature — signed as bot requests are, retried by RQ after each interval
of ``REFEREE_WEBHOOK_RETRY_S``, accepted exactly once, each attempt shown
to the creator only. Real Redis, a real RQ worker (burst) and a real HTTP
receiver on loopback."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.bots.webhook import UrlPolicy
from referee.service.webhooks import delivery_id
from tests.api.helpers import auth, create, view
from tests.webhook_receiver import WebhookReceiver
from workers.webhooks import deliver_game_end

BOTS = [{"bot": "random"}, {"bot": "random"}, {"bot": "random"}]


@pytest.fixture
def retries(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Retries with no wait between them (RQ re-enqueues at once), so a burst worker runs them all."""
    def set_intervals(value: str) -> None:
        monkeypatch.setenv("REFEREE_WEBHOOK_RETRY_S", value)
    set_intervals("0,0")
    return set_intervals


def _finished_game(client: Any, work: Any, url: str) -> dict[str, Any]:
    game = create(client, seats=BOTS, options={"callback_url": url})
    work()
    assert view(client, game)["status"] == "finished"
    return game


def _deliveries(client: Any, game: dict[str, Any], token: str | None = None) -> Any:
    headers = auth(token if token is not None else game["owner_token"])
    return client.get(f"/v1/games/{game['id']}/deliveries", headers=headers)


def test_a_receiver_failing_twice_gets_exactly_one_signed_delivery_of_the_signed_end(
        loopback_app: Any, work: Any, retries: Any) -> None:
    """Issue 40 "Done when": a receiver on loopback that fails the first two
    tries gets one accepted delivery; every try is signed with the game's
    callback_secret, carries the same delivery id and bytes, and the final
    head's signature verifies with the published key."""
    client = loopback_app.test_client()
    with WebhookReceiver(fail_with=[500, 503]) as receiver:
        game = _finished_game(client, work, receiver.url)
        got = receiver.all()
    assert [r.answered for r in got] == [500, 503, 200]
    assert len(receiver.accepted()) == 1
    assert {r.delivery for r in got} == {delivery_id(game["id"])} and len({r.body for r in got}) == 1
    assert all(r.signed_by(game["callback_secret"]) for r in got)
    assert not got[0].signed_by("another secret")
    body = got[-1].payload()
    assert got[-1].head_signed(client.get("/v1/keys").get_json()) is None
    log = [json.loads(line) for line in client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True).splitlines()]
    assert (body["game"], body["version"], body["head"]) == (game["id"], log[-1]["seq"], log[-1]["hash"])
    assert body["signature"] == log[-1]["signature"]
    assert body["result"] == view(client, game)["result"] and body["type"] == "game_finished"
    shown = _deliveries(client, game).get_json()
    assert shown["state"] == "delivered" and shown["delivered_at"] == shown["attempts"][-1]["at"]
    assert [(a["attempt"], a["status"], a["error"]) for a in shown["attempts"]] == [
        (1, 500, "http_500"), (2, 503, "http_503"), (3, 200, None)]
    assert shown["callback_url"] == receiver.url and shown["attempts_max"] == 3


def test_a_replayed_end_or_a_duplicate_job_posts_nothing_once_delivered(
        loopback_app: Any, service: Any, work: Any, retries: Any) -> None:
    """The once-flag: the end heard again (a second job, the scheduler told
    again) after an accepted delivery posts nothing."""
    client = loopback_app.test_client()
    with WebhookReceiver() as receiver:
        game = _finished_game(client, work, receiver.url)
        assert len(receiver.all()) == 1
        service.schedule(service.change_of(service.load(game["id"])), attempt="-again")
        work()
        assert deliver_game_end(game["id"], svc=service) == "delivered"
        assert len(receiver.all()) == 1
    assert len(_deliveries(client, game).get_json()["attempts"]) == 1


def test_a_second_worker_posts_nothing_while_another_holds_the_delivery(
        loopback_app: Any, service: Any, work: Any, retries: Any) -> None:
    """Two workers at once: the one that finds the lease taken posts nothing
    (``busy``); the holder's attempt is the only one."""
    client = loopback_app.test_client()
    with WebhookReceiver() as receiver:
        game = create(client, seats=BOTS, options={"callback_url": receiver.url})
        hooks = service.store.webhooks
        hooks.begin(game["id"], "other-worker", 600_000, 3)  # another worker is posting now
        work()  # the game ends; its job finds the delivery held
        assert deliver_game_end(game["id"], svc=service) == "busy"
        assert receiver.all() == []
        hooks.finish(game["id"], "other-worker", {"attempt": 1, "at": 1, "status": 500, "error": "http_500"},
                     "pending")
        assert deliver_game_end(game["id"], svc=service) == "delivered"
        assert len(receiver.all()) == 1


def test_a_delivery_is_given_up_after_its_last_attempt(loopback_app: Any, service: Any, work: Any,
                                                       retries: Any) -> None:
    """Bounded: one attempt plus one a retry interval, then ``failed``, and
    nothing posted again however often the job runs."""
    retries("0")
    client = loopback_app.test_client()
    with WebhookReceiver(fail_with=[500] * 10) as receiver:
        game = _finished_game(client, work, receiver.url)
        assert deliver_game_end(game["id"], svc=service) == "failed"
        assert len(receiver.all()) == 2
    shown = _deliveries(client, game).get_json()
    assert shown["state"] == "failed" and shown["delivered_at"] is None and shown["attempts_max"] == 2
    assert [a["status"] for a in shown["attempts"]] == [500, 500]


def test_an_unreachable_receiver_is_recorded_without_a_status(loopback_app: Any, work: Any, retries: Any) -> None:
    client = loopback_app.test_client()
    with WebhookReceiver() as receiver:
        url = receiver.url
    game = _finished_game(client, work, url)  # nobody listens there any more
    shown = _deliveries(client, game).get_json()
    assert shown["state"] == "failed"
    assert {(a["status"], a["error"]) for a in shown["attempts"]} == {(None, "unreachable")}


@pytest.mark.parametrize(("url", "code"), [
    ("not a url", "invalid_callback_url"), ("ftp://example.com/", "callback_url_refused"),
    ("http://user:pw@example.com/", "callback_url_refused"), ("http://[::1/", "invalid_callback_url"),
    ("http://169.254.169.254/latest/meta-data", "callback_url_refused"), ("http://0.0.0.0:80/", "callback_url_refused"),
    ("http://[::ffff:127.0.0.1]/", "callback_url_refused"), (7, "invalid_callback_url"), (None, "invalid_callback_url"),
    ("http://e.com/" + "a" * 2048, "invalid_callback_url")])
def test_a_callback_url_is_held_to_the_bot_url_rules_even_where_loopback_is_allowed(
        loopback_app: Any, url: Any, code: str) -> None:
    r = loopback_app.test_client().post("/v1/games", json={"ruleset": "bluffaneer", "seats": BOTS,
                                                           "options": {"callback_url": url}})
    assert r.status_code == 422 and r.get_json()["code"] == code, r.get_json()


def test_a_loopback_or_private_callback_is_refused_by_default(client: Any) -> None:
    for url in ("http://127.0.0.1:9/", "http://10.0.0.8/hook", "http://localhost/"):
        r = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": BOTS, "options": {"callback_url": url}})
        assert r.status_code == 422 and r.get_json()["code"] == "callback_url_refused"


def test_only_the_creator_reads_the_deliveries_and_no_view_or_log_shows_the_callback(
        loopback_app: Any, work: Any, retries: Any) -> None:
    """The URL and the secret are the creator's: a seat's token, a stranger's
    or none gets 401; a spectator's view, a seat's and the log never carry them."""
    client = loopback_app.test_client()
    with WebhookReceiver() as receiver:
        game = create(client, seats=[{"name": "ann"}, *BOTS[1:]], options={"callback_url": receiver.url})
        assert _deliveries(client, game).get_json()["state"] == "waiting"
        for token in (game["seats"][0]["token"], "x" * 43):
            r = _deliveries(client, game, token)
            assert r.status_code == 401 and r.get_json()["code"] == "bad_token"
        r = client.get(f"/v1/games/{game['id']}/deliveries")
        assert r.status_code == 401 and r.get_json()["code"] == "token_required"
        seen = [client.get(f"/v1/games/{game['id']}").get_data(as_text=True),
                client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).get_data(as_text=True),
                client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True),
                client.get("/v1/games").get_data(as_text=True)]
        for text in seen:
            assert receiver.url not in text and game["callback_secret"] not in text
            assert "callback" not in text


def test_a_game_without_a_callback_has_no_secret_and_no_deliveries(client: Any) -> None:
    game = create(client, seats=BOTS)
    assert "callback_secret" not in game
    r = _deliveries(client, game)
    assert r.status_code == 404 and r.get_json()["code"] == "no_callback"
    r = client.get("/v1/games/nosuchgame/deliveries", headers=auth("x"))
    assert r.status_code == 404 and r.get_json()["code"] == "game_not_found"


def test_a_tournament_delivers_every_game_it_deals_signed_with_its_own_secret(
        loopback_app: Any, work: Any, retries: Any) -> None:
    """A tournament's ``callback_url``: each game's end, with ``tournament``,
    signed with the tournament's ``callback_secret``; neither is public, and
    the cancel token reads each game's deliveries."""
    client = loopback_app.test_client()
    with WebhookReceiver(fail_with=[500]) as receiver:
        r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "players": 3,
                                                 "entrants": ["random", "heuristic", "random"],
                                                 "callback_url": receiver.url})
        assert r.status_code == 201, r.get_json()
        created = r.get_json()
        work()
        shown = client.get(f"/v1/tournaments/{created['id']}").get_json()
        assert shown["status"] == "finished"
        got = receiver.accepted()
    games = {g["id"] for g in shown["games"]}
    assert sorted(r.payload()["game"] for r in got) == sorted(games)
    assert all(r.payload()["tournament"] == created["id"] and r.signed_by(created["callback_secret"]) for r in got)
    listed = client.get("/v1/tournaments").get_data(as_text=True) + json.dumps(shown)
    assert receiver.url not in listed and created["callback_secret"] not in listed
    for game_id in games:
        r = client.get(f"/v1/games/{game_id}/deliveries", headers=auth(created["cancel_token"]))
        assert r.status_code == 200 and r.get_json()["state"] == "delivered"
        assert client.get(f"/v1/games/{game_id}/deliveries", headers=auth("x")).status_code == 401


def test_a_tournament_callback_is_its_own_field_and_held_to_the_same_rules(client: Any) -> None:
    body = {"ruleset": "bluffaneer", "games": 1, "players": 3, "entrants": ["random", "random", "random"]}
    r = client.post("/v1/tournaments", json={**body, "options": {"callback_url": "https://e.com/x"}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_options"  # options are public
    r = client.post("/v1/tournaments", json={**body, "callback_url": "http://127.0.0.1:9/"})
    assert r.status_code == 422 and r.get_json()["code"] == "callback_url_refused"
    r = client.post("/v1/tournaments", json=body)
    assert r.status_code == 201 and "callback_secret" not in r.get_json()


@pytest.mark.parametrize(("ruleset", "players"), [("bang", 4), ("bang-dice", 3), ("bang-faceoff", 2),
                                                  ("bluffaneer", 3)])
def test_every_ruleset_s_end_is_delivered_once_with_its_signed_head(
        loopback_app: Any, work: Any, retries: Any, ruleset: str, players: int) -> None:
    client = loopback_app.test_client()
    with WebhookReceiver(fail_with=[502]) as receiver:
        game = create(client, ruleset, seats=[{"bot": "random"}] * players, options={"callback_url": receiver.url})
        work()
        got = receiver.all()
    assert [r.answered for r in got] == [502, 200] and len({r.body for r in got}) == 1
    assert got[-1].head_signed(client.get("/v1/keys").get_json()) is None
    assert got[-1].payload()["result"] == view(client, game)["result"] is not None


def test_guessing_the_owner_token_of_the_deliveries_is_limited_like_a_seat_token(redis_client: Any) -> None:
    """The URL the deliveries show is the creator's: a guess at its owner token is a failed authentication."""
    from tests.api.test_rate_limit import limited_app
    client = limited_app(redis_client, AUTH_FAIL_LIMIT="3/hour",
                         BOT_URL_POLICY=UrlPolicy(allow_private=True)).test_client()
    game = create(client, seats=BOTS, options={"callback_url": "http://127.0.0.1:9/end"})
    statuses = [_deliveries(client, game, f"guess{i}").status_code for i in range(5)]
    assert statuses == [401, 401, 401, 429, 429]
    assert _deliveries(client, game).status_code == 429  # the right one too, from that address, for now
