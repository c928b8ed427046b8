"""The encoded views are the views, byte for byte (issues 10, 20): a
ruleset's ``seat_bytes`` gives exactly what the generic path encodes from
``seat_part``, and every reader's bytes are the standard encoding of its
view, whatever the order readers come in and whatever the caches hold."""
from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from referee.engine import encoded_views
from referee.engine.protocol import Move, Seat
from referee.engine.statecache import Memo
from referee.games import registry
from referee.games.sim import Table, playout
from tests.encoded import expected as _expected


class _Pick:
    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def below(self, n: int) -> int:
        return self._r.randrange(n)


@pytest.mark.parametrize("name", registry.names())
def test_encoded_views_are_the_views_byte_for_byte(name: str) -> None:
    rs = registry.get(name)
    views = encoded_views.ViewCache()
    for players in sorted({rs.min_players, rs.max_players}):
        for game in range(1 if name == "bang-faceoff" else 2):
            table = Table(rs, players, seed=f"encoded-{name}-{players}-{game}")
            pick = _Pick(game)
            seats = [None, *range(players)]

            def check(t: Table, seats: list[Seat | None] = seats) -> None:
                state, version = t.state, len(t.events)
                active = rs.result(state) is None
                envelope = {"id": "g", "version": version}
                order = seats if version % 2 else seats[::-1]  # readers in either order share one version
                for seat in order:
                    if hasattr(rs, "seat_bytes"):
                        own, pending = rs.seat_bytes(state, seat, t.memo)
                        assert (own, pending) == encoded_views._generic_seat_bytes(rs, state, seat, Memo())
                    sent = encoded_views.encoded_view(rs, state, seat, active=active, envelope=envelope,
                                                      key=("test", t.seed, version), cache=views, memo=t.memo)
                    assert sent == _expected(rs, state, seat, active, envelope), (name, version, seat)
                    assert encoded_views.encoded_view(rs, state, seat, active=active, envelope=envelope,
                                                      key=None, cache=None) == sent

            def choose(_t: Table, _s: Seat, moves: Sequence[Move], pick: _Pick = pick) -> Move:
                return moves[pick.below(len(moves))]

            playout(table, choose, pick_seat=pick, on_step=check)


def test_a_view_cache_keeps_at_most_its_size_and_a_dropped_version_is_built_again_alike() -> None:
    rs = registry.get("bluffaneer")
    table = Table(rs, 4, seed="cache-size")
    pick = _Pick(3)
    views = encoded_views.ViewCache(size=4)
    versions: list[tuple[int, object]] = []

    def read(t: Table) -> None:
        versions.append((len(t.events), t.state))

    playout(table, lambda _t, _s, moves: [m for m in moves if m["type"] != "resign"][0], pick_seat=pick,
            on_step=read)
    assert len(versions) > 8
    for version, state in versions + versions[:3]:  # the first three again, long dropped
        envelope = {"id": "g", "version": version}
        active = rs.result(state) is None
        for seat in [None, *range(4)]:
            sent = encoded_views.encoded_view(rs, state, seat, active=active, envelope=envelope,
                                              key=("g", version), cache=views)
            assert sent == _expected(rs, state, seat, active, envelope)
        assert len(views.young) + len(views.old) <= 4 and len(views.young) < 2
    assert ("g", versions[2][0]) in {**views.young, **views.old}  # the last read is kept
    views.clear()
    assert not views.young and not views.old


def test_a_games_new_version_drops_the_one_before_and_a_late_reader_of_it_gets_the_same_bytes() -> None:
    rs = registry.get("bluffaneer")
    views = encoded_views.ViewCache()
    games: dict[str, list[tuple[int, object]]] = {"a": [], "b": []}
    for game, seen in games.items():
        table = Table(rs, 3, seed=f"supersede-{game}")

        def step(t: Table, seen: list[tuple[int, object]] = seen) -> None:
            seen.append((len(t.events), t.state))

        playout(table, lambda _t, _s, moves: [m for m in moves if m["type"] != "resign"][0], pick_seat=_Pick(1),
                on_step=step)

    def read(game: str, at: int, seat: Seat | None = 0) -> bytes:
        version, state = games[game][at]
        envelope = {"id": game, "version": version}
        active = rs.result(state) is None
        sent = encoded_views.encoded_view(rs, state, seat, active=active, envelope=envelope,
                                          key=(game, version, "h"), cache=views, memo=Memo())
        assert sent == _expected(rs, state, seat, active, envelope), (game, version, seat)
        return sent

    def kept() -> set[object]:
        return set({**views.young, **views.old})

    first = read("a", 0)
    read("b", 0)
    assert kept() == {("a", games["a"][0][0], "h"), ("b", games["b"][0][0], "h")}  # games keep each other's
    read("a", 1, None)
    assert ("a", games["a"][0][0], "h") not in kept()  # a's new version dropped its version before
    assert ("a", games["a"][1][0], "h") in kept() and ("b", games["b"][0][0], "h") in kept()
    assert read("a", 0) == first  # a late reader of the dropped version: built again, the same bytes
    assert kept() == {("a", games["a"][0][0], "h"), ("b", games["b"][0][0], "h")}
