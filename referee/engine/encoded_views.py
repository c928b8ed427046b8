"""Views built for many readers (issue 10): the part of a view every reader
sees alike is built and encoded once per game version and shared by every
seat's view and the spectator's; each reader's own part is encoded and
spliced in.

A ruleset splits its view with two hooks (``RulesetBase.public_view`` and
``seat_part``): ``view(state, seat) == {**public_view(state), **seat_part(state,
seat)}``, the keys of the two disjoint (the conformance suite holds every
ruleset to it). A ruleset that does not split is encoded whole per reader.

A ruleset may also encode a seat's own members itself, from parts it keeps
per state (issue 20): ``seat_bytes(state, seat) -> (own, pending)``, ``own``
the encoded members of ``seat_part(state, seat)`` but ``pending``, in order,
braces off (``b""`` for none), and ``pending`` its value — exactly what the
generic path encodes (``tests/unit/test_encoded_views.py`` holds every
ruleset to it at every step). A ruleset with no public part may go
further: ``encoded_seat(state, seat, awaited) -> bytes``, everything after
the shared head — ``"seat"``, ``"legal_moves"`` (``seat``'s own when
``awaited``, else ``[]``), ``"pending"``, ``"state"`` and the closing brace —
held to the same bytes by the same test. What every reader shares (the head, the
public part) is kept per ``key`` and holds nothing of any seat's own; a
seat's own members and legal moves are asked for every reader.

Pure: no clock, no I/O. The cache is a bounded map from ``(key, version)``
to bytes; a version's public part never changes, so an entry never goes
stale, and dropping one only costs the time to build it again.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Json, Ruleset, Seat

#: versions kept: readers ask for the latest few versions of the games in play
SIZE = 512

_lock = threading.Lock()
_shared: OrderedDict[Hashable, "_Shared"] = OrderedDict()

#: ``"seat":s,"legal_moves":`` of the seats of any table (and of the spectator), encoded once
_SEAT: dict[Seat | None, bytes] = {s: b'"seat":%d,"legal_moves":' % s for s in range(64)}
_SEAT[None] = b'"seat":null,"legal_moves":'


def _inner(encoded: bytes) -> bytes:
    """An encoded object without its braces (``b""`` for ``{}``)."""
    return encoded[1:-1]


class _Shared:
    """One version's shared bytes: the members every reader gets alike (the
    envelope, ``to_act``, ``deadline``, ``result``: ``head``) and those of
    ``public_view`` (``public``, braces off), the awaited seats, and the last
    ``pending`` value met with its bytes — most often every reader's prompt,
    the same object: compared by identity and held (its id is never reused
    meanwhile), so a hit gives a reader the bytes of the very value its own
    view holds, never another seat's; ``moves`` likewise, the last legal
    moves met (a ruleset may give every awaited seat one list). Each is one
    ``(value, bytes)`` pair, read and written whole: atomic under threads."""

    __slots__ = ("envelope", "active", "head", "public", "to_act", "pending", "moves", "seat_bytes", "encoded_seat")

    def __init__(self, envelope: Json, active: bool, head: bytes, public: bytes, to_act: frozenset[Seat],
                 ruleset: Ruleset) -> None:
        self.envelope, self.active, self.head, self.public, self.to_act = envelope, active, head, public, to_act
        #: the ruleset's own encoders (``None``: the generic path)
        self.seat_bytes: Callable[[Any, Seat | None], tuple[bytes, Any]] | None = getattr(ruleset, "seat_bytes", None)
        self.encoded_seat: Callable[[Any, Seat | None, bool], bytes] | None = \
            None if public else getattr(ruleset, "encoded_seat", None)
        self.pending: tuple[Any, bytes] = (_Shared, b"")  # no value met yet (a class is never a view's value)
        self.moves: tuple[Any, bytes] = (_Shared, b"")


def _shared_part(ruleset: Ruleset, state: Any, active: bool, envelope: Json, key: Hashable | None) -> _Shared:
    awaited = ruleset.to_act(state) if active else ()
    head = dumps({**envelope, "to_act": sorted(awaited), "deadline": ruleset.deadline(state) if active else None,
                  "result": ruleset.result(state)})
    public = ruleset.public_view(state)
    made = _Shared(envelope, active, head[:-1] + b",", _inner(dumps(public)) if public else b"", frozenset(awaited),
                   ruleset)
    if key is not None:
        with _lock:
            _shared[key] = made
            if len(_shared) > SIZE:
                _shared.popitem(last=False)
    return made


def _generic_seat_bytes(ruleset: Ruleset, state: Any, seat: Seat | None) -> tuple[bytes, Any]:
    """``(own, pending)`` of ``seat`` from ``seat_part``: what a ruleset's ``seat_bytes`` must give."""
    own = dict(ruleset.seat_part(state, seat))
    pending = own.pop("pending", None)
    return (_inner(dumps(own)) if own else b""), pending


def encoded_view(ruleset: Ruleset, state: Any, seat: Seat | None, *, active: bool,
                 envelope: Json, key: Hashable | None) -> bytes:
    """The JSON a reader is sent: ``envelope`` (the game's own fields), then
    what ``referee.engine.protocol.seat_view`` gives — ``seat``, ``to_act``,
    ``legal_moves``, ``pending``, ``deadline``, ``result`` and ``state``
    (``public_view``'s members, then the seat's own) — all but the seat's
    own members encoded once per ``key`` (a game's id and version;
    ``None``: not shared)."""
    shared = _shared.get(key) if key is not None else None  # one dict read: atomic, no lock needed
    # the envelope (status, turn clock) is the platform's: asked for again with
    # other values (a game cancelled at this version), the head is built anew
    if shared is None or shared.active != active or (shared.envelope is not envelope and shared.envelope != envelope):
        shared = _shared_part(ruleset, state, active, envelope, key)
    whole = shared.encoded_seat
    if whole is not None:
        return shared.head + whole(state, seat, seat in shared.to_act and seat is not None)
    own_bytes = shared.seat_bytes
    own, pending = own_bytes(state, seat) if own_bytes is not None else _generic_seat_bytes(ruleset, state, seat)
    met = shared.pending
    if pending is met[0]:
        pending_bytes = met[1]
    else:  # kept: the next reader's is most often the same object (every reader's prompt)
        pending_bytes = dumps(pending)
        shared.pending = (pending, pending_bytes)
    if seat in shared.to_act and seat is not None:
        legal = ruleset.legal_moves(state, seat)
        met = shared.moves
        if legal is met[0]:
            moves = met[1]
        else:
            moves = dumps(legal)
            shared.moves = (legal, moves)
    else:
        moves = b"[]"
    public = shared.public
    return b"".join((shared.head, _SEAT.get(seat) or b'"seat":%d,"legal_moves":' % seat,  # type: ignore[str-format]
                     moves, b',"pending":', pending_bytes, b',"state":{', public,
                     b"," if public and own else b"", own, b"}}"))


def clear() -> None:
    """Drop every shared part (tests: results must not change)."""
    with _lock:
        _shared.clear()
