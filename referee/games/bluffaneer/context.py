"""The decision context of Bluffaneer: the events of one decision, folded as
they are emitted, so each rule sees the outcome of the one before (F9–F34);
the engine's ``Decision`` over this ruleset's ``fold`` (nothing kept aside)."""
from __future__ import annotations

from referee.engine.decision import Decision, by_table
from referee.games.bluffaneer.fold import EVOLVE
from referee.games.bluffaneer.state import State

#: the events of one decision, folded as they are emitted, so each rule sees the
#: outcome of the one before: the engine's builder over this ruleset's events
Draft = Decision[State]
_FOLD = by_table(EVOLVE)


def new_draft(state: State) -> Draft:
    """A decision starting from ``state``."""
    return Decision(state, _FOLD)
