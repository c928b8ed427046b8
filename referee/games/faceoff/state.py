"""The folded state of a Face Off game (FO4–FO8); ``fold.evolve`` builds it from the events.

Characters are indexed by figure: 0 the Sheriff's, 1 the Outlaw's, 2 the
Renegade (FO2). ``flow`` is the referee's control state (whose turn, phase,
Renegade control, the agenda of open prompts), a frozen ``flow.Flow``
written by the ``flow`` event at the end of every decision and at every
turn start.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from referee.engine.frozen import copier
from referee.games.faceoff.flow import Flow

Square = tuple[int, int]
SHERIFF, OUTLAW, RENEGADE = 0, 1, 2
ROLE_NAMES = ("sheriff", "outlaw", "renegade")
MARKS = ("S", "B", "R")


@dataclass(frozen=True, slots=True)
class Char:
    """One figure's character card, life, cards and square (FO5, FO7)."""

    name: str
    life: int
    max_life: int
    hand: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()
    pos: Square = (0, 0)

    @property
    def character(self) -> str:
        """The character card's name: a ``cardrules.Holder``, like a BANG! player."""
        return self.name


@dataclass(frozen=True, slots=True)
class State:
    map_id: str
    map_name: str
    rows: tuple[str, ...]
    chars: tuple[Char, ...]
    sheriff_seat: int
    brown: tuple[str, ...]
    brown_discard: tuple[str, ...]
    blue: tuple[str, ...]
    blue_discard: tuple[str, ...]
    nuggets: tuple[Square, ...]
    reserve: int
    trophies: tuple[tuple[tuple[str, bool], ...], ...]
    set_aside: tuple[str, ...]
    variant: bool
    flow: Flow
    bids: tuple[str | None, ...] = (None, None)
    last_bids: tuple[str | None, ...] | None = None
    limbo: tuple[str, ...] = ()
    pub: frozenset[str] = frozenset()
    result: Any = None
    #: the last thing a table draws (issue 24, ``state.last``): the card played, the figure's move,
    #: the "draw!" check, the bids revealed; ``None`` before any
    last: Any = None

    def owner(self, char: int) -> int:
        """The seat owning character ``char`` (-1: the Renegade, owned by nobody)."""
        if char == SHERIFF:
            return self.sheriff_seat
        if char == OUTLAW:
            return 1 - self.sheriff_seat
        return -1

    def own_char(self, seat: int) -> int:
        return SHERIFF if seat == self.sheriff_seat else OUTLAW


def flow_controller(state: State, char: int) -> int:
    """Who decides for character ``char`` now (FO32, FO35, FO39): the owner; for
    the Renegade, the bid winner in its turn, else the non-active player."""
    if char != RENEGADE:
        return state.owner(char)
    f = state.flow
    if f.active == RENEGADE:
        return f.controller
    if f.phase in ("bid", "place"):
        return -1
    return state.owner(1 - f.active)


_char_but = copier(Char)
_state_but = copier(State)


_T = TypeVar("_T", State, Char)


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of a ``State`` or ``Char`` with ``changes``."""
    out: _T = _state_but(obj, **changes) if type(obj) is State else _char_but(obj, **changes)
    return out
