"""The pool's matcher and its pausing rule, pure (issue 42 item 3;
``referee.ladder.matching``, ``referee.ladder.pause``): examples of each
seating rule, then properties over any pool hypothesis draws."""
from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from referee.engine.rng import Rng
from referee.ladder import pause
from referee.ladder.matching import Anchor, Table, Waiting, propose, window
from referee.ladder.pause import Played

NOW = 1_000_000
ANCHORS = [Anchor("random", 0.0), Anchor("heuristic", 0.0)]
BANG = (3, 4, 5, 6, 7)


def bot(name: str, skill: float = 0.0, *, owner: str | None = None, same_table: int = 1,
        waited_ms: int = 0) -> Waiting:
    return Waiting(name, skill, same_table, owner or f"owner-{name}", NOW - waited_ms)


def tables(waiting: list[Waiting], sizes: tuple[int, ...] = BANG, anchors: list[Anchor] | None = None,
           anchor_tables: int = 8, seed: bytes = b"s") -> list[Table]:
    return propose(waiting, ANCHORS if anchors is None else anchors, sizes, anchor_tables, NOW, Rng(seed))


# -- examples ----------------------------------------------------------------------
def test_registered_bots_fill_the_largest_table_and_the_anchors_the_seats_they_leave() -> None:
    dealt = tables([bot("a"), bot("b"), bot("c")])
    assert len(dealt) == 1 and sorted(dealt[0].seats) == ["a", "b", "c", "heuristic", "random"]
    seven = tables([bot(f"b{i}") for i in range(9)])
    assert [len(t.seats) for t in seven] == [7, 4] and not {"random", "heuristic"} & set(seven[0].seats)
    assert {"random", "heuristic"} <= set(seven[1].seats)  # the two left over, with the anchors


def test_a_lone_bot_plays_the_anchors_and_without_them_waits() -> None:
    assert sorted(tables([bot("a")])[0].seats) == ["a", "heuristic", "random"]
    assert tables([bot("a")], anchor_tables=0) == []
    assert tables([bot("a")], sizes=(2,), anchors=[]) == []
    assert sorted(tables([bot("a")], sizes=(2,))[0].seats) == ["a", "heuristic"]  # one anchor: the nearest


def test_the_anchors_take_more_seats_only_to_make_the_smallest_table() -> None:
    """One owner's bots never share a table: alone, each still finds a
    four-seat BANG! game (4-7 players) with the anchors, one of them twice."""
    four = tables([bot("a")], sizes=(4, 5, 6, 7))
    assert len(four) == 1 and Counter(four[0].seats) == Counter({"a": 1, "random": 2, "heuristic": 1}) or \
        Counter(four[0].seats) == Counter({"a": 1, "random": 1, "heuristic": 2})
    one_owner = tables([bot(n, owner="me") for n in ("a", "b", "c", "d")], sizes=(4, 5, 6, 7))
    assert len(one_owner) == 4 and all(len(t.seats) == 4 and len(set(t.seats) - {"random", "heuristic"}) == 1
                                       for t in one_owner)
    two = tables([bot("a"), bot("b")], sizes=(4, 5, 6, 7))  # two owners: both anchors, once each
    assert len(two) == 1 and sorted(two[0].seats) == ["a", "b", "heuristic", "random"]
    assert tables([bot("a")], sizes=(4,), anchors=[Anchor("random", 40.0)]) == []  # out of the window: waits


def test_a_table_never_seats_anchors_alone_and_respects_their_cap() -> None:
    dealt = tables([bot("a", waited_ms=9), bot("b", 50.0, waited_ms=5)], anchor_tables=1)
    assert len(dealt) == 1 and "a" in dealt[0].seats  # b, far from a, would need the anchors: spent


def test_similar_ratings_sit_together_and_the_window_widens_with_the_wait() -> None:
    near = [bot("a", 10.0, waited_ms=1), bot("b", 11.0), bot("c", 30.0), bot("d", 31.0)]
    dealt = tables(near, sizes=(2,), anchors=[])
    assert sorted(sorted(t.seats) for t in dealt) == [["a", "b"], ["c", "d"]]
    far = [bot("a", 0.0), bot("b", 30.0)]
    assert tables(far, sizes=(2,), anchors=[]) == []
    waited = [bot("a", 0.0, waited_ms=200_000), bot("b", 30.0)]
    assert window(200_000) >= 30 and sorted(tables(waited, sizes=(2,), anchors=[])[0].seats) == ["a", "b"]


def test_one_owners_bots_share_a_table_only_if_each_allows_it() -> None:
    strict = [bot("a", owner="o"), bot("b", owner="o")]
    assert all(Counter(t.seats)["a"] + Counter(t.seats)["b"] <= 1 for t in tables(strict))
    assert tables(strict, sizes=(2,), anchors=[]) == []
    willing = [bot("a", owner="o", same_table=2), bot("b", owner="o", same_table=2)]
    assert sorted(tables(willing, sizes=(2,), anchors=[])[0].seats) == ["a", "b"]
    one_unwilling = [bot("a", owner="o", same_table=2), bot("b", owner="o")]
    assert all({"a", "b"} - set(t.seats) for t in tables(one_unwilling, sizes=(2,), anchors=[]))  # a plays itself


