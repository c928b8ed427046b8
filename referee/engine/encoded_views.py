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
held to the same bytes by the same test. A ruleset with a public part may
encode it itself too: ``public_bytes(state) -> bytes``, the members of
``public_view(state)`` encoded, braces off (``b""`` for none), then asked for
once per ``key`` instead of ``public_view``; and every seat's own parts at
once: ``seat_encoded(state, seat, awaited) -> (legal_moves, pending, own)``,
the encoded ``"legal_moves"`` (``seat``'s own when ``awaited``, else
``b"[]"``), ``"pending"`` and ``own`` as ``seat_bytes`` gives it — the same
bytes as the generic path (the same test holds them to it). What every
reader shares (the head, the public part) is kept per ``key`` and holds
nothing of any seat's own; a seat's own members and legal moves are asked
for every reader. A ruleset may also build every seat's whole view at once:
``every_seat(state, head, awaited) -> dict[Seat, bytes] | None``, a new
dict of each of its table's seats' bytes as the engine sends them
(``head``, then what ``encoded_seat`` gives the seat, ``awaited`` the seats
whose moves are shown: a frozenset, empty for a game no longer active), or
``None`` where it cannot (each reader is then encoded as above); asked for
once per ``key`` (never for ``key=None``) and kept beside the shared part,
each seat's bytes handed to that seat alone, while readers bring the very
state object they were built from (its id: another object of the same
version is encoded per reader; the same test holds every reader's bytes to
the generic path's).

Pure: no clock, no I/O. The cache is a bounded map from ``key`` (a game's
id and version) to bytes; a version's public part never changes, so an entry never goes
stale, and dropping one only costs the time to build it again.
"""
from __future__ import annotations

from typing import Any, Callable, Hashable

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Json, Ruleset, Seat

#: versions kept: readers ask for the latest few versions of the games in play
SIZE = 512

#: the shared parts of the latest versions, in two generations: new entries go to ``_young``;
#: when it holds ``SIZE // 2`` it becomes ``_old`` (the one before dropped whole), so at most
#: ``SIZE`` are kept. No lock: each read, write and swap is atomic, and two threads racing at a
#: swap lose at most a few entries, which only costs building them again.
_young: dict[Hashable, "_Shared"] = {}
_old: dict[Hashable, "_Shared"] = {}

#: ``"seat":s,"legal_moves":`` of the seats of any table (and of the spectator), encoded once
_SEAT: dict[Seat | None, bytes] = {s: b'"seat":%d,"legal_moves":' % s for s in range(64)}
_SEAT[None] = b'"seat":null,"legal_moves":'


#: each ruleset's own encoders (``public_bytes``, ``seat_bytes``, ``encoded_seat``, ``seat_encoded``,
#: ``every_seat``; ``None`` where it has none), looked up once per ruleset object
_HOOKS: dict[int, tuple[Any, ...]] = {}

#: the last reader's version met, ``(key, envelope, active, state, shared, done)``: the next
#: reader of the very same objects (the readers of one version come in a row) is handed its
#: ``_Shared`` with no lookup, and its bytes from ``done`` (every seat's, built from this very
#: state; ``None``: none). The state is held (its id is never reused meanwhile). One tuple, read
#: and written whole: atomic under threads.
_last: tuple[Any, ...] = (None, None, None, None, None, None)


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

    __slots__ = ("envelope", "active", "head", "public", "to_act", "pending", "moves", "seat_bytes", "encoded_seat",
                 "seat_encoded", "state", "done")

    def __init__(self, envelope: Json, active: bool, head: bytes, public: bytes, to_act: frozenset[Seat],
                 hooks: tuple[Any, ...]) -> None:
        self.envelope, self.active, self.head, self.public, self.to_act = envelope, active, head, public, to_act
        #: the ruleset's own encoders (``None``: the generic path)
        self.seat_bytes: Callable[[Any, Seat | None], tuple[bytes, Any]] | None = hooks[1]
        self.encoded_seat: Callable[[Any, Seat | None, bool], bytes] | None = None if public else hooks[2]
        self.seat_encoded: Callable[[Any, Seat | None, bool], tuple[bytes, bytes, bytes]] | None = hooks[3]
        self.pending: tuple[Any, bytes] = (_Shared, b"")  # no value met yet (a class is never a view's value)
        self.moves: tuple[Any, bytes] = (_Shared, b"")
        #: every seat's finished bytes by seat (``every_seat``), built from the state whose id is
        #: ``state`` (not held: ``key`` names one value; another object of it is encoded per reader);
        #: ``None``: none built
        self.state: int = 0
        self.done: dict[Seat | None, bytes] | None = None


def _hooks(ruleset: Ruleset[Any]) -> tuple[Any, ...]:
    """``ruleset``'s own encoders, looked up once (a miss costs a ``getattr`` that fails)."""
    hooks = _HOOKS.get(id(ruleset))
    if hooks is None or hooks[5] is not ruleset:
        hooks = _HOOKS[id(ruleset)] = (*(getattr(ruleset, name, None) for name in (
            "public_bytes", "seat_bytes", "encoded_seat", "seat_encoded", "every_seat")), ruleset)
    return hooks


def _head(ruleset: Ruleset[Any], state: Any, active: bool, envelope: Json) -> tuple[bytes, frozenset[Seat]]:
    """Every reader's head — ``dumps({**envelope, "to_act": …, "deadline": …,
    "result": …})`` but its closing brace, a comma in its place — and the awaited seats."""
    awaited = ruleset.to_act(state) if active else ()
    head = dumps({**envelope, "to_act": sorted(awaited), "deadline": ruleset.deadline(state) if active else None,
                  "result": ruleset.result(state)})
    return head[:-1] + b",", frozenset(awaited)


def _shared_part(ruleset: Ruleset[Any], state: Any, active: bool, envelope: Json, key: Hashable | None) -> _Shared:
    hooks = _hooks(ruleset)
    head, awaited = _head(ruleset, state, active, envelope)
    public_bytes: Callable[[Any], bytes] | None = hooks[0]
    if public_bytes is not None:
        public = public_bytes(state)
    else:
        view = ruleset.public_view(state)
        public = _inner(dumps(view)) if view else b""
    made = _Shared(envelope, active, head, public, awaited, hooks)
    if key is not None:
        every = hooks[4]
        if every is not None:
            made.done = every(state, head, awaited)
            made.state = id(state)
        global _young, _old
        young = _young
        young[key] = made
        if len(young) >= SIZE // 2:
            _old, _young = young, {}
    return made


def _generic_seat_bytes(ruleset: Ruleset[Any], state: Any, seat: Seat | None) -> tuple[bytes, Any]:
    """``(own, pending)`` of ``seat`` from ``seat_part``: what a ruleset's ``seat_bytes`` must give."""
    own = dict(ruleset.seat_part(state, seat))
    pending = own.pop("pending", None)
    return (_inner(dumps(own)) if own else b""), pending


def encoded_view(ruleset: Ruleset[Any], state: Any, seat: Seat | None, *, active: bool,
                 envelope: Json, key: Hashable | None) -> bytes:
    """The JSON a reader is sent: ``envelope`` (the game's own fields), then
    what ``referee.engine.protocol.seat_view`` gives — ``seat``, ``to_act``,
    ``legal_moves``, ``pending``, ``deadline``, ``result`` and ``state``
    (``public_view``'s members, then the seat's own) — all but the seat's
    own members encoded once per ``key`` (a game's id and version;
    ``None``: not shared)."""
    global _last
    last = _last
    shared: _Shared | None
    done: dict[Seat | None, bytes] | None
    if last[0] is key and last[3] is state and last[1] is envelope and last[2] is active and key is not None:
        done = last[5]
        if done is not None:
            out = done.get(seat)
            if out is not None:
                return out
        shared = last[4]
    else:
        if key is not None:  # dict reads: atomic, no lock needed
            shared = _young.get(key)
            if shared is None:
                shared = _old.get(key)
        else:
            shared = None
        # the envelope (status, turn clock) is the platform's: asked for again with
        # other values (a game cancelled at this version), the head is built anew
        if shared is None or shared.active != active or (shared.envelope is not envelope
                                                         and shared.envelope != envelope):
            shared = _shared_part(ruleset, state, active, envelope, key)
        done = shared.done
        if done is None or shared.state != id(state):
            done = None
        if key is not None:  # ``envelope``: the very one, found alike
            _last = (key, envelope, active, state, shared, done)
        if done is not None:
            out = done.get(seat)
            if out is not None:
                return out
    whole = shared.encoded_seat
    if whole is not None:
        return shared.head + whole(state, seat, seat in shared.to_act and seat is not None)
    parts = shared.seat_encoded
    if parts is not None:
        moves, pending_bytes, own = parts(state, seat, seat in shared.to_act and seat is not None)
        public = shared.public
        return b"".join((shared.head, _SEAT.get(seat) or b'"seat":%d,"legal_moves":' % seat,  # type: ignore[str-format]
                         moves, b',"pending":', pending_bytes, b',"state":{', public,
                         b"," if public and own else b"", own, b"}}"))
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
    global _young, _old, _last
    _young, _old = {}, {}
    _last = (None, None, None, None, None, None)
    _HOOKS.clear()
