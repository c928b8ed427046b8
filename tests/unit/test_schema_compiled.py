"""The compiled check of a schema (issue 20): ``SchemaCheck.matches``
(fastjsonschema's generated code) says "yes" exactly when jsonschema, the
reference, finds nothing to refuse — over hand-made schemas and every
ruleset's published move schemas — and a ruleset holds its move checks
itself, made once (issue 26: no cache hidden in a module)."""
from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from referee.engine.schema import SchemaCheck, closed_object, first_refusal
from referee.games import registry

SCHEMA = closed_object({"type": {"const": "play"}, "card": {"type": "integer", "minimum": 0}})
OTHER = closed_object({"type": {"const": "play"}, "card": {"type": "integer", "maximum": 3}})
LISTED = closed_object({"type": {"const": "keep"},
                        "cards": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]},
                                  "minItems": 2, "maxItems": 2, "uniqueItems": True}})

values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                      lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=8)


_CHECKS: dict[int, SchemaCheck] = {}


def _agree(schema: dict[str, Any], value: Any) -> None:
    check = _CHECKS.get(id(schema)) or _CHECKS.setdefault(id(schema), SchemaCheck(schema))
    assert check.matches(value) == (first_refusal(schema, value, "m") is None), value
    assert check.first_refusal(value, "m") == first_refusal(schema, value, "m")


@given(st.dictionaries(st.sampled_from(["type", "card", "cards", "x"]),
                       values | st.just("play") | st.just("keep") | st.integers(0, 9)
                       | st.lists(st.sampled_from(["a", "b", "c", 1, 1.0, True]), max_size=3)))
def test_the_compiled_check_agrees_with_the_reference(move: dict[str, Any]) -> None:
    for schema in (SCHEMA, OTHER, LISTED):
        _agree(schema, move)


#: every published move schema, and the fields its moves carry
MOVE_SCHEMAS = [schema for name in registry.names() for schema in registry.get(name).move_schemas.values()]


def _field_values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    known = [*schema.get("enum", []), *([schema["const"]] if "const" in schema else [])]
    items = schema.get("items", {})
    item = st.sampled_from(items["enum"]) if items.get("enum") else st.integers(-1, 40) | st.text(max_size=3)
    return (st.sampled_from(known) if known else st.nothing()) | st.integers(-2, 41) | st.floats(-2, 41) \
        | st.booleans() | st.none() | st.lists(item | st.lists(st.integers(-1, 40), max_size=3), max_size=6) \
        | st.text(max_size=4)


@st.composite
def published_moves(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    schema = draw(st.sampled_from(MOVE_SCHEMAS))
    props = schema.get("properties", {})
    move = {name: draw(_field_values(prop)) for name, prop in props.items()
            if name == "type" or draw(st.booleans())}
    if draw(st.booleans()):
        move["extra"] = 1
    return schema, move


@given(published_moves())
def test_every_published_move_schema_compiles_to_the_same_answer(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    schema, move = case
    _agree(schema, move)


def test_a_ruleset_makes_each_move_check_once_from_its_own_published_schema() -> None:
    for name in registry.names():
        rs = registry.get(name)
        checks = rs.move_checks
        assert checks is rs.move_checks and set(checks) == set(rs.move_schemas)
        assert all(checks[kind].schema is schema for kind, schema in rs.move_schemas.items())
    move = {"type": "play", "card": 7}
    assert SchemaCheck(SCHEMA).matches(move) and not SchemaCheck(OTHER).matches(move)  # 7 > 3
