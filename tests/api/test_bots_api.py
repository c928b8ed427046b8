"""Bots, turn clocks and tournaments through the API, with jobs run by a real
RQ SimpleWorker (burst) on the test Redis."""
from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

import workers.jobs as jobs
from referee.bots.webhook import UrlPolicy, sign, verify
from referee.errors import ApiError
from referee.games import registry
from referee.play.standings import seating
from tests.api.helpers import auth, create, move, ndjson, view
from tests.hostile_http import HostileServer
from tests.webhook_bot import WebhookBot


def _moves(client: Any, game_id: str) -> list[dict[str, Any]]:
    log = ndjson(client.get(f"/v1/games/{game_id}/log", headers=auth("admin-secret")).get_data(as_text=True))
    return [e for e in log[1:] if e["type"] == "move"]


# -- bot seats ---------------------------------------------------------------
def test_unknown_bot_seat_is_refused(client: Any) -> None:
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"bot": "nobody"}, {}, {}]})
    assert r.status_code == 422 and r.get_json()["code"] == "unknown_bot"


def test_random_bots_play_a_whole_game_through_the_service_path(client: Any, work: Any) -> None:
    game = create(client, seats=[{"bot": "random"}] * 4)
    work()
    final = view(client, game)
    assert final["status"] == "finished"
    moves = _moves(client, game["id"])
    assert moves and all(m["data"]["by"] == {"bot": "random"} for m in moves)
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]


def test_a_duplicated_bot_job_never_plays_twice(client: Any, service: Any, work: Any) -> None:
    game = create(client, seats=[{"bot": "random"}, {}, {}],
                  setup={"turn": 0, "dice": ["ship", "skull"], "seats": [{"card": ["chest", "sword"]}, {}, {}]})
    version = view(client, game)["version"]  # after the roll only the humans owe a move
    # the job enqueued at creation, plus the same turn run twice more by hand
    assert jobs.play_bot_turn(game["id"], 0, version, svc=service) == "played"
    assert jobs.play_bot_turn(game["id"], 0, version, svc=service) == "stale"
    work()
    assert len(_moves(client, game["id"])) == 1


def test_a_run_of_bot_turns_records_what_a_job_per_move_records(
        client: Any, service: Any, work: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """One job plays a game's built-in bot turns in a row, appended 25 at a
    time: the same game as with one job per move — the same moves by the same
    seats, the same ``by`` — each with its own idempotency record under the
    key a job of its own would use, and an audit that holds."""
    seats = [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}]
    logs = []
    for run_moves in (1, jobs.RUN_MOVES):
        monkeypatch.setattr(jobs, "RUN_MOVES", run_moves)
        game = create(client, ruleset="bang", seats=seats, seed="one run")
        work()
        assert view(client, game)["status"] == "finished"
        assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]
        moves = _moves(client, game["id"])
        for m in moves:  # the key a job of its own would have used: bot:<version before>:<seat>
            assert service.store.idem_record(game["id"], ("worker", f"bot:{m['seq'] - 1}:{m['actor']}")) is not None
        logs.append([(m["actor"], m["data"]["move"], m["data"]["by"]) for m in moves])
    assert logs[0] == logs[1] and len(logs[0]) > 25


def test_mixed_table_human_waits_while_bots_play(client: Any, work: Any) -> None:
    game = create(client, seats=[{"name": "ann"}, {"bot": "random"}, {"bot": "random"}],
                  setup={"turn": 0, "dice": ["ship", "skull"], "seats": [{"card": ["chest", "sword"]}, {}, {}]})
    assert move(client, game, 0, {"type": "roll"}).status_code == 201
    work()  # both bots answer the claim window
    after = view(client, game)
    assert 1 not in after["to_act"] and 2 not in after["to_act"]


