"""What each viewer may see (D7, D74): everything but the roles still hidden.

What every viewer of one state sees alike (``public_view``, the prompt) is
built once per state and shared between its views, kept in the game's memo
(``referee.engine.statecache.Memo``, ``memo.of(state)``: see ``legal``;
none given: a fresh one). The encoded views (issue 20) are built for every
seat at once, the first time one is asked for, from the public members
encoded once per state (the seat entries, the dice and the opening members
kept from one state to the next while the parts they are built from are the
very same objects: ``_Parts``, a part of the memo), and kept there too, each
handed to its own seat alone (D7: a seat's own role is in its own view only).
The ruleset gives the engine no ``public_view`` of its own, so that it
encodes whole views itself (``encoded_seat``). Do not mutate a view.
"""
from __future__ import annotations

from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Event, Json
from referee.engine.statecache import MISSING, Memo, SameInputs, fresh, per_state
from referee.games.dice.event_types import GAME_STARTED
from referee.games.dice.legal import answers
from referee.games.dice.prompts import pending
from referee.games.dice.role_cards import kind_of
from referee.games.dice.state import Seat, State
from referee.games.roles import SHERIFF


def role_public(state: State, seat: int) -> bool:
    """D7, D67, D74: the Sheriff's role, every role with 3 players, an eliminated player's, all at the end."""
    return state.over or state.three or not state.alive[seat] or state.kind(seat) == SHERIFF


def _token(token: tuple[str, int] | None) -> Json | None:
    return None if token is None else {"face": token[0], "dice": token[1]}


class _Parts:
    """The parts of the game's views an event most often leaves alone, kept
    from one state to the next while their inputs are the very same objects
    (a part of the game's ``Memo``): all of them public but ``roles``, each
    seat's own role, read for that seat's view alone (D7)."""

    __slots__ = ("seats", "shown", "dice", "opened", "entries", "rolled", "roles", "last")

    def __init__(self) -> None:
        self.seats, self.shown, self.dice, self.opened = SameInputs(), SameInputs(), SameInputs(), SameInputs()
        #: the last seat entries and dice met (``_seat_entries``, ``_dice``: the very lists) with their bytes
        self.entries: tuple[Any, bytes] = (None, b"")
        self.rolled: tuple[Any, bytes] = (None, b"")
        #: the last roles met (the very tuple) and each seat's ``,"role":`` its own role (D7) ``}}``,
        #: read by ``_Encoded`` alone, which hands each seat its own
        self.roles: tuple[Any, list[bytes]] = (None, [])
        #: the ``_Encoded`` asked for last (every seat's view of a state is asked for in a row)
        self.last: _Encoded | None = None


def public_view(state: State, memo: Memo | None = None) -> Json:
    """Everything every viewer sees (D7, D74: roles only where public);
    built once per state (kept in the game's ``memo``), shared (do not mutate)."""
    memo = fresh(memo)
    kept = memo.of(state)
    out: Json | None = kept.get("public")
    if out is None:
        out = kept["public"] = _public_view(state, memo.part(_Parts))
    return out


def _shown_roles(state: State, parts: _Parts) -> tuple[str | None, ...]:
    """Each seat's role id where every viewer sees it (D7, D67, D74: ``role_public``), else ``None``;
    kept while the roles, the living and the end are the same objects."""
    inputs = (state.roles, state.alive, state.over, state.players)
    out: tuple[str | None, ...] = parts.shown.get(inputs)
    if out is MISSING:
        out = parts.shown.put(inputs, tuple(kind_of(state.roles[p]) if role_public(state, p) else None
                                            for p in range(state.players)))
    return out


def _seat_entries(state: State, parts: _Parts) -> list[Json]:
    """Each seat as everyone sees it (D7, D74: its role only where public)."""
    inputs = (state.players, state.characters, state.life, state.max_life, state.arrows, state.chief_holder,
              state.alive, state.ghost, state.roles, state.tokens, state.over, state.resigned)
    out: list[Json] = parts.seats.get(inputs)
    if out is MISSING:
        characters, life, max_life, arrows, alive, tokens = (state.characters, state.life, state.max_life,
                                                             state.arrows, state.alive, state.tokens)
        chief, ghost, shown = state.chief_holder, state.ghost, _shown_roles(state, parts)
        resigned = state.resigned or (False,) * state.players
        out = parts.seats.put(inputs, [
            {"seat": p, "character": characters[p], "life": life[p], "max_life": max_life[p],
             "arrows": arrows[p], "chief_arrow": chief == p, "alive": alive[p],
             "ghost": ghost == p, "role": shown[p], "token": _token(tokens[p]), "resigned": resigned[p]}
            for p in range(state.players)])
    return out


def _dice(state: State, parts: _Parts) -> list[Json]:
    """The dice as everyone sees them (D14), kept while their inputs are the same objects."""
    inputs: tuple[object, ...] = (state.die_kinds, state.dice)
    dice: list[Json] = parts.dice.get(inputs)
    if dice is MISSING:
        dice = parts.dice.put(inputs, [{"die": i + 1, "kind": k, "face": f}
                                       for i, (k, f) in enumerate(zip(state.die_kinds, state.dice))])
    return dice


