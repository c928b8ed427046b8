"""A clocked game's clock, checked from the log alone (issue 40 item 2;
docs/clocks.md): every move record's ``clock`` is the one the clock's rules
(``referee.engine.clock``) make of the record before it, the rules' states and
the chained receipt times; a seat's own move came before its deadline; the
clock's default (``by.default: turn_clock``) came at or after the deadline of
the seat it played for. A game without a clock has no ``clock`` in any record.
A divergence is a ``clock`` one at the move's ``seq``."""
from __future__ import annotations

from typing import Any

from referee.audit.divergence import Diverged, ok, same
from referee.engine import clock as rules
from referee.engine.protocol import Json, Ruleset
from referee.engine.statecache import Memo


class ClockAudit:
    """The clock of one game re-derived move by move."""

    def __init__(self, rs: Ruleset[Any], header: Json, memo: Memo) -> None:
        self.rs, self.memo = rs, memo
        self.rule = rules.ClockRule.of(header) if "clock" in header else None
        self.players = int(header.get("players") or 0)
        self.clock: Json | None = None
        self.before: dict[int, bool] = {}
        self.defaulted = False
        self.moves = self.defaults = 0

    def before_move(self, state: Any, env: Json, last_at: Any) -> None:
        """The move at ``env`` (a record), before the rules decide it on ``state``:
        in time for its seat, or the clock's default at or after the deadline."""
        seq, data, actor, at = env["seq"], env["data"], env["actor"], env["at"]
        if self.rule is None:
            if "clock" in data:
                raise Diverged("clock", seq, "data.clock", "(absent)", data["clock"],
                               f"the move at event {seq} records a clock in a game without one")
            return
        self.before = rules.waits(self.rs, state, self.memo)
        if self.clock is None:  # the first move: every wait began at the event before it
            self.clock = rules.initial(self.rule, self.players, self.before, int(last_at))
        by = data.get("by")
        self.defaulted = type(by) is dict and by.get("default") == rules.CLOCK_DEFAULT
        if self.defaulted:
            due = rules.deadline(self.rule, self.clock, actor, self.before[actor]) \
                if type(actor) is int and actor in self.before else None
            self._check_default(seq, actor, at, due)
        elif not rules.in_time(self.rule, self.clock, self.before, actor, at):
            due = rules.deadline(self.rule, self.clock, actor, self.before[actor])
            raise Diverged("clock", seq, "at", f"before {due}", at,
                           f"the move at event {seq} was received after seat {actor}'s deadline ({due}): "
                           "only the clock's default may come then")

    def _check_default(self, seq: int, actor: Any, at: Any, due: int | None) -> None:
        """The clock's default is for an awaited seat whose wait had run out (at ``due``)."""
        if due is None or type(at) is not int or at < due:
            raise Diverged("clock", seq, "at", f"at or after {due}", at,
                           f"the move at event {seq} is labelled the clock's default for seat {actor} before "
                           f"its deadline ({due})")
        self.defaults += 1

    def after_move(self, state: Any, env: Json) -> None:
        """The record's ``clock`` is the one the clock's rules make of this move."""
        if self.rule is None or self.clock is None:
            return
        seq, data = env["seq"], env["data"]
        expected = rules.after(self.rule, self.clock, self.before, rules.waits(self.rs, state, self.memo),
                               env["actor"], env["at"], defaulted=self.defaulted)
        if not same(expected, data.get("clock")):
            raise Diverged("clock", seq, "data.clock", expected, data.get("clock"),
                           f"the move at event {seq} records a clock the clock's rules do not make")
        self.clock = expected
        self.moves += 1

    def report(self) -> list[Json]:
        """The ``clock`` check's report (a clocked game only)."""
        if self.rule is None:
            return []
        return [ok("clock", f"{self.moves} moves' clocks re-derived from the receipt times; every move in time, "
                            f"{self.defaults} defaults of the clock each at or after its seat's deadline")]
