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

    __slots__ = ("state", "public", "view", "sights", "legal", "enc")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.public: Any = None
        self.view: Any = None
        self.sights: Any = None
        self.legal: dict[int, Any] = {}
        #: what ``encoded.py`` keeps of the state: the prompt and its bytes, the distances table
        self.enc: Any = None


_entries: dict[int, Derived] = {}


_last: list[Derived] = [Derived(None)]  # the entry asked for last: views and moves of one state come together


def derived(state: Any) -> Derived:
    """The cache entry of ``state`` (a new, empty one if there is none)."""
    d = _last[0]
    if d.state is state:
        return d
    d = _entries.get(id(state))  # type: ignore[assignment]
    if d is None or d.state is not state:
        if len(_entries) >= SIZE:
            _entries.clear()
        d = _entries[id(state)] = Derived(state)
    _last[0] = d
    return d


def clear() -> None:
    """Drop every entry (tests: results must not change)."""
    _entries.clear()
    _last[0] = Derived(None)
