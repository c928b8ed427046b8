"""A game's clock (issue 40 item 2; docs/clocks.md): a time bank per seat, an
increment per move, and a separate short budget for reaction prompts, as pure
arithmetic over the receipt times the log already chains (each event's ``at``).

The creation option ``clock: {bank_s, increment_s, reaction_s}`` is kept in the
header. A seat is *awaited* when the rules wait on it (``to_act``); its wait is
a **turn** when it is the seat whose turn it is (the ruleset's ``turn_seat``:
BANG!'s, The Dice Game's and Bluffaneer's ``turn``, Face Off's active side's
controller), else a **reaction** (a Missed!, a claim, a bid). From the moment a wait began (``since``):

- a turn is charged to the seat's bank: a move of its own is in time while
  ``at < since + bank``, and then its bank becomes ``bank - (at - since) +
  increment``; at ``since + bank`` the clock plays the seat's default and its
  bank becomes 0 for good (no increment for a default the clock played), so
  every later turn of that seat is defaulted at once;
- a reaction has its own budget, ``reaction_s``, fresh for every prompt and
  never taken from the bank: an answer is in time while ``at < since +
  reaction``; at that deadline the clock plays the default answer; the bank
  is untouched either way.

A wait that goes on across other seats' moves keeps its ``since``; one that
begins (or changes kind) begins at the move that began it. Before the first
move every wait began at the last event before it (the deal, or the claim
that filled the table).

Each move's record carries the clock after it (``record``)::

    {"used": ms charged to the mover's wait (null: the system's move),
     "banks": [ms left per seat], "since": [ms the seat's wait began, or null]}

so the service reloads a game's clock from its last move, and the audit
recomputes every record from the one before, the rules' states and the
chained times (``Clock.after``), and checks each move against its deadline.
Pure: no clock of its own; the service hands it the receipt time."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine.protocol import Json, Ruleset, Seat
from referee.engine.statecache import Memo

#: the clock's own name for the default it plays (as the turn clock's: ``by.default``)
CLOCK_DEFAULT = "turn_clock"
#: the option's fields and their bounds, in seconds
LIMITS = {"bank_s": (1, 86_400), "increment_s": (0, 3_600), "reaction_s": (1, 3_600)}


@dataclass(frozen=True, slots=True)
class ClockRule:
    """The clock a game was created with, in ms."""

    bank: int
    increment: int
    reaction: int

    @classmethod
    def of(cls, header: Mapping[str, Any]) -> ClockRule | None:
        """The header's clock (``None``: an unclocked game)."""
        option = header.get("clock")
        if not isinstance(option, Mapping):
            return None
        return cls(*(int(round(float(option[name]) * 1000)) for name in LIMITS))


def waits(rs: Ruleset[Any], state: Any, memo: Memo | None = None) -> dict[Seat, bool]:
    """Each awaited seat, and whether its wait is a reaction: a seat's other
    than the one whose turn it is (the ruleset's ``turn_seat``)."""
    awaited = rs.to_act(state, memo=memo)
    if not awaited:
        return {}
    turn_seat = getattr(rs, "turn_seat", None)
    turn = turn_seat(state) if turn_seat is not None else None
    return {seat: turn is not None and seat != turn for seat in sorted(awaited)}


def initial(rule: ClockRule, players: int, awaited: Mapping[Seat, bool], at: int) -> Json:
    """The clock before the first move: full banks, every wait begun at ``at``."""
    return {"used": None, "banks": [rule.bank] * players,
            "since": [at if seat in awaited else None for seat in range(players)]}


def deadline(rule: ClockRule, clock: Json, seat: Seat, reaction: bool) -> int | None:
    """When the awaited ``seat``'s wait runs out (``None``: it is not waiting)."""
    since = clock["since"][seat]
    if since is None:
        return None
    return int(since) + (rule.reaction if reaction else int(clock["banks"][seat]))


def deadlines(rule: ClockRule, clock: Json, awaited: Mapping[Seat, bool]) -> dict[Seat, int]:
    """Every awaited seat's deadline."""
    out = {}
    for seat, reaction in awaited.items():
        due = deadline(rule, clock, seat, reaction)
        if due is not None:
            out[seat] = due
    return out


def in_time(rule: ClockRule, clock: Json, awaited: Mapping[Seat, bool], seat: Seat | None, at: int) -> bool:
    """Whether a move of ``seat``'s own received at ``at`` beats its deadline
    (a seat not awaited, or the system, is the rules' to judge)."""
    if seat is None or seat not in awaited:
        return True
    due = deadline(rule, clock, seat, awaited[seat])
    return due is None or at < due


def after(rule: ClockRule, clock: Json, before: Mapping[Seat, bool], now: Mapping[Seat, bool],
          seat: Seat | None, at: int, *, defaulted: bool) -> Json:
    """The clock after a move by ``seat`` (``None``: the system) received at
    ``at``, the rules having awaited ``before`` and awaiting ``now``;
    ``defaulted``: the clock itself played it (its deadline passed)."""
    banks = [int(bank) for bank in clock["banks"]]
    used = None
    if seat is not None and seat in before and clock["since"][seat] is not None:
        used = at - int(clock["since"][seat])
        if not before[seat]:  # a turn: charged to the bank (a default of the clock's empties it)
            banks[seat] = 0 if defaulted else max(0, banks[seat] - used) + rule.increment
    since = []
    for other, old in enumerate(clock["since"]):
        kept = other != seat and other in now and other in before and before[other] == now[other]
        since.append(old if kept else at if other in now else None)
    return {"used": used, "banks": banks, "since": since}


def shown(rule: ClockRule, clock: Json, awaited: Mapping[Seat, bool], now: int) -> Json:
    """The clock as every view shows it: the rule, each seat's bank, and for
    an awaited seat since when, whether it is a reaction, its deadline and
    what is left at ``now`` (the server's time, also given, so a client
    counts down without trusting its own clock)."""
    seats = []
    for seat, bank in enumerate(clock["banks"]):
        entry: Json = {"seat": seat, "bank_ms": bank, "running": seat in awaited}
        due = deadline(rule, clock, seat, awaited[seat]) if seat in awaited else None
        if due is not None:
            entry.update(since=clock["since"][seat], reaction=awaited[seat], deadline=due,
                         left_ms=max(0, due - now))
        seats.append(entry)
    return {"bank_ms": rule.bank, "increment_ms": rule.increment, "reaction_ms": rule.reaction,
            "server_time": now, "seats": seats}