def _opening(state: State) -> Json:
    """``public_view``'s members before ``seats``."""
    return {"players": state.players,
            "modules": {"saloon_dice": state.saloon_dice, "chief_arrow": state.chief_arrow,
                        "ghost": state.ghost_module},
            "turn": state.turn, "ghost_turn": state.is_ghost_turn()}


def _pile(state: State) -> Json:
    """``public_view``'s members between ``seats`` and ``dice`` (D3, D58)."""
    return {"pile": state.pile, "chief_arrow_in_pile": state.chief_arrow and state.chief_holder is None}


def _closing(state: State) -> Json:
    """``public_view``'s members after ``dice``: the turn's rolls, the Saloon die, the shots (D24, D73)
    and ``last``, the turn's last roll (who, which dice, the faces showing), or ``null``."""
    return {"last": last(state), "rolls": state.rolls, "max_rolls": state.max_rolls(), "saloon": state.saloon,
            "shots": {"targets": [list(t) for t in state.shot_targets],
                      "declared": [{"target": t, "double": d} for t, d in state.declared]},
            "awaiting": None if state.over else state.prompt, "over": state.over}


def last(state: State) -> Json | None:
    """The last roll of this turn (D15, D16), as a table draws it: ``{kind: roll, seat, roll, rolled
    (the die numbers rolled), faces (every die showing)}``; ``null`` before the turn's first roll."""
    if not state.rolls or not state.dice:
        return None
    return {"kind": "roll", "seat": state.turn, "roll": state.rolls, "rolled": list(state.rolled),
            "faces": list(state.dice)}


def _public_view(state: State, parts: _Parts) -> Json:
    return {**_opening(state), "seats": _seat_entries(state, parts), **_pile(state), "dice": _dice(state, parts),
            **_closing(state)}


def _inner(encoded: bytes) -> bytes:
    return encoded[1:-1]


def _public_bytes(state: State, parts: _Parts) -> bytes:
    """``public_view(state)`` encoded, braces off: the seat entries and the
    dice encoded once while their lists are the same (``_seat_entries``,
    ``_dice``) and the opening members while theirs are (``_opening``
    encoded: ``parts.opened``), the rest per state."""
    seats = _seat_entries(state, parts)
    entries = parts.entries
    if entries[0] is not seats:
        entries = parts.entries = (seats, dumps(seats))
    dice = _dice(state, parts)
    rolled = parts.rolled
    if rolled[0] is not dice:
        rolled = parts.rolled = (dice, dumps(dice))
    inputs = (state.players, state.saloon_dice, state.chief_arrow, state.ghost_module, state.turn, state.ghost)
    opening: bytes = parts.opened.get(inputs)
    if opening is MISSING:  # ``_opening`` reads these alone
        opening = parts.opened.put(inputs, _inner(dumps(_opening(state))))
    return b"".join((opening, b',"seats":', entries[1], b",", _inner(dumps(_pile(state))),
                     b',"dice":', rolled[1], b",", _inner(dumps(_closing(state)))))


#: ``"seat":s,"legal_moves":`` and ``s`` of every seat, encoded once
_LEAD: dict[Seat, bytes] = {s: b'"seat":%d,"legal_moves":' % s for s in range(64)}
_NUM: dict[Seat, bytes] = {s: b"%d" % s for s in range(64)}
#: ``"seat":s,"legal_moves":[]`` of every seat (one not awaited)
_IDLE: dict[Seat, bytes] = {s: b'"seat":%d,"legal_moves":[]' % s for s in range(64)}


def _awaited(state: State) -> Seat | None:
    """The one seat awaited (``legal.to_act``), or ``None``."""
    return None if state.over or state.prompt_seat is None else state.prompt_seat


class _Encoded:
    """A state's encoded view but each seat's own members: ``pre`` is
    ``,"pending":`` the prompt, ``,"state":{`` the public members and
    ``,"you":``; ``views`` every seat's ``encoded_seat`` (its moves when
    awaited, its own role, D7), built at once, each handed to its own seat
    alone; ``awaited`` the awaited seat."""

    __slots__ = ("state", "pre", "awaited", "roles", "moves", "_views")

    def __init__(self, state: State, memo: Memo, parts: _Parts) -> None:
        self.state = state
        prompt = dumps(pending(state, memo))
        self.pre = b"".join((b',"pending":', prompt, b',"state":{', _public_bytes(state, parts), b',"you":'))
        self.awaited = awaited = _awaited(state)
        roles = state.roles
        own = parts.roles
        if own[0] is not roles:
            own = parts.roles = (roles, [b',"role":%s}}' % dumps(kind_of(role)) for role in roles[:64]])
        #: each seat's ``,"role":`` its own role (D7) ``}}``: read for that seat's view alone
        self.roles: list[bytes] = own[1][:state.players]
        self.moves = b"[]"
        if awaited is not None and 0 <= awaited < len(self.roles):
            self.moves = dumps(answers(state, memo))
        self._views: list[bytes] | None = None

    @property
    def views(self) -> list[bytes]:
        """Every seat's ``encoded_seat``, built at once the first time."""
        views = self._views
        if views is None:
            views = self._views = list(self.joined(b"", self.awaited).values())
        return views

    def joined(self, head: bytes, awaited: Seat | None) -> dict[Seat, bytes]:
        """Every seat's ``head`` and ``encoded_seat`` (the moves of ``awaited``,
        ``None`` or ``self.awaited``), each for its own seat alone (D7)."""
        pre, idle, num, join, moves = self.pre, _IDLE, _NUM, b"".join, self.moves
        return {s: join((head, idle[s], pre, num[s], role)) if s != awaited
                else join((head, _LEAD[s], moves, pre, num[s], role)) for s, role in enumerate(self.roles)}


