"""Views built for many readers (issue 10): the part of a view every reader
sees alike is built and encoded once per game version and shared by every
seat's view and the spectator's; each reader's own part is encoded and
spliced in.

A ruleset splits its view with two hooks (``RulesetBase.public_view`` and
``seat_part``): ``view(state, seat) == {**public_view(state), **seat_part(state,
seat)}``, the keys of the two disjoint (the conformance suite holds every
ruleset to it). A ruleset that does not split is encoded whole per reader.

A ruleset may also encode a seat's own members itself, from parts it keeps
per state (issue 20): ``seat_bytes(state, seat, memo) -> (own, pending)``, ``own``
the encoded members of ``seat_part(state, seat)`` but ``pending``, in order,
braces off (``b""`` for none), and ``pending`` its value — exactly what the
generic path encodes (``tests/unit/test_encoded_views.py`` holds every
ruleset to it at every step). A ruleset with no public part may go
further: ``encoded_seat(state, seat, awaited, memo) -> bytes``, everything after
the shared head — ``"seat"``, ``"legal_moves"`` (``seat``'s own when
``awaited``, else ``[]``), ``"pending"``, ``"state"`` and the closing brace —
held to the same bytes by the same test. A ruleset with a public part may
encode it itself too: ``public_bytes(state, memo) -> bytes``, the members of
``public_view(state)`` encoded, braces off (``b""`` for none), then asked for
once per ``key`` instead of ``public_view``; and every seat's own parts at
once: ``seat_encoded(state, seat, awaited, memo) -> (legal_moves, pending, own)``,
the encoded ``"legal_moves"`` (``seat``'s own when ``awaited``, else
``b"[]"``), ``"pending"`` and ``own`` as ``seat_bytes`` gives it — the same
bytes as the generic path (the same test holds them to it). What every
reader shares (the head, the public part) is kept per ``key`` and holds
nothing of any seat's own; a seat's own members and legal moves are asked
for every reader. A ruleset may also build every seat's whole view at once:
``every_seat(state, head, awaited, memo) -> dict[Seat | None, bytes] | None``, a new
dict of each of its table's seats' bytes (and the spectator's under ``None``,
if it builds it) as the engine sends them
(``head``, then what ``encoded_seat`` gives the seat, ``awaited`` the seats
whose moves are shown: a frozenset, empty for a game no longer active), or
``None`` where it cannot (each reader is then encoded as above); asked for
once per ``key`` (never for ``key=None``) and kept beside the shared part,
each seat's bytes handed to that seat alone, while readers bring the very
state object they were built from (held and compared with ``is``: another
object of the same version is encoded per reader; the same test holds every
reader's bytes to the generic path's). Every encoder takes the game's
``memo`` (``referee.engine.statecache.Memo``), where the ruleset keeps what
it builds from the game's states.

Pure: no clock, no I/O. What is shared lives in a ``ViewCache``, an object
its owner holds (the service one per process; a bench, a test or a tool its
own) and hands to every call: a bounded map from ``key`` (a game's id and
version) to the shared bytes; a version's public part never changes, so an
entry never goes stale, and dropping one only costs the time to build it
again. What a ruleset keeps of a game's states is in that game's ``Memo``,
which the caller hands to ``encoded_view`` (``None``: a fresh one, the same
bytes, only slower). Nothing is kept at module level.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Json, Ruleset, Seat
from referee.engine.statecache import Memo

#: versions a ``ViewCache`` keeps by default: readers ask for the newest version of the games in play
SIZE = 512

#: ``"seat":s,"legal_moves":`` of the seats of any table (and of the spectator), encoded once (a constant)
_SEAT: dict[Seat | None, bytes] = {s: b'"seat":%d,"legal_moves":' % s for s in range(64)}
_SEAT[None] = b'"seat":null,"legal_moves":'
#: ``ViewCache.last`` before any reader
_NONE: tuple[Any, ...] = (None, None, None, None, None, None)


def _inner(encoded: bytes) -> bytes:
    """An encoded object without its braces (``b""`` for ``{}``)."""
    return encoded[1:-1]


class _Shared:
    """One version's shared bytes: the members every reader gets alike (the
    envelope, ``to_act``, ``deadline``, ``result``: ``head``) and those of
    ``public_view`` (``public``, braces off; ``None`` until a reader not
    served from ``done`` needs it: ``_public``), the awaited seats, and the last
    ``pending`` value met with its bytes — most often every reader's prompt,
    the same object: compared by identity and held (its id is never reused
    meanwhile), so a hit gives a reader the bytes of the very value its own
    view holds, never another seat's; ``moves`` likewise, the last legal
    moves met (a ruleset may give every awaited seat one list). Each is one
    ``(value, bytes)`` pair, read and written whole: atomic under threads."""

    __slots__ = ("envelope", "active", "head", "public", "to_act", "pending", "moves", "hooks", "state", "done")

    def __init__(self, envelope: Json, active: bool, head: bytes, to_act: frozenset[Seat],
                 hooks: tuple[Any, ...]) -> None:
        self.envelope, self.active, self.head, self.to_act, self.hooks = envelope, active, head, to_act, hooks
        #: ``public_view``'s members encoded, braces off (``None``: not built yet)
        self.public: bytes | None = None
        self.pending: tuple[Any, bytes] = (_Shared, b"")  # no value met yet (a class is never a view's value)
        self.moves: tuple[Any, bytes] = (_Shared, b"")
        #: every seat's finished bytes by seat (``every_seat``), built from ``state`` (that very
        #: object: ``key`` names one value; another object of it is encoded per reader);
        #: ``None``: none built
        self.state: Any = _Shared
        self.done: dict[Seat | None, bytes] | None = None


def _hooks(ruleset: Ruleset[Any]) -> tuple[Any, ...]:
    """``ruleset``'s own encoders (``RulesetBase.encoders``: ``None`` where it has none)."""
    return ruleset.encoders


