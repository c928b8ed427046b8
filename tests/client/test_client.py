"""``referee.client`` against the real Flask app (and its real throwaway
Redis) in process, through httpx's WSGI transport: every route of
openapi.yaml, typed results, every typed error, idempotent retries, retry
after ``Retry-After``, long-poll timeouts and SSE resumed with
``Last-Event-ID``. No test sleeps: the client's sleep is recorded instead."""
from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from redis.backoff import NoBackoff
from redis.retry import Retry

import referee.http.api.bots as bots_api
import referee.http.api.games as games_api
from referee.client import (
    AuditReport,
    Bot,
    BotSummary,
    Conflict,
    Event,
    EventPage,
    Forbidden,
    GameCreated,
    GameLog,
    GameOver,
    GameSummary,
    Health,
    HttpProblem,
    IllegalMove,
    KeySet,
    MoveAccepted,
    NotFound,
    NotYourTurn,
    Page,
    RateLimited,
    Receipt,
    RefereeClient,
    Replay,
    RetryPolicy,
    Ruleset,
    Seat,
    SpectatorDelay,
    Timeouts,
    Tournament,
    TournamentSummary,
    Unauthorized,
    Unavailable,
    Unprocessable,
    VersionConflict,
    View,
)
from referee.engine import canonical_bytes, merkle
from referee.engine import checkpoint as notes
from referee.engine.signature import PublicKeys
from referee.http.app import create_app
from referee.store.redis_server import free_port
from tests import contract
from tests.api.test_rate_limit import limited_app
from tests.client.conftest import BASE, Sleeps, make_client

NIM = {"piles": [2]}  # two stones: seat 0 takes one, seat 1 takes the last and wins


def take(count: int = 1) -> dict[str, Any]:
    return {"type": "take", "pile": 0, "count": count}


def finished_nim(api: RefereeClient) -> GameCreated:
    game = api.games.create("nim", players=2, options=NIM)
    api.games.move(game.id, take(), token=game.tokens[0])
    api.games.move(game.id, take(), token=game.tokens[1])
    return game


