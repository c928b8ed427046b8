"""Views built for many readers (issue 10): the part of a view every reader
sees alike is built and encoded once per game version and shared by every
seat's view and the spectator's; each reader's own part is encoded and
spliced in.

A ruleset splits its view with two hooks (``RulesetBase.public_view`` and
``seat_part``): ``view(state, seat) == {**public_view(state), **seat_part(state,
seat)}``, the keys of the two disjoint (the conformance suite holds every
ruleset to it). A ruleset that does not split is encoded whole per reader.

Pure: no clock, no I/O. The cache is a bounded map from ``(key, version)``
to bytes; a version's public part never changes, so an entry never goes
stale, and dropping one only costs the time to build it again.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Hashable

from referee.engine.jsonenc import dumps
from referee.engine.protocol import Json, Ruleset, Seat

#: versions kept: readers ask for the latest few versions of the games in play
SIZE = 512

_lock = threading.Lock()
_shared: OrderedDict[Hashable, "_Shared"] = OrderedDict()


def _inner(encoded: bytes) -> bytes:
    """An encoded object without its braces (``b""`` for ``{}``)."""
    return encoded[1:-1]


class _Shared:
    """One version's shared bytes: the members every reader gets alike (the
    envelope, ``to_act``, ``deadline``, ``result``) and those of ``public_view``."""

    __slots__ = ("envelope", "active", "head", "public")

    def __init__(self, envelope: Json, active: bool, head: bytes, public: bytes) -> None:
        self.envelope, self.active, self.head, self.public = envelope, active, head, public


def _shared_part(ruleset: Ruleset, state: Any, active: bool, envelope: Json, key: Hashable | None) -> _Shared:
    if key is not None:
        found = _shared.get(key)  # one dict read: atomic, no lock needed
        # the envelope (status, turn clock) is the platform's: asked for again with
        # other values (a game cancelled at this version), the head is built anew
        if found is not None and found.active == active and (found.envelope is envelope or found.envelope == envelope):
            return found
    to_act = sorted(ruleset.to_act(state)) if active else []
    head = dumps({**envelope, "to_act": to_act, "deadline": ruleset.deadline(state) if active else None,
                  "result": ruleset.result(state)})
    public = ruleset.public_view(state)
    made = _Shared(envelope, active, head[:-1] + b",", _inner(dumps(public)) if public else b"")
    if key is not None:
        with _lock:
            _shared[key] = made
            if len(_shared) > SIZE:
                _shared.popitem(last=False)
    return made


def encoded_view(ruleset: Ruleset, state: Any, seat: Seat | None, *, active: bool,
                 envelope: Json, key: Hashable | None) -> bytes:
    """The JSON a reader is sent: ``envelope`` (the game's own fields), then
    what ``referee.engine.protocol.seat_view`` gives — ``seat``, ``to_act``,
    ``legal_moves``, ``pending``, ``deadline``, ``result`` and ``state`` —
    all but the seat's own members encoded once per ``key`` (a game's id and
    version; ``None``: not shared)."""
    shared = _shared_part(ruleset, state, active, envelope, key)
    own = dict(ruleset.seat_part(state, seat))
    pending = own.pop("pending", None)
    moves = ruleset.legal_moves(state, seat) if active and seat is not None and seat in ruleset.to_act(state) else []
    members = dumps({"seat": seat, "legal_moves": moves, "pending": pending})
    mine = dumps(own)
    if shared.public and own:
        state = b'"state":{' + shared.public + b"," + mine[1:]
    else:
        state = b'"state":' + (mine if not shared.public else b"{" + shared.public + b"}")
    return b"".join((shared.head, members[1:-1], b",", state, b"}"))


def clear() -> None:
    """Drop every shared part (tests: results must not change)."""
    with _lock:
        _shared.clear()
