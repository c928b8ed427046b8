"""BANG!'s views encoded as the API sends them (issue 20), byte for byte what
``referee.engine.encoded_views`` encodes from ``views.public_view`` and
``views.seat_part`` (``tests/unit/test_encoded_views.py`` and
``tests/unit/test_bang_faceoff_encoded.py`` hold them to it at every step).

The rules fold a move into a new state that shares every part the move left
alone (``state.but`` and ``state.pbut`` copy references): a player's entry
of the table (R83: public role only), a seat's hand, role and distances
(R14–R17), the discard pile. Each part is encoded once and kept as it was
for the state encoded last, with the very objects it was built from
(compared by identity and held, so an object is never mistaken for
another meanwhile), in the game's memo (``_Parts``, a part of
``referee.engine.statecache.Memo``); a state's bytes are spliced from them,
and only what a move changed is encoded again. Only what every seat sees
alike is kept where any seat's view reads it (a player's public entry, the
discard pile); a seat's own members are kept in its own slot, which only
that seat's view reads (``Player.seat``).

Pure: no clock, no I/O; nothing at module level but constants; safe under
threads (each kept value one tuple, read and written whole, its lists never
changed once kept; two threads racing compute the same bytes).
"""
from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.statecache import Memo
from referee.games.bang import legal, views
from referee.games.bang.cache import Derived, derived
from referee.games.bang.distance import sights_json
from referee.games.bang.roles import SHERIFF
from referee.games.bang.state import Player, Seat, State
from referee.games.cards.rules import mustang_of, reach_of, scope_of

_PHASES: dict[str, bytes] = {p: dumps(p) for p in ("start", "draw", "play", "discard", "over")}
_ROLES_IN_GAME: dict[int, bytes] = {n: dumps(roles) for n, roles in views.ROLES_IN_GAME.items()}
_TARGETS = b',"targets":' + dumps(views.TARGETS_3P)
#: seat numbers, for ``itertools.compress``
_SEATS = range(64)
_SPECTATOR = b'"seat":null,"hand":null,"role":null,"distances":null'

#: each seat's phase-2 prompt encoded (``views.PLAY_PROMPTS``, constants: found by seat and identity)
_PLAY_PROMPTS: tuple[bytes, ...] = tuple(dumps(p) for p in views.PLAY_PROMPTS)


class _Parts:
    """What was encoded for the game's state encoded last (a part of the
    game's ``Memo``), one tuple each, read and written whole."""

    __slots__ = ("last", "pile", "shown")

    def __init__(self) -> None:
        #: (players, roles shown to all, distances table, each player's public entry, each seat's own
        #: members, the whole table, what the distances read of each player: ``_reckons``); its lists
        #: are never changed once kept
        self.last: tuple[Any, ...] = ((), False, (), [], [], b"[]", [])
        #: the discard pile: (pile, bytes)
        self.pile: tuple[Any, ...] = (None, b"")
        #: the ``last`` member: (its object, bytes)
        self.shown: tuple[Any, ...] = (None, b"null")


def _new_entry(p: Player, show_all: bool) -> bytes:
    """A seat's entry of the table as everybody sees it (R83: the role of
    the Sheriff, of the eliminated, of all in the 3-player game or once over)."""
    return dumps({"seat": p.seat, "character": p.character, "life": p.life, "max_life": p.max_life,
                  "alive": p.alive, "hand": len(p.hand), "in_play": p.in_play,
                  "role": p.role if show_all or p.role == SHERIFF or not p.alive else None})


def _new_own(p: Player, sight: Any) -> bytes:
    """A seat's own members but ``pending``: its hand, its role (R83) and
    what it sees around the table (R14–R17)."""
    out: bytes = dumps({"seat": p.seat, "hand": p.hand, "role": p.role, "distances": sight})[1:-1]
    return out


