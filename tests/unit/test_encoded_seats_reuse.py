"""Issue 20: BANG! The Dice Game and Bluffaneer build every seat's encoded
view at once per state and keep the parts an event left alone from one
state to the next. Whatever order the states come in (two games
interleaved, a state met again after others) and whatever the engine asks
(a game no longer active: no seat's moves), each reader's bytes are the
standard encoding of its own view (D7, F31: a seat's own role or card in
its own view alone)."""
from __future__ import annotations

import random

import pytest

from referee.engine import encoded_views
from referee.games import registry
from referee.games.sim import Table
from tests.encoded import expected as _expected
from tests.encoded import step as _step


@pytest.mark.parametrize("name,players", [("bang-dice", 3), ("bang-dice", 8), ("bluffaneer", 3), ("bluffaneer", 6)])
def test_interleaved_games_and_revisited_states_encode_each_seat_its_own_view(name: str, players: int) -> None:
    rs = registry.get(name)
    pick = random.Random(f"{name}-{players}")
    tables = [Table(rs, players, seed=f"reuse-{name}-{players}-{i}") for i in range(2)]
    seen: list[tuple[int, object, int]] = []
    running = [True, True]
    views = encoded_views.ViewCache()
    while any(running):
        for i, table in enumerate(tables):
            running[i] = running[i] and _step(rs, table, pick)
            seen.append((i, table.state, len(table.events)))
        # the latest states of both games, and one met before, each read by every seat in a random order
        for i, state, version in [*seen[-2:], seen[pick.randrange(len(seen))]]:
            over = rs.result(state) is not None
            active = not over and pick.random() < 0.8  # sometimes a cancelled game: nobody's moves
            envelope = {"id": f"g{i}", "version": version, "status": "active" if active else "cancelled"}
            readers = [None, *range(players)]
            pick.shuffle(readers)
            for seat in readers:
                sent = encoded_views.encoded_view(rs, state, seat, active=active, envelope=envelope,
                                                  key=(name, players, i, version, active), cache=views)
                assert sent == _expected(rs, state, seat, active, envelope), (name, i, version, seat, active)
