"""JSON Schemas as the rulesets declare them and the platform enforces them
(options, moves, setup, views, events): one validator cache, one way to name
the first refusal, one way to write a closed object and an on/off option."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator

Json = dict[str, Any]


def closed_object(required: dict[str, Json], optional: dict[str, Json] | None = None,
                  description: str = "") -> Json:
    """An object schema with exactly these properties (``required`` ones
    required, ``optional`` ones allowed) and nothing else."""
    out: Json = {"type": "object", "additionalProperties": False, "required": sorted(required),
                 "properties": {**required, **(optional or {})}}
    if description:
        out["description"] = description
    return out


def switch(rule: str, description: str) -> Json:
    """A creation option that turns a module or variant on (``rule`` its
    ``x-rule``): a boolean, off unless asked for."""
    return {"type": "boolean", "default": False, "x-rule": rule, "description": description}


def validator(schema: Json) -> Draft202012Validator:
    """jsonschema's validator of ``schema``, the reference (a new one each
    call: for a check made often, hold a ``SchemaCheck``)."""
    return Draft202012Validator(schema)


def first_refusal(schema: Json, value: Any, root: str,
                  reference: Draft202012Validator | None = None) -> tuple[str | None, str] | None:
    """``(rule, detail)`` of the first place where ``value`` breaks ``schema``
    (``None``: it matches), found by ``reference`` (its validator, made now
    if not given). The rule is the ``x-rule`` of the top-level property at
    fault, else the schema's own; the detail names the field."""
    checker = reference if reference is not None else validator(schema)
    error = min(checker.iter_errors(value), key=lambda e: [str(p) for p in e.path], default=None)
    if error is None:
        return None
    props = schema.get("properties", {})
    name = str(error.path[0]) if error.path else None
    if name is None and error.validator == "additionalProperties" and isinstance(value, dict):
        name = next((k for k in value if k not in props), None)
    rule = props.get(name, {}).get("x-rule", schema.get("x-rule")) if name is not None else schema.get("x-rule")
    where = ".".join([root, *(str(p) for p in error.path)]) if error.path else root
    return rule, f"{where}: {error.message}"


class SchemaCheck:
    """One schema's checks, made once, when this object is made, and held by
    whoever checks values against it often (a ruleset holds one per move
    type, ``RulesetBase.move_checks``): ``matches``, Python code generated
    from the schema (fastjsonschema: a valid value costs a few
    microseconds), and ``first_refusal``, jsonschema's answer (the
    reference, which has the last word)."""

    __slots__ = ("schema", "_fast", "_reference")

    def __init__(self, schema: Json) -> None:
        self.schema = schema
        self._fast: Callable[[Any], Any] = fastjsonschema.compile(schema)
        self._reference = Draft202012Validator(schema)

    def matches(self, value: Any) -> bool:
        """Whether ``value`` matches, by the compiled check. Only a "yes" is
        taken from it: a "no" is for ``first_refusal`` to name, which also
        settles any case where the two might differ (``check_move``)."""
        try:
            self._fast(value)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    def first_refusal(self, value: Any, root: str) -> tuple[str | None, str] | None:
        """``first_refusal(schema, value, root)``, by the reference held."""
        return first_refusal(self.schema, value, root, self._reference)

