"""What each seat may see: views, redacted events, hidden ids (F31).

What every seat's view of one state shares (the prompt; for the encoded
views the encoded public members and each seat's entry as others see it)
is built once per state and kept in the game's memo
(``referee.engine.statecache.Memo``, ``memo.of(state)``: see ``legal``;
none given: a fresh one). The encoded views (issue 20) are built for every
seat at once, the first time one is asked for, and kept there too
(``_Views``), each handed to its own seat alone: a seat's own card (F31) is
in its own view only. Every part they are joined from is public and is
kept in the memo (``_Parts``), while the parts of the state it is built
from are the very same objects, from one state to the next. Do not mutate a
view.
"""
from __future__ import annotations

from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Event, Json
from referee.engine.statecache import Memo, fresh, per_state
from referee.games.bluffaneer.fold import CARD_DRAWN, DECK_RESHUFFLED, GAME_STARTED
from referee.games.bluffaneer.legal import awaited_seats, legal_moves
from referee.games.bluffaneer.prompts import claims_prompt, pending
from referee.games.bluffaneer.state import CLAIMS, DECISION, OVER, ROLL, STEAL, Flip, Seat, State
from referee.games.bluffaneer.symbols import CARD_IDS, card_json


def _flip(flip: Flip | None) -> Json | None:
    if flip is None:
        return None
    return {"kind": flip.kind, "among": list(flip.among), "index": flip.index,
            "seat": flip.seat, "queued": flip.queued}


#: each card as clients see it once they may (``card_json``), encoded
_CARD: dict[str, bytes] = {card: dumps(card_json(card)) for card in CARD_IDS}


def shared_pending(state: State, memo: Memo) -> Json | None:
    """``prompts.pending(state)``, the same for every seat: built once per state (kept in ``memo``),
    shared (do not mutate)."""
    kept = memo.of(state)
    if "pending" in kept:
        known: Json | None = kept["pending"]
        return known
    out = kept["pending"] = pending(state, awaited_seats(state, memo))
    return out


def _int(value: object) -> bytes:
    """``dumps(value)`` of an ``int`` or ``None`` (``%d`` for a plain int: ``True`` is no int here)."""
    return b"%d" % value if type(value) is int else dumps(value)


#: ``"seat":s,"legal_moves":`` and ``s`` of every seat of a table, encoded once
_LEAD: dict[Seat, bytes] = {s: b'"seat":%d,"legal_moves":' % s for s in range(64)}
_NUM: dict[Seat, bytes] = {s: b"%d" % s for s in range(64)}
_SPECTATOR = b'"seat":null,"legal_moves":[]'
#: ``"seat":s,"legal_moves":[]`` of every seat (one not awaited)
_IDLE: dict[Seat, bytes] = {s: b'"seat":%d,"legal_moves":[]' % s for s in range(64)}
#: bound of the keyed byte caches of ``_Parts`` (their keys are few in any real game: a clear costs a rebuild)
_KEYS = 4096
_DEADLINE = b'"deadline":null,"default":'
#: what ``pre`` holds around the prompt (``_Views``), and all of it without one
_PENDING = b',"pending":'
_YOU = b',"state":{"you":'
_NO_PROMPT = _PENDING + b"null" + _YOU


