"""The same request gives the same bytes whichever process answers it: the
process that created the game and made its moves (which holds the header and
state it built in memory) and another one that read them back from Redis.
A view whose bytes changed with the process that served it made the table
page draw an unchanged view again, and a click landing on the redraw was
lost (a seat's keys came in the header's order in one process, sorted in the
other)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api.helpers import auth, create
from tests.conftest import contract_app
from workers.jobs import fire_timeout

#: moves played at most (reads compared every fifth)
STEPS = 60
GAMES = [("bang", 4), ("bang-faceoff", 2), ("bang-dice", 4), ("bluffaneer", 4)]


def other_process(redis_client: Any, clock: Any) -> Any:
    """A second app over the same Redis and clock, with its own game cache."""
    return contract_app(redis_client, clock).test_client()


def reads(game: dict[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    """What each reader of the game asks: the public view, the listing, the replay, each
    seat's view (its legal moves in it) and events: (what, path, headers)."""
    out: list[tuple[str, str, dict[str, str]]] = [
        ("public view", f"/v1/games/{game['id']}", {}), ("listing", "/v1/games", {}),
        ("replay", f"/v1/games/{game['id']}/replay", {})]
    for seat in game["seats"]:
        headers = auth(seat["token"])
        out.append((f"seat {seat['seat']}'s view", f"/v1/games/{game['id']}", headers))
        out.append((f"seat {seat['seat']}'s events", f"/v1/games/{game['id']}/events", headers))
    return out


def same(client: Any, other: Any, game: dict[str, Any], when: str) -> None:
    """Each read asked of both processes, one right after the other."""
    for what, path, headers in reads(game):
        mine, theirs = client.get(path, headers=headers).data, other.get(path, headers=headers).data
        assert mine == theirs, f"{when}, {what}:\n{mine!r}\n{theirs!r}"


def played_one(client: Any, game: dict[str, Any], clock: Any, service: Any, rng: random.Random) -> bool:
    """One move of an awaited seat, at random (resigning aside), or the
    deadline run out when nobody is awaited; False once the game is over."""
    public = client.get(f"/v1/games/{game['id']}").get_json()
    if public["status"] != "active":
        return False
    if public["to_act"]:
        seat = rng.choice(public["to_act"])
        token = game["seats"][seat]["token"]
        moves = [m for m in client.get(f"/v1/games/{game['id']}", headers=auth(token)).get_json()["legal_moves"]
                 if m["type"] != "resign"]
        response = client.post(f"/v1/games/{game['id']}/moves", json={"move": rng.choice(moves)},
                               headers=auth(token))
        assert response.status_code == 201, response.get_json()
    else:
        clock.now = max(clock.now, public["deadline"])
        assert fire_timeout(game["id"], service) == "fired"
    clock.advance(1)
    return True


@pytest.mark.parametrize("ruleset,players", GAMES, ids=[name for name, _ in GAMES])
def test_every_read_of_a_game_is_the_same_bytes_from_the_process_that_made_it_and_from_another(
        client: Any, service: Any, redis_client: Any, clock: Any, ruleset: str, players: int) -> None:
    game = create(client, ruleset, players, seed="same-bytes")
    other = other_process(redis_client, clock)
    rng = random.Random(ruleset)

    for step in range(STEPS):
        if step % 5 == 0:
            same(client, other, game, f"step {step}")
        if not played_one(client, game, clock, service, rng):
            break
    same(client, other_process(redis_client, clock), game, "the end, a process new to the game")


def test_a_game_waiting_for_an_open_seat_beside_a_bot_reads_the_same_from_either_process(
        client: Any, redis_client: Any, clock: Any) -> None:
    game = create(client, "bluffaneer", seats=[{"name": "ann"}, {"open": True}, {"name": "rob", "bot": "random"}])
    same(client, other_process(redis_client, clock), game, "waiting")


def test_a_tournament_a_bot_and_the_ladder_read_the_same_from_either_process(
        client: Any, work: Any, redis_client: Any, clock: Any) -> None:
    bot = client.post("/v1/bots", json={"name": "out", "rulesets": ["bluffaneer"], "seating": "public"})
    assert bot.status_code == 201, bot.get_json()
    made = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "parallel": 2,
                                                "entrants": ["heuristic", "random", "random"]})
    assert made.status_code == 201, made.get_json()
    tournament, owner = made.get_json()["id"], auth(bot.get_json()["secret"])
    reads = [("the tournament", f"/v1/tournaments/{tournament}", {}), ("tournaments", "/v1/tournaments", {}),
             ("the bot", f"/v1/bots/{bot.get_json()['id']}", owner), ("the ladders", "/v1/ladder", {}),
             ("the games", "/v1/games?source=tournament", {})]
    for when in ("created", "played"):
        if when == "played":
            work(max_rounds=5000)
        other = other_process(redis_client, clock)
        for what, path, headers in reads:
            mine, theirs = client.get(path, headers=headers), other.get(path, headers=headers)
            assert mine.status_code == 200, (path, mine.get_json())
            assert mine.data == theirs.data, f"{when}, {what}:\n{mine.data!r}\n{theirs.data!r}"
