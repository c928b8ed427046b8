"""The move request's body (issue 20): the quick path gives exactly what
marshmallow's ``MoveRequest`` loads, for every body it takes; every other
body goes to ``MoveRequest``, which loads it or names what is wrong."""
from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from marshmallow import ValidationError

from referee.http.schemas import MAX_INT, MoveRequest, quick_move_request

MOVE = MoveRequest()
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                            max_size=3), max_leaves=6)
moves = st.dictionaries(st.sampled_from(["type", "card", "target", 7]), values | st.just("play"), max_size=4)
versions = st.integers(-2, 5) | st.just(MAX_INT) | st.just(MAX_INT + 1) | st.floats(-1, 5) | st.booleans() \
    | st.text(max_size=2) | st.none()


@given(st.fixed_dictionaries({}, optional={"move": moves | values, "expected_version": versions, "x": values}))
def test_the_quick_path_loads_what_marshmallow_loads(body: dict[str, Any]) -> None:
    quick = quick_move_request(body)
    try:
        loaded: Any = MOVE.load(body)
    except ValidationError:
        loaded = None
    if quick is not None:
        assert quick == loaded and type(quick.get("expected_version", 0)) is int


def test_a_plain_move_takes_the_quick_path() -> None:
    body = {"move": {"type": "play", "card": "BANG-AS", "target": 2}, "expected_version": 41}
    assert quick_move_request(body) == MOVE.load(body) == body
    assert quick_move_request({"move": {"type": "roll"}}) == {"move": {"type": "roll"}}
    for other in ({"move": {"type": "roll"}, "expected_version": 3.0}, {"move": {"type": 3}},
                  {"move": {"type": "roll"}, "expected_version": True}, {"move": {"type": "roll"}, "x": 1}):
        assert quick_move_request(other) is None
