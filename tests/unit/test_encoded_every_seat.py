"""Issue 20: a ruleset's ``every_seat`` builds each seat's whole view at once,
byte for byte what the engine encodes per reader, each for its own seat
alone, whatever version a reader asks for and in whatever order."""
from __future__ import annotations

import random
from typing import Any

import pytest

from referee.engine import encoded_views
from referee.games import registry
from referee.games.sim import Table
from tests.encoded import expected as _expected
from tests.encoded import step as _step

WITH_EVERY_SEAT = [name for name in registry.names() if getattr(registry.get(name), "every_seat", None) is not None]


@pytest.mark.parametrize("name", WITH_EVERY_SEAT)
def test_every_seat_is_each_seats_own_view(name: str) -> None:
    rs = registry.get(name)
    hooks: Any = rs  # every_seat is an optional encoder hook (RulesetBase.encoders), no part of the Ruleset protocol
    for players in sorted({rs.min_players, rs.max_players}):
        table = Table(rs, players, seed=f"every-{name}-{players}")
        pick = random.Random(players)
        version = 0
        while True:
            state = table.state
            for active in (True, False):
                if active and rs.result(state) is not None:
                    continue
                envelope = {"id": "g", "version": version, "status": "active" if active else "cancelled"}
                shared = encoded_views._shared_part(rs, state, active, envelope, False, table.memo)
                built = hooks.every_seat(state, shared.head, shared.to_act, table.memo)
                if built is None:
                    continue
                assert set(built) - {None} == set(range(players))  # the spectator's too, if the ruleset builds it
                for seat in built:
                    assert built[seat] == _expected(rs, state, seat, active, envelope), (name, version, seat)
            version += 1
            if not _step(rs, table, pick):
                break


@pytest.mark.parametrize("name", registry.names())
def test_readers_of_old_versions_get_their_own_views(name: str) -> None:
    rs = registry.get(name)
    players = rs.max_players
    table = Table(rs, players, seed=f"old-{name}")
    pick = random.Random(7)
    states: list[tuple[int, Any]] = []
    views = encoded_views.ViewCache()
    while len(states) < 24 and _step(rs, table, pick):
        states.append((len(table.events), table.state))
        version, state = states[-1]
        envelope = {"id": "g", "version": version, "status": "active"}
        for seat in [None, *range(players)]:
            assert encoded_views.encoded_view(rs, state, seat, active=True, envelope=envelope, key=("old", version),
                                              cache=views) \
                == _expected(rs, state, seat, True, envelope)
    # every version again, the oldest first (some no longer kept), readers in a random order
    for version, state in states:
        envelope = {"id": "g", "version": version, "status": "active"}
        readers = [None, *range(players)]
        pick.shuffle(readers)
        for seat in readers:
            sent = encoded_views.encoded_view(rs, state, seat, active=True, envelope=dict(envelope),
                                              key=("old", version), cache=views)
            assert sent == _expected(rs, state, seat, True, envelope), (name, version, seat)
