"""Issue 20: BANG! and Face Off encode their views themselves
(``public_bytes``, ``seat_encoded``: ``referee/games/bang/encoded.py``,
``referee/games/faceoff/encoded.py``), splicing parts kept from the state
encoded last. Each hook gives exactly the bytes the generic path encodes
from ``public_view`` and ``seat_part``; and whatever order the states come
in (two games interleaved, a state met again after others, caches and
memos dropped, one memo handed two games' states) and whatever the engine
asks (a game no longer active: no seat's moves),
each reader's bytes are the standard encoding of its own view (R83, FO57:
a seat's own hand, role, bid or look in its own view alone)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from referee.engine import encoded_views
from referee.engine.jsonenc import dumps
from referee.engine.statecache import Memo
from referee.games import registry
from referee.games.sim import Table
from tests.encoded import expected as _expected
from tests.encoded import step as _step

CASES = [("bang", 4), ("bang", 7), ("bang-faceoff", 2)]


def _inner(encoded: bytes) -> bytes:
    return encoded[1:-1]


@pytest.mark.parametrize("name,players", CASES)
def test_hooks_give_the_generic_bytes_at_every_step(name: str, players: int) -> None:
    rs = registry.get(name)
    hooks: Any = rs  # public_bytes and seat_encoded are optional encoder hooks, no part of the Ruleset protocol
    pick = random.Random(f"hooks-{name}-{players}")
    for game in range(2):
        table = Table(rs, players, seed=f"hooks-{name}-{players}-{game}")
        while True:
            state, memo = table.state, table.memo
            public = rs.public_view(state)
            assert hooks.public_bytes(state, memo) == (_inner(dumps(public)) if public else b"")
            awaited = rs.to_act(state) if rs.result(state) is None else set()
            for seat in [None, *range(players)]:
                own = dict(rs.seat_part(state, seat))
                pending = own.pop("pending", None)
                mine = seat is not None and seat in awaited
                moves = dumps(rs.legal_moves(state, seat)) if mine else b"[]"
                assert hooks.seat_encoded(state, seat, mine, memo) == (moves, dumps(pending), _inner(dumps(own))), \
                    (name, len(table.events), seat)
                # asked as a game no longer active: the same parts, no moves
                assert hooks.seat_encoded(state, seat, False, memo) == (b"[]", dumps(pending), _inner(dumps(own)))
                # a fresh memo: the same parts
                assert hooks.seat_encoded(state, seat, mine, Memo()) == (moves, dumps(pending), _inner(dumps(own)))
            if not _step(rs, table, pick):
                break


@pytest.mark.parametrize("name,players", CASES)
def test_interleaved_games_and_revisited_states_encode_each_seat_its_own_view(name: str, players: int) -> None:
    rs = registry.get(name)
    pick = random.Random(f"{name}-{players}")
    tables = [Table(rs, players, seed=f"reuse-{name}-{players}-{i}") for i in range(2)]
    seen: list[tuple[int, object, int]] = []
    running = [True, True]
    views = encoded_views.ViewCache()
    memos = [table.memo for table in tables]  # each game's, as the service keeps them
    shared = Memo()  # one memo handed both games' states (a misuse): only the speed may change
    while any(running):
        for i, table in enumerate(tables):
            running[i] = running[i] and _step(rs, table, pick)
            seen.append((i, table.state, len(table.events)))
        if pick.random() < 0.05:  # caches and memos dropped: only the speed may change
            views.clear()
            memos = [Memo(), Memo()]
        # the latest states of both games, and one met before, each read by every seat in a random order
        for i, state, version in [*seen[-2:], seen[pick.randrange(len(seen))]]:
            over = rs.result(state) is not None
            active = not over and pick.random() < 0.8  # sometimes a cancelled game: nobody's moves
            envelope = {"id": f"g{i}", "version": version, "status": "active" if active else "cancelled"}
            readers = [None, *range(players)]
            pick.shuffle(readers)
            memo = pick.choice((memos[i], memos[i], memos[i], shared, None))
            for seat in readers:
                sent = encoded_views.encoded_view(rs, state, seat, active=active, envelope=envelope,
                                                  key=(name, players, i, version, active), cache=views, memo=memo)
                assert sent == _expected(rs, state, seat, active, envelope), (name, i, version, seat, active)
