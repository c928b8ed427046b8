"""Typed moves (``referee.engine.moves``): read once at the boundary, given
back as the JSON they were sent as."""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.moves import MoveTable, TypedMove


@dataclasses.dataclass(frozen=True, slots=True)
class Play(TypedMove):
    TYPE = "play"
    card: str
    target: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Discard(TypedMove):
    TYPE = "discard"
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Leap(TypedMove):
    TYPE = "leap"
    origin: int = dataclasses.field(metadata={"json": "from"})


@dataclasses.dataclass(frozen=True, slots=True)
class Pass(TypedMove):
    TYPE = "pass"


TABLE = MoveTable([Play, Discard, Leap, Pass])


def test_a_move_is_read_as_its_frozen_class() -> None:
    move = TABLE.read({"type": "play", "card": "BANG-1", "target": 2})
    assert move == Play(card="BANG-1", target=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.card = "MISSED-1"  # type: ignore[misc]


def test_an_array_is_a_tuple_and_a_keyword_key_is_named_in_the_metadata() -> None:
    assert TABLE.read({"type": "discard", "cards": ["A", "B"]}) == Discard(cards=("A", "B"))
    leap = TABLE.read({"type": "leap", "from": 3})
    assert leap == Leap(origin=3)
    assert leap.to_json() == {"type": "leap", "from": 3}


def test_a_left_out_optional_is_left_out_again() -> None:
    assert TABLE.read({"type": "play", "card": "BEER-1"}).to_json() == {"type": "play", "card": "BEER-1"}
    assert TABLE.read({"type": "pass"}).to_json() == {"type": "pass"}


def test_a_type_is_declared_once() -> None:
    with pytest.raises(ValueError, match="taken"):
        MoveTable([Play, Play])
    with pytest.raises(ValueError, match="empty"):
        MoveTable([TypedMove])


PLAYS = st.builds(lambda card, target: {"type": "play", "card": card, **({} if target is None else {"target": target})},
                  st.text(max_size=5), st.none() | st.integers())
DISCARDS = st.builds(lambda cards: {"type": "discard", "cards": cards}, st.lists(st.text(max_size=3)))


@given(PLAYS | DISCARDS)
def test_read_then_to_json_gives_the_move_back(move: dict[str, object]) -> None:
    assert TABLE.read(move).to_json() == move
