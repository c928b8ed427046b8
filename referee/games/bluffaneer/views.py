"""What each seat may see: views, redacted events, hidden ids (F31).

What every seat's view of one state shares (the prompt; for the encoded
views the encoded public members and each seat's entry as others see it)
is built once per state and kept beside it (``cache.MEMO``, keyed by the
state object: ``referee.engine.statecache``); a seat's own card is never kept
there, it is encoded for that seat's view alone. Do not mutate a view.
"""
from __future__ import annotations

from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Event, Json
from referee.games.bluffaneer.cache import MEMO as _memo
from referee.games.bluffaneer.events import CARD_DRAWN, DECK_RESHUFFLED, GAME_STARTED
from referee.games.bluffaneer.prompts import legal_moves, pending
from referee.games.bluffaneer.state import OVER, Flip, Seat, State
from referee.games.bluffaneer.symbols import CARD_IDS, card_json


def _flip(flip: Flip | None) -> Json | None:
    if flip is None:
        return None
    return {"kind": flip.kind, "among": list(flip.among), "index": flip.index,
            "seat": flip.seat, "queued": flip.queued}


#: each card as clients see it once they may (``card_json``), encoded
_CARD: dict[str, bytes] = {card: dumps(card_json(card)) for card in CARD_IDS}


def shared_pending(state: State) -> Json | None:
    """``prompts.pending(state)``, the same for every seat: built once per state, shared (do not mutate)."""
    memo = _memo.of(state)
    if "pending" in memo:
        known: Json | None = memo["pending"]
        return known
    out = memo["pending"] = pending(state)
    return out


class _Encoded:
    """A state's view members as every seat sees them, encoded: ``head``
    (``players``, ``phase``, ``turn``, then ``"seats":[``), ``seats`` (each
    seat's entry with its card hidden, joined), ``spans`` (where each entry
    lies in ``seats``), ``tail`` (``],`` then ``box`` to ``claim_window_ms``)
    and ``pending`` (the prompt, every seat's alike) with ``members``, its
    encoding after ``"legal_moves":[],`` and before ``"state":{``."""

    __slots__ = ("head", "seats", "spans", "tail", "pending", "members", "moves")

    def __init__(self, state: State) -> None:
        self.pending = shared_pending(state)
        self.members = b',"pending":' + dumps(self.pending) + b',"state":{"you":'
        #: the legal moves met last and their bytes (the same list for every claimer, ``prompts.legal_moves``)
        self.moves: tuple[object, bytes] = (None, b"[]")
        self.head = dumps({"players": state.players, "phase": state.phase,
                           "turn": state.turn})[1:-1] + b',"seats":['
        global _last_seats, _last_rest
        coins = state.coins
        last = _last_seats
        if last[0] is not coins:  # one coin count per seat (F5)
            entries = [b'{"seat":%d,"coins":%d,"cards":1,"card":null}' % (s, coins[s]) for s in range(len(coins))]
            spans, at = [], 0
            for entry in entries:
                spans.append((at, at + len(entry)))
                at += len(entry) + 1
            last = _last_seats = (coins, b",".join(entries), spans)
        self.seats: bytes = last[1]
        self.spans: list[tuple[int, int]] = last[2]
        discard, deck, flip, faces, window = state.discard, state.deck, state.last_flip, state.die_faces, state.window_ms
        rest = _last_rest
        if not (rest[0] is discard and rest[1] is deck and rest[2] is flip and rest[3] is faces and rest[4] is window):
            rest = _last_rest = (discard, deck, flip, faces, window, b"".join((
                b',"discard":[', b",".join([_CARD[c] for c in discard]), b"],",
                dumps({"draw_pile": len(deck), "last_flip": _flip(flip), "die_faces": list(faces),
                       "claim_window_ms": window})[1:-1])))
        self.tail: bytes = b"".join((b"],", dumps({
            "box": state.box,
            "dice": None if state.dice is None else list(state.dice),
            "claim_window": {"opened_at": state.opened_at, "deadline": state.deadline},
            "claims": [{"seat": s, "at": at} for s, at in state.claims],
            "passes": list(state.passes),
            "claimant": state.claimant,
        })[1:-1], rest[5]))


