"""R14–R17 over random tables (issue 26, item 7): every way the referee
computes distance agrees, from every seat, with one reference written here
straight from the rule text.

The calculations compared:

* ``distance.seat_distance`` (R14) and ``distance.sees_at`` (R15, through
  ``cardrules.seen_at``), for every pair of alive seats;
* ``distance.distances_from`` (R15 in one pass: what the legal moves read,
  ``turn.py``), for every alive seat;
* ``distance.sights`` (the cached table, ``_sights``) and what the view shows
  of it: ``views.view(...)["distances"]`` (``sights_json``) and the encoded
  view's own ``distances`` member (``encoded.seat_encoded``, which keeps the
  table between states while no player's Mustang, Scope or reach changed);
* the heuristic bot's reading of a view, ``bang_read.distances``.

The reference counts steps around the table one seat at a time, skipping the
eliminated (R7, R14), both ways, and takes the shorter; then adds 1 for each
Mustang in front of the target and for the target being Paul Regret, takes 1
off for each Scope in front of the viewer and for the viewer being Rose
Doolan, and counts a result below 1 as 1 (R15, R36, R37, R69, R71). Reach is
the weapon's range from R16's table, 1 without one. A second state of each
table then changes one seat (its cards in play gone, or the player
eliminated), so the cached and encoded tables are checked after a change too.
"""
from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bots.heuristic import bang_read
from referee.engine.statecache import Memo
from referee.games.bang import encoded, views
from referee.games.bang.distance import distances_from, reach, seat_distance, sees_at, sights
from referee.games.bang.state import State
from tests.rules.bang.helpers import ROLES, game

#: R16's table: the weapon cards by name and their range
RANGE = {"VOLCANIC": 1, "SCHOFIELD": 2, "REMINGTON": 3, "CARABINE": 4, "WINCHESTER": 5}
#: the copies of each weapon in the deck (no two identical cards in play before one player, R19)
WEAPON_CARDS = {"VOLCANIC": ["VOLCANIC-10S", "VOLCANIC-10C"], "SCHOFIELD": ["SCHOFIELD-KS", "SCHOFIELD-JC",
                "SCHOFIELD-QC"], "REMINGTON": ["REMINGTON-KC"], "CARABINE": ["CARABINE-AC"],
                "WINCHESTER": ["WINCHESTER-8S"]}
MUSTANGS = ["MUSTANG-8H", "MUSTANG-9H"]
SCOPE = "SCOPE-AS"


# --- the reference, from the rule text ---------------------------------------------------

def _name(card: str) -> str:
    return card.rsplit("-", 1)[0]


def ref_seat_distance(alive: list[bool], a: int, b: int) -> int:
    """R14: the alive players passed going clockwise from ``a`` to ``b`` (``b``
    counted, the eliminated not), the same anticlockwise; the fewer."""
    n = len(alive)
    ways = []
    for step in (1, -1):
        s, k = a, 0
        while s != b:
            s = (s + step) % n
            if alive[s]:
                k += 1
        ways.append(k)
    return min(ways)


def ref_sees_at(state: State, a: int, b: int) -> int:
    """R15: seat distance, +1 per Mustang before ``b`` and for ``b`` being Paul
    Regret, -1 per Scope before ``a`` and for ``a`` being Rose Doolan, at least 1."""
    pa, pb = state.players[a], state.players[b]
    d = ref_seat_distance([p.alive for p in state.players], a, b)
    d += sum(_name(c) == "MUSTANG" for c in pb.in_play) + (pb.character == "paul_regret")
    d -= sum(_name(c) == "SCOPE" for c in pa.in_play) + (pa.character == "rose_doolan")
    return max(d, 1)


def ref_reach(in_play: tuple[str, ...]) -> int:
    """R16: the range of the weapon in play, 1 (the Colt .45) without one."""
    return next((RANGE[_name(c)] for c in in_play if _name(c) in RANGE), 1)


# --- every calculation against it ------------------------------------------------------------

def _encoded_distances(state: State, seat: int) -> object:
    _, _, own = encoded.seat_encoded(state, seat, False, Memo())
    return json.loads(b"{" + own + b"}")["distances"]