def _head(ruleset: Ruleset[Any], state: Any, active: bool, envelope: Json, memo: Memo) -> tuple[bytes, frozenset[Seat]]:
    """Every reader's head — ``dumps({**envelope, "to_act": …, "deadline": …,
    "result": …})`` but its closing brace, a comma in its place — and the awaited seats."""
    awaited = ruleset.to_act(state, memo=memo) if active else ()
    head = dumps({**envelope, "to_act": sorted(awaited), "deadline": ruleset.deadline(state) if active else None,
                  "result": ruleset.result(state)})
    return head[:-1] + b",", frozenset(awaited)


def _shared_part(ruleset: Ruleset[Any], state: Any, active: bool, envelope: Json, every: bool,
                 memo: Memo) -> _Shared:
    """One version's ``_Shared`` (every seat's whole view built too if ``every``
    and the ruleset can: ``every_seat``; the public part then built only
    when a reader needs it)."""
    hooks = _hooks(ruleset)
    head, awaited = _head(ruleset, state, active, envelope, memo)
    made = _Shared(envelope, active, head, awaited, hooks)
    every_seat = hooks[4]
    if every and every_seat is not None:
        made.done = every_seat(state, head, awaited, memo)
        made.state = state
    return made


def _public(ruleset: Ruleset[Any], shared: _Shared, state: Any, memo: Memo) -> bytes:
    """The version's public part (``public_view``'s members, braces off), built once."""
    public = shared.public
    if public is None:
        public_bytes: Callable[[Any, Memo], bytes] | None = shared.hooks[0]
        if public_bytes is not None:
            public = public_bytes(state, memo)
        else:
            view = ruleset.public_view(state, memo=memo)
            public = _inner(dumps(view)) if view else b""
        shared.public = public
    return public


def _generic_seat_bytes(ruleset: Ruleset[Any], state: Any, seat: Seat | None, memo: Memo) -> tuple[bytes, Any]:
    """``(own, pending)`` of ``seat`` from ``seat_part``: what a ruleset's ``seat_bytes`` must give."""
    own = dict(ruleset.seat_part(state, seat, memo=memo))
    pending = own.pop("pending", None)
    return (_inner(dumps(own)) if own else b""), pending


def _reader(ruleset: Ruleset[Any], shared: _Shared, state: Any, seat: Seat | None, memo: Memo) -> bytes:
    """``seat``'s bytes: the shared head, then its own members and moves
    joined with the version's public part (the ruleset's encoders where it
    has them)."""
    awaited = seat in shared.to_act and seat is not None
    public = _public(ruleset, shared, state, memo)
    hooks = shared.hooks
    whole: Callable[[Any, Seat | None, bool, Memo], bytes] | None = None if public else hooks[2]
    if whole is not None:
        return shared.head + whole(state, seat, awaited, memo)
    parts: Callable[[Any, Seat | None, bool, Memo], tuple[bytes, bytes, bytes]] | None = hooks[3]
    if parts is not None:
        moves, pending_bytes, own = parts(state, seat, awaited, memo)
    else:
        own_bytes: Callable[[Any, Seat | None, Memo], tuple[bytes, Any]] | None = hooks[1]
        own, pending = own_bytes(state, seat, memo) if own_bytes is not None \
            else _generic_seat_bytes(ruleset, state, seat, memo)
        shared.pending, pending_bytes = _met(shared.pending, pending)
        if awaited and seat is not None:
            shared.moves, moves = _met(shared.moves, ruleset.legal_moves(state, seat, memo=memo))
        else:
            moves = b"[]"
    return b"".join((shared.head, _SEAT.get(seat) or b'"seat":%d,"legal_moves":' % seat,  # type: ignore[str-format]
                     moves, b',"pending":', pending_bytes, b',"state":{', public,
                     b"," if public and own else b"", own, b"}}"))


