"""Issue 40 item 2: the clock's arithmetic (``referee.engine.clock``, docs/clocks.md), the one the service
stamps each move with and the audit repeats: a turn is charged to the bank plus the increment, a reaction has
its own budget and never touches the bank, the clock's default of a turn empties the bank for good, a wait that
goes on across other seats' moves keeps its start."""
from __future__ import annotations

from referee.engine import clock as rules
from tests.rules.bang.helpers import game, play

RULE = rules.ClockRule(bank=60_000, increment=2_000, reaction=5_000)
T0 = 1_000_000


def test_the_rule_is_read_from_the_header_in_ms() -> None:
    header = {"clock": {"bank_s": 1.5, "increment_s": 0, "reaction_s": 1}}
    assert rules.ClockRule.of(header) == rules.ClockRule(1_500, 0, 1_000)
    assert rules.ClockRule.of({"turn_timeout_s": 30}) is None


def test_a_turn_is_charged_to_the_bank_and_earns_the_increment() -> None:
    clock = rules.initial(RULE, 3, {0: False}, T0)
    assert rules.deadlines(RULE, clock, {0: False}) == {0: T0 + 60_000}
    after = rules.after(RULE, clock, {0: False}, {1: False}, 0, T0 + 7_000, defaulted=False)
    assert after == {"used": 7_000, "banks": [55_000, 60_000, 60_000], "since": [None, T0 + 7_000, None]}


def test_a_move_is_in_time_only_before_its_deadline() -> None:
    clock = rules.initial(RULE, 2, {0: False, 1: True}, T0)
    assert rules.in_time(RULE, clock, {0: False, 1: True}, 0, T0 + 59_999)
    assert not rules.in_time(RULE, clock, {0: False, 1: True}, 0, T0 + 60_000)
    assert rules.in_time(RULE, clock, {0: False, 1: True}, 1, T0 + 4_999)
    assert not rules.in_time(RULE, clock, {0: False, 1: True}, 1, T0 + 5_000)  # the reaction's own budget
    assert rules.in_time(RULE, clock, {0: False}, None, T0 + 10**9)  # the system's move: the rules judge it


def test_a_reaction_never_touches_the_bank_nor_earns_the_increment() -> None:
    clock = rules.initial(RULE, 2, {1: True}, T0)
    after = rules.after(RULE, clock, {1: True}, {0: False}, 1, T0 + 4_000, defaulted=False)
    assert after["banks"] == [60_000, 60_000] and after["used"] == 4_000
    defaulted = rules.after(RULE, clock, {1: True}, {0: False}, 1, T0 + 5_000, defaulted=True)
    assert defaulted["banks"] == [60_000, 60_000]


def test_the_clocks_default_of_a_turn_empties_the_bank_for_good() -> None:
    clock = rules.initial(RULE, 2, {0: False}, T0)
    flagged = rules.after(RULE, clock, {0: False}, {1: False}, 0, T0 + 60_000, defaulted=True)
    assert flagged["banks"] == [0, 60_000]
    back = rules.after(RULE, flagged, {1: False}, {0: False}, 1, T0 + 61_000, defaulted=False)
    assert rules.deadlines(RULE, back, {0: False}) == {0: T0 + 61_000}  # defaulted at once
    assert not rules.in_time(RULE, back, {0: False}, 0, T0 + 61_000)


def test_a_wait_that_goes_on_keeps_its_start_and_one_that_changes_kind_starts_anew() -> None:
    clock = rules.initial(RULE, 3, {1: True, 2: True}, T0)
    after = rules.after(RULE, clock, {1: True, 2: True}, {2: True, 0: False}, 1, T0 + 1_000, defaulted=False)
    assert after["since"] == [T0 + 1_000, None, T0]
    turned = rules.after(RULE, after, {2: True, 0: False}, {2: False}, 0, T0 + 2_000, defaulted=False)
    assert turned["since"] == [None, None, T0 + 2_000]


def test_the_shown_clock_counts_what_is_left_at_the_servers_time() -> None:
    clock = rules.initial(RULE, 2, {0: False}, T0)
    shown = rules.shown(RULE, clock, {0: False}, T0 + 1_500)
    assert shown["server_time"] == T0 + 1_500
    assert shown["seats"] == [
        {"seat": 0, "bank_ms": 60_000, "running": True, "since": T0, "reaction": False, "deadline": T0 + 60_000,
         "left_ms": 58_500},
        {"seat": 1, "bank_ms": 60_000, "running": False}]


def test_a_bang_target_answers_within_the_reaction_budget_the_shooter_waits_on_its_turn() -> None:
    """R22: the target of a BANG! is awaited out of turn: a reaction; the shooter's own wait is its turn."""
    t = game(4, hands={0: ["BANG-AS"]})
    assert rules.waits(t.ruleset, t.state) == {0: False}
    play(t, 0, "BANG-AS", 1)
    assert rules.waits(t.ruleset, t.state) == {1: True}
