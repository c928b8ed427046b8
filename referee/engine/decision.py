"""The emit-and-fold builder every ruleset's ``decide`` uses: the events of
one decision, each folded into the state as it is emitted, so every rule
sees the outcome of the one before (and replay folds the very same events)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from referee.engine.protocol import Event

S = TypeVar("S")


class Decision(Generic[S]):
    """``state`` after the events so far; ``events`` in the order emitted."""

    __slots__ = ("state", "events", "_fold")

    def __init__(self, state: S, fold: Callable[[S, Event], S]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._fold = fold

    def emit(self, type_: str, data: Mapping[str, Any] | None = None, **fields: Any) -> S:
        """Record one event — its ``data``, or the fields given as keywords —
        and fold it; the new state."""
        event = Event(type_, fields if data is None else data)
        self.events.append(event)
        self.state = self._fold(self.state, event)
        return self.state


def by_table(apply: Mapping[str, Callable[[S, Mapping[str, Any]], S]]) -> Callable[[S, Event], S]:
    """The fold of a ruleset's ``{event type: apply(state, data)}`` table, for
    ``Decision`` (every type a decision emits is in it: a decision emits only
    its own ruleset's events)."""
    return lambda state, event: apply[event.type](state, event.data)
