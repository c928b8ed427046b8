"""Distance and reach: R14–R17."""
from __future__ import annotations

from referee.games.bang.distance import reach, seat_distance, sees_at
from tests.harness import raises_rule
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
