"""Helpers for API tests: create games, act as seats, play to the end."""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask.testing import FlaskClient

from referee.engine import timing
from referee.engine.platform import CHAT_EVENTS

#: a command's name in what redis-py sends (RESP: ``*<n>\r\n$<len>\r\n<NAME>\r\n``)
_COMMAND = re.compile(rb"(?:^|\r\n)\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n")


def redis_sent(monkeypatch: Any, call: Callable[[], Any]) -> list[list[bytes]]:
    """What ``call`` sends to Redis: one list of command names per round
    trip (a command, or a pipeline of several), counted at the connection."""
    from redis.connection import Connection
    sent: list[list[bytes]] = []
    original = Connection.send_packed_command

    def counting(self: Any, command: Any, check_health: bool = True) -> None:
        packed = b"".join(command) if isinstance(command, list) else command
        sent.append(_COMMAND.findall(packed))
        original(self, command, check_health)
    monkeypatch.setattr(Connection, "send_packed_command", counting)
    try:
        call()
    finally:
        monkeypatch.setattr(Connection, "send_packed_command", original)
    return sent


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, ruleset: str = "bluffaneer", players: int = 4, **body: Any) -> dict[str, Any]:
    sizing = {} if "seats" in body else {"players": players}
    response = client.post("/v1/games", json={"ruleset": ruleset, **sizing, **body})
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def view(client: FlaskClient, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
    response = client.get(f"/v1/games/{game['id']}", headers=headers)
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def move(client: FlaskClient, game: dict[str, Any], seat: int, mv: dict[str, Any], **extra: Any) -> Any:
    headers = auth(game["seats"][seat]["token"])
    headers.update(extra.pop("headers", {}))
    return client.post(f"/v1/games/{game['id']}/moves", json={"move": mv, **extra}, headers=headers)


def play_to_end(client: FlaskClient, game: dict[str, Any], clock: Any, service: Any,
                pick: Any = None, on_step: Any = None, max_steps: int = 5000) -> dict[str, Any]:
    """Play with each awaited seat's first legal move (or ``pick``); when nobody
    is awaited, move the clock past the deadline and fire the timeout job."""
    from workers.jobs import fire_timeout
    players = len(game["seats"])
    for step in range(max_steps):
        spectator = view(client, game)
        if spectator["status"] != "active":
            return spectator
        if spectator["to_act"]:
            seat = spectator["to_act"][step % len(spectator["to_act"])]
            mine = view(client, game, seat)
            moves = mine["legal_moves"]
            assert moves, f"seat {seat} is awaited but has no legal move"
            chosen = pick(seat, moves, step) if pick else moves[0]
            response = move(client, game, seat, chosen)
            assert response.status_code == 201, response.get_json()
        else:
            deadline = spectator["deadline"]
            assert deadline is not None, "nobody to act and no deadline: the game is stuck"
            clock.now = max(clock.now, deadline)
            assert fire_timeout(game["id"], service) == "fired"
        clock.advance(1)
        if on_step:
            on_step(step)
    raise AssertionError(f"{players}-player game did not end in {max_steps} steps")


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


#: three random bots, two of them named: a Bluffaneer game they play to its end in one burst of the worker
BOTS = [{"bot": "random", "name": "ann"}, {"bot": "random", "name": "bob"}, {"bot": "random"}]


def played(client: FlaskClient, work: Any, n: int = 1) -> list[dict[str, Any]]:
    """``n`` games of ``BOTS``, played to their end by ``work`` (a burst of the worker)."""
    games = [create(client, seats=BOTS) for _ in range(n)]
    work()
    assert all(view(client, g)["status"] == "finished" for g in games)
    return games


def health_by_hand(envelopes: Iterable[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Each seat's health as the log says it, counted here move by move (the
    oracle ``Timing.health`` and ``seat_health`` are held to): its own moves
    and a histogram of their times (the clock's charge, else since the last
    event that is no chat), its timeouts and its invalid answers."""
    out: list[dict[str, Any]] = [{"moves": 0, "timeouts": 0, "invalid": 0, "hist": {}} for _ in range(players)]
    began: int | None = None
    for env in envelopes:
        if env.get("type") in CHAT_EVENTS:
            continue
        timed = timing.timed_move(env, began, players)
        if timed is not None:
            seat, data, used = timed
            cell, found = out[seat], timing.kind(data)
            if found == "move":
                cell["moves"] += 1
                key = str(timing.bucket(used))
                cell["hist"][key] = cell["hist"].get(key, 0) + 1
            elif found in ("timeout", "invalid"):
                cell[found + "s" if found == "timeout" else found] += 1
        began = env["at"] if type(env.get("at")) is int else began
    return out
