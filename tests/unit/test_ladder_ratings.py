"""Issue 42: the ladder's pure fold (``referee.ladder.ratings``) and its
ledger (``referee.ladder.ledger``): the table kept incrementally, games
arriving in any order, equals the fold of every game from scratch in the
order they finished; the built-in bots are anchors; two bots of one owner
at a rated table move no rating."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ladder import ledger
from referee.ladder.ratings import (
    ANCHORS,
    PROVISIONAL_BELOW,
    Table,
    entry_of,
    fold,
    games_of,
    history_of,
    ladder_key,
    ladder_of,
    ranked,
    shown,
    unrated_reason,
)

BOTS = ["bot_a", "bot_b", "bot_c", "random", "heuristic"]
OWNERS = {"bot_a": "o1", "bot_b": "o2", "bot_c": "o1"}  # bot_a and bot_c: one owner


def header(bots: list[str], *, rated: bool = True, ruleset: str = "bluffaneer", **extra: Any) -> dict[str, Any]:
    seats = [{"seat": i, "name": f"seat {i}", "bot": bot, **({"owner": OWNERS[bot]} if bot in OWNERS else {})}
             for i, bot in enumerate(bots)]
    return {"ruleset": ruleset, "players": len(bots), "seats": seats, "custom": False,
            **({"rated": True} if rated else {}), **extra}


def result(winners: list[int], players: int) -> dict[str, Any]:
    return {"winners": winners, "seats": [{"seat": s, "role": None} for s in range(players)], "reason": "won"}


def entry(game: str, at: int, bots: list[str], winners: list[int]) -> dict[str, Any]:
    found = entry_of(game, header(bots), result(winners, len(bots)), [], at)
    assert found is not None
    return found


# -- which games count -----------------------------------------------------------
def test_a_game_not_asked_to_be_rated_is_no_entry() -> None:
    assert entry_of("g", header(["bot_a", "bot_b"], rated=False), result([0], 2), [], 1) is None


def test_a_tournament_game_is_rated_unless_custom_and_a_pool_game_is_rated() -> None:
    assert entry_of("g", header(["bot_a", "bot_b"], rated=False, tournament="t1"), result([0], 2), [], 1)
    assert entry_of("g", header(["bot_a", "bot_b"], rated=False, pool="p"), result([0], 2), [], 1)
    custom = header(["bot_a", "bot_b"], rated=False, tournament="t1")
    custom["custom"] = True
    assert entry_of("g", custom, result([0], 2), [], 1) is None


def test_a_cancelled_game_without_a_result_is_no_entry() -> None:
    assert entry_of("g", header(["bot_a", "bot_b"]), None, [], 1) is None


def test_two_bots_of_one_owner_make_the_game_unrated_same_owner() -> None:
    assert unrated_reason(header(["bot_a", "bot_c", "random"])) == "same_owner"
    assert unrated_reason(header(["bot_a", "bot_a"])) == "same_owner"  # one bot twice
    found = entry_of("g", header(["bot_a", "bot_c"]), result([0], 2), [], 1)
    assert found is not None and found["rated"] is False and found["unrated_reason"] == "same_owner"


def test_built_in_bots_twice_at_a_table_keep_it_rated() -> None:
    """A built-in bot is everyone's: three random seats pump no one."""
    assert unrated_reason(header(["bot_a", "random", "random", "random"])) is None


def test_a_bot_registered_before_owners_is_its_own_owner() -> None:
    old = header(["bot_a", "bot_b"])
    for seat in old["seats"]:
        seat.pop("owner")
    assert unrated_reason(old) is None
    old["seats"][1]["bot"] = "bot_a"
    assert unrated_reason(old) == "same_owner"


def test_a_human_seat_or_a_custom_deal_moves_no_rating() -> None:
    people = header(["bot_a", "bot_b"])
    people["seats"][1]["bot"] = None
    assert unrated_reason(people) == "human_seat"
    assert unrated_reason({**header(["bot_a", "bot_b"]), "custom": True}) == "custom"


def test_bang_with_three_players_has_a_ladder_of_its_own() -> None:
    assert ladder_key("bang", 3) == "bang:3"
    assert ladder_key("bang", 5) == "bang"
    assert ladder_key("bluffaneer", 3) == "bluffaneer"
    assert ladder_of("bang:3") == ("bang", 3)
    assert ladder_of("bang") == ("bang", None)


# -- the fold --------------------------------------------------------------------
def test_anchors_never_move_while_others_are_rated_against_them() -> None:
    table = fold("bluffaneer", [entry(f"g{i}", i, ["bot_a", "random", "heuristic"], [0]) for i in range(5)])
    rows = table.rows
    assert (rows["random"]["mu"], rows["random"]["sigma"]) == ANCHORS["random"]
    assert (rows["heuristic"]["mu"], rows["heuristic"]["sigma"]) == ANCHORS["heuristic"]
    assert rows["bot_a"]["mu"] > 25 and rows["bot_a"]["sigma"] < 25 / 3
    assert [row["bot"] for row in ranked(rows.values())][0] == "heuristic"  # sigma 2 beats a new bot's ordinal