# -- webhook bots ------------------------------------------------------------
def test_register_bot_returns_a_secret_and_owner_reads_it(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    r = client.post("/v1/bots", json={"name": "b", "url": "http://127.0.0.1:9/turn", "rulesets": ["bluffaneer"]})
    assert r.status_code == 201
    bot = r.get_json()
    got = client.get(f"/v1/bots/{bot['id']}", headers=auth(bot["secret"]))
    assert got.status_code == 200 and "secret" not in got.get_json()
    assert client.get(f"/v1/bots/{bot['id']}", headers=auth("wrong")).status_code == 401
    assert client.get("/v1/bots/bot_missing", headers=auth("any")).status_code == 404
    assert client.get("/v1/bots/bot_missing").status_code == 401  # no credential: refused before anything is read


def test_private_and_loopback_bot_urls_are_refused_unless_allowed(client: Any) -> None:
    for url in ("http://127.0.0.1:8000/x", "http://10.0.0.1/x", "http://localhost/x", "ftp://example.com/x"):
        r = client.post("/v1/bots", json={"name": "b", "url": url, "rulesets": ["bluffaneer"]})
        assert r.status_code == 422 and r.get_json()["code"] == "bot_url_refused", url


@pytest.mark.parametrize("url", ["http://[::1/", "http://bot.example:99999/x", "http://bot.example:abc/x",
                                 f"http://{'a' * 64}.example/x", "http://bot.example:0/x", "http://2130706433/x",
                                 "http://bot.example/\ud800", "//bot.example/turn"])
def test_malformed_bot_urls_are_a_422_invalid_bot_url_not_a_500(loopback_app: Any, url: str) -> None:
    """Issue 8, Found 2: these bot URLs raised ValueError/UnicodeError in the check: a 500."""
    r = loopback_app.test_client().post("/v1/bots", json={"name": "b", "url": url, "rulesets": ["bluffaneer"]})
    if "\ud800" in url:  # a lone surrogate is refused at the body boundary, before any field is read
        assert r.status_code == 400 and r.get_json()["code"] == "invalid_unicode", url
    else:
        assert r.status_code == 422 and r.get_json()["code"] == "invalid_bot_url", url


@pytest.mark.parametrize("url", ["http://100.100.100.200/latest/meta-data", "http://100.64.0.1/",
                                 "http://[2002:a9fe:a9fe::]/", "http://169.254.169.254/", "http://[::ffff:127.0.0.1]/",
                                 "http://[64:ff9b::a9fe:a9fe]/", "http://0.0.0.0:8000/", "http://u:p@127.0.0.1/",
                                 "http://[::169.254.169.254]/", "http://[::a9fe:a9fe]/",
                                 "http://[::ffff:169.254.169.254]/"])
def test_ssrf_bot_urls_are_refused_even_where_loopback_is_allowed(loopback_app: Any, url: str) -> None:
    """Issue 8, Found 7: `is_private` accepted CGNAT (a cloud metadata address)
    and 6to4 of 169.254.169.254; these IP literals need no resolution, so
    nothing leaves the machine."""
    r = loopback_app.test_client().post("/v1/bots", json={"name": "b", "url": url, "rulesets": ["bluffaneer"]})
    assert r.status_code == 422 and r.get_json()["code"] == "bot_url_refused", url


@pytest.mark.parametrize(("mode", "cause"), [("trickle_body", "timeout"), ("huge", "response_too_large")])
def test_a_trickling_or_huge_bot_costs_one_deadline_and_gets_the_default_recorded(
        loopback_app: Any, work: Any, monkeypatch: pytest.MonkeyPatch, mode: str, cause: str) -> None:
    """Issue 8, Found 6: a bot trickling a byte every 0.5 s held the worker
    (here 10 s per turn, then `not_json`), a 50 MB answer was read whole. Each
    is now cut by REFEREE_BOT_TIMEOUT_S / REFEREE_BOT_MAX_RESPONSE_BYTES and
    the prompt's default is played, recorded with the cause."""
    monkeypatch.setenv("REFEREE_BOT_TIMEOUT_S", "1")
    monkeypatch.setenv("REFEREE_BOT_MAX_RESPONSE_BYTES", "65536")
    client = loopback_app.test_client()
    with HostileServer(mode, interval_s=0.5, trickle_bytes=20) as hook:
        r = client.post("/v1/bots", json={"name": "slow", "url": hook.url, "rulesets": ["bluffaneer"]})
        game = create(client, seats=[{"bot": r.get_json()["id"], "bot_secret": r.get_json()["secret"]}, {}, {}],
                      setup={"turn": 0})
        started = time.monotonic()
        work()
        elapsed = time.monotonic() - started
    first = _moves(client, game["id"])[0]
    assert first["actor"] == 0 and first["data"]["move"] == {"type": "roll"}  # F21's default: the roll
    assert first["data"]["by"]["default"] == cause
    # each call costs at most about the deadline (before the fix: 10 s per trickled turn); +2 s for the worker
    assert elapsed < len(hook.requests) * (1.0 + 1.5) + 2.0


def test_bot_url_allowlist() -> None:
    policy = UrlPolicy(allowlist=("bots.example.org",), allow_private=True)
    with pytest.raises(ApiError):
        policy.check("http://127.0.0.1/x")


def test_signature_is_hmac_of_timestamp_and_body_and_refuses_stale() -> None:
    sig = sign("s3cret", 1000, b'{"a":1}')
    assert verify("s3cret", "1000", b'{"a":1}', sig, now=1000)
    assert not verify("s3cret", "1000", b'{"a":2}', sig, now=1000)
    assert not verify("s3cret", "1000", b'{"a":1}', sig, now=1000 + 301)  # replayed too late
    assert not verify("other", "1000", b'{"a":1}', sig, now=1000)


def _register(client: Any, bot: WebhookBot) -> str:
    """A public bot: anyone may seat it (its owner chose so at registration)."""
    r = client.post("/v1/bots", json={"name": "hook", "url": bot.url, "rulesets": ["bluffaneer"],
                                      "seating": "public"})
    assert r.status_code == 201, r.get_json()
    bot.secret = r.get_json()["secret"]
    return str(r.get_json()["id"])


def test_webhook_bot_plays_with_signed_requests(loopback_app: Any, work: Any) -> None:
    client = loopback_app.test_client()
    with WebhookBot("first") as hook:
        bot_id = _register(client, hook)
        game = create(client, seats=[{"bot": bot_id}, {"bot": "random"}, {"bot": "random"}])
        work()
        assert view(client, game)["status"] == "finished"
        assert hook.requests and hook.bad_signatures == 0
        first = hook.requests[0]
        assert set(first) >= {"game", "seat", "version", "view", "legal_moves", "deadline", "delivery"}
        hooked = [m for m in _moves(client, game["id"]) if m["actor"] == 0]
        assert hooked and all(m["data"]["by"] == {"bot": bot_id} for m in hooked)


def test_a_webhook_bot_at_a_mixed_table_is_shown_who_is_here_as_every_reader_is(loopback_app: Any,
                                                                                  work: Any) -> None:
    """Issue 40 item 1: every view shows each person's seat's presence, a registered bot's too (its
    payload's view): ann, whose token was used, is here since then; a bot's seat shows none."""
    client = loopback_app.test_client()
    with WebhookBot("first") as hook:
        bot_id = _register(client, hook)
        game = create(client, seats=[{"name": "ann"}, {"bot": bot_id}, {"bot": "random"}])
        for _ in range(200):
            mine = view(client, game, 0)  # ann is here, and plays when she is awaited
            playing = [m for m in mine["legal_moves"] if m["type"] != "resign"]
            if playing:
                assert move(client, game, 0, playing[0]).status_code == 201
            work()
            if hook.requests or mine["status"] != "active":
                break
        assert hook.requests, "the webhook bot was never asked"
        seats = hook.requests[0]["view"]["seats"]
        assert seats[0]["connected"] is True and isinstance(seats[0]["since"], int)
        assert "connected" not in seats[1] and "connected" not in seats[2]


@pytest.mark.parametrize("mode", ["nonsense", "error", "garbage", "sleep"])
def test_webhook_failure_or_illegal_answer_gets_the_default_move_recorded_as_such(
        loopback_app: Any, work: Any, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    monkeypatch.setenv("REFEREE_BOT_TIMEOUT_S", "0.3")
    client = loopback_app.test_client()
    with WebhookBot(mode, sleep_s=1.0) as hook:
        bot_id = _register(client, hook)
        game = create(client, seats=[{"bot": bot_id}, {}, {}], setup={"turn": 0})
        work()
        first = _moves(client, game["id"])[0]
        assert first["actor"] == 0 and first["data"]["move"] == {"type": "roll"}  # F21's default: the roll
        assert first["data"]["by"]["default"] in {"invalid_answer", "http_500", "not_json", "timeout"}
        first_turn = [r for r in hook.requests if r["delivery"] == hook.requests[0]["delivery"]]
        if mode == "error":  # one bounded retry, with the same delivery id
            assert len(first_turn) == 2
        if mode == "sleep":  # the timeout spent the call's one deadline: no time left to retry (issue 8, Deliver 4)
            assert len(first_turn) == 1 and first["data"]["by"]["default"] == "timeout"


# -- turn clocks -------------------------------------------------------------
def test_turn_clock_deadline_is_in_the_view_and_applies_the_default(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=3, options={"turn_timeout_s": 30}, setup={"turn": 1})
    seen = view(client, game)
    assert seen["turn_deadline"] == clock.now + 30_000
    assert jobs.fire_turn_clock(game["id"], seen["version"], svc=service) == "early"
    clock.advance(30_000)
    assert jobs.fire_turn_clock(game["id"], seen["version"] - 1, svc=service) == "stale"
    assert jobs.fire_turn_clock(game["id"], seen["version"], svc=service) == "defaulted"
    assert jobs.fire_turn_clock(game["id"], seen["version"], svc=service) == "stale"
    record = _moves(client, game["id"])[0]
    assert record["actor"] == 1 and record["data"]["by"] == {"default": "turn_clock"}


def test_turn_timeout_option_is_validated(client: Any) -> None:
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3, "options": {"turn_timeout_s": 0}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_options"


# -- tournaments ---------------------------------------------------------------
def test_seating_rotates_every_entrant_through_every_seat() -> None:
    seats = Counter((e, s) for g in range(8) for s, e in enumerate(seating(g, 4, 4)))
    assert set(seats.values()) == {2} and len(seats) == 16


def test_seating_rotates_the_public_role_and_keeps_hidden_ones_as_dealt() -> None:
    public = [None, "sheriff", None, None]  # seat 1 holds the (public) Sheriff
    sheriffs = [seating(g, 4, 4, public)[1] for g in range(4)]
    assert sorted(sheriffs) == [0, 1, 2, 3]  # each entrant is Sheriff once in 4 games
    # the others sit clockwise from the Sheriff in entrant order: nothing about hidden roles follows
    assert seating(0, 4, 4, public) == [3, 0, 1, 2]


def test_seating_rotates_every_role_when_all_are_public() -> None:
    roles = ["outlaw", "deputy", "renegade"]  # the 3-player game: roles are public (R82)
    order = registry.get("bang").role_order
    got = Counter((e, roles[s]) for g in range(3) for s, e in enumerate(seating(g, 3, 3, roles, order)))
    assert set(got.values()) == {1} and len(got) == 9
    # slots follow the ruleset's role order: the renegade's slot first, then the outlaw's, then the deputy's
    assert seating(0, 3, 3, roles, order) == [1, 2, 0]


def test_tournament_runs_in_workers_and_reports_standings(client: Any, work: Any) -> None:
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 8, "parallel": 3,
                                             "entrants": ["random", "random", "random",
                                                          {"bot": "random", "name": "r4"}]})
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["id"]
    work(max_rounds=2000)
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["status"] == "finished" and t["games_finished"] == 8 and len(t["games"]) == 8
    assert {row["name"] for row in t["standings"]} == {"random", "random#2", "random#3", "r4"}
    assert all(row["games"] == 8 for row in t["standings"])
    assert sum(row["wins"] for row in t["standings"]) == 8
    assert all(row["rating"]["sigma"] > 0 for row in t["standings"])
    assert t["seed"] is not None
    for g in t["games"]:
        game = client.get(f"/v1/games/{g['id']}").get_json()
        assert game["custom"] is False
        assert client.get(f"/v1/games/{g['id']}/audit").get_json()["ok"]
    seat_of: Counter[tuple[str, int]] = Counter()
    for g in t["games"]:
        for s in client.get(f"/v1/games/{g['id']}").get_json()["seats"]:
            seat_of[(s["name"], s["seat"])] += 1
    assert set(seat_of.values()) == {2}