class _Parts:
    """The parts of the game's encoded views an event most often leaves
    alone (a part of the game's ``Memo``): the keyed ones by what they
    encode, the others (``seats`` to ``regions``) with the very (immutable)
    objects they were built from, kept while a state holds those same
    objects (compared by identity and held). Every part is public but
    ``regions``, each seat's entries with its own card, read by ``_Views``
    alone, which hands each seat its own (F31). Each one tuple or dict
    entry, read and written whole: atomic."""

    __slots__ = ("prompts", "windows", "heads", "moves", "seats", "window", "answers", "rest", "told", "regions",
                 "last")

    def __init__(self) -> None:
        #: the prompt's bytes by what it is built from: the steal target's by ``(phase, players, turn,
        #: dice)`` (F12, F13), the roll's and the decision's by ``(phase, players, turn)`` (F9, F21);
        #: the claim window's by its awaited seats, the bytes before and after its deadline (F18)
        self.prompts: dict[tuple[Any, ...], bytes] = {}
        self.windows: dict[frozenset[Seat], tuple[bytes, bytes, bytes, bytes]] = {}
        #: ``"players":…,"phase":…,"turn":…,"seats":[`` by ``(players, phase, turn)``
        self.heads: dict[tuple[Any, ...], bytes] = {}
        #: the awaited seats' legal moves, encoded, by ``(phase, turn, players)``: ``prompts.legal_moves``
        #: depends on nothing else, the same list for every awaited seat of a phase (the roller's own in
        #: every phase but the claim window, F9, F12, F17, F21)
        self.moves: dict[tuple[Any, ...], bytes] = {}
        self.seats: tuple[Any, bytes, list[tuple[bytes, bytes]]] = (None, b"", [])
        self.window: tuple[Any, ...] = (_Parts,) * 5  # a class: never a state's value
        self.answers: tuple[Any, ...] = (_Parts,) * 4
        self.rest: tuple[Any, ...] = (_Parts,) * 6
        self.told: tuple[Any, bytes] = (_Parts, b"")
        self.regions: tuple[Any, Any, list[bytes]] = (None, None, [])
        #: the ``_Views`` asked for last (every seat's view of a state is asked for in a row)
        self.last: _Views | None = None


def _window_bytes(state: State, awaited: frozenset[Seat], parts: _Parts) -> tuple[bytes, bytes, bytes, bytes]:
    """The claim window's prompt (``prompts.claims_prompt``, F18) encoded before and after its
    deadline, and the same with ``pre``'s own bytes around (``_Views``)."""
    seats = sorted(awaited)
    built = dumps(claims_prompt(seats, None))
    cut = built.index(_DEADLINE)
    around = (built[:cut + 11], built[cut + 15:], _PENDING + built[:cut + 11], built[cut + 15:] + _YOU)
    windows = parts.windows
    if len(windows) >= _KEYS:
        windows.clear()
    windows[awaited] = around
    return around


def _keyed(cache: dict[Any, bytes], key: Any, value: Any) -> bytes:
    """``dumps(value)`` kept in ``cache`` under ``key``."""
    if len(cache) >= _KEYS:
        cache.clear()
    out = cache[key] = dumps(value)
    return out


class _Views:
    """One state's encoded views: ``views`` every seat's ``encoded_seat``
    as the engine asks for it (its moves when awaited), built at once, each
    handed to its own seat alone (F31: a seat's own card is in its own
    view only); ``awaited`` the awaited seats; and the public pieces they
    are joined from, for any other reader: ``pre`` (``,"pending":``, the
    prompt, ``,"state":{"you":``), ``mid`` (``,"players":`` to
    ``"seats":[``), ``seats`` (every entry with its card hidden), ``cuts``
    (each seat's entry's bytes before and after its ``null`` card) and
    ``tail`` (``],"box":`` to the closing braces)."""

    __slots__ = ("state", "_views", "awaited", "pre", "mid", "seats", "cuts", "tail", "regions", "moves")

    def __init__(self, state: State, memo: Memo, parts: _Parts) -> None:
        self.state = state
        self.awaited = awaited = awaited_seats(state, memo)
        self.pre = _pre(state, awaited, memo, parts)
        self.mid = _mid(state.players, state.phase, state.turn, parts)
        last = _seat_entries(state.coins, parts)
        self.seats = last[1]
        self.cuts = last[2]
        self.tail = _tail(state, parts)
        #: each seat's entries with its own card shown (F31): read for that seat's view alone
        self.regions: list[bytes] = _regions(last, state.hands, parts)[2]
        # the awaited seats' moves: one list for every awaited seat of a phase (F9, F12, F17, F21)
        moves = b"[]"
        if awaited:
            moved: tuple[Any, ...] = (state.phase, state.turn, state.players)
            moves = parts.moves.get(moved) or _keyed(parts.moves, moved, legal_moves(state, min(awaited), memo))
        self.moves = moves
        self._views: dict[Seat, bytes] | None = None

    @property
    def views(self) -> dict[Seat, bytes]:
        """Every seat's ``encoded_seat``, built at once the first time."""
        views = self._views
        if views is None:
            views = self._views = self.joined(b"", self.awaited)
        return views

    def joined(self, head: bytes, awaited: frozenset[Seat]) -> dict[Seat, bytes]:
        """Every seat's ``head`` and ``encoded_seat`` (its moves when in
        ``awaited``, empty or ``self.awaited``), each for its own seat alone."""
        lead, idle, num = _LEAD, _IDLE, _NUM
        pre, mid, tail, moves = self.pre, self.mid, self.tail, self.moves
        return {s: b"".join((head, lead[s], moves, pre, num[s], mid, region, tail)) if s in awaited
                else b"".join((head, idle[s], pre, num[s], mid, region, tail))
                for s, region in enumerate(self.regions)}


