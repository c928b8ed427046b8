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


Square = tuple[int, int]


@dataclasses.dataclass(frozen=True, slots=True)
class Walk(TypedMove):
    TYPE = "walk"
    path: tuple[Square, ...]
    to: Square | None = None
    steps: int = 1
    marks: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    dice: tuple[int, ...] | None = None


TABLE: MoveTable[Play | Discard | Leap | Pass | Walk] = MoveTable([Play, Discard, Leap, Pass, Walk])


def test_a_move_is_read_as_its_frozen_class() -> None:
    move = TABLE.read({"type": "play", "card": "BANG-1", "target": 2})
    assert move == Play(card="BANG-1", target=2) and isinstance(move, Play)
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


def test_arrays_of_arrays_are_tuples_of_tuples_and_lists_of_lists_again() -> None:
    sent = {"type": "walk", "path": [[1, 2], [2, 2]], "to": [2, 2], "dice": [6]}
    walk = TABLE.read(sent)
    assert walk == Walk(path=((1, 2), (2, 2)), to=(2, 2), dice=(6,)) and isinstance(walk, Walk)
    assert type(walk.path[0]) is tuple and hash(walk)  # frozen all the way down
    assert walk.to_json() == {**sent, "steps": 1, "marks": []}


def test_a_left_out_key_is_the_fields_default_or_a_fresh_one_from_its_factory() -> None:
    walk = TABLE.read({"type": "walk", "path": []})
    assert isinstance(walk, Walk)
    assert (walk.to, walk.steps, walk.marks, walk.dice) == (None, 1, (), None)
    assert walk.to_json() == {"type": "walk", "path": [], "steps": 1, "marks": []}
    assert TABLE.read({"type": "walk", "path": [], "marks": ["x"], "steps": 3}).to_json() == \
        {"type": "walk", "path": [], "steps": 3, "marks": ["x"]}


def test_a_null_where_the_type_admits_none_is_none_and_null_again() -> None:
    assert TABLE.read({"type": "walk", "path": [], "to": None, "dice": None}).to_json() == \
        {"type": "walk", "path": [], "steps": 1, "marks": []}


def test_the_keys_are_worked_out_once_with_their_depth() -> None:
    assert [(key.key, key.optional, key.depth) for key in Walk.keys()] == \
        [("path", False, 2), ("to", True, 1), ("steps", True, 0), ("marks", True, 1), ("dice", True, 1)]
    assert [key.key for key in Leap.keys()] == ["from"] and Pass.keys() == ()
    assert Walk.keys() is Walk.keys()


def test_a_move_without_fields_is_read_as_one_shared_value() -> None:
    assert TABLE.read({"type": "pass"}) is TABLE.read({"type": "pass"}) == Pass()
    assert TABLE.read({"type": "play", "card": "A"}) is not TABLE.read({"type": "play", "card": "A"})


def test_the_keys_are_written_in_the_order_the_class_declares_them() -> None:
    move = {"type": "play", "card": "BANG-1", "target": 2}
    assert list(TABLE.read(move).to_json()) == ["type", "card", "target"]
    assert list(TypedMove.to_json(Play(card="BANG-1", target=2))) == ["type", "card", "target"]


def test_a_subclass_declared_after_the_table_is_built_reads_and_writes_its_own_keys() -> None:
    assert Play(card="A").to_json() == {"type": "play", "card": "A"}  # Play's writer is written now

    @dataclasses.dataclass(frozen=True, slots=True)
    class Aimed(Play):
        TYPE = "aimed"
        pick: str | None = None

    later: MoveTable[Aimed | Pass] = MoveTable([Aimed, Pass])
    aimed = later.read({"type": "aimed", "card": "A", "pick": "hand"})
    assert type(aimed) is Aimed and aimed == Aimed(card="A", pick="hand")
    assert aimed.to_json() == {"type": "aimed", "card": "A", "pick": "hand"}
    assert Aimed(card="B", target=1).to_json() == {"type": "aimed", "card": "B", "target": 1}
    assert Play(card="A", target=1).to_json() == {"type": "play", "card": "A", "target": 1}
    assert TABLE.read({"type": "play", "card": "A"}) == Play(card="A")


