"""Distance and reach: R14–R17."""
from __future__ import annotations

from referee.games.bang.distance import reach, seat_distance, sees_at
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