def test_unrated_games_show_in_the_bots_games_and_move_nothing_else() -> None:
    game = entry("g1", 1, ["bot_a", "bot_c"], [0])
    table = fold("bluffaneer", [game])
    row = table.rows["bot_a"]
    assert row["games"] == 0 and row["mu"] == 25 and table.after == {}
    assert history_of("bot_a", [game], table.after) == []
    assert games_of("bot_a", [game]) == [{"id": "g1", "ladder": "bluffaneer", "finished_at": 1, "won": True,
                                          "seat": 0, "rated": False, "unrated_reason": "same_owner"}]
    assert table.state["games"] == 0 and table.state["folded"] == 1


def test_counts_roles_form_history_and_provisional() -> None:
    games = [entry(f"g{i:02}", i, ["bot_a", "bot_b"], [i % 2]) for i in range(PROVISIONAL_BELOW + 2)]
    games[0]["seats"][0]["role"] = "sheriff"
    table = fold("bang", games)
    row = table.rows["bot_a"]
    out = shown(row)
    assert out["games"] == PROVISIONAL_BELOW + 2 and out["wins"] == 11 and not out["provisional"]
    assert out["roles"]["sheriff"] == {"games": 1, "wins": 1, "win_rate": 1.0}
    assert out["roles"]["any"]["games"] == PROVISIONAL_BELOW + 1
    history = history_of("bot_a", games[::-1], table.after)
    assert out["form"] == ["W", "L"] * 5 and len(history) == PROVISIONAL_BELOW + 2
    assert history[-1]["game"] == games[-1]["game"] and history[-1]["mu"] == row["mu"]
    assert history[0]["game"] == "g00" and history[0]["won"] and history[0]["mu"] > 25
    early = fold("bang", games[:PROVISIONAL_BELOW - 1]).rows["bot_a"]
    assert shown(early)["provisional"]


def test_the_table_refuses_an_entry_out_of_order() -> None:
    table = Table("bluffaneer")
    table.fold(entry("g2", 2, ["bot_a", "bot_b"], [0]))
    with pytest.raises(ValueError):
        table.fold(entry("g1", 2, ["bot_a", "bot_b"], [0]))  # same ms, smaller id: before it


# -- incremental == from scratch, in any arrival order ---------------------------------
game_st = st.tuples(st.integers(0, 30), st.lists(st.sampled_from(BOTS), min_size=2, max_size=4),
                    st.integers(0, 3))


@settings(max_examples=60)
@given(st.lists(game_st, min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_incremental_equals_from_scratch_in_any_arrival_order(games: list[Any], rnd: random.Random) -> None:
    """Games finish at random times (many in one ms), arrive in any order,
    and are caught up after each (checkpoints every 3, the last 2 and every
    third kept: late games refold from a checkpoint, or from scratch): the table is always the fold
    of what arrived, from scratch, in the order the games finished."""
    entries = [entry(f"g{i:03}", at, bots, [winner % len(bots)]) for i, (at, bots, winner) in enumerate(games)]
    arrival = entries[:]
    rnd.shuffle(arrival)
    book = ledger.MemoryBook()
    every, kept, sparse = ledger.CHECKPOINT_EVERY, ledger.CHECKPOINTS_KEPT, ledger.SPARSE
    ledger.CHECKPOINT_EVERY, ledger.CHECKPOINTS_KEPT, ledger.SPARSE = 3, 2, 3
    try:
        for n, found in enumerate(arrival, 1):
            assert book.add(found)
            assert not book.add(found)  # a repeat: nothing
            ledger.catch_up(book, "bluffaneer")
            scratch = fold("bluffaneer", arrival[:n])
            assert book.table() == scratch.state and book.after == scratch.after
    finally:
        ledger.CHECKPOINT_EVERY, ledger.CHECKPOINTS_KEPT, ledger.SPARSE = every, kept, sparse
    assert book.table() == fold("bluffaneer", entries).state


def test_checkpoints_keep_the_newest_and_every_sparse_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """However late a game comes, a checkpoint at most ``CHECKPOINT_EVERY * SPARSE`` games before it is kept."""
    monkeypatch.setattr(ledger, "CHECKPOINT_EVERY", 100)
    monkeypatch.setattr(ledger, "CHECKPOINTS_KEPT", 3)
    monkeypatch.setattr(ledger, "SPARSE", 10)
    kept: list[int] = []
    for folded in range(100, 3001, 100):
        drop = ledger.dropped(kept, folded)
        kept = sorted(set(kept) - set(drop) | {folded})
    assert kept == [1000, 2000, 2800, 2900, 3000]
