"""Randomness and refusals: F32, F33, move shapes."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.protocol import IllegalMove, MalformedMove, OutOfTurn
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bluffaneer import Bluffaneer, moves
from referee.games.bluffaneer.symbols import CARD_IDS, DEFAULT_DIE_FACES
from tests.harness import raises_rule, scenario
from tests.rules.bluffaneer.helpers import (
    ACCEPT,
    CLAIM,
    PASS,
    ROLL,
    TIMEOUT,
    game,
    only,
    state,
    steal,
)

RULES = registry.get("bluffaneer")


# F32 --------------------------------------------------------------------------

def test_f32_die_one_then_die_two_each_below_six_into_the_face_list() -> None:
    table = scenario("bluffaneer", 4, options={"first_seat": 2}, seed="dice")
    rng = Rng(b"dice")
    rng.shuffle(CARD_IDS)
    first, second = DEFAULT_DIE_FACES[rng.below(6)], DEFAULT_DIE_FACES[rng.below(6)]
    table.play(2, ROLL)
    assert only(table.last, "dice_rolled").data == {
        "seat": 2, "dice": [first, second], "queued": 0}


def test_f32_queued_dice_come_before_the_generator() -> None:
    table = game(3, dice=["skull", "chest", "ship"], seed="q")
    position = table.rng.position
    table.play(0, ROLL)
    assert only(table.last, "dice_rolled").data["dice"] == ["skull", "chest"]
    assert table.rng.position == position
    # next turn: die 1 from the queue, die 2 from the generator
    table2 = game(3, cards=[["sword", "ship"]], dice=["ship", "sword", "ship"], seed="q")
    table2.play(0, ROLL)  # own match, turn passes
    rolled = table2.play(1, ROLL).last[0].data
    assert rolled["dice"][0] == "ship" and rolled["queued"] == 1
    assert state(table2).dice_queue == ()


def test_f32_a_queued_flip_that_may_not_fit_its_tie_is_refused_at_creation() -> None:
    """A flip of 2 would not fit a 2-seat tie: refused when the game is
    created, never later on an innocent move (here seat 3's pass closing a
    2-claim window)."""
    with raises_rule("F32", "invalid_setup"):
        game(4, cards=[["chest", "sword"]], dice=["ship", "skull"], flips=[2])
    given = game(4, cards=[["chest", "sword"]], dice=["ship", "skull"], flips=[1])
    given.play(0, ROLL, now=10).play(1, CLAIM, now=20).play(2, CLAIM, now=20)
    given.play(3, PASS, now=30)
    assert state(given).claimant == 2  # the queued flip picked the second of the tied claimants


# F33 --------------------------------------------------------------------------

def test_f33_a_refused_move_changes_nothing_and_draws_nothing() -> None:
    given = game(3, cards=[["chest", "sword"]], dice=["ship", "skull"])
    given.play(0, ROLL, now=10)
    before, position, count = given.state, given.rng.position, len(given.events)
    for actor, move in ((0, CLAIM), (1, ACCEPT), (1, ROLL), (2, steal(1)), (None, TIMEOUT)):
        with pytest.raises(IllegalMove):
            given.play(actor, move, now=20)
    assert given.state is before and given.rng.position == position
    assert len(given.events) == count


def test_f33_out_of_turn_refusals_are_out_of_turn() -> None:
    given = game(3)
    with pytest.raises(OutOfTurn):
        given.play(1, ROLL)
    with pytest.raises(OutOfTurn):
        given.play(1, CLAIM)


def test_f33_only_the_system_moves_without_a_seat() -> None:
    given = game(3)
    with raises_rule("F33", "seat_required"):
        given.play(None, ROLL)


@pytest.mark.parametrize("actor", [3, -1, True])
def test_f1_an_unknown_seat_is_refused(actor: Any) -> None:
    with raises_rule("F1", "no_such_seat"):
        game(3).play(actor, ROLL)


@pytest.mark.parametrize("move", [
    {}, {"type": "dance"}, {"type": 3}, [], "roll", None,
    {"type": "roll", "target": 1},
    {"type": "steal"}, {"type": "steal", "target": "1"}, {"type": "steal", "target": True},
    {"type": "steal", "target": 1.0}, {"type": "claim", "seat": 1},
    {"type": "timeout", "at": 5},
])
def test_f33_malformed_moves_are_refused_as_malformed(move: Any) -> None:
    given = game(3, dice=["sword", "sword"])
    with pytest.raises(MalformedMove) as info:
        given.play(0, move)
    assert info.value.code == "malformed_move"


def test_f33_malformed_is_checked_before_the_end_of_the_game() -> None:
    given = game(3, coins=[10, 1, 10], dice=["chest", "chest"])
    given.play(0, ROLL)
    with pytest.raises(MalformedMove):
        given.play(1, {"type": "roll", "x": 1})


def test_f33_every_legal_move_is_a_complete_move_decide_accepts() -> None:
    given = game(4, dice=["ship", "ship"])
    given.play(0, ROLL)
    for move in given.legal(0):
        assert RULES.decide(given.state, 0, move, rng=Rng(b"x"), now=50)


@pytest.mark.parametrize("move", [
    {"type": "roll"}, {"type": "steal", "target": 0}, {"type": "steal", "target": 5}, {"type": "claim"},
    {"type": "pass"}, {"type": "accept"}, {"type": "challenge"}, {"type": "resign"}, {"type": "timeout"},
])
def test_f33_a_move_is_read_once_as_its_typed_value_and_given_back_as_sent(move: Any) -> None:
    """The parser, and the reading of a move its schema passed, give the
    typed value of the shared mechanism (``referee.engine.moves``), whose
    JSON is the move as it was sent."""
    ruleset, typed = Bluffaneer(), moves.MOVES.read(move)
    assert moves.parse(move) == moves.read(move) == ruleset.parse_move(move) == ruleset.read_move(move) == typed
    assert type(moves.read(move)) is type(typed) and typed.to_json() == move
