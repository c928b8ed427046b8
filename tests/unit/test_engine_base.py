"""The ruleset base (issue 9): what a ruleset must write is enforced, and the
published schemas are compiled once and name the first refusal."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.base import RulesetBase
from referee.engine.schema import closed_object, first_refusal, validator
from referee.games import registry


def test_a_ruleset_missing_a_required_method_cannot_be_made() -> None:
    class Half(RulesetBase[Any]):
        name = "half"

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]
    assert all(isinstance(registry.get(n), RulesetBase) for n in registry.names())


def test_the_first_refusal_names_field_and_rule() -> None:
    schema = closed_object({"pile": {"type": "integer", "minimum": 0, "x-rule": "N3"}}, description="a take")
    assert validator(schema).is_valid({"pile": 0}) and not validator(schema).is_valid({"pile": -1})
    assert first_refusal(schema, {"pile": 0}, "move") is None
    assert first_refusal(schema, {"pile": -1}, "move") == ("N3", "move.pile: -1 is less than the minimum of 0")
    rule, detail = first_refusal(schema, {"pile": 1, "extra": 2}, "move")  # type: ignore[misc]
    assert rule is None and detail.startswith("move: Additional properties")
