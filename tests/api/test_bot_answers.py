"""Issue 36 item 1: no bot answer can wedge a game.

Every move, a person's or a bot's, crosses one boundary: its published
schema, where an integral float (``1.0``) is the integer it stands for and a
boolean is never a number (``Ruleset.canonical_move``), then, for a bot,
legality by the canonical bytes of the move, not Python's ``==`` (where
``1 == 1.0 == True``). A registered bot's answer that fails it gets the
turn's default in the same job, recorded ``by: {bot, default: cause}``; a
turn asked ``bots.ATTEMPTS`` times without a move recorded gets its default
without asking again. Real webhook bots on loopback, a real Redis, real RQ
jobs."""
from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import workers.asking as asking
import workers.jobs as jobs
from referee import bots
from tests.api.helpers import auth, create, move, ndjson
from tests.webhook_bot import WebhookBot

#: seat 0 rolls two swords: it then robs seat 1 or 2 (``{"type": "steal", "target": 1}``)
ROBBER = {"turn": 0, "dice": ["sword", "sword"]}


def _register(client: Any, hook: WebhookBot) -> str:
    r = client.post("/v1/bots", json={"name": "hook", "url": hook.url, "rulesets": ["bluffaneer"],
                                         "seating": "public"})
    assert r.status_code == 201, r.get_json()
    hook.secret = r.get_json()["secret"]
    return str(r.get_json()["id"])


def _moves(client: Any, game_id: str) -> list[dict[str, Any]]:
    log = ndjson(client.get(f"/v1/games/{game_id}/log", headers=auth("admin-secret")).get_data(as_text=True))
    return [e for e in log[1:] if e["type"] == "move"]


def _audit(client: Any, game_id: str) -> Any:
    report = client.get(f"/v1/games/{game_id}/audit", headers=auth("admin-secret")).get_json()
    assert "ok" in report, report
    return report


def _robbing(client: Any, service: Any, bot_id: str) -> Any:
    """A game where the bot (seat 0) has rolled two swords and now robs: its steal turn awaited."""
    game = create(client, seats=[{"bot": bot_id}, {}, {}], setup=ROBBER)
    loaded = service.load(game["id"])
    assert jobs.play_bot_turn(game["id"], 0, loaded.version, service) == "played"
    loaded = service.load(game["id"])
    assert {"type": "steal", "target": 1} in loaded.ruleset.legal_moves(loaded.state, 0)
    return loaded


def _answer_on_steal(answer: bytes) -> Any:
    """A bot script: roll when it may, else send ``answer`` as it is."""
    def script(payload: dict[str, Any]) -> bytes:
        return b'{"move": {"type": "roll"}}' if {"type": "roll"} in payload["legal_moves"] else answer
    return script


# -- a person's move: one number rule ---------------------------------------------------

def test_a_persons_integral_float_is_the_integer_and_a_boolean_is_never_one(client: Any) -> None:
    # Regression: JSON Schema (and the README) take 1.0 for the integer 1, yet Bluffaneer's parser
    # refused it (400 malformed_move) where other rulesets took it: one rule now, at one boundary
    game = create(client, players=3, setup=ROBBER)
    token = game["seats"][0]["token"]
    assert move(client, game, 0, {"type": "roll"}).status_code == 201
    for wrong in (True, "1", 1.5, None, [1]):
        r = move(client, game, 0, {"type": "steal", "target": wrong})
        assert r.status_code == 400 and r.get_json()["code"] == "malformed_move", (wrong, r.get_json())
    r = client.post(f"/v1/games/{game['id']}/moves", data=b'{"move": {"type": "steal", "target": 1.0}}',
                    content_type="application/json", headers=auth(token))
    assert r.status_code == 201, r.get_json()
    steal = _moves(client, game["id"])[-1]["data"]["move"]
    assert steal == {"type": "steal", "target": 1} and type(steal["target"]) is int  # recorded canonical


# -- a bot's answer: the same boundary, then legality by canonical bytes -----------------

