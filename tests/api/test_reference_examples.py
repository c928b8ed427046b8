"""Issue 39 item 3: the API reference's "Try it out" fills each request body
with its ``example`` in ``openapi.yaml``, so a reader who presses *Execute*
without editing sends it. Each example is a body the referee accepts: sent
for real (a game, a move of its seat 0, a chat line, a seat claimed, a bot
registered and put in the pool, a tournament), and the one that needs a
delivery first (a bot's answer to a turn) checked against its schema."""
from __future__ import annotations

from typing import Any

import jsonschema

from tests import contract

CONTRACT = contract.spec()  # read, never changed
BODIES = {op["operationId"]: op["requestBody"]["content"]["application/json"]
          for item in CONTRACT["paths"].values() for op in item.values()
          if isinstance(op, dict) and "requestBody" in op}


def _example(operation: str) -> Any:
    return BODIES[operation]["example"]


def test_every_request_body_has_an_example_its_schema_accepts() -> None:
    assert set(BODIES) >= {"createGame", "submitMove", "createTournament"}
    for operation, body in BODIES.items():
        assert "example" in body, f"{operation}: no example, Try it out would send a made-up body"
        schema = {**body["schema"], "components": CONTRACT["components"]}
        jsonschema.Draft202012Validator(schema).validate(body["example"])


def test_the_examples_sent_as_they_are_are_accepted(client: Any) -> None:
    made = client.post("/v1/games", json=_example("createGame"))
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    seat0 = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    moved = client.post(f"/v1/games/{game['id']}/moves", json=_example("submitMove"), headers=seat0)
    assert moved.status_code == 201, moved.get_json()
    said = client.post(f"/v1/games/{game['id']}/chat", json=_example("postChat"), headers=seat0)
    assert said.status_code == 201, said.get_json()
    open_game = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"open": True}, {}, {}]})
    assert open_game.status_code == 201, open_game.get_json()
    claimed = client.post(f"/v1/games/{open_game.get_json()['id']}/seats/0/claim", json=_example("claimSeat"))
    assert claimed.status_code in (200, 201), claimed.get_json()
    bot = client.post("/v1/bots", json=_example("registerBot"))
    assert bot.status_code == 201, bot.get_json()
    pooled = client.put(f"/v1/ladder/bluffaneer/pool/{bot.get_json()['id']}", json=_example("putInPool"),
                        headers={"Authorization": f"Bearer {bot.get_json()['secret']}"})
    assert pooled.status_code in (200, 201), pooled.get_json()
    tournament = client.post("/v1/tournaments", json=_example("createTournament"))
    assert tournament.status_code == 201, tournament.get_json()