#: the parts of ``_Encoded`` an event most often leaves alone, with the very (immutable) objects they
#: were built from: kept while a state holds those same objects (compared by identity, held so that
#: an id is never reused; every part is public). Each one tuple, read and written whole: atomic.
_last_seats: tuple[Any, bytes, list[tuple[int, int]]] = (None, b"", [])
_last_rest: tuple[Any, ...] = (None,) * 6


def _encoded(state: State) -> _Encoded:
    memo = _memo.of(state)
    enc: _Encoded | None = memo.get("encoded")
    if enc is None:
        enc = memo["encoded"] = _Encoded(state)
    return enc


def seat_bytes(state: State, seat: Seat | None) -> tuple[bytes, Any]:
    """``view(state, seat)`` but ``pending``, encoded, braces off, and the
    prompt: the public members encoded once per state, the seat's own card
    (F31) in its own entry alone."""
    enc = _encoded(state)
    if seat is None:
        return b"".join((b'"you":null,', enc.head, enc.seats, enc.tail)), enc.pending
    if 0 <= seat < len(enc.spans) and (card := state.hands[seat]) is not None:
        start, end = enc.spans[seat]
        seats = enc.seats
        return b'"you":%d,%s%s{"seat":%d,"coins":%d,"cards":1,"card":%s}%s%s' % (
            seat, enc.head, seats[:start], seat, state.coins[seat], _CARD[card], seats[end:], enc.tail), enc.pending
    return b'"you":%d,%s%s%s' % (seat, enc.head, enc.seats, enc.tail), enc.pending


def encoded_seat(state: State, seat: Seat | None, awaited: bool) -> bytes:
    """What ``referee.engine.encoded_views.encoded_view`` sends after the
    members every reader shares: ``"seat"``, ``"legal_moves"`` (``seat``'s
    own if ``awaited``, else none), ``"pending"`` and ``"state"`` (the view
    but ``pending``), closing the object. Only ``seat``'s own card (F31)
    and moves are added to what is encoded once per state for every seat."""
    enc = _encoded(state)
    if seat is None:
        return b"".join((b'"seat":null,"legal_moves":[]', enc.members, b"null,", enc.head, enc.seats, enc.tail,
                         b"}}"))
    moves = b"[]"
    if awaited:
        legal = legal_moves(state, seat)
        met = enc.moves
        if legal is met[0]:
            moves = met[1]
        else:
            moves = dumps(legal)
            enc.moves = (legal, moves)
    if 0 <= seat < len(enc.spans) and (card := state.hands[seat]) is not None:
        start, end = enc.spans[seat]
        seats = enc.seats
        return b'"seat":%d,"legal_moves":%s%s%d,%s%s{"seat":%d,"coins":%d,"cards":1,"card":%s}%s%s}}' % (
            seat, moves, enc.members, seat, enc.head, seats[:start], seat, state.coins[seat], _CARD[card],
            seats[end:], enc.tail)
    return b'"seat":%d,"legal_moves":%s%s%d,%s%s%s}}' % (seat, moves, enc.members, seat, enc.head, enc.seats,
                                                          enc.tail)


def view(state: State, seat: Seat | None) -> Json:
    """Public state plus ``seat``'s own card (F31): coins, card counts, box,
    dice, claims with receipt times, passes, discard pile, draw pile count,
    last flip, the claim window's deadline and the pending prompt."""
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
        "dice": None if state.dice is None else list(state.dice),
        "claim_window": {"opened_at": state.opened_at, "deadline": state.deadline},
        "claims": [{"seat": s, "at": at} for s, at in state.claims],
        "passes": list(state.passes),
        "claimant": state.claimant,
        "discard": [card_json(card) for card in state.discard],
        "draw_pile": len(state.deck),
        "last_flip": _flip(state.last_flip),
        "die_faces": list(state.die_faces),
        "claim_window_ms": state.window_ms,
        "pending": shared_pending(state),
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