def test_a_to_json_a_class_writes_itself_is_kept_and_inherited() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Loud(TypedMove):
        TYPE = "loud"
        word: str

        def to_json(self) -> dict[str, object]:
            return {"type": self.TYPE, "word": self.word.upper()}

    @dataclasses.dataclass(frozen=True, slots=True)
    class Louder(Loud):
        TYPE = "louder"

    table = MoveTable([Loud, Louder])
    assert table.read({"type": "loud", "word": "bang"}).to_json() == {"type": "loud", "word": "BANG"}
    assert table.read({"type": "louder", "word": "bang"}).to_json() == {"type": "louder", "word": "BANG"}
    assert table.read({"type": "loud", "word": "bang"}).json() == {"type": "loud", "word": "BANG"}  # its writer's


PLAYS = st.builds(lambda card, target: {"type": "play", "card": card, **({} if target is None else {"target": target})},
                  st.text(max_size=5), st.none() | st.integers())
DISCARDS = st.builds(lambda cards: {"type": "discard", "cards": cards}, st.lists(st.text(max_size=3)))
SQUARES = st.lists(st.integers(), min_size=2, max_size=2)
WALKS = st.builds(lambda path, to, steps, marks: {"type": "walk", "path": path, **({} if to is None else {"to": to}),
                                                  "steps": steps, "marks": marks},
                  st.lists(SQUARES, max_size=3), st.none() | SQUARES, st.integers(), st.lists(st.text(max_size=2)))
LEAPS = st.builds(lambda origin: {"type": "leap", "from": origin}, st.integers())


@given(PLAYS | DISCARDS | WALKS | LEAPS | st.just({"type": "pass"}))
def test_read_then_to_json_gives_the_move_back(move: dict[str, object]) -> None:
    written = TABLE.read(move).to_json()
    assert written == move and list(written) == list(move)


@given(PLAYS | DISCARDS | WALKS | LEAPS | st.just({"type": "pass"}))
def test_json_is_what_to_json_writes_and_kept(move: dict[str, object]) -> None:
    read = TABLE.read(move)
    assert read.json() == read.to_json() and read.json() is read.json()


def test_json_is_the_object_read_where_to_json_would_write_its_equal() -> None:
    for move in ({"type": "play", "card": "A", "target": 1}, {"type": "discard", "cards": ["A"]},
                 {"type": "leap", "from": 2}):
        assert TABLE.read(move).json() is move
    walk = {"type": "walk", "path": [], "steps": 1, "marks": []}  # a default not None: written, not kept
    assert TABLE.read(walk).json() is not walk and TABLE.read(walk).json() == walk


def test_json_leaves_out_an_optional_key_sent_as_null_as_to_json_does() -> None:
    sent = {"type": "play", "card": "A", "target": None}
    assert TABLE.read(sent).json() == {"type": "play", "card": "A"}


def test_json_of_a_move_made_in_code_is_to_json_written_once() -> None:
    made = Play(card="A", target=2)
    assert made.json() == {"type": "play", "card": "A", "target": 2} and made.json() is made.json()


def test_a_class_whose_init_must_run_is_read_through_it() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Counted(TypedMove):
        TYPE = "counted"
        cards: tuple[str, ...]
        count: int = dataclasses.field(default=0, metadata={"json": "n"})

        def __post_init__(self) -> None:
            object.__setattr__(self, "count", len(self.cards))

    table: MoveTable[Counted] = MoveTable([Counted])
    assert table.read({"type": "counted", "cards": ["A", "B"]}).count == 2
    assert table.read({"type": "counted", "cards": ["A"]}).to_json() == {"type": "counted", "cards": ["A"], "n": 1}