class Recording(httpx.BaseTransport):
    """Wraps a transport: records every request (method, path, headers,
    body, timeout) and can lose answers: ``lose(n, when)`` makes the next
    ``n`` requests matching ``when`` reach the app but raise
    ``RemoteProtocolError`` instead of answering; ``refuse(n, when)`` raises
    ``ConnectError`` before they reach it."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        self.requests: list[httpx.Request] = []
        self.sent: list[httpx.Request] = []
        self.losing: list[Any] = []
        self.refusing: list[Any] = []

    def lose(self, n: int, when: Any) -> None:
        self.losing += [when] * n

    def refuse(self, n: int, when: Any) -> None:
        self.refusing += [when] * n

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        if self.refusing and self.refusing[0](request):
            self.refusing.pop(0)
            raise httpx.ConnectError("refused", request=request)
        self.sent.append(request)
        response = self.inner.handle_request(request)
        if self.losing and self.losing[0](request):
            self.losing.pop(0)
            response.read()
            raise httpx.RemoteProtocolError("the connection dropped before the answer", request=request)
        return response


def recording_client(app: Any, sleeps: Sleeps, **kwargs: Any) -> tuple[RefereeClient, Recording]:
    transport = Recording(httpx.WSGITransport(app=app))
    client = RefereeClient(BASE, transport=transport, sleep=sleeps, **kwargs)
    return client, transport


def is_move(request: httpx.Request) -> bool:
    return request.method == "POST" and request.url.path.endswith("/moves")


# -- every route -----------------------------------------------------------------
def test_every_route_of_the_contract_has_a_client_method_and_each_is_exercised(
        api: RefereeClient, calls: list[tuple[str, str]], loopback_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert api.health().status == "ok"
    assert api.keys().keys
    assert isinstance(api.metrics(), str)
    assert api.openapi().startswith("openapi:")
    assert "nim" in [r.name for r in api.rulesets.list()]
    assert api.rulesets.get("nim").name == "nim"
    rules = api.rulesets.rules("bluffaneer")
    assert rules and api.rulesets.rule("bluffaneer", rules[0].id).text
    assert api.rulesets.catalogue("bluffaneer")["symbols"]
    table = api.games.create("bluffaneer", seats=[{"name": "host"}, {"open": True}, {"name": "c"}])
    claimed = api.games.claim(table.id, 1, "ann")
    assert claimed.seat == 1 and claimed.name == "ann" and claimed.token
    assert table.owner_token is not None
    fresh = api.games.reissue(table.id, 0, owner_token=table.owner_token)
    assert fresh.seat == 0 and api.games.view(table.id, token=fresh.token).seat == 0
    said = api.games.chat(table.id, "hello", token=claimed.token)  # the table chat (docs/chat.md)
    assert said.opens() and [m.text for m in api.games.chat_messages(table.id)] == ["hello"]
    assert said.seq is not None  # a seat's post: its event
    api.games.hide_chat(table.id, said.seq, token=table.owner_token)
    assert api.games.chat_messages(table.id)[0].hidden
    game = api.games.create("nim", players=2, options={**NIM, "series": {"games": 2}})
    api.games.view(game.id, token=game.tokens[0])
    api.games.move(game.id, take(), token=game.tokens[0])
    api.games.events(game.id, after=0)
    api.games.move(game.id, take(), token=game.tokens[1])
    assert [e.seq for e in api.games.stream(game.id)] == [1, 2, 3, 4, 5, 6]
    api.games.replay(game.id, version=1)
    late = api.games.create("nim", players=2, options={**NIM, "spectator_delay": 50, "spectator_omniscient": True})
    broadcast = api.games.broadcast(late.id)  # issue 40 item 6: inside the delay, no hand yet
    assert broadcast.version == 0 and broadcast.views == [] and broadcast.spectator_delay == SpectatorDelay(50, True)
    api.games.log(game.id)
    api.games.audit(game.id)
    included = api.transparency.inclusion(game.id)  # issue 41 item 4: the finished game is in the log
    keys = PublicKeys.from_jwks(api.keys().raw)  # checked by the server's own modules: the client only fetches
    tree = notes.verify(included.checkpoint, keys)
    assert merkle.verify_inclusion(merkle.leaf_hash(included.leaf.encode()), included.index, tree.size,
                                   included.proof, tree.root)
    assert api.transparency.checkpoint().startswith(tree.origin + "\n")
    later = api.transparency.consistency(tree.size)
    now = notes.verify(later.checkpoint, keys)
    assert now.size >= tree.size and merkle.verify_consistency(tree.size, now.size, tree.root, now.root, later.proof)
    following = api.games.rematch(game.id, token=game.tokens[0])  # issue 40 item 4: seats rotated, its seat taken
    assert following.rematch_of == game.id and following.from_seats == (1, 0) and following.seat == 1
    assert following.token and api.games.view(game.id).next_game == following.id
    assert api.games.series(game.id).games[1].players == (1, 0)
    assert api.games.view(following.id).series == {"id": game.id, "games": 2, "game": 2, "players": [1, 0]}
    bot = api.bots.register("hook", "http://127.0.0.1:9/bot", ["nim"])
    assert bot.secret is not None
    api.bots.get(bot.id, secret=bot.secret)
    outbound = api.bots.register("outbound", None, ["nim"])
    assert outbound.kind == "outbound" and outbound.secret is not None
    monkeypatch.setattr(bots_api, "STREAM_MAX_S", 0.0)  # the server ends the turns' stream at once
    assert list(api.bots.turns(outbound.id, secret=outbound.secret, reconnect=False)) == []
    with pytest.raises(Conflict) as closed:
        api.bots.answer(outbound.id, "never-offered", take(), secret=outbound.secret)
    assert closed.value.code == "turn_closed"
    entry = api.bots.join_pool("nim", outbound.id, secret=outbound.secret, games_at_once=1)
    assert entry["status"] == "waiting" and entry["games_at_once"] == 1
    assert [e["bot"]["id"] for e in api.bots.pool("nim")["entries"]][0] == outbound.id
    assert api.bots.leave_pool("nim", outbound.id, secret=outbound.secret)["left"]
    assert api.bots.delete(outbound.id, secret=outbound.secret) == {"id": outbound.id, "deleted": True}
    hooked = api.games.create("nim", players=2, options={**NIM, "callback_url": "http://127.0.0.1:9/end"})
    assert hooked.callback_secret is not None and game.callback_secret is None
    assert api.games.deliveries(hooked.id, owner_token=str(hooked.owner_token)).state == "waiting"
    tournament = api.tournaments.create("nim", ["random", "random"], 2, parallel=1)
    api.tournaments.get(tournament.id)
    assert tournament.cancel_token is not None
    api.tournaments.cancel(tournament.id, token=tournament.cancel_token)
    assert game.id in [g.id for g in api.games.list(ruleset="nim")]
    assert bot.id in [b.id for b in api.bots.list()]
    assert tournament.id in [t.id for t in api.tournaments.list()]
    assert [ladder.key for ladder in api.ladder.list()] == []  # no rated game yet (kept: tests/api/test_ladder.py)
    with pytest.raises(NotFound):
        api.ladder.get("nim")
    assert api.ladder.profile("random").ladders == {}
    for archived in (api.archive.search, api.archive.export):  # no archive here (kept: tests/api/test_archive.py)
        with pytest.raises(HttpProblem) as no_archive:
            archived(seat="ann")
        assert no_archive.value.code == "no_archive"
    documented = {(method.upper(), path) for path, ops in contract.spec()["paths"].items()
                  for method in ops if method in ("get", "post", "put", "patch", "delete")}
    assert documented - set(calls) == set()


# -- typed results -----------------------------------------------------------------
def test_results_are_typed_and_keep_their_json(api: RefereeClient) -> None:
    game = api.games.create("nim", players=2, options=NIM, seed="typed")
    assert isinstance(game, GameCreated) and game.custom and game.ruleset == "nim"
    assert game.seats[0] == Seat(0, game.seats[0].name, None, game.tokens[0])
    assert game.raw["seats"][1]["token"] == game.tokens[1] and "token" not in repr(game.seats[0])

    view = api.games.view(game.id, token=game.tokens[0])
    assert isinstance(view, View) and view.seat == 0 and view.my_turn and view.active
    assert view.legal_moves == [take(1), take(2)] and view.state["piles"] == [2] and view.state["turn"] == 0
    assert view.raw["legal_moves"] == view.legal_moves and view.result is None
    assert not api.games.view(game.id).my_turn  # a spectator

    accepted = api.games.move(game.id, take(), token=game.tokens[0])
    assert isinstance(accepted, MoveAccepted) and accepted.version == view.version + 2  # the move and its event
    assert isinstance(accepted.receipt, Receipt) and accepted.receipt.game == game.id
    assert accepted.receipt.version == accepted.version == accepted.events[-1].seq
    assert accepted.receipt.head == accepted.events[-1].hash
    keys = api.keys()
    assert isinstance(keys, KeySet)
    key = keys.get(accepted.receipt.kid)
    assert key is not None and key.crv == "Ed25519" and keys.get("no-such-key") is None
    r = accepted.receipt
    signed = canonical_bytes({"purpose": "referee.receipt", "game": r.game, "version": r.version, "head": r.head,
                              "at": r.at, "kid": r.kid})
    Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(key.x + "=")).verify(
        base64.urlsafe_b64decode(r.sig + "=="), signed)  # raises if the receipt is not the referee's

    api.games.move(game.id, take(), token=game.tokens[1])
    page = api.games.events(game.id, token=game.tokens[1], after=1)
    assert isinstance(page, EventPage) and page.status == "finished" and [e.seq for e in page.events] == [2, 3, 4, 5, 6]
    assert all(isinstance(e, Event) for e in page.events) and page.events[0].type == "move"
    final = api.games.view(game.id)
    assert final.result is not None and final.result.winners == (1,) and final.result.outcomes == {0: "loss", 1: "win"}
    last = page.events[-1]
    assert last.type == "seed_revealed" and last.signature is not None and last.signature.kid == key.kid

    replay = api.games.replay(game.id, version=3)  # after the first move (its two events)
    assert isinstance(replay, Replay) and replay.version == 3 and replay.latest_version == 6
    assert replay.views is not None and len(replay.views) == 2
    assert not replay.shown_versions or 3 in replay.shown_versions and 2 not in replay.shown_versions
    log = api.games.log(game.id)
    assert isinstance(log, GameLog) and log.header["id"] == game.id and len(log.events) == 6
    assert log.events[-1].hash == last.hash and log.text.count("\n") == 7
    report = api.games.audit(game.id)
    assert isinstance(report, AuditReport) and report.ok and report.signed and report.events == 6
    assert report.checks and all(c.ok for c in report.checks) and report.divergence is None
    assert isinstance(api.health(), Health)
    ruleset = api.rulesets.get("nim")
    assert isinstance(ruleset, Ruleset) and ruleset.min_players == ruleset.max_players == 2
    assert set(ruleset.moves) == {"take"}


def test_bots_and_tournaments_are_typed(api: RefereeClient, loopback_app: Any, work: Any) -> None:
    bot = api.bots.register("hook", "http://127.0.0.1:9/bot", ["nim"])
    assert isinstance(bot, Bot) and bot.rulesets == ("nim",) and bot.secret and "secret" not in repr(bot)
    again = api.bots.get(bot.id, secret=bot.secret)
    assert again.id == bot.id and again.secret is None
    assert len(bot.owner) == 16 and again.owner == bot.owner  # who registered it, opaque (issue 42)
    tournament = api.tournaments.create("nim", ["random", "random"], 2, parallel=1, seed="cup")
    assert isinstance(tournament, Tournament) and tournament.games_total == 2 and tournament.cancel_token
    work()
    done = api.tournaments.get(tournament.id)
    assert done.status == "finished" and not done.running and done.games_finished == 2
    assert [g.index for g in done.games] == [0, 1] and all(api.games.audit(g.id).ok for g in done.games)
    assert {row["name"] for row in done.standings} == {e["name"] for e in done.entrants}


def test_an_outbound_bot_reads_its_turn_verifies_it_and_answers(api: RefereeClient, service: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from referee.bots.webhook import CallLimits
    from workers.asking import ask_outbound
    monkeypatch.setattr(bots_api, "STREAM_MAX_S", 5.0)
    bot = api.bots.register("outbound", None, ["nim"])
    assert bot.secret is not None
    payload = {"game": "g1", "ruleset": "nim", "seat": 1, "version": 3, "view": {"piles": [2]},
               "legal_moves": [take(1), take(2)], "deadline": None}
    answered: list[Any] = []
    worker = threading.Thread(target=lambda: answered.append(ask_outbound(
        service, bot.id, bot.secret or "", payload, delivery="g1:3:1", limits=CallLimits(timeout_s=10))))
    worker.start()
    try:
        for turn in api.bots.turns(bot.id, secret=bot.secret):
            assert turn.verify(bot.secret) and not turn.verify("another-secret")
            assert turn.delivery == "g1:3:1" and turn.game == "g1" and turn.seat == 1 and turn.answer_by
            assert turn.legal_moves == payload["legal_moves"] and turn.view == {"piles": [2]}
            ack = api.bots.answer(bot.id, turn.delivery, turn.legal_moves[-1], secret=bot.secret)
            assert ack.accepted and ack.delivery == turn.delivery
            break
    finally:
        worker.join(timeout=30)
    assert answered == [take(2)]


def test_listings_are_typed_pages_and_all_follows_the_cursors(api: RefereeClient, loopback_app: Any) -> None:
    made = [api.games.create("nim", players=2, options=NIM).id for _ in range(5)]
    page = api.games.list(ruleset="nim", limit=2)
    assert isinstance(page, Page) and len(page) == 2 and page.next and page.raw["next"] == page.next
    assert all(isinstance(g, GameSummary) and g.ruleset == "nim" and g.players == 2 for g in page)
    every = [g.id for g in api.games.all(ruleset="nim", limit=2)]
    assert sorted(every) == sorted(made)  # three pages, each game once (all made in the same ms)
    finished = finished_nim(api)
    assert [g.id for g in api.games.all(status="finished")] == [finished.id]
    assert sorted(g.id for g in api.games.all(source="people")) == sorted([*made, finished.id])
    assert list(api.games.all(source="pool")) == [] and all(g.pool is None for g in page)
    bot = api.bots.register("hook", "http://127.0.0.1:9/bot", ["nim"])
    listed = list(api.bots.all(limit=1))
    assert [b.id for b in listed] == [bot.id] and isinstance(listed[0], BotSummary) and listed[0].kind == "webhook"
    tournament = api.tournaments.create("nim", ["random", "random"], 1)
    [summary] = api.tournaments.all(status="running")
    assert isinstance(summary, TournamentSummary) and summary.id == tournament.id and summary.games_total == 1


# -- typed errors -----------------------------------------------------------------
def test_every_problem_is_raised_as_its_typed_error(api: RefereeClient) -> None:
    game = api.games.create("nim", players=2, options={"piles": [3]})
    with pytest.raises(Unauthorized) as unauthorized:
        api.games.move(game.id, take(), token="not-a-seat-token")
    assert unauthorized.value.status == 401 and unauthorized.value.code == "bad_token"
    assert isinstance(unauthorized.value, HttpProblem) and unauthorized.value.body["status"] == 401

    with pytest.raises(NotYourTurn) as not_yours:
        api.games.move(game.id, take(), token=game.tokens[1])
    assert not_yours.value.status == 403 and not_yours.value.rule == "N2" and isinstance(not_yours.value, Forbidden)
    with pytest.raises(Forbidden) as forbidden:
        api.games.log(game.id)
    assert forbidden.value.code == "log_not_public" and not isinstance(forbidden.value, NotYourTurn)

    with pytest.raises(NotFound) as missing:
        api.games.view("no-such-game")
    assert missing.value.status == 404 and missing.value.code == "game_not_found"
    with pytest.raises(NotFound):
        api.rulesets.get("no-such-ruleset")

    with pytest.raises(IllegalMove) as illegal:
        api.games.move(game.id, take(4), token=game.tokens[0])
    assert illegal.value.status == 422 and illegal.value.rule == "N3" and illegal.value.code == "bad_take"
    assert isinstance(illegal.value, Unprocessable) and illegal.value.detail
    with pytest.raises(Unprocessable) as unprocessable:
        api.games.create("nim", players=3)
    assert not isinstance(unprocessable.value, IllegalMove)

    with pytest.raises(VersionConflict) as conflict:
        api.games.move(game.id, take(), token=game.tokens[0], expected_version=0)
    assert conflict.value.status == 409 and conflict.value.current_version == game.version

    api.games.move(game.id, take(3), token=game.tokens[0])  # the last stones: seat 0 wins
    with pytest.raises(GameOver) as over:
        api.games.move(game.id, take(), token=game.tokens[1])
    assert over.value.status == 410 and over.value.code == "game_over"


def test_429_is_rate_limited_with_retry_after_and_retried_after_it(redis_client: Any, sleeps: Sleeps) -> None:
    app = limited_app(redis_client, RATE_LIMIT="0.001/2")  # two requests per 2,000 s
    client = make_client(app, sleeps=sleeps, retry=RetryPolicy(attempts=3, retry_after_max_s=5000))
    client.rulesets.list()
    client.rulesets.list()
    with pytest.raises(RateLimited) as limited:
        client.rulesets.list()
    assert limited.value.status == 429 and limited.value.code == "rate_limited"
    assert limited.value.retry_after is not None and limited.value.retry_after >= 1
    assert sleeps == [limited.value.retry_after] * 2  # two retries, each after its Retry-After


def test_503_is_unavailable_with_retry_after(sleeps: Sleeps) -> None:
    # nothing listens there; refused at once, not tried again after redis-py's growing pauses (8 s a request)
    down = redis.Redis(port=free_port(), socket_connect_timeout=1, retry=Retry(NoBackoff(), 0))
    app = create_app({"REDIS": down, "TESTING": True, "RATE_LIMIT": "off", "ENQUEUE_JOBS": False})
    client = make_client(app, sleeps=sleeps, retry=RetryPolicy(attempts=2))
    with pytest.raises(Unavailable) as unavailable:
        client.health()
    assert unavailable.value.status == 503 and unavailable.value.code == "redis_unavailable"
    assert unavailable.value.retry_after == 1 and sleeps == [1]


# -- retries -----------------------------------------------------------------------
class Flaky:
    """A WSGI middleware: the first ``n`` requests get a 503 with ``Retry-After``."""

    def __init__(self, app: Any, n: int, retry_after: str = "2") -> None:
        self.app, self.left, self.retry_after = app, n, retry_after

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.left > 0:
            self.left -= 1
            body = json.dumps({"type": "about:blank", "title": "Service Unavailable", "status": 503,
                               "code": "redis_unavailable", "detail": "try later"}).encode()
            start_response("503 SERVICE UNAVAILABLE", [("Content-Type", "application/problem+json"),
                                                       ("Retry-After", self.retry_after)])
            return [body]
        return self.app(environ, start_response)


def test_safe_requests_are_retried_after_retry_after_then_succeed(app: Any, sleeps: Sleeps) -> None:
    flaky = Flaky(app, 2, retry_after="3")
    client = RefereeClient(BASE, transport=httpx.WSGITransport(app=flaky), sleep=sleeps)
    assert client.health().status == "ok"
    assert sleeps == [3.0, 3.0] and flaky.left == 0


def test_the_retries_are_bounded(app: Any, sleeps: Sleeps) -> None:
    flaky = Flaky(app, 10, retry_after="1")
    client = RefereeClient(BASE, transport=httpx.WSGITransport(app=flaky), sleep=sleeps,
                           retry=RetryPolicy(attempts=4))
    with pytest.raises(Unavailable):
        client.health()
    assert sleeps == [1.0, 1.0, 1.0] and flaky.left == 6
    never = RefereeClient(BASE, transport=httpx.WSGITransport(app=Flaky(app, 1)), sleep=sleeps,
                          retry=RetryPolicy(attempts=1))
    with pytest.raises(Unavailable):
        never.health()


def test_a_lost_move_answer_is_retried_under_the_same_key_and_gets_the_same_receipt(
        app: Any, sleeps: Sleeps, api: RefereeClient) -> None:
    client, wire = recording_client(app, sleeps)
    game = client.games.create("nim", players=2, options={"piles": [3]})
    wire.lose(2, is_move)  # the move is recorded, but its answer (and its first retry's) is lost
    accepted = client.games.move(game.id, take(), token=game.tokens[0])
    moves = [r for r in wire.sent if is_move(r)]
    assert len(moves) == 3 and len({r.headers["Idempotency-Key"] for r in moves}) == 1
    assert len(sleeps) == 2  # backed off twice
    assert accepted.version == game.version + 2  # played once
    assert api.games.view(game.id).version == accepted.version
    # the same key, sent again by hand: the same answer, receipt and all
    key = moves[0].headers["Idempotency-Key"]
    again = client.games.move(game.id, take(), token=game.tokens[0], idempotency_key=key, expected_version=game.version)
    assert again.receipt == accepted.receipt and again.raw == accepted.raw


def test_a_game_creation_whose_answer_is_lost_is_not_retried(app: Any, sleeps: Sleeps) -> None:
    client, wire = recording_client(app, sleeps)
    wire.lose(1, lambda r: r.method == "POST")
    with pytest.raises(httpx.RemoteProtocolError):
        client.games.create("nim", players=2)
    assert len(wire.sent) == 1 and sleeps == []
    wire.refuse(2, lambda r: r.method == "POST")  # refused connections sent nothing: retried
    assert client.games.create("nim", players=2).id
    assert len(wire.requests) == 4 and len(wire.sent) == 2 and len(sleeps) == 2


def test_lost_connections_back_off_exponentially(app: Any, sleeps: Sleeps) -> None:
    client, wire = recording_client(app, sleeps, retry=RetryPolicy(attempts=5, backoff_s=0.5, backoff_max_s=3))
    wire.lose(4, lambda r: r.method == "GET")
    assert client.health().status == "ok"
    assert sleeps == [0.5, 1.0, 2.0, 3.0]


# -- what a move sends -------------------------------------------------------------
def test_moves_carry_a_fresh_key_and_the_last_version_seen(app: Any, sleeps: Sleeps, api: RefereeClient) -> None:
    client, wire = recording_client(app, sleeps)
    game = client.games.create("nim", players=2, options={"piles": [5]})
    assert client.last_version(game.id) == game.version
    client.games.move(game.id, take(), token=game.tokens[0])
    client.games.view(game.id)
    client.games.move(game.id, take(), token=game.tokens[1])
    client.games.move(game.id, take(), token=game.tokens[0], expected_version=None)
    bodies = [json.loads(r.content) for r in wire.sent if is_move(r)]
    keys = [r.headers["Idempotency-Key"] for r in wire.sent if is_move(r)]
    assert [b.get("expected_version") for b in bodies] == [game.version, game.version + 2, None]
    assert "expected_version" not in bodies[2] and len(set(keys)) == 3
    # another client moves: this one's default expected_version is stale now
    seen = client.last_version(game.id)
    api.games.move(game.id, take(), token=game.tokens[1])
    with pytest.raises(VersionConflict) as conflict:
        client.games.move(game.id, take(), token=game.tokens[0])
    assert conflict.value.current_version == (seen or 0) + 2 and client.last_version(game.id) == seen


def test_timeouts_outlast_long_polls_and_streams(app: Any, sleeps: Sleeps) -> None:
    client, wire = recording_client(app, sleeps, timeouts=Timeouts(poll_margin=7))
    game = client.games.create("nim", players=2, options=NIM)
    client.games.view(game.id)
    client.games.events(game.id, after=game.version, wait=0.2)  # times out on the server: no event
    reads = [r.extensions["timeout"]["read"] for r in wire.sent]
    assert reads[0] > 30 and reads[2] >= 0.2 + 7 and reads[2] >= reads[0]
    long_poll, stream = Timeouts().long_poll(30).read, Timeouts().stream().read
    assert long_poll is not None and long_poll >= 40
    assert stream is not None and stream > 15
    assert RefereeClient(BASE, timeout=100).http.timeout.read == 100


# -- Server-Sent Events ------------------------------------------------------------
def test_a_finished_games_stream_yields_every_event_once_and_ends(api: RefereeClient) -> None:
    game = finished_nim(api)
    events = list(api.games.stream(game.id, token=game.tokens[0]))
    assert [e.seq for e in events] == [1, 2, 3, 4, 5, 6] and events[-1].type == "seed_revealed"
    assert [e.seq for e in api.games.stream(game.id, after=2)] == [3, 4, 5, 6]
    with pytest.raises(NotFound):
        next(api.games.stream("no-such-game"))


def test_the_stream_resumes_with_last_event_id_when_the_server_ends_it(
        app: Any, sleeps: Sleeps, api: RefereeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games_api, "STREAM_MAX_S", 0.0)  # the server ends each stream at once
    client, wire = recording_client(app, sleeps)
    game = api.games.create("nim", players=2, options={"piles": [4]})
    got: list[int] = []
    for event in client.games.stream(game.id, token=game.tokens[0]):
        got.append(event.seq)
        view = api.games.view(game.id)
        if view.active and event.seq == view.version:  # caught up: the next seat takes one stone
            api.games.move(game.id, take(), token=game.tokens[view.to_act[0]])
    assert got == list(range(1, 11))  # game_started, four moves (two events each), seed_revealed: once, in order
    streams = [r for r in wire.sent if r.url.path.endswith("/stream")]
    assert len(streams) >= 5 and "Last-Event-ID" not in streams[0].headers
    resumed = [int(r.headers["Last-Event-ID"]) for r in streams[1:]]
    assert resumed == [1, 3, 5, 7]  # the seq of the last event yielded before each reconnection
    assert all(r.headers["Authorization"] == f"Bearer {game.tokens[0]}" for r in streams)
    assert all("token" not in r.url.params for r in streams)
    assert sleeps and all(s == 0.5 for s in sleeps)  # the server's retry: 500


class FakeSse(httpx.BaseTransport):
    """An SSE server in a transport: each connection sends ``scripts[i]``
    (a list of ``(seq, type)`` events, ``"keepalive"``, ``"drop"`` — the
    connection breaks there — or ``"end"``); records each Last-Event-ID."""

    def __init__(self, scripts: list[list[Any]]) -> None:
        self.scripts = scripts
        self.last_ids: list[str | None] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.last_ids.append(request.headers.get("Last-Event-ID"))
        script = self.scripts.pop(0)

        def chunks() -> Any:
            yield b"retry: 250\n\n"
            for item in script:
                if item == "keepalive":
                    yield b": keepalive\n\n"
                elif item == "drop":
                    raise httpx.ReadError("connection reset", request=request)
                elif item == "end":
                    yield b'event: end\ndata: {"status":"finished","version":9}\n\n'
                else:
                    seq, kind = item
                    data = {"seq": seq, "type": kind, "actor": None, "at": seq, "data": {}, "commit": "0" * 64,
                            "prev": "0" * 64, "hash": f"{seq:064x}"}
                    yield f"id: {seq}\nevent: {kind}\ndata: {json.dumps(data)}\n\n".encode()

        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, stream=Chunks(chunks()))


class Chunks(httpx.SyncByteStream):
    def __init__(self, it: Any) -> None:
        self.it = it

    def __iter__(self) -> Any:
        return self.it


def test_the_stream_resumes_after_drops_and_overlaps_yielding_each_event_once(sleeps: Sleeps) -> None:
    fake = FakeSse([
        [(1, "game_started"), "keepalive", (2, "move")],             # the server ends it (60 s)
        [(2, "move"), (3, "move"), "drop"],                            # a resume that overlaps, then a drop
        ["drop"],                                                      # drops before anything new
        [(3, "move"), "keepalive", (4, "move"), (5, "seed_revealed"), "end"],
    ])
    client = RefereeClient(BASE, transport=fake, sleep=sleeps, retry=RetryPolicy(backoff_s=0.1))
    events = list(client.games.stream("g", token="t"))
    assert [e.seq for e in events] == [1, 2, 3, 4, 5]
    assert fake.last_ids == [None, "2", "3", "3"]
    assert sleeps == [0.25, 0.1, 0.1]  # the server's retry: after a clean end, the backoff after a drop
    assert client.last_version("g") == 9


def test_a_stream_that_keeps_dropping_gives_up_after_the_policys_attempts(sleeps: Sleeps) -> None:
    fake = FakeSse([[(1, "game_started"), "drop"]] + [["drop"]] * 3)
    client = RefereeClient(BASE, transport=fake, sleep=sleeps, retry=RetryPolicy(attempts=3))
    got: list[int] = []
    with pytest.raises(httpx.ReadError):
        for event in client.games.stream("g"):
            got.append(event.seq)
    assert got == [1] and fake.last_ids == [None, "1", "1", "1"]


# -- the earlier client's names ------------------------------------------------------
def test_the_earlier_clients_names_still_work(api: RefereeClient) -> None:
    assert HttpProblem(404, {"code": "x", "detail": "y"}).code == "x"
    game = api.create_game("nim", players=2, options=NIM)
    assert isinstance(game, dict) and game["seats"][0]["token"]
    view = api.view(game["id"], game["seats"][0]["token"])
    moved = api.move(game["id"], game["seats"][0]["token"], take(), expected_version=view["version"])
    assert moved["receipt"]["version"] == moved["version"]
    assert api.events(game["id"], after=0)["version"] == moved["version"]
    api.move(game["id"], game["seats"][1]["token"], take())
    assert api.log(game["id"])[0]["header"]["id"] == game["id"] and api.audit(game["id"])["ok"]
    assert api._call("GET", f"/v1/games/{game['id']}").json()["status"] == "finished"
    with pytest.raises(HttpProblem) as problem:
        api._call("GET", "/v1/games/missing")
    assert problem.value.status == 404 and isinstance(problem.value, NotFound)


def test_the_client_imports_nothing_of_the_server() -> None:
    import subprocess
    import sys
    probe = ("import sys, referee.client; print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "{'flask', 'werkzeug', 'redis', 'rq', 'valkey', 'requests'} or (m.startswith('referee.') "
             "and not m.startswith('referee.client'))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