def test_a_finished_tournament_expires_with_its_games(client: Any, work: Any, redis_client: Any) -> None:
    """Retention (issue 8): a tournament's keys carry the idle retention while
    it runs and the finished one when it is over, like its games'."""
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "entrants": ["random"] * 3})
    tid = r.get_json()["id"]
    keys = [k for k in redis_client.keys(f"tournament:{{{tid}}}*")]
    assert keys and all(6 * 86400 < redis_client.ttl(k) <= 7 * 86400 for k in keys)  # running: idle TTL
    work(max_rounds=500)
    assert client.get(f"/v1/tournaments/{tid}").get_json()["status"] == "finished"
    keys = [k for k in redis_client.keys(f"tournament:{{{tid}}}*")]
    assert len(keys) >= 5 and all(29 * 86400 < redis_client.ttl(k) <= 30 * 86400 for k in keys)
    game = client.get(f"/v1/tournaments/{tid}").get_json()["games"][0]["id"]
    assert 29 * 86400 < redis_client.ttl(f"game:{{{game}}}:events") <= 30 * 86400


def test_a_game_recorded_while_its_tournament_runs_leaves_every_key_with_the_idle_retention(
        client: Any, work: Any, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The script that records a game (``TournamentStore.record``) sets the
    idle retention on every key of the tournament, those it creates (results,
    winners) included: nothing outlives the tournament."""
    from referee.play.tournaments import Tournaments
    monkeypatch.setattr(Tournaments, "_kick", lambda self, *args: None)  # no next game: it stays running
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "parallel": 1,
                                             "entrants": ["random"] * 3})
    tid = r.get_json()["id"]
    work(max_rounds=500)
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["status"] == "running" and t["games_finished"] == 1
    keys = {k.decode() for k in redis_client.keys(f"tournament:{{{tid}}}*")}
    assert {f"tournament:{{{tid}}}:{part}" for part in ("results", "winners", "standings")} <= keys
    assert all(6 * 86400 < redis_client.ttl(k) <= 7 * 86400 for k in keys)


def test_tournament_validation(client: Any) -> None:
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "entrants": ["random", "ghost"]})
    assert r.status_code == 422 and r.get_json()["code"] == "unknown_bot"
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "entrants": ["random", "random"]})
    assert r.status_code == 422 and r.get_json()["code"] == "too_few_entrants"
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 0, "entrants": ["random"] * 3})
    assert r.status_code == 400
    assert client.get("/v1/tournaments/t_missing").status_code == 404


def test_a_client_seeded_tournament_is_reproducible_custom_and_unrated(client: Any, work: Any) -> None:
    # BANG! (no timing rule: Bluffaneer's claim race depends on receipt times)
    body = {"ruleset": "bang", "games": 3, "entrants": ["random", "heuristic", "random", "random"], "seed": "known"}
    runs = []
    for _ in range(2):
        tid = client.post("/v1/tournaments", json=body).get_json()["id"]
        work(max_rounds=2000)
        runs.append(client.get(f"/v1/tournaments/{tid}").get_json())
    a, b = runs
    assert a["rated"] is False and [g["winners"] for g in a["games"]] == [g["winners"] for g in b["games"]]
    assert all(client.get(f"/v1/games/{g['id']}").get_json()["custom"] for g in a["games"])
    assert all(row["rating"]["mu"] == 25.0 for row in a["standings"])  # custom games never count


def test_sweeper_revives_an_overdue_bot_turn_but_not_a_clock_still_running(
        client: Any, service: Any, clock: Any, redis_client: Any, work: Any) -> None:
    from rq import Queue

    from referee.service.scheduling import QUEUE
    waiting = create(client, players=3, options={"turn_timeout_s": 3600}, setup={"turn": 0})
    bot = create(client, seats=[{"bot": "random"}, {}, {}], setup={"turn": 0})
    Queue(QUEUE, connection=redis_client).empty()  # the bot's job is lost
    clock.advance(20_000)
    assert jobs.sweep(service, stall_ms=10_000) == 1  # only the bot's turn is overdue
    work()
    assert len(_moves(client, bot["id"])) >= 1
    assert len(_moves(client, waiting["id"])) == 0
    from referee.service.scheduling import WATCH
    assert redis_client.zscore(WATCH, waiting["id"]) == clock.now - 20_000 + 3600_000  # due when the clock runs out
    clock.advance(3600_000)
    assert jobs.sweep(service, stall_ms=10_000) >= 1  # now the clock has run out too
    assert redis_client.zscore(WATCH, waiting["id"]) == clock.now  # revived; looked at again after a stall


def test_a_referee_killed_between_a_move_and_its_jobs_loses_no_bot_turn(
        client: Any, service: Any, clock: Any, work: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: a human's move hands the turn to a bot; the process dies after
    the append, before it enqueued the bot's job (no job, nothing else owed
    before). The game was put in the watch set before the append, so the
    sweeper finds it after its stall period and the bot plays."""
    # seeded: the first move must hand the turn to a bot (an unseeded deal sometimes left seat 0 to act
    # again, with nothing owed to a worker, so nothing to sweep: the test failed now and then under CI)
    game = create(client, seats=[{}, {"bot": "random"}, {"bot": "random"}], setup={"turn": 0},
                  seed="killed-between-move-and-jobs")
    seat0 = view(client, game, 0)
    assert seat0["to_act"] == [0]

    class Killed(BaseException):
        """The process dying: nothing after the append runs."""

    def die(*_: Any) -> None:
        raise Killed
    with monkeypatch.context() as patched, pytest.raises(Killed):
        patched.setattr(service.changes, "notify", die)
        move(client, game, 0, seat0["legal_moves"][0])
    moved = view(client, game)
    assert moved["version"] > seat0["version"]  # the move landed
    assert set(moved["to_act"]) & {1, 2}, moved["to_act"]  # and a bot is owed the turn
    work()  # no job was enqueued for the bot: nothing happens
    assert view(client, game)["version"] == moved["version"] and view(client, game)["result"] is None
    clock.advance(3_000)  # past a stall of 2 s, within the claim window (5 s) the bots answer in
    assert jobs.sweep(service, stall_ms=2_000) == 1
    work()
    assert view(client, game)["version"] > moved["version"]  # the bots played on