def _pre(state: State, awaited: frozenset[Seat], memo: Memo, parts: _Parts) -> bytes:
    """``,"pending":``, the prompt (F12, F13, F18, F21) built from the few
    parts of the state it is built from, and ``,"state":{"you":``."""
    phase = state.phase
    if phase == CLAIMS:
        around = parts.windows.get(awaited) or _window_bytes(state, awaited, parts)
        deadline = state.deadline
        return b"".join((around[2], b"%d" % deadline if type(deadline) is int else dumps(deadline), around[3]))
    if phase == STEAL or phase == DECISION or phase == ROLL:
        keyed: tuple[Any, ...] = (phase, state.players, state.turn, state.dice if phase == STEAL else None)
        prompt = parts.prompts.get(keyed) or _keyed(parts.prompts, keyed, shared_pending(state, memo))
        return b"".join((_PENDING, prompt, _YOU))
    return _NO_PROMPT


def _mid(players: int, phase: str, turn: Seat, parts: _Parts) -> bytes:
    """``,"players":…,"phase":…,"turn":…,"seats":[``, kept by what it encodes."""
    key = (players, phase, turn)
    heads = parts.heads
    mid = heads.get(key)
    if mid is None:
        mid = b"," + dumps({"players": players, "phase": phase, "turn": turn})[1:-1] + b',"seats":['
        if len(heads) >= _KEYS:
            heads.clear()
        heads[key] = mid
    return mid


def _seat_entries(coins: tuple[int, ...], parts: _Parts) -> tuple[Any, bytes, list[tuple[bytes, bytes]]]:
    """Every seat's entry with its card hidden, and each entry's bytes
    before and after its ``null`` card: one coin count per seat (F5)."""
    last = parts.seats
    if last[0] is not coins:
        entries = [b'{"seat":%d,"coins":%s,"cards":1,"card":' % (s, _int(coins[s])) for s in range(len(coins))]
        whole = b"null},".join(entries) + b"null}"
        cuts, at = [], 0
        for entry in entries:
            at += len(entry)
            cuts.append((whole[:at], whole[at + 4:]))
            at += 6
        last = parts.seats = (coins, whole, cuts)
    return last


def _tail(state: State, parts: _Parts) -> bytes:
    """``],"box":`` to the closing braces: the box, the dice and the claim
    window (F9, F18), the claims and passes (F17, F19), the discard pile, the
    draw pile's size, the last flip, the die faces, the window's length and
    ``last``; each of the four parts kept while the parts of the state it is
    built from are the same objects."""
    return b"".join((_window_part(state, parts), _answers_part(state, parts), _rest_part(state, parts),
                     _told_part(state, parts)))


def _window_part(state: State, parts: _Parts) -> bytes:
    """``],"box":…,"dice":…,"claim_window":{…}`` (F9, F18), kept while its parts are the same objects."""
    box, dice, opened, deadline = state.box, state.last_roll, state.opened_at, state.deadline
    window = parts.window
    if not (window[0] is box and window[1] is dice and window[2] is opened and window[3] is deadline):
        window = parts.window = (box, dice, opened, deadline, b"".join((b"],", dumps({
            "box": box, "dice": None if dice is None else list(dice),
            "claim_window": {"opened_at": opened, "deadline": deadline}})[1:-1])))
    out: bytes = window[4]
    return out


