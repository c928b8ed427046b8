"""A 5-player BANG! game played to the end over real HTTP with the seat
tokens, each seat seeing only its own hand (issue 3's done-when)."""
from __future__ import annotations

import json

import pytest

from referee.client import RefereeClient
from referee.engine.rng import Rng
from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e


def test_e2e_five_player_bang_game_to_the_end_with_seat_tokens(live: Live) -> None:
    client: RefereeClient = live.client
    game = client.create_game("bang", players=5)
    tokens = [s["token"] for s in game["seats"]]
    pick = Rng(b"e2e-bang")
    for _ in range(5000):
        spectator = client.view(game["id"])
        if spectator["status"] != "active":
            break
        seat = spectator["to_act"][pick.below(len(spectator["to_act"]))]
        mine = client.view(game["id"], tokens[seat])
        others = [client.view(game["id"], tokens[s])["state"]["hand"] for s in range(5) if s != seat]
        assert not set(mine["state"]["hand"]) & {c for hand in others for c in hand}
        assert mine["legal_moves"], mine["pending"]
        client.move(game["id"], tokens[seat], pick.choice(mine["legal_moves"]),
                    expected_version=mine["version"])
    final = client.view(game["id"])
    assert final["status"] == "finished"
    assert final["result"]["reason"] and final["result"]["winners"]
    log = client.log(game["id"])
    assert log[-1]["type"] == "seed_revealed" and json.dumps(log[-1]["data"]["result"])
    assert client.audit(game["id"])["ok"]
