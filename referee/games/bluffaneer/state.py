"""The folded state of a Bluffaneer game (frozen: ``evolve`` never mutates)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Seat = int

#: Total coins of the game, counted with the box (F5).
TOTAL_COINS = 50

# Phases. ``RESOLVING`` only exists between the events of one decision: a
# folded step always ends in one of the other four.
ROLL = "roll"            # the roller owes his roll (F9)
STEAL = "steal"          # the roller owes a steal target (F12, F13)
CLAIMS = "claims"        # the claim window is open (F17, F18)
DECISION = "decision"    # the roller owes accept or challenge (F21)
OVER = "over"            # the game has ended (F28)
RESOLVING = "resolving"
STABLE_PHASES = frozenset({ROLL, STEAL, CLAIMS, DECISION, OVER})


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip:
    """A coin flip or uniform pick among tied seats (F19, F30, F32)."""

    kind: str                 # "claim" (F19) or "final" (F30)
    among: tuple[Seat, ...]   # tied seats, ascending
    index: int                # the drawn index into ``among``
    queued: bool              # taken from the scenario's ``flips`` queue

    @property
    def seat(self) -> Seat:
        """The seat the flip chose."""
        return self.among[self.index]


@dataclass(frozen=True, kw_only=True)
class State:
    """Everything the rules need; hands hold one card id per seat (``None``
    only while a revealed card awaits its replacement, F24).

    Not slotted on purpose: ``replace`` copies the instance dict, about ten
    times faster than ``dataclasses.replace`` (evolve runs for every event
    of every replay)."""

    players: int
    die_faces: tuple[str, ...]
    window_ms: int
    coins: tuple[int, ...]
    box: int
    hands: tuple[str | None, ...]
    deck: tuple[str, ...]          # draw pile, top first
    discard: tuple[str, ...]       # discard pile, bottom first
    turn: Seat                     # the roller
    phase: str = ROLL
    dice: tuple[str, str] | None = None
    opened_at: int | None = None   # receipt time of the roll (F18)
    deadline: int | None = None    # D = opened_at + window_ms while open
    claims: tuple[tuple[Seat, int], ...] = ()   # (seat, receipt time), log order
    passes: tuple[Seat, ...] = ()
    claimant: Seat | None = None   # the winning claim (F19)
    last_flip: Flip | None = None
    dice_queue: tuple[str, ...] = ()   # scenario die faces, used first
    flip_queue: tuple[int, ...] = ()   # scenario flip outcomes, used first
    winner: Seat | None = None
    #: the last roll's two faces, kept past the end of its turn: what a table
    #: draws on the dice (F9; ``dice`` is the roll of the turn under way)
    last_roll: tuple[str, str] | None = None
    #: the view's ``last`` (issue 24): the last roll, claim, decision, revealed
    #: card or resignation, with its ``kind``; shared, never mutated
    last: dict[str, Any] | None = None
    #: the seat that resigned (F34), if one did
    resigned: Seat | None = None
    #: the game's end as a code: ``last_coin_lost`` (F28) or ``resigned`` (F34)
    end_reason: str | None = None

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes``; the original is left untouched."""
        new = object.__new__(State)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return new

    def others(self, seat: Seat) -> tuple[Seat, ...]:
        """Every other seat, clockwise from ``seat``'s left (F8, F14)."""
        n = self.players
        return tuple((seat + i) % n for i in range(1, n))

    def answered(self, seat: Seat) -> bool:
        """Has ``seat`` claimed or passed in the open window (F17)?"""
        return seat in self.passes or any(s == seat for s, _ in self.claims)

    def awaited_claimers(self) -> tuple[Seat, ...]:
        """Non-rollers who have neither claimed nor passed, ascending (F17)."""
        done = {s for s, _ in self.claims}
        done.update(self.passes)
        done.add(self.turn)
        return tuple(s for s in range(self.players) if s not in done)
