"""Distance and reach: R14–R17."""
from __future__ import annotations

import json

from referee.games.bang import encoded
from referee.games.bang.distance import distances_from, reach, seat_distance, sees_at
from tests.harness import Table, raises_rule
from tests.rules.bang.helpers import P, game, kind, play


def test_r14_seat_distance_is_the_shorter_way_round():
    t = game(7)
    s = t.state
    assert [seat_distance(s, 0, b) for b in range(1, 7)] == [1, 2, 3, 3, 2, 1]


def test_r14_eliminated_players_do_not_count():
    t = game(5, dead=(1, 2))
    assert seat_distance(t.state, 0, 3) == 1 and seat_distance(t.state, 0, 4) == 1


def test_r15_mustang_and_paul_regret_add_scope_and_rose_subtract():
    t = game(7, in_play={3: ["MUSTANG-8H"], 0: ["SCOPE-AS"]}, chars={2: "paul_regret", 5: "rose_doolan"})
    s = t.state
    assert sees_at(s, 0, 3) == 3 + 1 - 1
    assert sees_at(s, 1, 2) == 1 + 1
    assert sees_at(s, 5, 0) == 1  # 2 - 1
    assert sees_at(s, 5, 6) == 1  # never below 1
    assert sees_at(s, 3, 0) == 3  # not symmetric: Mustang does not change how he sees others


def test_r15_paul_regret_with_a_mustang_is_plus_two():
    t = game(7, in_play={3: ["MUSTANG-8H"]}, chars={3: "paul_regret"})
    assert sees_at(t.state, 2, 3) == 3


def test_r16_bang_only_within_reach():
    t = game(7, hands={0: ["BANG-AS", "BANG-KH"]})
    with raises_rule("R16", "out_of_range"):
        play(t, 0, "BANG-AS", 2)
    targets = sorted(m["target"] for m in t.legal(0) if m.get("card") == "BANG-AS")
    assert targets == [1, 6]


def test_r16_weapon_sets_reach():
    t = game(7, hands={0: ["BANG-AS"]}, in_play={0: ["REMINGTON-KC"]})
    assert reach(P(t, 0)) == 3
    targets = sorted(m["target"] for m in t.legal(0) if m.get("card") == "BANG-AS")
    assert targets == [1, 2, 3, 4, 5, 6]
    play(t, 0, "BANG-AS", 3)
    assert kind(t) == "shot"


def test_r17_panic_needs_distance_one_whatever_the_weapon():
    t = game(5, hands={0: ["PANIC-JH"], 2: ["BEER-6H"]}, in_play={0: ["WINCHESTER-8S"]})
    with raises_rule("R17", "out_of_range"):
        play(t, 0, "PANIC-JH", 2, "hand")


def test_r17_scope_lets_panic_reach_distance_two():
    t = game(5, hands={0: ["PANIC-JH"], 2: ["BEER-6H"]}, in_play={0: ["SCOPE-AS"]})
    play(t, 0, "PANIC-JH", 2, "hand")
    assert P(t, 0).hand == ("BEER-6H",)


def test_r17_cat_balou_duel_jail_ignore_distance():
    t = game(7, hands={0: ["CATBALOU-KH", "DUEL-JS", "JAIL-4H"], 3: ["BEER-6H"]})
    legal = t.legal(0)
    assert {"type": "play", "card": "CATBALOU-KH", "target": 3, "pick": "hand"} in legal
    assert {"type": "play", "card": "DUEL-JS", "target": 3} in legal
    assert {"type": "play", "card": "JAIL-4H", "target": 3} in legal


# --- the view's ``distances`` (issue 9, item 7): what the viewing seat sees --

def _seen(t: Table, seat: int) -> dict[int, tuple[int, bool]]:
    """{other alive seat: (distance, in_reach)} from ``seat``'s view."""
    d = t.view(seat)["distances"]
    assert len(d["distance"]) == len(d["in_reach"]) == t.state.n
    return {s: (dist, d["in_reach"][s]) for s, dist in enumerate(d["distance"]) if dist is not None}


def test_r14_view_reports_seat_distance_both_ways_round():
    t = game(7)
    d = t.view(0)["distances"]
    assert d["reach"] == 1
    assert d["distance"] == [None, 1, 2, 3, 3, 2, 1]
    assert d["in_reach"] == [None, True, False, False, False, False, True]


