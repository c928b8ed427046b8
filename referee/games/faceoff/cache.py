"""What the legal moves and the views derive from one immutable ``State``,
computed once per state: ``MEMO.of(state)`` is that state's memo, kept
beside the state, not in it.

Keys: a seat (its legal moves, FO58's resignation last),
``"public_view"``, ``"last"`` and ``"pending"`` (``views``' functions of
those names) and ``"seen"`` (``encoded.seat_encoded``: the decision
everybody sees, then each seat's own members in the slot of that seat
alone, FO57). Values are shared: do not mutate them. Dropping every entry
changes no result, only the speed.
"""
from __future__ import annotations

from typing import Any

#: no state: what an empty slot names (a ``None`` state gets an entry of its own)
_NOTHING = object()


class RecentStates:
    """The memos of the two states asked for last: a game asks about the
    state it is in and, while a move is applied, the one before; an older
    state's memo is dropped at once (and with it what it kept alive). Each
    entry is a ``(state, memo)`` pair read and written whole and found for
    that very state object only (``is``), so threads racing can only lose
    an entry, never mix two states' memos."""

    __slots__ = ("_first", "_second")

    def __init__(self) -> None:
        self._first: tuple[Any, dict[Any, Any]] = (_NOTHING, {})
        self._second: tuple[Any, dict[Any, Any]] = (_NOTHING, {})

    def of(self, state: Any) -> dict[Any, Any]:
        """The memo of ``state`` (a new, empty one the first time)."""
        first = self._first
        if first[0] is state:
            return first[1]
        second = self._second
        if second[0] is state:
            self._first, self._second = second, first
            return second[1]
        entry: tuple[Any, dict[Any, Any]] = (state, {})
        self._first, self._second = entry, first
        return entry[1]

    def clear(self) -> None:
        """Drop every entry (tests: results must not change)."""
        self._first = self._second = (_NOTHING, {})


MEMO = RecentStates()
