"""Outbound bots over real HTTP (issue 23, item 2): a bot registered without a
URL connects to the referee for its turns (``referee play --bot FILE:FUNC``)
and plays tournaments from behind NAT exactly like a webhook bot — the same
deadline, the same default when it is late, the same signature; and the same
function served as a webhook (``referee webhook-bot --bot``)."""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.bots import webhook
from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE
from tests.e2e.test_http_bots import Stack, _listening, _wait

pytestmark = pytest.mark.e2e

BOT = '''\
"""A bot in a few lines: the last legal move."""


def choose(view, legal_moves):
    return legal_moves[-1]
'''


@pytest.fixture
def stack() -> Iterator[Stack]:
    s = Stack()
    s.env["REFEREE_BOT_TIMEOUT_S"] = "3"  # a late outbound bot's default comes quickly
    try:
        s.worker()
        s.worker()
        yield s
    finally:
        s.stop()


def _bot_file(tmp_path: Path) -> str:
    path = tmp_path / "mybot.py"
    path.write_text(BOT)
    return f"{path}:choose"


def _register(stack: Stack, **body: Any) -> dict[str, Any]:
    made = httpx.post(f"{stack.url}/v1/bots", json={"name": "mine", "rulesets": ["bluffaneer"], **body})
    assert made.status_code == 201, made.text
    return dict(made.json())


def _tournament_done(stack: Stack, body: dict[str, Any]) -> dict[str, Any]:
    t = httpx.post(f"{stack.url}/v1/tournaments", json=body).json()
    url = f"{stack.url}/v1/tournaments/{t['id']}"
    _wait(lambda: httpx.get(url).json()["status"] == "finished", 180, "the tournament to finish")
    return dict(httpx.get(url).json())


def _where(stack: Stack) -> str:
    """The tournaments' and their games' state, for a failure's message."""
    lines = []
    for t in httpx.get(f"{stack.url}/v1/tournaments").json().get("tournaments", []):
        full = httpx.get(f"{stack.url}/v1/tournaments/{t['id']}").json()
        lines.append(json.dumps({k: v for k, v in full.items() if k != "standings"})[:3000])
        for game in full.get("games", []):
            g = httpx.get(f"{stack.url}/v1/games/{game['id']}").json()
            lines.append(json.dumps({k: g.get(k) for k in ("id", "status", "version", "to_act", "seats")})[:1000])
    return "\n".join(lines)


def _moves_of(stack: Stack, game_id: str, bot_id: str) -> list[dict[str, Any]]:
    log = [json.loads(line) for line in httpx.get(f"{stack.url}/v1/games/{game_id}/log").text.splitlines()]
    return [e for e in log[1:] if e["type"] == "move" and e["data"].get("by", {}).get("bot") == bot_id]