@pytest.mark.parametrize("answer,expected", [
    (b'{"move": {"type": "steal", "target": 1.0}}', ({"type": "steal", "target": 1}, None)),
    (b'{"move": {"type": "steal", "target": 1}}', ({"type": "steal", "target": 1}, None)),
    (b'{"move": {"type": "steal", "target": true}}', (None, "invalid_answer")),
    (b'{"move": {"type": "steal", "target": 1.5}}', (None, "invalid_answer")),
    (b'{"move": {"type": "steal", "target": "1"}}', (None, "invalid_answer")),
    (b'{"move": {"type": "steal", "target": NaN}}', (None, "not_json")),
    (b'{"move": {"type": "steal", "target": 0}}', (None, "illegal_move")),  # robbing itself: well-formed, not legal
    (b'{"move": {"type": "steal", "target": 0.0}}', (None, "illegal_move")),
    (b'{"move": {"type": "steal", "target": 1, "x": 1}}', (None, "invalid_answer")),
    (b'{"move": {"type": "steal\\ud800", "target": 1}}', (None, "not_json")),  # refused as a request body is
    (b'{"move": {"type": "steal", "target": 1.0e0}}', ({"type": "steal", "target": 1}, None)),
    (b'{"move": {"type": "steal", "target": 10e-1}}', ({"type": "steal", "target": 1}, None)),
    (b'{"move": {"type": "steal", "target": 18446744073709551617}}', (None, "illegal_move")),
])
def test_a_bots_answer_is_played_canonical_or_defaulted_in_the_same_job(
        loopback_app: Any, service: Any, work: Any, answer: bytes, expected: tuple[Any, str | None]) -> None:
    # Regression: 1.0 and true were taken as legal (1.0 == 1 == True), then refused inside the job:
    # no move recorded, the same turn offered again every 5-10 s, forever
    client = loopback_app.test_client()
    with WebhookBot() as hook:
        hook.script = _answer_on_steal(answer)
        bot_id = _register(client, hook)
        game = _robbing(client, service, bot_id)
        outcome = jobs.play_bot_turn(game.id, 0, game.version, service)
        played, cause = expected
        assert outcome == ("played" if cause is None else "defaulted")
        last = _moves(client, game.id)[-1]
        assert last["actor"] == 0
        if cause is None:
            assert last["data"]["by"] == {"bot": bot_id}
            assert last["data"]["move"] == played and type(last["data"]["move"]["target"]) is int
        else:
            assert last["data"]["by"] == {"bot": bot_id, "default": cause}


def test_a_default_played_for_a_bot_is_public_while_the_game_runs(loopback_app: Any, service: Any, work: Any) -> None:
    """Issue 42 item 4: a spectator (and any other seat) sees whose default a
    move is and why (``by``: the bot and the cause) while the game runs, as
    the seats are public; of the move itself only its type."""
    client = loopback_app.test_client()
    with WebhookBot() as hook:
        hook.script = _answer_on_steal(b'{"move": {"type": "steal", "target": true}}')
        bot_id = _register(client, hook)
        game = _robbing(client, service, bot_id)
        assert jobs.play_bot_turn(game.id, 0, game.version, service) == "defaulted"
    stored = _moves(client, game.id)[-1]
    assert stored["data"]["by"] == {"bot": bot_id, "default": "invalid_answer"}
    assert service.load(game.id).status == "active"
    events = client.get(f"/v1/games/{game.id}/events?after={stored['seq'] - 1}").get_json()["events"]
    shown = next(e for e in events if e["seq"] == stored["seq"])
    assert shown["redacted"] is True and "salt" not in shown
    assert shown["data"] == {"move": {"type": "steal"}, "by": {"bot": bot_id, "default": "invalid_answer"}}
    every = client.get(f"/v1/games/{game.id}/events").get_json()["events"]
    rolled = [e for e in every if e["type"] == "move" and e["actor"] == 0 and e["seq"] != stored["seq"]]
    assert rolled and all(e["data"] == {"move": {"type": "roll"}} for e in rolled)  # its own move: the type alone