def _answers_part(state: State, parts: _Parts) -> bytes:
    """``,"claims":…,"passes":…,"claimant":…`` (F17, F19), kept while its parts are the same objects."""
    claims, passes, claimant = state.claims, state.passes, state.claimant
    answers = parts.answers
    if not (answers[0] is claims and answers[1] is passes and answers[2] is claimant):
        answers = parts.answers = (claims, passes, claimant, b"," + dumps({
            "claims": [{"seat": seat, "at": at} for seat, at in claims], "passes": list(passes),
            "claimant": claimant})[1:-1])
    out: bytes = answers[3]
    return out


def _rest_part(state: State, parts: _Parts) -> bytes:
    """``,"discard":[…],"draw_pile":…`` to ``,"last":`` (F24, F30, F31), kept while its parts are the same
    objects."""
    discard, deck, flip, faces, ms = state.discard, state.deck, state.last_flip, state.die_faces, state.window_ms
    rest = parts.rest
    if not (rest[0] is discard and rest[1] is deck and rest[2] is flip and rest[3] is faces and rest[4] is ms):
        rest = parts.rest = (discard, deck, flip, faces, ms, b"".join((
            b',"discard":[', b",".join([_CARD[card] for card in discard]), b"],",
            dumps({"draw_pile": len(deck), "last_flip": _flip(flip), "die_faces": list(faces),
                   "claim_window_ms": ms})[1:-1], b',"last":')))
    out: bytes = rest[5]
    return out


def _told_part(state: State, parts: _Parts) -> bytes:
    """``last`` and the closing braces, kept while ``last`` is the same object (most moves change it alone
    of the four parts)."""
    shown = state.last
    told = parts.told
    if told[0] is not shown:
        told = parts.told = (shown, dumps(shown) + b"}}")
    return told[1]


def _regions(last: tuple[Any, bytes, list[tuple[bytes, bytes]]], hands: tuple[Any, ...],
             parts: _Parts) -> tuple[Any, ...]:
    """Each seat's entries with its own card shown (F31), kept while the coins and hands are the same."""
    regions = parts.regions
    if not (regions[0] is last and regions[1] is hands):
        whole, cuts = last[1], last[2]
        regions = parts.regions = (last, hands, [
            whole if card is None else b"".join((cuts[s][0], _CARD[card], cuts[s][1]))
            for s, card in enumerate(hands[:len(cuts)])])
    return regions


def _views(state: State, memo: Memo) -> _Views:
    """``state``'s ``_Views``, built once per state (kept in ``memo``, ``"views"``)."""
    return per_state(memo, state, _Parts, "views", _Views)


def _state_bytes(enc: _Views, state: State, seat: Seat | None) -> tuple[bytes, ...]:
    """The pieces of ``"state"`` after ``"you":`` (``mid`` on), ``seat``'s own card (F31) joined in its entry."""
    if seat is not None and 0 <= seat < len(enc.cuts) and (card := state.hands[seat]) is not None:
        before, after = enc.cuts[seat]
        return enc.mid, before, _CARD[card], after, enc.tail
    return enc.mid, enc.seats, enc.tail


def seat_bytes(state: State, seat: Seat | None, memo: Memo) -> tuple[bytes, Any]:
    """``view(state, seat)`` but ``pending``, encoded, braces off, and the
    prompt: the public members encoded once per state, the seat's own card
    (F31) in its own entry alone."""
    you = b"null" if seat is None else _NUM.get(seat) or b"%d" % seat
    return b"".join((b'"you":', you, *_state_bytes(_views(state, memo), state, seat)))[:-2], \
        shared_pending(state, memo)


