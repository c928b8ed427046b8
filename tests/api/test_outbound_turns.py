"""An outbound bot's turns (issue 23, item 2), against a real Redis: a turn
is answered once while it is open and never after; the route is the owner's
alone, before anything is read; a webhook bot has no turn stream; and the
worker's wait hands over the answer or, past the deadline, nothing."""
from __future__ import annotations

import threading
from typing import Any

from referee.bots.webhook import BotFailure, CallLimits
from referee.store.bots import BotDirectory
from tests.api.helpers import auth
from workers.asking import ask_outbound


def test_an_answer_is_taken_once_while_its_turn_is_open(redis_client: Any) -> None:
    bots = BotDirectory(redis_client)
    assert not bots.answer_turn("bot_x", "g:1:0", b"{}")  # never offered
    bots.offer_turn("bot_x", "g:1:0", b'{"t": 1}')
    last, turns = bots.turns_after("bot_x", "0", 0)
    assert [(d, t) for _, d, t in turns] == [("g:1:0", b'{"t": 1}')] and last == turns[0][0]
    assert bots.answer_turn("bot_x", "g:1:0", b'{"type": "roll"}')
    assert not bots.answer_turn("bot_x", "g:1:0", b'{"type": "other"}')  # once
    assert bots.wait_answer("bot_x", "g:1:0", 1.0) == b'{"type": "roll"}'
    assert bots.turns_after("bot_x", "0", 0)[1] == []  # answered: not offered again on a reconnection


def test_past_its_deadline_a_turn_closes_and_a_late_answer_is_refused(redis_client: Any) -> None:
    bots = BotDirectory(redis_client)
    bots.offer_turn("bot_x", "g:2:0", b"{}")
    assert bots.wait_answer("bot_x", "g:2:0", 0.2, step_s=0.1) is None
    assert not bots.answer_turn("bot_x", "g:2:0", b'{"type": "roll"}')
    last, turns = bots.turns_after("bot_x", "0", 0)
    assert turns == [] and last != "0"  # read past, so a stream does not read it again and again


def test_a_turn_closed_is_never_opened_again_by_a_second_ask(redis_client: Any) -> None:
    """A job run twice (a sweeper that took a busy worker's turn for lost) asks
    the same turn again: once closed, it stays closed, so an answer after
    the default was played is refused (409 ``turn_closed``), never taken for a
    move that will not be played; the stream does not offer it again."""
    bots = BotDirectory(redis_client)
    assert bots.offer_turn("bot_y", "g:5:0", b"{}")
    assert bots.wait_answer("bot_y", "g:5:0", 0.2, step_s=0.1) is None  # its time ran out: the default is played
    assert not bots.offer_turn("bot_y", "g:5:0", b"{}")  # asked again
    assert not bots.answer_turn("bot_y", "g:5:0", b'{"type": "roll"}')
    assert bots.wait_answer("bot_y", "g:5:0", 0.2, step_s=0.1) is None  # the second ask gets nothing
    assert [d for _, d, _ in bots.turns_after("bot_y", "0", 0)[1]] == []
    assert bots.offer_turn("bot_y", "g:6:0", b"{}")  # answered: the same
    assert bots.answer_turn("bot_y", "g:6:0", b'{"type": "roll"}')
    assert bots.wait_answer("bot_y", "g:6:0", 1.0) == b'{"type": "roll"}'
    assert not bots.offer_turn("bot_y", "g:6:0", b"{}")
    assert not bots.answer_turn("bot_y", "g:6:0", b'{"type": "other"}')


def test_the_worker_asks_an_outbound_bot_and_takes_its_answer(service: Any) -> None:
    bot = service.bots.register("out", None, ["bluffaneer"], 0)
    payload = {"game": "g", "ruleset": "bluffaneer", "seat": 0, "version": 3, "view": {},
               "legal_moves": [{"type": "a"}]}

    def answer() -> None:
        for _ in range(200):
            _, turns = service.bots.turns_after(bot["id"], "0", 100)
            if turns and service.bots.answer_turn(bot["id"], turns[0][1], b'{"type": "a"}'):
                return

    helper = threading.Thread(target=answer)
    helper.start()
    move = ask_outbound(service, bot["id"], bot["secret"], payload, delivery="g:3:0", limits=CallLimits(30.0))
    helper.join()
    assert move == {"type": "a"}
    service.bots.offer_turn(bot["id"], "g:4:0", b"{}")
    try:
        ask_outbound(service, bot["id"], bot["secret"], payload, delivery="g:5:0", limits=CallLimits(0.2))
    except BotFailure as failure:
        assert failure.cause == "timeout"
    else:
        raise AssertionError("no answer must be a timeout")


def test_the_turn_routes_are_the_owner_s_and_a_webhook_bot_has_none(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    out = client.post("/v1/bots", json={"name": "o", "rulesets": ["bluffaneer"]}).get_json()
    hook = client.post("/v1/bots", json={"name": "h", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"]}
                       ).get_json()
    assert out["kind"] == "outbound" and out["url"] is None and hook["kind"] == "webhook"
    assert client.post("/v1/bots", json={"name": "n", "url": None, "rulesets": ["bluffaneer"]}).status_code == 201
    assert client.get(f"/v1/bots/{out['id']}/turns").status_code == 401
    assert client.get(f"/v1/bots/{out['id']}/turns", headers=auth(hook["secret"])).status_code == 401
    refused = client.get(f"/v1/bots/{hook['id']}/turns", headers=auth(hook["secret"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "not_outbound"
    bad = client.get(f"/v1/bots/{out['id']}/turns", headers={**auth(out["secret"]), "Last-Event-ID": "x"})
    assert bad.status_code == 400 and bad.get_json()["code"] == "invalid_last_event_id"
    closed = client.post(f"/v1/bots/{out['id']}/turns/g:1:0", json={"move": {"type": "roll"}},
                         headers=auth(out["secret"]))
    assert closed.status_code == 409 and closed.get_json()["code"] == "turn_closed"
    assert client.post(f"/v1/bots/{out['id']}/turns/g:1:0", json={"move": {"type": "roll"}}).status_code == 401
    assert client.post(f"/v1/bots/{out['id']}/turns/g:1:0", json={"nope": 1},
                       headers=auth(out["secret"])).status_code == 400
    service = loopback_app.extensions["referee.service"]
    service.bots.offer_turn(out["id"], "g:2:0", b"{}")
    taken = client.post(f"/v1/bots/{out['id']}/turns/g:2:0", json={"move": {"type": "roll"}},
                        headers=auth(out["secret"]))
    assert taken.status_code == 202 and taken.get_json() == {"delivery": "g:2:0", "accepted": True}