@pytest.mark.parametrize("target,expected", [(b"1.0", ({"type": "steal", "target": 1}, None)),
                                             (b"true", (None, "invalid_answer"))])
def test_an_outbound_bots_answer_crosses_the_same_boundary(
        loopback_app: Any, service: Any, target: bytes, expected: tuple[Any, str | None]) -> None:
    """An outbound bot answers at ``POST /v1/bots/{id}/turns/{delivery}``: its
    ``1.0`` is played as 1, its ``true`` is the default, as a webhook's."""
    client = loopback_app.test_client()
    bot = client.post("/v1/bots", json={"name": "out", "rulesets": ["bluffaneer"],
                                         "seating": "public"}).get_json()
    game = create(client, seats=[{"bot": bot["id"]}, {}, {}], setup=ROBBER)
    done = threading.Event()

    def answer() -> None:  # the bot's side: each turn read from its stream, answered over HTTP
        after, answering = "0", loopback_app.test_client()
        while not done.is_set():
            after, turns = service.bots.turns_after(bot["id"], after, 100)
            for _, delivery, turn in turns:
                legal = json.loads(json.loads(turn)["body"])["legal_moves"]
                sent = b'{"type": "roll"}' if {"type": "roll"} in legal else b'{"type": "steal", "target": %s}' % target
                answering.post(f"/v1/bots/{bot['id']}/turns/{delivery}", data=b'{"move": %s}' % sent,
                               content_type="application/json", headers=auth(bot["secret"]))

    helper = threading.Thread(target=answer)
    helper.start()
    try:
        first = service.load(game["id"])
        assert jobs.play_bot_turn(first.id, 0, first.version, service) == "played"
        robbing = service.load(game["id"])
        outcome = jobs.play_bot_turn(robbing.id, 0, robbing.version, service)
    finally:
        done.set()
        helper.join()
    played, cause = expected
    last = _moves(client, game["id"])[-1]
    assert outcome == ("played" if cause is None else "defaulted")
    if cause is None:
        assert last["data"] == {**last["data"], "move": played, "by": {"bot": bot["id"]}}
    else:
        assert last["data"]["by"] == {"bot": bot["id"], "default": cause}


JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                         st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                         st.sampled_from(["\ud800", "steal", "roll", "resign", "claim"]))
JSON = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6) | st.sampled_from(["type", "target", "move"]), inner,
                                      max_size=3), max_leaves=8)
#: a field's value: one a seat number is near (``1.0``, ``true``: Python's ``1 == 1.0 == True``), or any JSON
FIELD = st.one_of(st.sampled_from([0, 1, 2, 3, -1, 0.0, 1.0, 2.0, 1.5, True, False, "1", None, [1], {"n": 1}]), JSON)
#: moves that look like the prompt's, their fields anything: where the boundary's edges are
MOVE_LIKE = st.one_of(
    st.fixed_dictionaries({"type": st.just("steal"), "target": FIELD}),
    st.fixed_dictionaries({"type": st.sampled_from(["steal", "roll", "resign", "claim", "Steal"])},
                          optional={"target": FIELD, "seat": FIELD}))
ANSWER = st.one_of(st.fixed_dictionaries({"move": MOVE_LIKE}), st.fixed_dictionaries({"move": JSON}), JSON)