def _encoded(state: State, memo: Memo) -> _Encoded:
    """``state``'s ``_Encoded``, built once per state (kept in ``memo``)."""
    return per_state(memo, state, _Parts, "encoded", _Encoded)


def encoded_seat(state: State, seat: Seat | None, awaited: bool, memo: Memo) -> bytes:
    """What ``referee.engine.encoded_views.encoded_view`` sends after the
    members every reader shares: ``"seat"``, ``"legal_moves"`` (``seat``'s
    own if ``awaited``, else none), ``"pending"`` and ``"state"`` (the
    public members, then ``you`` and its own role, D7), closing the object."""
    enc = _encoded(state, memo)
    views = enc.views
    if seat is not None and 0 <= seat < len(views) and (seat == enc.awaited) == awaited:
        return views[seat]
    if seat is None:
        return b"".join((b'"seat":null,"legal_moves":[]', enc.pre, b'null,"role":null}}'))
    own = kind_of(state.roles[seat]) if 0 <= seat < state.players else None
    return b"".join((_LEAD.get(seat) or b'"seat":%d,"legal_moves":' % seat,
                     dumps(answers(state, memo)) if awaited else b"[]", enc.pre,
                     _NUM.get(seat) or b"%d" % seat, b',"role":', dumps(own), b"}}"))


def every_seat(state: State, head: bytes, awaited: frozenset[Seat], memo: Memo) -> dict[Seat | None, bytes] | None:
    """Every seat's view as ``referee.engine.encoded_views`` sends it, built
    at once: ``head``, then ``encoded_seat`` of each seat (the moves of the
    seat ``awaited`` holds), each for its own seat alone (D7); a new dict.
    ``None`` for awaited seats the rules do not await."""
    enc = _encoded(state, memo)
    if len(enc.roles) > 64:
        return None
    if not awaited:
        return enc.joined(head, None)  # type: ignore[return-value]
    if len(awaited) != 1 or enc.awaited not in awaited:
        return None
    return enc.joined(head, enc.awaited)  # type: ignore[return-value]


def seat_part(state: State, seat: Seat | None, memo: Memo | None = None) -> Json:
    """The viewer's own members: its seat, its own role (D7) and the prompt (shared by every viewer)."""
    own = kind_of(state.roles[seat]) if seat is not None and 0 <= seat < state.players else None
    return {"you": seat, "role": own, "pending": pending(state, fresh(memo))}


def seat_bytes(state: State, seat: Seat | None, memo: Memo) -> tuple[bytes, Any]:
    """The whole view but ``pending``, encoded, braces off (``referee.engine.encoded_views``):
    the public members, ``"you":seat,"role":its own role`` (D7); and the prompt every viewer sees."""
    own = kind_of(state.roles[seat]) if seat is not None and 0 <= seat < state.players else None
    you = b"null" if seat is None else b"%d" % seat
    return b"".join((_public_bytes(state, memo.part(_Parts)), b',"you":', you, b',"role":', dumps(own))), \
        pending(state, memo)


def view(state: State, seat: Seat | None, memo: Memo | None = None) -> Json:
    """``public_view`` and ``seat_part`` together (D7, D74), kept in the game's ``memo``."""
    memo = fresh(memo)
    return {**public_view(state, memo), **seat_part(state, seat, memo)}


def redact(event: Event, seat: Seat | None) -> Event:
    """The deal shows a seat its own role and the public ones (D7)."""
    if event.type != GAME_STARTED:
        return event
    data = event.data
    n = data["players"]
    shown = [r if (p == seat or n == 3 or r == SHERIFF or not data["alive"][p]) else None
             for p, r in enumerate(data["roles"])]
    return Event(event.type, {**data, "roles": shown})


def hidden(state: State, seat: Seat | None) -> set[str]:
    """The role cards ``seat`` may not see yet (D74)."""
    if state.over:
        return set()
    return {state.roles[p] for p in range(state.players) if p != seat and not role_public(state, p)}