def test_r14_view_skips_the_eliminated_and_closes_the_circle():
    t = game(5, dead=(1, 2))
    assert t.view(0)["distances"]["distance"] == [None, None, None, 1, 1]
    assert _seen(t, 0) == {3: (1, True), 4: (1, True)}
    assert t.view(1)["distances"] is None  # an eliminated seat sees nobody


def test_r15_view_reports_distance_with_mustang_and_scope():
    t = game(7, in_play={3: ["MUSTANG-8H"], 0: ["SCOPE-AS"]})
    seen = _seen(t, 0)
    assert seen[3] == (3, False)  # 3 + 1 Mustang - 1 Scope
    assert seen[1] == (1, True) and seen[2] == (1, True)  # 2 - 1 Scope; 1 - 1, never below 1
    assert _seen(t, 2)[3] == (2, False)  # others see the Mustang: 1 + 1
    assert _seen(t, 3)[0] == (3, False)  # his own Mustang does not change how he sees others


def test_r15_view_reports_paul_regret_and_rose_doolan():
    t = game(7, chars={2: "paul_regret", 5: "rose_doolan"})
    assert _seen(t, 1)[2] == (2, False)  # Paul Regret: a Mustang of his own
    assert _seen(t, 5)[0] == (1, True) and _seen(t, 5)[3] == (1, True)  # Rose Doolan: a Scope


def test_r16_view_reach_is_the_weapon_range():
    t = game(7, in_play={0: ["REMINGTON-KC"]})
    d = t.view(0)["distances"]
    assert d["reach"] == 3
    assert d["in_reach"] == [None] + [True] * 6  # the farthest seats are at 3
    t = game(7, in_play={0: ["VOLCANIC-10S"]})
    assert t.view(0)["distances"]["reach"] == 1  # Volcanic: range 1 (R16), any BANG! count (R18)
    assert {s for s, (_, r) in _seen(t, 0).items() if r} == {1, 6}


def test_r16_in_reach_agrees_with_the_legal_bang_targets():
    t = game(7, hands={0: ["BANG-AS"]}, in_play={0: ["SCHOFIELD-KS"], 4: ["MUSTANG-8H"]},
             chars={2: "paul_regret"})
    in_reach = sorted(s for s, (_, r) in _seen(t, 0).items() if r)
    targets = sorted(m["target"] for m in t.legal(0) if m.get("card") == "BANG-AS")
    assert in_reach == targets == [1, 5, 6]


def test_r17_view_distance_one_is_what_panic_needs():
    t = game(5, hands={0: ["PANIC-JH"], 1: ["BEER-8H"], 2: ["BEER-6H"], 4: ["BEER-9H"]},
             in_play={0: ["WINCHESTER-8S"]})
    seen = _seen(t, 0)
    assert seen[2] == (2, True)  # in reach of a BANG! with the Winchester, not of Panic! (R17)
    panic = {m["target"] for m in t.legal(0) if m.get("card") == "PANIC-JH"}
    assert panic == {s for s, (d, _) in seen.items() if d == 1} == {1, 4}


def test_r83_spectator_view_has_no_distances_and_each_seat_its_own():
    t = game(4, in_play={1: ["MUSTANG-8H"]})
    assert t.view(None)["distances"] is None
    assert _seen(t, 0)[1] == (2, False) and _seen(t, 2)[1] == (2, False)
    assert 1 not in _seen(t, 1)  # never oneself


# --- every seat (issue 26, item 7) ----------------------------------------------
# Mutation testing showed R14–R17 were checked from seat 0 only, where the clockwise
# step count reads the same whichever way round it is taken: ``j + i`` for ``j - i`` in
# ``distances_from`` passed. Each table below is written out by hand from R14/R15, one row
# per viewing seat (None for itself and the eliminated), and checked from EVERY alive seat
# by every way the referee computes distance: ``seat_distance``/``sees_at``,
# ``distances_from`` (the legal moves' table), the view's ``distances`` and its encoded bytes.

Row = list[int | None]


def _encoded_distances(t: Table, seat: int) -> object:
    """The ``distances`` member of ``seat``'s own encoded view (``encoded.seat_encoded``)."""
    _, _, own = encoded.seat_encoded(t.state, seat, False, t.memo)
    return json.loads(b"{" + own + b"}")["distances"]


