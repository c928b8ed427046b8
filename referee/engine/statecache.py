"""A small cache of what views derive from one immutable state (issue 20).

A ruleset's state is a plain immutable value and its view functions are
pure functions of it; what every reader's view of one state shares (the
public members, the prompt, the awaited seats) is computed once and kept
here, beside the state, keyed by the state object itself: each entry holds
its state, so the id in the key cannot be reused while the entry lives, and
an entry is found only for that very object (``is``). The cache is bounded
(all entries dropped at once when full: the views of one state are asked
for together, so a few suffice) and safe under threads (each dict operation
is atomic; two threads racing on one state compute the same values).
Dropping every entry changes no result, only the speed.

Only what is the same for every reader may be kept under a plain name;
anything one seat alone may see must be kept under a key that names that
seat (``("moves", seat)``), so that no lookup by another seat can find it.
Values handed out are shared: callers must not mutate them.
"""
from __future__ import annotations

from operator import is_
from typing import Any

#: entries kept at most per cache
SIZE = 8
#: no state: what the last entry names before any (a ``None`` state gets an entry of its own)
_NOTHING = object()


class StateCache:
    """Per-state memo: ``of(state)`` is a dict kept for that very state object."""

    __slots__ = ("_entries", "_last")

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Any, dict[Any, Any]]] = {}
        #: the entry asked for last, one tuple read and written whole (atomic under threads)
        self._last: tuple[Any, dict[Any, Any]] = (_NOTHING, {})

    def of(self, state: Any) -> dict[Any, Any]:
        """The memo of ``state`` (a new, empty one the first time)."""
        last = self._last
        if last[0] is state:
            return last[1]
        found = self._entries.get(id(state))
        if found is None or found[0] is not state:
            if len(self._entries) >= SIZE:
                self._entries.clear()
            found = self._entries[id(state)] = (state, {})
        self._last = found
        return found[1]

    def clear(self) -> None:
        """Drop every entry (tests: results must not change)."""
        self._entries.clear()
        self._last = (_NOTHING, {})


class SameInputs:
    """The last value built from some inputs, kept while they are the very
    same objects: consecutive states share every part an event left alone
    (``evolve`` copies references), so a part of a view built from those
    parts alone is the same as for the state before. Inputs must be
    immutable (tuples, strings, numbers, ``None``); they are compared by
    identity only (``1 == True``, but ``1`` and ``true`` are not the same
    JSON) and held, so an id is never reused meanwhile. The value is shared:
    do not mutate it. One ``(inputs, value)`` pair, read and written whole:
    atomic under threads."""

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[tuple[Any, ...], Any] = ((_NOTHING,), None)

    def get(self, inputs: tuple[Any, ...]) -> Any:
        """The value kept for ``inputs``, or ``MISSING``."""
        last = self._last
        kept = last[0]
        if len(kept) == len(inputs) and all(map(is_, kept, inputs)):
            return last[1]
        return MISSING

    def put(self, inputs: tuple[Any, ...], value: Any) -> Any:
        """Keep ``value`` for ``inputs``; returns it."""
        self._last = (inputs, value)
        return value


#: what ``SameInputs.get`` gives when nothing is kept for those inputs
MISSING = _NOTHING
