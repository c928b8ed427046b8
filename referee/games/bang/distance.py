"""Distance and reach (R14–R17)."""
from __future__ import annotations

from referee.games.bang.cards import KEY, WEAPON_OF
from referee.games.bang.characters import PAUL_REGRET, ROSE_DOOLAN
from referee.games.bang.state import Player, Seat, State


def seat_distance(state: State, a: Seat, b: Seat) -> int:
    """Steps between two alive seats the shorter way round, counting only
    alive players (R14)."""
    alive = [p.seat for p in state.players if p.alive]
    m = len(alive)
    k = (alive.index(b) - alive.index(a)) % m
    return min(k, m - k)


_SCOPES = frozenset(c for c in KEY if KEY[c] == "SCOPE")
_MUSTANGS = frozenset(c for c in KEY if KEY[c] == "MUSTANG")


def _scope(p: Player) -> int:
    n = 1 if p.character == ROSE_DOOLAN else 0
    return n + len(_SCOPES.intersection(p.in_play)) if p.in_play else n


def _mustang(p: Player) -> int:
    n = 1 if p.character == PAUL_REGRET else 0
    return n + len(_MUSTANGS.intersection(p.in_play)) if p.in_play else n


def sees_at(state: State, a: Seat, b: Seat) -> int:
    """The distance at which ``a`` sees ``b`` (R15): seat distance + Mustang
    and Paul Regret of ``b`` − Scope and Rose Doolan of ``a``, at least 1."""
    d = seat_distance(state, a, b) + _mustang(state.players[b]) - _scope(state.players[a])
    return d if d > 1 else 1


def distances_from(state: State, a: Seat) -> dict[Seat, int]:
    """``sees_at(a, b)`` for every other alive ``b``, in one pass."""
    alive = [p.seat for p in state.players if p.alive]
    m = len(alive)
    i = alive.index(a)
    minus = _scope(state.players[a])
    out: dict[Seat, int] = {}
    for j, b in enumerate(alive):
        if b == a:
            continue
        k = (j - i) % m
        d = min(k, m - k) + _mustang(state.players[b]) - minus
        out[b] = d if d > 1 else 1
    return out


def reach(p: Player) -> int:
    """The range of his weapon, or 1 for the Colt .45 (R16)."""
    for c in p.in_play:
        r = WEAPON_OF.get(c)
        if r is not None:
            return r
    return 1
