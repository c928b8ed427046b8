"""One check of a value against a JSON Schema for the tests, made once per
schema: the contract's responses (``tests.contract``), the views and events
the conformance suite and the Face Off schema tests check. jsonschema, the
reference (``referee.engine.schema``), took three times as long as the request
it checked, most of the API tests' time: here jsonschema_rs (Draft 2020-12 in
compiled code; the product's fastjsonschema has no ``prefixItems``, which the
views use) answers "yes" in microseconds, and on a "no" the reference names
the errors and has the last word, so a value passes exactly when the
reference finds nothing to refuse."""
from __future__ import annotations

from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry

Json = dict[str, Any]


class SchemaCheck:
    """``schema``'s two validators, made once (``documents``: what its
    ``$ref``s name, in each validator's own registry)."""

    __slots__ = ("_fast", "_reference")

    def __init__(self, schema: Json, documents: tuple[jsonschema_rs.Registry, Registry] | None = None) -> None:
        if documents is None:
            self._fast = jsonschema_rs.Draft202012Validator(schema)
            self._reference = Draft202012Validator(schema)
        else:
            self._fast = jsonschema_rs.Draft202012Validator(schema, registry=documents[0])
            self._reference = Draft202012Validator(schema, registry=documents[1])

    def matches(self, value: Any) -> bool:
        """Whether ``value`` matches, by the compiled check (only its "yes" is taken: ``errors``)."""
        return bool(self._fast.is_valid(value))

    def errors(self, value: Any) -> list[ValidationError]:
        """The reference's errors of ``value``: ``[]`` when it matches."""
        if self.matches(value):
            return []
        return list(self._reference.iter_errors(value))

    def reference_matches(self, value: Any) -> bool:
        """The reference's own verdict (``tests/unit/test_schema_checks.py`` holds the two to agreeing)."""
        return bool(self._reference.is_valid(value))


#: the checks of the schemas the tests hold (a ruleset's view and event schemas), by identity; each entry
#: keeps its schema alive, so no other object is ever given its id
_HELD: dict[int, tuple[Json, SchemaCheck]] = {}


def check_of(schema: Json) -> SchemaCheck:
    """The check of ``schema``, an object that lives as long as the run (made at its first use)."""
    held = _HELD.get(id(schema))
    if held is None or held[0] is not schema:
        held = _HELD[id(schema)] = (schema, SchemaCheck(schema))
    return held[1]