def encoded_seat(state: State, seat: Seat | None, awaited: bool, memo: Memo) -> bytes:
    """What ``referee.engine.encoded_views.encoded_view`` sends after the
    members every reader shares: ``"seat"``, ``"legal_moves"`` (``seat``'s
    own if ``awaited``, else none), ``"pending"`` and ``"state"`` (the view
    but ``pending``), closing the object. Only ``seat``'s own card (F31)
    and moves are added to what is encoded once per state for every seat;
    every seat's is built at once, the first time one is asked for."""
    last = _views(state, memo)
    out = last.views.get(seat)  # type: ignore[arg-type]
    if out is not None and (seat in last.awaited) == awaited:
        return out
    if seat is None:
        return b"".join((_SPECTATOR, last.pre, b"null", last.mid, last.seats, last.tail))
    moves = dumps(legal_moves(state, seat, memo)) if awaited else b"[]"
    return b"".join((_LEAD.get(seat) or b'"seat":%d,"legal_moves":' % seat, moves, last.pre,
                     _NUM.get(seat) or b"%d" % seat, *_state_bytes(last, state, seat)))


def every_seat(state: State, head: bytes, awaited: frozenset[Seat], memo: Memo) -> dict[Seat | None, bytes] | None:
    """Every seat's view as ``referee.engine.encoded_views`` sends it, built
    at once: ``head``, then ``encoded_seat`` of each seat (its moves when
    ``awaited``), each for its own seat alone (F31); a new dict. ``None``
    for awaited seats the rules do not await."""
    last = _views(state, memo)
    if awaited and awaited != last.awaited or len(last.regions) > 64:
        return None
    return last.joined(head, awaited)  # type: ignore[return-value]


def view(state: State, seat: Seat | None, memo: Memo | None = None) -> Json:
    """Public state plus ``seat``'s own card (F31): coins, card counts, box,
    dice (the last roll, kept past its turn: F9), claims with receipt times,
    passes, discard pile, draw pile count, last flip, the claim window's
    deadline, ``last`` (the last roll, claim, decision, revealed card or
    resignation, with its ``kind``) and the pending prompt."""
    return {
        "you": seat,
        "players": state.players,
        "phase": state.phase,
        "turn": state.turn,
        "seats": [
            {"seat": s, "coins": state.coins[s], "cards": 1,
             "card": card_json(card) if s == seat and card is not None else None}
            for s, card in enumerate(state.hands)
        ],
        "box": state.box,
        "dice": None if state.last_roll is None else list(state.last_roll),
        "claim_window": {"opened_at": state.opened_at, "deadline": state.deadline},
        "claims": [{"seat": s, "at": at} for s, at in state.claims],
        "passes": list(state.passes),
        "claimant": state.claimant,
        "discard": [card_json(card) for card in state.discard],
        "draw_pile": len(state.deck),
        "last_flip": _flip(state.last_flip),
        "die_faces": list(state.die_faces),
        "claim_window_ms": state.window_ms,
        "last": state.last,
        "pending": shared_pending(state, fresh(memo)),
    }


def redact(event: Event, seat: Seat | None) -> Event:
    """The event as ``seat`` may see it (F31): the deal shows only his own
    card and the draw pile's size; a reshuffle only its size; a draw only to
    its drawer. Revealed cards (F16, F22, F23) are public."""
    data = event.data
    if event.type == GAME_STARTED:
        shown = {k: v for k, v in data.items() if k != "deck"}
        shown["hands"] = [card if s == seat else None for s, card in enumerate(data["hands"])]
        shown["deck_count"] = len(data["deck"])
        return Event(event.type, shown)
    if event.type == DECK_RESHUFFLED:
        return Event(event.type, {"count": len(data["order"])})
    if event.type == CARD_DRAWN and data["seat"] != seat:
        return Event(event.type, {"seat": data["seat"], "card": None})
    return event


def hidden(state: State, seat: Seat | None) -> set[str]:
    """Ids ``seat`` must not see: other players' cards and the draw pile
    (for a spectator every hand and the draw pile) (F31). Nothing once the
    game is over: the service then publishes the whole log."""
    if state.phase == OVER:
        return set()
    out = {card for s, card in enumerate(state.hands) if s != seat and card is not None}
    out.update(state.deck)
    return out