def test_a_bot_holds_two_seats_only_when_it_allows_it_and_nothing_else_fills_them() -> None:
    assert tables([bot("a", same_table=2)], sizes=(2,), anchors=[])[0].seats == ("a", "a")
    assert sorted(tables([bot("a", same_table=2)], sizes=(2,))[0].seats) == ["a", "heuristic"]
    assert tables([bot("a")], sizes=(2,), anchors=[]) == []


def test_seats_rotate_from_game_to_game() -> None:
    four = [bot(name) for name in "abcd"]
    orders = {tables(four, sizes=(4,), seed=bytes([i]))[0].seats for i in range(20)}
    assert len(orders) > 5 and all(sorted(order) == list("abcd") for order in orders)


# -- properties ----------------------------------------------------------------------
OWNERS = st.sampled_from(["o1", "o2", "o3", "o4", "o5"])
POOLS = st.lists(st.builds(Waiting, bot=st.uuids().map(lambda u: "bot_" + u.hex[:8]),
                           skill=st.floats(-10, 50, allow_nan=False), same_table=st.integers(1, 3), owner=OWNERS,
                           since=st.integers(NOW - 600_000, NOW)),
                 max_size=14, unique_by=lambda w: w.bot)
SIZES = st.sampled_from([(2,), (3, 4, 5, 6, 7), (3, 4, 5, 6), (3, 4, 5, 6, 7, 8), (4,)])


@given(POOLS, SIZES, st.integers(0, 4), st.binary(min_size=1, max_size=8))
def test_every_table_keeps_every_seating_rule(waiting: list[Waiting], sizes: tuple[int, ...], anchor_tables: int,
                                              seed: bytes) -> None:
    dealt = tables(waiting, sizes=sizes, anchor_tables=anchor_tables, seed=seed)
    by_id = {w.bot: w for w in waiting}
    anchors = {a.bot for a in ANCHORS}
    seated: Counter[str] = Counter()
    for table in dealt:
        counts = Counter(table.seats)
        assert len(table.seats) in sizes
        assert set(counts) - anchors, "a table of anchors alone"
        # an anchor holds a second seat only to make the smallest table
        assert all(counts[a] <= 1 for a in anchors) or len(table.seats) == min(sizes)
        for name, held in counts.items():
            if name in by_id:
                assert held <= by_id[name].same_table
                seated[name] += 1
        owners = Counter(by_id[name].owner for name in counts if name in by_id)
        for owner, bots in owners.items():
            if bots > 1:
                assert all(by_id[n].same_table > 1 for n in counts if n in by_id and by_id[n].owner == owner)
    assert all(n == 1 for n in seated.values()), "a bot at two new tables in one round"
    assert sum(1 for t in dealt if anchors & set(t.seats)) <= anchor_tables
    assert dealt == tables(waiting, sizes=sizes, anchor_tables=anchor_tables, seed=seed)  # the same every time


@given(POOLS.filter(bool), SIZES)
def test_with_the_anchors_free_the_longest_waiting_bot_plays_at_once(waiting: list[Waiting],
                                                                  sizes: tuple[int, ...]) -> None:
    first = min(waiting, key=lambda w: (w.since, w.bot))
    dealt = tables([Waiting(w.bot, 0.0, w.same_table, w.owner, w.since) for w in waiting], sizes=sizes)
    assert any(first.bot in t.seats for t in dealt)  # the anchors, in turn, make any table


# -- pausing ---------------------------------------------------------------------------
def test_a_bot_that_never_answers_is_paused_after_one_game_of_any_length() -> None:
    assert pause.reason([Played(12, 12)]) is not None
    assert pause.reason([Played(5, 5)]) is None  # too few turns to judge
    assert pause.reason([Played(5, 5), Played(6, 6)]) is not None


def test_the_share_of_faults_over_the_window_pauses() -> None:
    fine = [Played(50, 0)] * 9 + [Played(50, 10)]
    assert pause.reason(fine) is None  # 10 of 500
    bad = [Played(20, 5)] * 4
    why = pause.reason(bad)
    assert why is not None and "invalid answers were 20 of its 80 turns in its last 4 pool games" in why
    old = [Played(10, 10)] * 3 + [Played(100, 0)] * pause.WINDOW_GAMES
    assert pause.reason(old) is None  # the faulty games left the window


def test_a_fault_in_each_of_the_last_games_pauses() -> None:
    streak = [Played(100, 1)] * pause.STREAK_GAMES
    assert "each of its last 5" in str(pause.reason(streak))
    assert pause.reason([Played(100, 1)] * (pause.STREAK_GAMES - 1) + [Played(100, 0)]) is None


def test_a_seats_cell_counts_its_timeouts_and_invalid_answers_as_faults() -> None:
    assert Played.of({"moves": 7, "timeouts": 2, "invalid": 1, "total_ms": 5}) == Played(10, 3)
