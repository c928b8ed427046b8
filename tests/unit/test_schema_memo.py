"""The memo of valid moves (issue 10): a move the schema accepts is
remembered, one it refuses is checked afresh every time, and a memo entry
belongs to its schema object only."""
from __future__ import annotations

from hypothesis import given, strategies as st

from referee.engine.schema import _valid, closed_object, first_refusal, known_valid

SCHEMA = closed_object({"type": {"const": "play"}, "card": {"type": "integer", "minimum": 0}})
OTHER = closed_object({"type": {"const": "play"}, "card": {"type": "integer", "maximum": 3}})

values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                      lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=8)


@given(st.dictionaries(st.sampled_from(["type", "card", "x"]), values | st.just("play") | st.integers(0, 9)))
def test_the_memo_agrees_with_the_schema_every_time(move: dict) -> None:
    for _ in range(2):  # the second call may come from the memo
        assert known_valid(SCHEMA, move) == (first_refusal(SCHEMA, move, "m") is None)
        assert known_valid(OTHER, move) == (first_refusal(OTHER, move, "m") is None)


def test_a_valid_move_is_remembered_for_its_schema_only() -> None:
    _valid.clear()
    move = {"type": "play", "card": 7}
    assert known_valid(SCHEMA, move) and len(_valid) == 1
    assert not known_valid(OTHER, move)  # 7 > 3: the other schema's memo is its own
    assert len(_valid) == 1
    assert not known_valid(SCHEMA, {"type": "play", "card": -1}) and len(_valid) == 1