def _check_rows(t: Table, rows: dict[int, Row], *, seat_only: bool = False) -> None:
    """Every alive seat ``a`` sees every other alive seat ``b`` at ``rows[a][b]``,
    by every calculation; an eliminated seat sees nobody. ``seat_only``: no
    modifier on the table, so ``seat_distance`` (R14) gives the same rows."""
    s = t.state
    alive = [p.seat for p in s.players if p.alive]
    assert sorted(rows) == alive
    for a in range(s.n):
        if a not in rows:
            assert t.view(a)["distances"] is None and _encoded_distances(t, a) is None, a
            continue
        row = rows[a]
        assert len(row) == s.n and row[a] is None
        want = {b: d for b, d in enumerate(row) if d is not None}
        assert sorted(want) == [b for b in alive if b != a], a
        assert distances_from(s, a) == want, f"distances_from from seat {a}"
        assert {b: sees_at(s, a, b) for b in want} == want, f"sees_at from seat {a}"
        if seat_only:
            assert {b: seat_distance(s, a, b) for b in want} == want, f"seat_distance from seat {a}"
        seen = t.view(a)["distances"]
        assert seen["distance"] == row, f"the view of seat {a}"
        r = reach(P(t, a))
        assert seen["reach"] == r
        assert seen["in_reach"] == [None if d is None else d <= r for d in row], f"in_reach of seat {a}"
        assert _encoded_distances(t, a) == seen, f"the encoded view of seat {a}"


def test_r14_seat_distance_from_every_seat_of_seven():
    t = game(7)
    _check_rows(t, {
        0: [None, 1, 2, 3, 3, 2, 1],
        1: [1, None, 1, 2, 3, 3, 2],
        2: [2, 1, None, 1, 2, 3, 3],
        3: [3, 2, 1, None, 1, 2, 3],
        4: [3, 3, 2, 1, None, 1, 2],
        5: [2, 3, 3, 2, 1, None, 1],
        6: [1, 2, 3, 3, 2, 1, None],
    }, seat_only=True)


def test_r14_seat_distance_from_every_seat_of_four_five_and_six():
    _check_rows(game(4), {
        0: [None, 1, 2, 1],
        1: [1, None, 1, 2],
        2: [2, 1, None, 1],
        3: [1, 2, 1, None],
    }, seat_only=True)
    _check_rows(game(5), {
        0: [None, 1, 2, 2, 1],
        1: [1, None, 1, 2, 2],
        2: [2, 1, None, 1, 2],
        3: [2, 2, 1, None, 1],
        4: [1, 2, 2, 1, None],
    }, seat_only=True)
    _check_rows(game(6), {
        0: [None, 1, 2, 3, 2, 1],
        1: [1, None, 1, 2, 3, 2],
        2: [2, 1, None, 1, 2, 3],
        3: [3, 2, 1, None, 1, 2],
        4: [2, 3, 2, 1, None, 1],
        5: [1, 2, 3, 2, 1, None],
    }, seat_only=True)


def test_r14_r82_three_players_all_adjacent_and_two_left_at_distance_one():
    _check_rows(game(3), {
        0: [None, 1, 1],
        1: [1, None, 1],
        2: [1, 1, None],
    }, seat_only=True)
    _check_rows(game(3, dead=(1,)), {
        0: [None, None, 1],
        2: [1, None, None],
    }, seat_only=True)


def test_r14_eliminated_players_in_between_are_not_counted_from_every_seat():
    # alive 0, 2, 3, 6 of 7: the survivors close the circle, four of them
    t = game(7, dead=(1, 4, 5))
    _check_rows(t, {
        0: [None, None, 1, 2, None, None, 1],
        2: [1, None, None, 1, None, None, 2],
        3: [2, None, 1, None, None, None, 1],
        6: [1, None, 2, 1, None, None, None],
    }, seat_only=True)


def test_r14_eliminated_seat_zero_the_circle_closes_across_it():
    # seat 0 and 3 eliminated, the Sheriff at seat 2: seat 5's left is seat 1
    t = game(6, dead=(0, 3), roles=["outlaw", "renegade", "sheriff", "outlaw", "outlaw", "deputy"], turn=2)
    _check_rows(t, {
        1: [None, None, 1, None, 2, 1],
        2: [None, 1, None, None, 1, 2],
        4: [None, 2, 1, None, None, 1],
        5: [None, 1, 2, None, 1, None],
    }, seat_only=True)


def test_r15_r36_r37_r69_r71_modifiers_on_seats_other_than_zero_from_every_seat():
    # Paul Regret at 1 and a Mustang at 4 are seen at +1; a Scope at 3 and Rose Doolan at 5
    # see the others at -1, never below 1 (base: the six-seat rows above)
    t = game(6, in_play={4: ["MUSTANG-8H"], 3: ["SCOPE-AS"]}, chars={1: "paul_regret", 5: "rose_doolan"})
    _check_rows(t, {
        0: [None, 2, 2, 3, 3, 1],
        1: [1, None, 1, 2, 4, 2],
        2: [2, 2, None, 1, 3, 3],
        3: [2, 2, 1, None, 1, 1],
        4: [2, 4, 2, 1, None, 1],
        5: [1, 2, 2, 1, 1, None],
    })