def _reckons(p: Player) -> tuple[int, int, int] | None:
    """What the distances (R14–R17) read of a player: his Mustang, Scope and
    weapon's reach (R15, R16; characters included), ``None`` if eliminated."""
    if not p.alive:
        return None
    character, in_play = p.character, p.in_play
    return mustang_of(character, in_play), scope_of(character, in_play), reach_of(in_play)


def _players(state: State, parts: _Parts) -> tuple[bytes, list[bytes]]:
    """``(table, owns)``: the ``players`` member encoded and every seat's own
    members (``_new_own``), each part kept from the state encoded last
    while it is built from the very same ``Player`` (and distances) objects.
    The distances (R14–R17) depend on who is alive and on each one's Mustang,
    Scope and reach alone (``_reckons``): kept while no player changed
    those, and a seat's own row kept while it is the same."""
    players = state.players
    show_all = state.three_player or state.phase == "over"
    last = parts.last
    before = last[0]
    table: Any
    if last[1] is not show_all or len(before) != len(players):
        table = sights_json(state)
        made_entries = [_new_entry(p, show_all) for p in players]
        made_owns = [_new_own(p, t) for p, t in zip(players, table)]
        reckons = [_reckons(p) for p in players]
    elif before is players:
        return last[5], last[4]
    else:
        sights = table = last[2]
        made_entries = list(last[3])
        made_owns = list(last[4])
        reckons = last[6]
        changed = list(compress(_SEATS, map(is_not, players, before)))
        moved = False  # who is alive, a character or cards in play changed: distances may too
        for i in changed:
            p, o = players[i], before[i]
            made_entries[i] = _new_entry(p, show_all)
            if p.in_play is not o.in_play or p.alive is not o.alive or p.character is not o.character:
                if not moved:
                    reckons = list(reckons)
                    moved = True
                reckons[i] = _reckons(p)
        if moved and reckons != last[6]:
            fresh = sights_json(state)
            table = [seen if seen is old or seen != old else old for seen, old in zip(fresh, sights)] \
                if len(sights) == len(fresh) else list(fresh)
            for i in compress(_SEATS, map(is_not, table, sights)):
                if i not in changed:
                    made_owns[i] = _new_own(players[i], table[i])
        for i in changed:
            made_owns[i] = _new_own(players[i], table[i])
    whole = b"[" + b",".join(made_entries) + b"]"
    parts.last = (players, show_all, table, made_entries, made_owns, whole, reckons)
    return whole, made_owns


Kept = tuple[bytes, Any, bytes, list[bytes], int, list[Any]]


def _kept(state: State, memo: Memo, d: Derived | None = None) -> Kept:
    """What every view of ``state`` is built from, once per state (kept in
    ``memo``; ``d``: the state's ``Derived`` if the caller has it): the
    public members encoded (R83: public roles only; R4, R82: the role
    facts), the prompt without moves (R43) and its bytes, each seat's own
    members (R83, R14–R17), the seat the prompt awaits (-1: none) and a slot
    for that seat's prompt with its moves."""
    if d is None:
        d = derived(state, memo)
    kept: Kept | None = d.enc
    if kept is not None:
        return kept
    parts = memo.part(_Parts)
    table, owns = _players(state, parts)
    discard = state.discard
    last = parts.pile
    if last[0] is not discard:
        last = parts.pile = (discard, dumps(discard))
    result = state.result
    n = len(state.players)
    shown = state.last
    shown_bytes = parts.shown
    if shown_bytes[0] is not shown:
        shown_bytes = parts.shown = (shown, b"null" if shown is None else dumps(shown))
    public = b'"turn":%d,"phase":%b,"bangs":%d,"deck":%d,"discard":%b,"seats":%b,"last":%b,"result":%b,' \
             b'"roles_in_game":%b' % (
                 state.turn, _PHASES.get(state.phase) or dumps(state.phase), state.bangs, len(state.deck), last[1],
                 table, shown_bytes[1], b"null" if result is None else dumps(result),
                 _ROLES_IN_GAME.get(n) or dumps(views.ROLES_IN_GAME[n]))
    if state.three_player:
        public += _TARGETS
    prompt = views._prompt(state, memo)
    if prompt is None:
        prompt_bytes = b"null"
    else:
        turn = state.turn
        constant = 0 <= turn < len(_PLAY_PROMPTS) and prompt is views.PLAY_PROMPTS[turn]
        prompt_bytes = _PLAY_PROMPTS[turn] if constant else dumps(prompt)
    kept = d.enc = (public, prompt, prompt_bytes, owns,
                    -1 if prompt is None else prompt["awaiting"][0], [None])
    return kept