def _check(state: State) -> None:
    n = state.n
    alive_flags = [p.alive for p in state.players]
    alive = [s for s in range(n) if alive_flags[s]]
    table = sights(state)
    for a in range(n):
        view = views.view(state, a)
        if not alive_flags[a]:
            assert table[a] is None and view["distances"] is None and _encoded_distances(state, a) is None
            continue
        row: list[int | None] = [None if b == a or not alive_flags[b] else ref_sees_at(state, a, b)
                                 for b in range(n)]
        want = {b: d for b, d in enumerate(row) if d is not None}
        for b, d in want.items():
            assert seat_distance(state, a, b) == ref_seat_distance(alive_flags, a, b), ("seat_distance", a, b)
            assert sees_at(state, a, b) == d, ("sees_at", a, b)
        assert distances_from(state, a) == want, ("distances_from", a)
        r = ref_reach(state.players[a].in_play)
        assert reach(state.players[a]) == r
        near = [None if d is None else d <= r for d in row]
        assert table[a] == (r, tuple(row), tuple(near)), ("sights", a)
        assert view["distances"] == {"reach": r, "distance": row, "in_reach": near}, ("view", a)
        assert _encoded_distances(state, a) == view["distances"], ("encoded view", a)
        assert bang_read.distances(view["seats"], alive, a) == want, ("bang_read.distances", a)


# --- random tables ---------------------------------------------------------------------------

@st.composite
def tables(draw: st.DrawFn) -> State:
    """A legal table of 3 (R82) to 7 seats: random roles, eliminated seats
    (never so many the game would be over), Paul Regret and Rose Doolan
    anywhere (alive or not), Mustangs, the Scope and weapons before random
    alive seats."""
    n = draw(st.integers(3, 7))
    roles = draw(st.permutations(ROLES[n]))
    dead = set(draw(st.sets(st.integers(0, n - 1), max_size=n)))
    # keep the game going (R57): the Sheriff and one outlaw or renegade alive; two alive with three (R82)
    keep = [roles.index("deputy"), roles.index("outlaw")] if n == 3 else \
        [roles.index("sheriff"), next(s for s, r in enumerate(roles) if r in ("outlaw", "renegade"))]
    dead -= set(keep)
    alive = [s for s in range(n) if s not in dead]
    chars: dict[int, str] = {}
    paul = draw(st.none() | st.integers(0, n - 1))
    rose = draw(st.none() | st.integers(0, n - 1))
    if paul is not None:
        chars[paul] = "paul_regret"
    if rose is not None and rose != paul:
        chars[rose] = "rose_doolan"
    in_play: dict[int, list[str]] = {s: [] for s in alive}
    for card, seat in zip(MUSTANGS, draw(st.lists(st.sampled_from(alive), max_size=2, unique=True))):
        in_play[seat].append(card)
    scope = draw(st.none() | st.sampled_from(alive))
    if scope is not None:
        in_play[scope].append(SCOPE)
    spare = {k: list(v) for k, v in WEAPON_CARDS.items()}
    for s in alive:
        weapon = draw(st.none() | st.sampled_from(sorted(RANGE)))
        if weapon is not None and spare[weapon]:
            in_play[s].append(spare[weapon].pop())
    t = game(n, roles=list(roles), dead=tuple(sorted(dead)), chars=chars, in_play=in_play, turn=keep[0])
    state: State = t.state
    return state


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=tables(), pick=st.integers(0, 6), eliminate=st.booleans())
def test_r14_r15_r16_every_distance_calculation_agrees_with_the_rule_text(state: State, pick: int,
                                                                          eliminate: bool) -> None:
    _check(state)
    # then one seat changes (not the turn's): its cards in play go, or it is eliminated (R51: its cards go too)
    alive = [p.seat for p in state.players if p.alive and p.seat != state.turn]
    if not alive:
        return
    seat = alive[pick % len(alive)]
    p = state.players[seat]
    changed = replace(p, alive=False, life=0, hand=(), in_play=()) if eliminate and len(alive) >= 2 \
        else replace(p, in_play=())
    after = replace(state, players=state.players[:seat] + (changed,) + state.players[seat + 1:])
    _check(after)
    _check(state)  # and back: nothing kept from the changed table
