"""A clocked game in the service (issue 40 item 2; docs/clocks.md): the
creation option checked, each move checked against its seat's deadline and
stamped with the clock after it (``referee.engine.clock``, the arithmetic the
audit repeats), and the clock every view shows beside the server's time."""
from __future__ import annotations

from typing import Any

from referee.engine import clock as rules
from referee.engine.protocol import IllegalMove, Json, Seat
from referee.errors import ApiError

#: the rule the refusal of a late move names
CLOCK_RULE = "clock"


def clock_option(value: Any, turn_timeout_s: float | None) -> dict[str, float] | None:
    """The creation option ``clock: {bank_s, increment_s?, reaction_s?}``
    checked (422 ``invalid_options``): a bank of 1 s to 1 day, an increment
    of 0 (the default) to 1 h, a reaction budget of 1 s to 1 h (default 15 s,
    never more than the bank); not with ``turn_timeout_s``."""
    if value is None:
        return None
    if not isinstance(value, dict) or "bank_s" not in value or not set(value) <= set(rules.LIMITS):
        raise ApiError(422, "invalid_options", "clock is {bank_s, increment_s?, reaction_s?} (seconds)")
    if turn_timeout_s is not None:
        raise ApiError(422, "invalid_options", "a game has a clock or a turn_timeout_s, not both")
    bank = _seconds("bank_s", value["bank_s"])  # first: the reaction budget's default depends on it
    out = {"bank_s": bank, "increment_s": _seconds("increment_s", value.get("increment_s", 0)),
           "reaction_s": _seconds("reaction_s", value.get("reaction_s", min(15, bank)))}
    if out["reaction_s"] > bank:
        raise ApiError(422, "invalid_options", "clock.reaction_s is at most clock.bank_s")
    return out


def _seconds(name: str, number: Any) -> float:
    """The clock's field ``name`` if it is a number within its bounds (422 ``invalid_options`` otherwise)."""
    low, high = rules.LIMITS[name]
    if isinstance(number, bool) or not isinstance(number, (int, float)) or not low <= number <= high:
        raise ApiError(422, "invalid_options", f"clock.{name} is a number of seconds from {low} to {high}")
    return number


def check_in_time(rule: rules.ClockRule, clock: Json, awaited: dict[Seat, bool], seat: Seat | None,
                  by: Json | None, now: int) -> bool:
    """Whether the move is the clock's own default; a seat's move after its
    deadline is refused (422 ``out_of_time``: the clock plays its default)."""
    defaulted = by is not None and by.get("default") == rules.CLOCK_DEFAULT
    if not defaulted and not rules.in_time(rule, clock, awaited, seat, now):
        due = rules.deadline(rule, clock, seat, awaited[seat]) if seat is not None else None
        kind = "reaction budget" if seat is not None and awaited.get(seat) else "bank"
        raise IllegalMove("out_of_time", rule=CLOCK_RULE,
                          detail=f"seat {seat}'s {kind} ran out at {due}; received at {now}: the clock plays "
                                 "its default")
    return defaulted
