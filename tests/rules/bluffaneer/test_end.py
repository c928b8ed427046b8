"""Payments and the end of the game: F26–F30."""
from __future__ import annotations

from referee.games import registry
from tests.harness import raises_rule
from tests.rules.bluffaneer.helpers import (
    ACCEPT,
    CHALLENGE,
    CLAIM,
    PASS,
    ROLL,
    TIMEOUT,
    game,
    only,
    state,
    steal,
    types,
)

RULES = registry.get("bluffaneer")


# F26 --------------------------------------------------------------------------

def test_f26_a_robbed_player_short_of_coins_gives_all_he_has() -> None:
    given = game(3, coins=[10, 2, 10], dice=["ship", "ship"])
    given.play(0, ROLL).play(0, steal(1))
    assert only(given.last, "coins_moved").data["transfers"] == [
        {"from": 1, "to": 0, "owed": 3, "amount": 2}]
    assert state(given).coins == (12, 0, 10)


def test_f26_a_failed_challenge_with_one_coin_pays_one_and_the_rest_is_forgiven() -> None:
    given = game(3, coins=[1, 10, 10], cards=[["chest", "sword"], ["ship", "skull"]],
                 dice=["ship", "skull"])
    given.play(0, ROLL, now=10).play(1, CLAIM, now=20).play(2, PASS, now=30).play(0, CHALLENGE)
    assert state(given).coins == (0, 11, 10) and state(given).box == 29


def test_f26_the_box_never_pays_out() -> None:
    given = game(3, coins=[1, 1, 10], cards=[["sword", "ship"]], dice=["sword", "ship"])
    box = state(given).box
    given.play(0, ROLL)
    assert state(given).box == box + 2 and state(given).coins == (1, 0, 9)


# F27 --------------------------------------------------------------------------

def test_f27_an_action_is_carried_out_in_full_before_the_end_is_checked() -> None:
    # two players reach 0 in the same own-card match; the card is still replaced
    given = game(4, coins=[3, 1, 1, 5], cards=[["chest", "skull"]], dice=["skull", "chest"],
                 deck=["SHIP-SKULL-2"])
    given.play(0, ROLL)
    assert types(given.last)[-3:] == ["coins_moved", "card_drawn", "game_ended"]
    assert only(given.last, "game_ended").data["zero"] == [1, 2]
    assert state(given).hands[0] == "SHIP-SKULL-2"


def test_f27_double_skull_pays_every_reachable_player_before_the_end() -> None:
    given = game(4, coins=[2, 5, 5, 5], dice=["skull", "skull"])
    given.play(0, ROLL)
    assert state(given).coins == (0, 6, 6, 5)
    assert given.result() is not None


# F28 --------------------------------------------------------------------------

def test_f28_the_game_ends_when_a_player_loses_his_last_coin() -> None:
    given = game(3, coins=[10, 1, 10], dice=["chest", "chest"])
    given.play(0, ROLL)
    end = only(given.last, "game_ended").data
    assert end["reason"] == "last_coin_lost" and end["zero"] == [1]
    assert given.to_act() == set() and RULES.deadline(given.state) is None
    assert given.view(0)["pending"] is None and given.view(0)["phase"] == "over"


def test_f28_no_move_is_accepted_after_the_end() -> None:
    given = game(3, coins=[10, 1, 10], dice=["chest", "chest"])
    given.play(0, ROLL)
    for actor, move in ((1, ROLL), (0, CLAIM), (0, ACCEPT), (None, TIMEOUT)):
        with raises_rule("F33", "game_over"):
            given.play(actor, move, now=99_999)
    assert all(given.legal(seat) == [] for seat in range(3))
    assert all(RULES.default_move(given.state, seat) is None for seat in range(3))


def test_f28_the_game_goes_on_while_everyone_has_a_coin() -> None:
    given = game(3, coins=[10, 2, 10], dice=["chest", "chest"])
    given.play(0, ROLL)
    assert given.result() is None and given.to_act() == {1}


# F29 --------------------------------------------------------------------------

def test_f29_the_player_with_the_most_coins_wins() -> None:
    given = game(3, coins=[10, 1, 15], dice=["chest", "chest"])
    given.play(0, ROLL)  # 12, 0, 14
    result = given.result()
    assert result is not None
    assert result["winners"] == [2] and result["tied"] == [] and result["flip"] is None
    assert result["seats"] == [
        {"seat": 0, "outcome": "loss", "coins": 12},
        {"seat": 1, "outcome": "loss", "coins": 0},
        {"seat": 2, "outcome": "win", "coins": 14},
    ]


def test_f29_players_at_zero_are_counted_too() -> None:
    given = game(3, coins=[1, 1, 1], dice=["skull", "skull"])
    given.play(0, ROLL)
    result = given.result()
    assert result is not None and [s["coins"] for s in result["seats"]] == [0, 2, 1]
    assert result["winners"] == [1]


# F30 --------------------------------------------------------------------------

def test_f30_a_tie_for_most_coins_is_settled_by_a_queued_flip() -> None:
    given = game(3, coins=[7, 1, 10], dice=["chest", "chest"], flips=[0])
    given.play(0, ROLL)  # 9, 0, 9
    end = only(given.last, "game_ended").data
    assert (end["tied"], end["flip"], end["queued"], end["winner"]) == ([0, 2], 0, True, 0)
    result = given.result()
    assert result is not None and result["winners"] == [0]
    assert result["tied"] == [0, 2] and result["flip"] == 0


def test_f30_with_three_tied_one_uniform_pick_from_the_generator() -> None:
    given = game(4, coins=[3, 10, 10, 10], dice=["skull", "skull"], seed="f30")
    position = given.rng.position
    given.play(0, ROLL)
    end = only(given.last, "game_ended").data
    assert end["tied"] == [1, 2, 3] and end["queued"] is False
    assert given.rng.position == position + 1
    assert given.result()["winners"] == [[1, 2, 3][end["flip"]]]  # type: ignore[index]


def test_f30_the_winner_of_the_flip_wins_alone() -> None:
    given = game(3, coins=[7, 1, 10], dice=["chest", "chest"], flips=[1])
    given.play(0, ROLL)
    result = given.result()
    assert result is not None
    assert [s["outcome"] for s in result["seats"]] == ["loss", "loss", "win"]


def test_f30_everyone_with_his_coins_in_the_result_after_a_decision() -> None:
    given = game(3, coins=[1, 10, 10], cards=[["chest", "sword"], ["ship", "skull"]],
                 dice=["ship", "skull"], flips=[1])
    given.play(0, ROLL, now=10).play(1, CLAIM, now=20).play(2, PASS, now=30).play(0, ACCEPT)
    result = given.result()
    assert result is not None
    assert [s["coins"] for s in result["seats"]] == [0, 11, 10] and result["winners"] == [1]
