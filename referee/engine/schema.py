"""JSON Schemas as the rulesets declare them and the platform enforces them
(options, moves, setup, views, events): one validator cache, one way to name
the first refusal, one way to write a closed object."""
from __future__ import annotations

from typing import Any, Callable

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


#: compiled validators by schema object (the schemas are the rulesets'
#: constants): a move is checked without re-serialising its schema
_compiled: dict[int, tuple[Json, Draft202012Validator]] = {}


def validator(schema: Json) -> Draft202012Validator:
    """A compiled validator of ``schema``, kept for the next call."""
    entry = _compiled.get(id(schema))
    if entry is None or entry[0] is not schema:
        if len(_compiled) >= 256:
            _compiled.clear()
        entry = _compiled[id(schema)] = (schema, Draft202012Validator(schema))
    return entry[1]


def first_refusal(schema: Json, value: Any, root: str) -> tuple[str | None, str] | None:
    """``(rule, detail)`` of the first place where ``value`` breaks ``schema``
    (``None``: it matches). The rule is the ``x-rule`` of the top-level
    property at fault, else the schema's own; the detail names the field."""
    error = min(validator(schema).iter_errors(value), key=lambda e: [str(p) for p in e.path], default=None)
    if error is None:
        return None
    props = schema.get("properties", {})
    name = str(error.path[0]) if error.path else None
    if name is None and error.validator == "additionalProperties" and isinstance(value, dict):
        name = next((k for k in value if k not in props), None)
    rule = props.get(name, {}).get("x-rule", schema.get("x-rule")) if name is not None else schema.get("x-rule")
    where = ".".join([root, *(str(p) for p in error.path)]) if error.path else root
    return rule, f"{where}: {error.message}"


#: compiled checks by schema object: Python code generated from the schema
#: once (fastjsonschema), so a valid value costs a few microseconds
_fast: dict[int, tuple[Json, Callable[[Any], Any]]] = {}


def compiled(schema: Json) -> Callable[[Any], Any]:
    """The compiled check of ``schema`` (made once: a few milliseconds each,
    so ``registry.get`` makes every move schema's as it loads a ruleset)."""
    entry = _fast.get(id(schema))
    if entry is None or entry[0] is not schema:
        if len(_fast) >= 256:
            _fast.clear()
        entry = _fast[id(schema)] = (schema, fastjsonschema.compile(schema))
    return entry[1]


def matches(schema: Json, value: Any) -> bool:
    """Whether ``value`` matches ``schema``, by its compiled check. Only a
    "yes" is taken from it: a "no" is for ``first_refusal`` to name (with
    jsonschema, the reference), which also settles any case where the two
    might differ (``check_move``)."""
    try:
        compiled(schema)(value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True