def _met(met: tuple[Any, bytes], value: Any) -> tuple[tuple[Any, bytes], bytes]:
    """``(pair, dumps(value))``, the bytes of ``met`` (the last value met and
    its bytes) when ``value`` is that very object — most often so: every
    reader's prompt is one object, and a ruleset may give every awaited seat
    one list of moves — else ``value`` with its bytes as the new pair."""
    if value is met[0]:
        return met, met[1]
    out = dumps(value)
    return (value, out), out


class ViewCache:
    """The shared parts of the versions its owner serves (``encoded_view``):
    the latest in two generations — new entries go to ``young``; when it
    holds ``size // 2`` it becomes ``old`` (the one before dropped whole), so
    at most ``size`` are kept; a key that is a tuple names its game first
    (the service's ``(game id, version, header hash)``), and a game's new
    version drops the one built before it (readers ask for a game's newest
    version: its bytes are freed at once, and reused while the processor's
    caches still hold them — a late reader of the old one has it built
    again, the same bytes) — and the last reader's version met, ``(key,
    envelope, active, state, shared, done)``: the next reader of the very
    same objects (the readers of one version come in a row) is handed its
    ``_Shared`` with no lookup, and its bytes from ``done`` (every seat's,
    built from this very state; ``None``: none). The state is held there (its
    id is never reused meanwhile). No lock: each read, write and swap is
    atomic (one tuple or dict written whole), and two threads racing at a
    swap lose at most a few entries, which only costs building them again."""

    __slots__ = ("size", "young", "old", "last", "newest")

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.young: dict[Hashable, _Shared] = {}
        self.old: dict[Hashable, _Shared] = {}
        self.last: tuple[Any, ...] = _NONE
        #: by game (a tuple key's first member), the key and shared part of the version built last
        self.newest: dict[Hashable, tuple[Hashable, _Shared]] = {}

    def clear(self) -> None:
        """Drop every shared part (tests: results must not change)."""
        self.young, self.old, self.last, self.newest = {}, {}, _NONE, {}

    def shared(self, ruleset: Ruleset[Any], state: Any, active: bool, envelope: Json, key: Hashable,
               memo: Memo) -> _Shared:
        """The shared part of ``key``'s version, built and kept if not found
        (or built anew for another envelope: a game cancelled at this version)."""
        shared = self.young.get(key)
        if shared is None:
            shared = self.old.get(key)
        if shared is None or shared.active != active or (shared.envelope is not envelope
                                                         and shared.envelope != envelope):
            shared = _shared_part(ruleset, state, active, envelope, True, memo)
            young = self.young
            young[key] = shared
            if len(young) >= self.size // 2:
                self.old, self.young, self.newest = young, {}, {}
            if type(key) is tuple and key:
                self._supersede(key[0], key, shared)
        return shared

    def _supersede(self, game: Hashable, key: Hashable, shared: _Shared) -> None:
        """``shared`` (``key``) is ``game``'s newest version: the version built
        before it is dropped (a late reader of it is encoded anew, the same bytes)."""
        before = self.newest.get(game)
        self.newest[game] = (key, shared)
        if before is not None and before[0] != key:
            self.young.pop(before[0], None)
            self.old.pop(before[0], None)


def encoded_view(ruleset: Ruleset[Any], state: Any, seat: Seat | None, *, active: bool,
                 envelope: Json, key: Hashable | None, cache: ViewCache | None, memo: Memo | None = None) -> bytes:
    """The JSON a reader is sent: ``envelope`` (the game's own fields), then
    what ``referee.engine.protocol.seat_view`` gives — ``seat``, ``to_act``,
    ``legal_moves``, ``pending``, ``deadline``, ``result`` and ``state``
    (``public_view``'s members, then the seat's own) — all but the seat's
    own members encoded once per ``key`` (a game's id and version) and
    kept in ``cache`` (either ``None``: nothing shared); ``memo``: the game's
    (``referee.engine.statecache``; ``None``: a fresh one, the same bytes)."""
    if memo is None:
        memo = Memo()
    if cache is None or key is None:
        return _reader(ruleset, _shared_part(ruleset, state, active, envelope, False, memo), state, seat, memo)
    last = cache.last
    if last[0] is key and last[3] is state and last[1] is envelope and last[2] is active:
        done, shared = last[5], last[4]
    else:
        shared = cache.shared(ruleset, state, active, envelope, key, memo)
        done = shared.done if shared.state is state else None
        cache.last = (key, envelope, active, state, shared, done)  # ``envelope``: the very one, found alike
    if done is not None:
        out: bytes | None = done.get(seat)
        if out is not None:
            return out
    return _reader(ruleset, shared, state, seat, memo)