def test_any_json_a_bot_sends_ends_within_one_job_in_its_move_or_the_default(
        loopback_app: Any, service: Any, work: Any) -> None:
    client = loopback_app.test_client()
    with WebhookBot() as hook:  # one bot for every example: its answer is the example's
        bot_id = _register(client, hook)

        @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(answer=ANSWER)
        @example(answer={"move": {"type": "steal", "target": True}})  # the holes, always tried
        @example(answer={"move": {"type": "steal", "target": 1.0}})
        @example(answer={"move": {"type": "steal", "target": 2.0}})
        def one_job(answer: Any) -> None:
            hook.script = _answer_on_steal(json.dumps(answer).encode())
            game = _robbing(client, service, bot_id)
            asked = len(hook.requests)
            outcome = jobs.play_bot_turn(game.id, 0, game.version, service)
            assert len(hook.requests) == asked + 1  # asked once
            assert service.load(game.id).version > game.version, outcome  # the turn is over: never offered again
            last = _moves(client, game.id)[-1]
            by = last["data"]["by"]
            if by == {"bot": bot_id}:
                assert outcome == "played" and last["data"]["move"] in game.ruleset.legal_moves(game.state, 0)
            else:
                assert outcome == "defaulted" and by["bot"] == bot_id and bots.is_default_cause(by["default"]), by

        one_job()


# -- any other failure: a bounded number of attempts, then the default --------------------

def test_a_turn_asked_attempts_times_without_a_move_gets_its_default_unasked(
        loopback_app: Any, service: Any, clock: Any, redis_client: Any, work: Any) -> None:
    """Each ask is counted per turn (game, version, seat), in Redis, whichever
    worker asks. Here every job asks and then dies before its move is
    recorded (modelled by asking, ``workers.asking.bot_move``, and recording nothing, as a
    worker killed after the call leaves it, its job lost); after
    ``bots.ATTEMPTS`` asks the sweeper's job plays the default unasked."""
    from rq import Queue

    from referee.service.scheduling import QUEUE
    client = loopback_app.test_client()
    with WebhookBot() as hook:
        hook.script = _answer_on_steal(b'{"move": {"type": "steal", "target": 2}}')
        bot_id = _register(client, hook)
        game = _robbing(client, service, bot_id)
        asked = len(hook.requests)
        for _ in range(bots.ATTEMPTS):
            assert asking.bot_move(service, game, 0, bot_id) == ({"type": "steal", "target": 2}, {"bot": bot_id})
            Queue(QUEUE, connection=redis_client).empty()  # the worker died: its job is lost
        assert len(hook.requests) == asked + bots.ATTEMPTS
        clock.advance(20_000)
        assert jobs.sweep(service, stall_ms=10_000) == 1  # the turn is overdue: revived
        work()
        assert len(hook.requests) == asked + bots.ATTEMPTS  # not asked again
        last = _moves(client, game.id)[-1]
        assert last["actor"] == 0 and last["data"]["by"] == {"bot": bot_id, "default": "attempts_spent"}
        # the count is the turn's: the bot's next turn is asked afresh
        nxt = service.load(game.id)
        if nxt.status == "active" and 0 in nxt.ruleset.to_act(nxt.state):
            assert asking.bot_move(service, nxt, 0, bot_id)[1].get("default") != "attempts_spent"


# -- the case: a float-answering bot in a tournament -------------------------------

def test_a_tournament_with_a_bot_answering_integers_as_floats_finishes_and_audits(
        loopback_app: Any, work: Any) -> None:
    client = loopback_app.test_client()
    with WebhookBot("floats") as hook:
        bot_id = _register(client, hook)
        # seeded: the same three games every run (the bot answers the last playing move, the random bots draw
        # from the tournament's seed), games in which the bot robs, its target sent as a float
        r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 3, "parallel": 3,
                                                 "entrants": [bot_id, "random", "random"], "seed": "floats-rob"})
        assert r.status_code == 201, r.get_json()
        work(max_rounds=2000)
        t = client.get(f"/v1/tournaments/{r.get_json()['id']}").get_json()
        assert t["status"] == "finished" and t["games_finished"] == 3, t
        stolen = 0
        for g in t["games"]:
            assert _audit(client, g["id"])["ok"]
            hooked = [m for m in _moves(client, g["id"]) if m["data"].get("by", {}).get("bot") == bot_id]
            assert hooked and all(m["data"]["by"] == {"bot": bot_id} for m in hooked)  # every answer played
            stolen += sum(1 for m in hooked if "target" in m["data"]["move"])
        assert stolen  # among them, moves it sent with a float, recorded as integers
