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


def _new_entry(player: Player, show_all: bool) -> bytes:
    """A seat's entry of the table as everybody sees it (R83: the role of
    the Sheriff, of the eliminated, of all in the 3-player game or once over)."""
    return dumps({"seat": player.seat, "character": player.character, "life": player.life, "max_life": player.max_life,
                  "alive": player.alive, "hand": len(player.hand), "in_play": player.in_play,
                  "role": player.role if show_all or player.role == SHERIFF or not player.alive else None})


def _new_own(player: Player, sight: Any) -> bytes:
    """A seat's own members but ``pending``: its hand, its role (R83) and
    what it sees around the table (R14–R17)."""
    out: bytes = dumps({"seat": player.seat, "hand": player.hand, "role": player.role, "distances": sight})[1:-1]
    return out


def _reckons(player: Player) -> tuple[int, int, int] | None:
    """What the distances (R14–R17) read of a player: his Mustang, Scope and
    weapon's reach (R15, R16; characters included), ``None`` if eliminated."""
    if not player.alive:
        return None
    character, in_play = player.character, player.in_play
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
    if last[1] is not show_all or len(before) != len(players):
        table, made_entries, made_owns, reckons = _encode_all(state, show_all)
    elif before is players:
        return last[5], last[4]
    else:
        table, made_entries, made_owns, reckons = _encode_changed(state, show_all, last)
    whole = b"[" + b",".join(made_entries) + b"]"
    parts.last = (players, show_all, table, made_entries, made_owns, whole, reckons)
    return whole, made_owns


Encoded = tuple[Any, list[bytes], list[bytes], list[Any]]


def _encode_all(state: State, show_all: bool) -> Encoded:
    """(distances table, public entries, own members, ``_reckons``) of every seat, all encoded anew."""
    players = state.players
    table = sights_json(state)
    return (table, [_new_entry(player, show_all) for player in players],
            [_new_own(player, sight) for player, sight in zip(players, table)],
            [_reckons(player) for player in players])


def _encode_changed(state: State, show_all: bool, last: tuple[Any, ...]) -> Encoded:
    """``_encode_all`` from ``last`` (``_Parts.last``): only the seats whose
    ``Player`` changed are encoded again, and the distances only if what
    they read changed (``_reckons``), then the own members whose row did."""
    players, before, sights = state.players, last[0], last[2]
    entries, owns = list(last[3]), list(last[4])
    changed = list(compress(_SEATS, map(is_not, players, before)))
    for seat in changed:
        entries[seat] = _new_entry(players[seat], show_all)
    reckons = _reckons_now(players, before, changed, last[6])
    table = sights
    if reckons is not last[6] and reckons != last[6]:
        table = _sights_now(state, sights)
        for seat in compress(_SEATS, map(is_not, table, sights)):
            if seat not in changed:
                owns[seat] = _new_own(players[seat], table[seat])
    for seat in changed:
        owns[seat] = _new_own(players[seat], table[seat])
    return table, entries, owns, reckons


def _reckons_now(players: tuple[Player, ...], before: tuple[Player, ...], changed: list[Seat],
                 kept: list[Any]) -> list[Any]:
    """What the distances read of each player now (``_reckons``): ``kept`` itself
    while no changed player has other cards in play, life or character, else a new list."""
    reckons = kept
    for seat in changed:
        player, old = players[seat], before[seat]
        if player.in_play is not old.in_play or player.alive is not old.alive or player.character is not old.character:
            if reckons is kept:
                reckons = list(kept)
            reckons[seat] = _reckons(player)
    return reckons


def _sights_now(state: State, sights: Any) -> Any:
    """The distances table of ``state``, each seat's row the very object of ``sights`` where it is equal."""
    fresh = sights_json(state)
    if len(sights) != len(fresh):
        return list(fresh)
    return [seen if seen is old or seen != old else old for seen, old in zip(fresh, sights)]


Kept = tuple[bytes, Any, bytes, list[bytes], int, list[Any]]


def _kept(state: State, memo: Memo, cached: Derived | None = None) -> Kept:
    """What every view of ``state`` is built from, once per state (kept in
    ``memo``; ``cached``: the state's ``Derived`` if the caller has it): the
    public members encoded (R83: public roles only; R4, R82: the role
    facts), the prompt without moves (R43) and its bytes, each seat's own
    members (R83, R14–R17), the seat the prompt awaits (-1: none) and a slot
    for that seat's prompt with its moves."""
    if cached is None:
        cached = derived(state, memo)
    kept: Kept | None = cached.enc
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
    kept = cached.enc = (public, prompt, prompt_bytes, owns,
                    -1 if prompt is None else prompt["awaiting"][0], [None])
    return kept


def public_bytes(state: State, memo: Memo) -> bytes:
    """``views.public_view(state)`` encoded, braces off (R83: public roles
    only; R4, R82: the role facts); ``memo``: the game's."""
    return _kept(state, memo)[0]


def seat_encoded(state: State, seat: Seat | None, awaited: bool, memo: Memo,
                 cached: Derived | None = None) -> tuple[bytes, bytes, bytes]:
    """``(legal_moves, pending, own)`` of ``seat``'s view, encoded (see
    ``referee.engine.encoded_views``): the prompt is the shared one (R43), but
    Kit Carlson's own, which shows him his three cards (R67). ``cached``: the
    state's ``Derived`` if the caller has it."""
    if cached is None:
        cached = derived(state, memo)
    kept: Kept | None = cached.enc
    if kept is None:
        kept = _kept(state, memo, cached)
    _, prompt, prompt_bytes, owns, who, mine = kept
    if seat is None:
        return b"[]", prompt_bytes, _SPECTATOR
    if seat != who:
        return (dumps(_legal(state, seat, memo, cached)) if awaited else b"[]"), prompt_bytes, owns[seat]
    made = mine[0]
    if made is None:
        moves = dumps(_legal(state, seat, memo, cached))
        # Kit Carlson's own look (R67)
        pending = dumps(views.pending(state, seat, prompt)) if prompt["kind"] == "kit" else prompt_bytes
        made = mine[0] = (moves, pending)
    return (made[0] if awaited else b"[]"), made[1], owns[seat]


def _legal(state: State, seat: Seat, memo: Memo, cached: Derived) -> tuple[Any, ...]:
    """``seat``'s legal moves: those ``cached`` holds for it (a seat's own), else ``legal.legal_moves``."""
    known: tuple[Any, ...] | None = cached.legal.get(seat)
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
    cached = derived(state, memo)
    kept = _kept(state, memo, cached)
    public, prompt, prompt_bytes, owns, who, _ = kept
    if awaited and who >= 0 and who not in awaited:
        return None
    out: dict[Seat | None, bytes] = {}  # a spectator's is built when one asks (most versions have none)
    lead, join = _LEAD, b"".join
    for seat, own in enumerate(owns):
        if seat == who or seat in awaited:
            moves, pending, _ = seat_encoded(state, seat, seat in awaited, memo, cached)
        else:
            moves, pending = b"[]", prompt_bytes
        out[seat] = join((head, lead[seat], moves, b',"pending":', pending, b',"state":{', public, b",", own, b"}}"))
    return out
