"""Issue 40 item 4 against real processes (``referee serve``, ``referee
worker``, Redis): a table of built-in bots of each ruleset plays to its end,
its creator asks a rematch — the next game seats the same bots, every seat
rotated one place, plays to its end on the worker and audits clean — and
asking again gives the same game."""
from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e

#: generous: `make test` runs servers on every core at once
PATIENCE_S = 300
TABLES = [("bang", 4), ("bang-faceoff", 2), ("bang-dice", 4), ("bluffaneer", 3)]


def _finished(live: Live, game_id: str) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while live.client.games.view(game_id).status == "active":
        assert time.monotonic() < deadline, f"game {game_id} did not end"
        time.sleep(0.2)


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_a_rematch_of_each_ruleset_rotates_the_seats_and_audits(live: Live, ruleset: str, players: int) -> None:
    seats = [{"name": f"bot {i}", "bot": "random"} for i in range(players)]
    game = live.client.games.create(ruleset, seats=seats)
    assert game.owner_token is not None
    _finished(live, game.id)
    following = live.client.games.rematch(game.id, token=game.owner_token)
    assert following.rematch_of == game.id and following.token is None
    assert following.from_seats == tuple((seat + 1) % players for seat in range(players))
    assert [s.name for s in following.seats] == [f"bot {(seat + 1) % players}" for seat in range(players)]
    assert all(s.bot == "random" for s in following.seats)
    assert live.client.games.rematch(game.id, token=game.owner_token).id == following.id
    assert live.client.games.view(game.id).next_game == following.id
    _finished(live, following.id)
    report = live.client.games.audit(following.id)
    assert report.ok, report.raw
    header = live.client.games.log(following.id).header
    assert header["rematch"] == {"of": game.id, "seats_from": list(following.from_seats)}
