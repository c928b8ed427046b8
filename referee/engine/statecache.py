"""One game's memo: what the rules derive from its states, kept by whoever
plays or serves the game and handed to the rules' hooks (issue 26 item 4).

A ruleset's state is a plain immutable value and its hooks (``legal_moves``,
``view``, ``public_view``, ``seat_part``, the view encoders, ``decide``) are
pure functions of their arguments. Each takes a ``memo`` (``Memo | None``):
its owner — the service, one per game, kept with the game it caches; the
workers' bot runs, the audit, the arena, the simulator and the bench, one per
game they loop over — hands the same ``Memo`` to every call about that game,
and the rules keep there what they would otherwise compute again. With no
memo given a hook makes a fresh one: the results are the same, only slower.
Nothing is kept at module level, and nothing is keyed by ``id()``.

A memo keeps two kinds of things:

* ``of(state)``: a dict kept for that very state object (compared with
  ``is`` and held, so it is never found for another), for the two states
  asked for last — a game asks about the state it is in and, while a move is
  applied, the one before; an older state's dict is dropped at once;
* ``part(Kind)``: one ``Kind()`` per memo, created the first time, for what a
  ruleset carries from one state of the game to the next (the parts of a
  view built from parts of the state a move left alone: ``evolve`` copies
  references, so such a part is found again by the very objects it was built
  from, ``SameInputs``).

Only what is the same for every reader may be kept under a plain name;
anything one seat alone may see must be kept under a key that names that
seat (``("moves", seat)``) or in a slot of that seat, so that no lookup by
another seat can find it. Values handed out are shared: callers must not
mutate them. Safe under threads: each entry is one tuple or dict operation,
read and written whole; two threads racing can only lose an entry (and
compute it again), never mix two states' memos. Dropping everything
(``clear``, or a new ``Memo``) changes no result, only the speed.
"""
from __future__ import annotations

from collections.abc import Callable
from operator import is_
from typing import Any, TypeVar

#: no state: what an empty slot names (a ``None`` state gets an entry of its own)
_NOTHING = object()
T = TypeVar("T")
S = TypeVar("S")
P = TypeVar("P")
B = TypeVar("B")


class Memo:
    """One game's memo (see the module's docstring): ``of(state)`` is the
    dict kept for that very state, ``part(Kind)`` the game's one ``Kind()``."""

    __slots__ = ("_first", "_second", "_parts")

    def __init__(self) -> None:
        self._first: tuple[Any, dict[Any, Any]] = (_NOTHING, {})
        self._second: tuple[Any, dict[Any, Any]] = (_NOTHING, {})
        self._parts: dict[type[Any], Any] = {}

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

    def part(self, kind: type[T]) -> T:
        """This memo's one ``kind()``, made the first time it is asked for."""
        found: T | None = self._parts.get(kind)
        if found is None:
            found = self._parts.setdefault(kind, kind())
        return found

    def clear(self) -> None:
        """Drop everything kept (tests: results must not change)."""
        self._first = self._second = (_NOTHING, {})
        self._parts = {}


def fresh(memo: Memo | None) -> Memo:
    """``memo``, or a new one where none is given (the same results, only slower)."""
    return memo if memo is not None else Memo()


def per_state(memo: Memo, state: S, kind: type[P], name: str, build: Callable[[S, Memo, P], B]) -> B:
    """``build(state, memo, parts)``, made once per state and kept in
    ``memo.of(state)[name]``; ``parts`` is the game's one ``kind()``, whose
    ``last`` holds what was built or found last, handed out again with no
    lookup while the very same state is asked for (the readers of one state
    come in a row). What is built must name its state (``.state``)."""
    parts: Any = memo.part(kind)
    last = parts.last
    if last is not None and last.state is state:
        return last  # type: ignore[no-any-return]
    kept = memo.of(state)
    found: B | None = kept.get(name)
    if found is None:
        found = kept[name] = build(state, memo, parts)
    parts.last = found
    return found


class SameInputs:
    """The last value built from some inputs, kept while they are the very
    same objects: consecutive states share every part an event left alone
    (``evolve`` copies references), so a part of a view built from those
    parts alone is the same as for the state before. Inputs must be
    immutable (tuples, strings, numbers, ``None``); they are compared by
    identity only (``1 == True``, but ``1`` and ``true`` are not the same
    JSON) and held, so an object is never mistaken for another meanwhile. The value is shared:
    do not mutate it. One ``(inputs, value)`` pair, read and written whole:
    atomic under threads. Kept in a ``Memo``'s part, never at module level."""

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