def public_bytes(state: State, memo: Memo) -> bytes:
    """``views.public_view(state)`` encoded, braces off (R83: public roles
    only; R4, R82: the role facts); ``memo``: the game's."""
    return _kept(state, memo)[0]


def seat_encoded(state: State, seat: Seat | None, awaited: bool, memo: Memo,
                 d: Derived | None = None) -> tuple[bytes, bytes, bytes]:
    """``(legal_moves, pending, own)`` of ``seat``'s view, encoded (see
    ``referee.engine.encoded_views``): the prompt is the shared one (R43), but
    Kit Carlson's own, which shows him his three cards (R67). ``d``: the
    state's ``Derived`` if the caller has it."""
    if d is None:
        d = derived(state, memo)
    kept: Kept | None = d.enc
    if kept is None:
        kept = _kept(state, memo, d)
    _, prompt, prompt_bytes, owns, who, mine = kept
    if seat is None:
        return b"[]", prompt_bytes, _SPECTATOR
    if seat != who:
        return (dumps(_legal(state, seat, memo, d)) if awaited else b"[]"), prompt_bytes, owns[seat]
    made = mine[0]
    if made is None:
        moves = dumps(_legal(state, seat, memo, d))
        # Kit Carlson's own look (R67)
        pending = dumps(views.pending(state, seat, prompt)) if prompt["kind"] == "kit" else prompt_bytes
        made = mine[0] = (moves, pending)
    return (made[0] if awaited else b"[]"), made[1], owns[seat]


def _legal(state: State, seat: Seat, memo: Memo, d: Derived) -> tuple[Any, ...]:
    """``seat``'s legal moves: those ``d`` holds for it (a seat's own), else ``legal.legal_moves``."""
    known: tuple[Any, ...] | None = d.legal.get(seat)
    return known if known is not None else legal.legal_moves(state, seat, memo)


#: ``"seat":s,"legal_moves":`` of every seat of a table, encoded once (a constant)
_LEAD: tuple[bytes, ...] = tuple(b'"seat":%d,"legal_moves":' % s for s in _SEATS)


def every_seat(state: State, head: bytes, awaited: frozenset[Seat], memo: Memo) -> dict[Seat | None, bytes] | None:
    """Every seat's view as ``referee.engine.encoded_views`` sends it, built
    at once from what ``seat_encoded`` gives each (``head``, then the seat's
    moves when in ``awaited``, the prompt — Kit Carlson's own for him, R67 —
    the public members and the seat's own: R83, R14–R17), each for its own
    seat alone; a new dict (a spectator's view is not in it: built by the
    engine from ``seat_encoded`` when one asks). ``None`` for awaited seats
    the rules do not await (a prompt's seat not among them)."""
    d = derived(state, memo)
    kept = _kept(state, memo, d)
    public, prompt, prompt_bytes, owns, who, _ = kept
    if awaited and who >= 0 and who not in awaited:
        return None
    out: dict[Seat | None, bytes] = {}  # a spectator's is built when one asks (most versions have none)
    lead, join = _LEAD, b"".join
    for seat, own in enumerate(owns):
        if seat == who or seat in awaited:
            moves, pending, _ = seat_encoded(state, seat, seat in awaited, memo, d)
        else:
            moves, pending = b"[]", prompt_bytes
        out[seat] = join((head, lead[seat], moves, b',"pending":', pending, b',"state":{', public, b",", own, b"}}"))
    return out