def test_e2e_an_outbound_bot_plays_a_tournament_with_no_url_through_referee_play(stack: Stack,
                                                                                   tmp_path: Path) -> None:
    bot = _register(stack)
    assert bot["kind"] == "outbound" and bot["url"] is None
    play = subprocess.Popen([REFEREE, "play", "--bot", _bot_file(tmp_path), "--url", stack.url,
                             "--bot-id", bot["id"], "--secret", bot["secret"]],
                            env=stack.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        done = _tournament_done(stack, {"ruleset": "bluffaneer", "games": 6, "parallel": 3,
                                        "entrants": [{"bot": bot["id"], "bot_secret": bot["secret"]},
                                                     "heuristic", "random"]})
    except AssertionError as timed_out:  # what the bot and the referee were doing, to say why
        play.terminate()
        out, err = play.communicate(timeout=20)
        raise AssertionError(f"{timed_out}\n{_where(stack)}\nreferee play said:\n{out[-4000:]}\n{err[-4000:]}"
                             ) from None
    finally:
        if play.poll() is None:
            play.terminate()
            out, err = play.communicate(timeout=20)
    assert done["games_finished"] == 6, (out, err)
    assert {row["name"]: row["games"] for row in done["standings"]} == {"mine": 6, "heuristic": 6, "random": 6}
    for game in done["games"]:
        assert httpx.get(f"{stack.url}/v1/games/{game['id']}/audit").json()["ok"]
        moves = _moves_of(stack, game["id"], bot["id"])
        assert moves and all(m["data"]["by"] == {"bot": bot["id"]} for m in moves), "a turn fell to the default"
    assert f"answers {bot['id']}'s turns" in out, out


def test_e2e_an_outbound_bot_that_does_not_answer_gets_the_default_and_a_late_answer_is_refused(
        stack: Stack) -> None:
    bot = _register(stack)
    auth = {"Authorization": f"Bearer {bot['secret']}"}
    game = httpx.post(f"{stack.url}/v1/games", json={"ruleset": "bluffaneer", "seats": [
        {"bot": bot["id"], "bot_secret": bot["secret"]}, {"bot": "random"}, {"bot": "random"}],
        "setup": {"turn": 0}}).json()
    turns: list[dict[str, Any]] = []
    with httpx.Client(timeout=httpx.Timeout(10, read=30)) as client:
        with client.stream("GET", f"{stack.url}/v1/bots/{bot['id']}/turns", headers=auth) as stream:
            assert stream.status_code == 200
            data = ""
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    data = line[6:]
                elif line == "" and data:
                    turns.append(json.loads(data))
                    break
    offer = turns[0]
    assert webhook.verify(bot["secret"], str(offer["timestamp"]), offer["body"].encode(), offer["signature"])
    turn = json.loads(offer["body"])
    assert turn["game"] == game["id"] and turn["seat"] == 0 and turn["legal_moves"]
    # nobody answers: past the deadline (3 s here) the worker plays the default, as for a webhook bot
    _wait(lambda: len(_moves_of_active(stack, game["id"])) >= 1, 60, "the default to be played")
    first = _moves_of_active(stack, game["id"])[0]
    assert first["data"]["by"] == {"bot": bot["id"], "default": "timeout"}
    late = httpx.post(f"{stack.url}/v1/bots/{bot['id']}/turns/{offer['delivery']}",
                      json={"move": turn["legal_moves"][0]}, headers=auth)
    assert late.status_code == 409 and late.json()["code"] == "turn_closed"
    # the owner only, before anything is read
    assert httpx.get(f"{stack.url}/v1/bots/{bot['id']}/turns").status_code == 401
    assert httpx.get(f"{stack.url}/v1/bots/{bot['id']}/turns", headers={"Authorization": "Bearer no"}
                     ).status_code == 401


def _moves_of_active(stack: Stack, game_id: str) -> list[dict[str, Any]]:
    """Seat 0's moves, from the admin's log (the game may still be running)."""
    log = httpx.get(f"{stack.url}/v1/games/{game_id}/log", headers={"Authorization": "Bearer e2e-admin"})
    return [e for e in (json.loads(line) for line in log.text.splitlines())
            if e.get("type") == "move" and e.get("actor") == 0]


def test_e2e_the_same_function_served_as_a_webhook_bot(stack: Stack, tmp_path: Path) -> None:
    port = free_port()
    hook = _register(stack, url=f"http://127.0.0.1:{port}/", seating="public")
    assert hook["kind"] == "webhook"
    server = subprocess.Popen([REFEREE, "webhook-bot", "--port", str(port), "--secret", hook["secret"],
                               "--bot", _bot_file(tmp_path)], env=stack.env)
    _wait(lambda: _listening(port), 15, "the webhook bot to listen")
    try:
        done = _tournament_done(stack, {"ruleset": "bluffaneer", "games": 3, "entrants": [hook["id"], "random",
                                                                                            "random"]})
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert done["games_finished"] == 3
    for game in done["games"]:
        moves = _moves_of(stack, game["id"], hook["id"])
        assert moves and all(m["data"]["by"] == {"bot": hook["id"]} for m in moves)


def test_referee_play_names_a_bot_it_cannot_load_in_one_line(tmp_path: Path) -> None:
    for spec, why in ((f"{tmp_path}/absent.py:choose", "no such file"), ("mybot", "name a bot as"),
                      (_bot_file(tmp_path).replace(":choose", ":nothing"), "has no function 'nothing'")):
        done = subprocess.run([REFEREE, "play", "--bot", spec, "--bot-id", "b", "--secret", "s"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr, done.stderr
