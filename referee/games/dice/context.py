"""The decision context of a Dice Game move (the engine's ``Decision``):
the turn as an agenda of steps, each run until one needs a player's
decision; then an ``awaiting`` event records the prompt and the steps
still to come, so the next move resumes exactly there (and replay needs
nothing else)."""
from __future__ import annotations

from typing import Any

from referee.engine.decision import Decision
from referee.engine.rng import Rng
from referee.games.dice.event_types import AWAITING
from referee.games.dice.fold import FOLD
from referee.games.dice.state import Item, State, thaw


class Ctx(Decision[State]):
    """The engine's ``Decision`` at a Dice Game table: the events so far and
    the state they fold to, the generator, the receipt time and the steps
    still to run (front first)."""

    __slots__ = ("rng", "now", "agenda")

    def __init__(self, state: State, rng: Rng, now: int, agenda: list[Item]) -> None:
        super().__init__(state, FOLD)
        self.rng, self.now, self.agenda = rng, now, agenda

    def wait(self, kind: str, seat: int, data: tuple[Any, ...] = ()) -> None:
        """Record the decision awaited and the agenda after it (D73)."""
        self.emit(AWAITING, kind=kind, seat=seat, data=list(data), agenda=thaw(self.agenda))

    def push(self, *items: Item) -> None:
        """Run ``items`` next, in this order."""
        self.agenda[0:0] = list(items)
