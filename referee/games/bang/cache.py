"""A bounded cache of pure functions of the immutable ``State`` (issue 9).

The state carries no memo: it is a plain value, and ``evolve``, ``decide``,
``legal_moves`` and ``view`` are functions of their arguments alone. What
they would otherwise compute more than once for one state — the legal moves
that the view shows and the caller asks for again, the parts of the view
every seat sees alike, the distances around the table — is kept here, beside
the state, keyed by the state object: a state never changes, and each entry
holds its state, so the id in the key cannot be reused while the entry
lives. Dropping every entry changes no result, only the speed. Values handed
out from here are shared: callers must not mutate them (the rules hand out
tuples, or JSON documented as shared).
"""
from __future__ import annotations

from typing import Any

#: entries kept at most: the views and moves of one state are asked for together,
#: so a few suffice, and a small cache keeps what it holds warm. All are
#: dropped at once when full (cheap, and safe
#: under threads: each dict operation is atomic)
SIZE = 4


class Derived:
    """What has been computed from one state so far (``None``: not yet)."""

    __slots__ = ("state", "public", "sights", "legal")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.public: Any = None
        self.sights: Any = None
        self.legal: dict[int, Any] = {}


_entries: dict[int, Derived] = {}


def derived(state: Any) -> Derived:
    """The cache entry of ``state`` (a new, empty one if there is none)."""
    d = _entries.get(id(state))
    if d is None or d.state is not state:
        if len(_entries) >= SIZE:
            _entries.clear()
        d = _entries[id(state)] = Derived(state)
    return d


def clear() -> None:
    """Drop every entry (tests: results must not change)."""
    _entries.clear()
    _folded.clear()


# --- evolve's results, as the decider computed them -------------------------
#
# ``decide`` folds each event it emits (its rules read the state as it goes),
# and the caller then folds the same events again. ``evolve`` is a pure
# function, so the decider records each result here — keyed by the input
# state object and the event's *value* (type and data compared by equality,
# never by the event object's identity) — and ``evolve`` returns a recorded
# result instead of computing it again. Dropping every entry changes nothing
# but the speed.

#: entries kept at most (a decide emits a handful of events; all are dropped
#: at once when full)
FOLDED_SIZE = 256

_folded: dict[int, tuple[Any, str, Any, Any]] = {}


def remember_fold(state: Any, type_: str, data: Any, after: Any) -> None:
    """Record that ``evolve(state, Event(type_, data))`` is ``after``."""
    if len(_folded) >= FOLDED_SIZE:
        _folded.clear()
    _folded[id(state)] = (state, type_, data, after)


def folded(state: Any, type_: str, data: Any) -> Any:
    """The recorded ``evolve(state, Event(type_, data))``, or None."""
    entry = _folded.get(id(state))
    if entry is not None and entry[0] is state and entry[1] == type_ and entry[2] == data:
        return entry[3]
    return None
