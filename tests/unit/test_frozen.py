"""``referee.engine.frozen.copier``: ``dataclasses.replace``, faster, for the
rulesets' frozen slotted states."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.frozen import copier


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tag: str | None = None
    cache: dict[Any, Any] = field(init=False, default_factory=dict, compare=False)


but = copier(Point, fresh={"cache": dict})


@given(st.integers(), st.integers(), st.none() | st.text(max_size=3),
       st.dictionaries(st.sampled_from(["x", "y", "tag"]), st.integers() | st.none()))
def test_a_copy_is_what_dataclasses_replace_gives(x: int, y: int, tag: str | None, changes: dict[str, Any]) -> None:
    p = Point(x, y, tag)
    p.cache["k"] = 1
    q = but(p, **changes)
    assert q == dataclasses.replace(p, **changes) and type(q) is Point
    assert q.cache == {} and p.cache == {"k": 1}  # a fresh field starts anew; the original is untouched
    assert (q.x, q.y, q.tag) == (changes.get("x", x), changes.get("y", y), changes.get("tag", tag))


def test_an_unknown_field_is_a_type_error_as_with_replace() -> None:
    with pytest.raises(TypeError, match="nope"):
        but(Point(1), nope=2)
    with pytest.raises(TypeError):
        but(Point(1), cache={})  # a fresh field is never copied in


def test_only_slotted_dataclasses_without_post_init() -> None:
    @dataclass(frozen=True)
    class Plain:
        a: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            assert self.a >= 0

    for cls in (Plain, Checked):
        with pytest.raises(TypeError):
            copier(cls)