def test_r15_r69_r71_plus_two_and_minus_two_with_eliminated_players_in_between():
    # alive 0, 1, 3, 4, 6 of 7 (five); Paul Regret with a Mustang at 3: +2;
    # Rose Doolan with a Scope at 6: -2, never below 1
    t = game(7, dead=(2, 5), in_play={3: ["MUSTANG-9H"], 6: ["SCOPE-AS"]},
             chars={3: "paul_regret", 6: "rose_doolan"})
    _check_rows(t, {
        0: [None, 1, None, 4, 2, None, 1],
        1: [1, None, None, 3, 2, None, 2],
        3: [2, 1, None, None, 1, None, 2],
        4: [2, 2, None, 3, None, None, 1],
        6: [1, 1, None, 2, 1, None, None],
    })


def test_r15_an_eliminated_paul_regret_or_mustang_holder_changes_nothing():
    # Paul Regret at 2 is eliminated (his cards discarded, R51): the others see plain seat distance
    t = game(5, dead=(2,), chars={2: "paul_regret"}, in_play={4: ["MUSTANG-8H"]})
    _check_rows(t, {
        0: [None, 1, None, 2, 2],
        1: [1, None, None, 1, 3],
        3: [2, 1, None, None, 2],
        4: [1, 2, None, 1, None],
    })


def test_r16_bang_targets_from_a_seat_other_than_zero():
    # seat 4 of 7 with a Schofield (reach 2), seat 6 eliminated, a Mustang at 1, Paul Regret at 2:
    # seat 4 sees 0 at 2, 1 at 3 + 1, 2 at 2 + 1, 3 and 5 at 1
    t = game(7, turn=4, dead=(6,), hands={4: ["BANG-AS"]}, in_play={4: ["SCHOFIELD-KS"], 1: ["MUSTANG-8H"]},
             chars={2: "paul_regret"})
    assert distances_from(t.state, 4) == {0: 2, 1: 4, 2: 3, 3: 1, 5: 1}
    targets = sorted(m["target"] for m in t.legal(4) if m.get("card") == "BANG-AS")
    assert targets == [0, 3, 5]
    with raises_rule("R16", "out_of_range"):
        play(t, 4, "BANG-AS", 2)
    play(t, 4, "BANG-AS", 0)
    assert kind(t) == "shot"


def test_r17_panic_from_rose_doolan_not_at_seat_zero():
    # Rose Doolan at seat 5 of 7 sees 0, 3, 4 and 6 at distance 1 (2 - 1, 2 - 1, 1, 1), 1 and 2 at 2
    cards = {0: ["BEER-6H"], 1: ["BEER-7H"], 2: ["BEER-8H"], 3: ["BEER-9H"], 4: ["BEER-10H"], 6: ["BEER-JH"]}
    t = game(7, turn=5, chars={5: "rose_doolan"}, hands={5: ["PANIC-JH"], **cards}, in_play={5: ["WINCHESTER-8S"]})
    panic = {m["target"] for m in t.legal(5) if m.get("card") == "PANIC-JH"}
    assert panic == {0, 3, 4, 6}
    with raises_rule("R17", "out_of_range"):
        play(t, 5, "PANIC-JH", 1, "hand")


def test_r17_panic_with_a_scope_across_an_eliminated_seat():
    # seat 3 of 6 with a Scope, seat 4 eliminated: alive 0, 1, 2, 3, 5, all at seat distance 1 or 2
    cards = {0: ["BEER-6H"], 1: ["BEER-7H"], 2: ["BEER-8H"], 5: ["BEER-9H"]}
    t = game(6, turn=3, dead=(4,), hands={3: ["PANIC-JH"], **cards}, in_play={3: ["SCOPE-AS"]})
    panic = {m["target"] for m in t.legal(3) if m.get("card") == "PANIC-JH"}
    assert panic == {0, 1, 2, 5}
    t = game(6, turn=3, dead=(4,), hands={3: ["PANIC-JH"], **cards})
    panic = {m["target"] for m in t.legal(3) if m.get("card") == "PANIC-JH"}
    assert panic == {2, 5}
