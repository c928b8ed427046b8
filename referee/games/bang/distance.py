"""Distance and reach (R14–R17)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.games.bang.state import Player, Seat, State
from referee.games.cards.rules import mustang_of as _mustang_of
from referee.games.cards.rules import reach_of as _reach_of
from referee.games.cards.rules import scope_of as _scope_of
from referee.games.cards.rules import seen_at


def seat_distance(state: State, viewer: Seat, target: Seat) -> int:
    """Steps between two alive seats the shorter way round, counting only
    alive players (R14)."""
    alive = [p.seat for p in state.players if p.alive]
    m = len(alive)
    k = (alive.index(target) - alive.index(viewer)) % m
    return min(k, m - k)


def _scope(player: Player) -> int:
    return _scope_of(player.character, player.in_play)


def _mustang(player: Player) -> int:
    return _mustang_of(player.character, player.in_play)


def sees_at(state: State, viewer: Seat, target: Seat) -> int:
    """The distance at which ``viewer`` sees ``target`` (R15): seat distance + Mustang
    and Paul Regret of ``target`` − Scope and Rose Doolan of ``viewer``, at least 1."""
    return seen_at(seat_distance(state, viewer, target), state.players[viewer], state.players[target])


def distances_from(state: State, viewer: Seat) -> dict[Seat, int]:
    """``sees_at(viewer, seat)`` for every other alive ``seat``, in one pass."""
    alive = [p.seat for p in state.players if p.alive]
    m = len(alive)
    i = alive.index(viewer)
    minus = _scope(state.players[viewer])
    out: dict[Seat, int] = {}
    for j, b in enumerate(alive):
        if b == viewer:
            continue
        k = (j - i) % m
        d = min(k, m - k) + _mustang(state.players[b]) - minus
        out[b] = d if d > 1 else 1
    return out


def reach(player: Player) -> int:
    """The range of his weapon, or 1 for the Colt .45 (R16)."""
    return _reach_of(player.in_play)


#: what one seat sees: (reach, distance to each seat, whether it is in reach),
#: None for itself and for the eliminated
Sight = tuple[int, tuple[int | None, ...], tuple[bool | None, ...]]
#: per seat, what distance depends on: (character, cards in play), None if eliminated
Table = tuple[tuple[str, tuple[str, ...]] | None, ...]


def sights(state: State) -> tuple[Sight | None, ...]:
    """What each seat sees around the table (R14–R17): its weapon's reach,
    the distance at which it sees every seat (``sees_at``) and whether that
    is within reach of a BANG! (R16); None for an eliminated seat.

    Distance depends only on who is alive and on characters and cards in
    play, which change far less often than the state: the table is computed
    once per such configuration (a pure function, cached)."""
    return _sights(tuple([(p.character, p.in_play) if p.alive else None for p in state.players]))


@lru_cache(maxsize=4096)
def _sights(table: Table) -> tuple[Sight | None, ...]:
    """Each seat's reach, distances and targets in reach (R14–R17) from the table's few facts
    per seat (character and cards in play, ``None`` for the eliminated): a pure function of a
    small immutable tuple, cached by that value (``functools.lru_cache``, bounded), so no
    state or memo is involved and any game with the same facts finds it."""
    n = len(table)
    alive = [s for s in range(n) if table[s] is not None]
    plus = [0] * n  # Mustang, Paul Regret: seen from farther (R15)
    minus = [0] * n  # Scope, Rose Doolan: sees closer (R15)
    ranges = [1] * n  # the weapon (R16)
    for s in alive:
        character, in_play = table[s]  # type: ignore[misc]  # alive: not None
        plus[s] = _mustang_of(character, in_play)
        minus[s] = _scope_of(character, in_play)
        ranges[s] = _reach_of(in_play)
    m = len(alive)
    out: list[Sight | None] = [None] * n
    for i, a in enumerate(alive):
        r, less = ranges[a], minus[a]
        dist: list[int | None] = [None] * n
        near: list[bool | None] = [None] * n
        for j, b in enumerate(alive):
            if b != a:
                k = (j - i) % m
                d = (k if k < m - k else m - k) + plus[b] - less
                d = d if d > 1 else 1
                dist[b] = d
                near[b] = d <= r
        out[a] = (r, tuple(dist), tuple(near))
    return tuple(out)


def sights_json(state: State) -> tuple[dict[str, Any] | None, ...]:
    """``sights`` as each seat's view shows them, ``{reach, distance,
    in_reach}`` (None for an eliminated seat): built once per configuration
    and shared by every view of it (JSON: do not mutate)."""
    return _sights_json(tuple([(p.character, p.in_play) if p.alive else None for p in state.players]))


@lru_cache(maxsize=4096)
def _sights_json(table: Table) -> tuple[dict[str, Any] | None, ...]:
    """``_sights`` as the views' JSON (shared: do not mutate), cached by the same value."""
    return tuple(None if seen is None else {"reach": seen[0], "distance": list(seen[1]), "in_reach": list(seen[2])}
                 for seen in _sights(table))
