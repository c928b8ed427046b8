"""A 5-player BANG! game played to the end over real HTTP with the seat
tokens, each seat seeing only its own hand (issue 3's done-when)."""
from __future__ import annotations

import json

import pytest

from referee.client import RefereeClient
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e


def test_e2e_five_player_bang_game_to_the_end_with_seat_tokens(live: Live) -> None:
    client: RefereeClient = live.client
    game = client.games.create("bang", players=5)
    tokens = game.tokens
    pick = Rng(b"e2e-bang")
    for _ in range(5000):
        spectator = client.games.view(game.id)
        if not spectator.active:
            break
        seat = spectator.to_act[pick.below(len(spectator.to_act))]
        mine = client.games.view(game.id, token=tokens[seat])
        others = [client.games.view(game.id, token=tokens[s]).state["hand"] for s in range(5) if s != seat]
        assert not set(mine.state["hand"]) & {c for hand in others for c in hand}
        assert mine.legal_moves, mine.pending
        client.games.move(game.id, pick.choice(list(playing_moves(mine.legal_moves))), token=tokens[seat],
                          expected_version=mine.version)
    final = client.games.view(game.id)
    assert final.status == "finished"
    assert final.result is not None and final.result.reason and final.result.winners
    log = client.games.log(game.id)
    last = log.events[-1]
    assert last.type == "seed_revealed" and last.data is not None and json.dumps(last.data["result"])
    assert client.games.audit(game.id).ok
