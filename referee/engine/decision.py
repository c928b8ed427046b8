"""The one decision context every ruleset's ``decide`` uses: the events of
one decision, each folded into the state as it is emitted, so every rule
sees the outcome of the one before (and replay folds the very same events).

A ruleset uses ``Decision`` as it is (Bluffaneer) or subclasses it with
what its own decisions keep aside and write once at the end — the agenda
of steps still owed, the turn's counters — and the table's generator
(BANG!'s ``bang.context.Ctx``, Face Off's ``faceoff.context.Ctx``, the Dice
Game's ``dice.context.Ctx``). A card ruleset overrides ``emit`` to react
to what an event did (Suzy Lafayette draws once her hand is empty, R74).
"""
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

    def emit(self, type_: str, data: Mapping[str, Any] | None = None, /, **fields: Any) -> S:
        """Record one event — its ``data``, or the fields given as keywords —
        and fold it; the new state."""
        event = Event(type_, fields if data is None else data)
        self.events.append(event)
        self.state = self._fold(self.state, event)
        return self.state

    def emit_folded(self, type_: str, data: Mapping[str, Any], after: S) -> S:
        """Record one event whose fold is already known (``after``, the state
        ``emit`` would fold it to): a decision's closing bookkeeping event."""
        self.events.append(Event(type_, data))
        self.state = after
        return after


def by_table(apply: Mapping[str, Callable[[S, Mapping[str, Any]], S]]) -> Callable[[S, Event], S]:
    """The fold of a ruleset's ``{event type: apply(state, data)}`` table, for
    ``Decision`` (every type a decision emits is in it: a decision emits only
    its own ruleset's events)."""
    return lambda state, event: apply[event.type](state, event.data)
