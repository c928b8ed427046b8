"""Event types as frozen typed data (issue 26 item 5).

An event is stored as ``{"type": ..., "data": {...}}``: the ``type`` string
and the data's keys are storage format, never renamed. A ruleset declares
each event's data as a ``TypedDict`` whose fields are all ``ReadOnly`` (so
mypy refuses any write to an event's data: events are frozen facts), and
hands the table ``type string -> TypedDict`` to the engine as its
``event_types``. Its ``evolve`` handlers take those types, so mypy checks
every read of an event against its declaration.

At run time an event's data stays the plain mapping that is stored: a
``TypedDict`` costs nothing when folding millions of events in a
tournament, where a class per event would cost a conversion per event
(docs/design-notes.md, "Design notes").

The declarations and the published JSON Schemas (``event_schemas``) say
the same thing twice, once for mypy and once for clients; ``disagreements``
holds them to each other and ``mismatches`` holds the events ``decide``
really makes to the declarations (``tests/unit/test_event_types.py``, over
every registered ruleset and random games of each)."""
from __future__ import annotations

import collections.abc
import inspect
import types
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints

from typing_extensions import ReadOnly, is_typeddict

Json = dict[str, Any]

#: what any JSON value is: a field typed ``Any`` or ``object`` agrees with every schema
ANY_JSON = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
_WRAPPERS = (ReadOnly, Required, NotRequired)
_SEQUENCES = (list, tuple, collections.abc.Sequence)
_MAPPINGS = (dict, collections.abc.Mapping)
#: the scalar types and the JSON type each is stored as (``bool`` before ``int``: each is matched by identity)
_SCALARS = ((bool, frozenset({"boolean"})), (int, frozenset({"integer"})), (float, frozenset({"number"})),
            (str, frozenset({"string"})))


def _marks(annotation: Any) -> tuple[frozenset[Any], Any]:
    """``annotation``'s ``ReadOnly``/``Required``/``NotRequired`` marks, and what they wrap."""
    marks = set()
    while get_origin(annotation) in _WRAPPERS:
        marks.add(get_origin(annotation))
        annotation = get_args(annotation)[0]
    return frozenset(marks), annotation


def json_types(annotation: Any) -> frozenset[str]:
    """The JSON types a value of ``annotation`` is stored as."""
    annotation = _marks(annotation)[1]
    origin = get_origin(annotation)
    if annotation is Any or annotation is object:
        return ANY_JSON
    if annotation is None or annotation is type(None):
        return frozenset({"null"})
    if origin in (Union, types.UnionType):
        return frozenset().union(*(json_types(arg) for arg in get_args(annotation)))
    if origin is Literal:
        return frozenset().union(*(json_types(type(value)) for value in get_args(annotation)))
    base = origin or annotation
    for scalar, stored in _SCALARS:
        if base is scalar:
            return stored
    if base in _SEQUENCES:
        return frozenset({"array"})
    if base in _MAPPINGS or is_typeddict(base):
        return frozenset({"object"})
    raise TypeError(f"{annotation!r} is not a JSON type")


def schema_types(schema: Json) -> frozenset[str]:
    """The JSON types ``schema`` allows (every type when it does not say)."""
    found: set[str] = set()
    said = False
    if "type" in schema:
        said = True
        kinds = schema["type"]
        found.update([kinds] if isinstance(kinds, str) else kinds)
    for word in ("enum", "const"):
        if word in schema:
            said = True
            values = schema[word] if word == "enum" else [schema[word]]
            for value in values:
                found |= json_types(type(value))
    for word in ("oneOf", "anyOf"):
        if word in schema:
            said = True
            for part in schema[word]:
                found |= schema_types(part)
    if not said:
        return ANY_JSON
    if "number" in found:
        found.add("integer")
    return frozenset(found)


def _read_only(hints: Mapping[str, Any]) -> list[str]:
    """The fields not marked ``ReadOnly`` (an event's data is never written)."""
    return [name for name, hint in hints.items() if ReadOnly not in _marks(hint)[0]]


def _hints(typed: type) -> dict[str, Any]:
    return get_type_hints(typed, include_extras=True)


def required_keys(typed: type) -> frozenset[str]:
    """The keys ``typed`` requires, read from its annotations (under
    ``from __future__ import annotations`` a ``TypedDict``'s own
    ``__required_keys__`` misses ``NotRequired`` on Python 3.11)."""
    total = getattr(typed, "__total__", True)
    out = set()
    for name, hint in _hints(typed).items():
        marks = _marks(hint)[0]
        if Required in marks or (total and NotRequired not in marks):
            out.add(name)
    return frozenset(out)


def disagreements(declared: Mapping[str, type], schemas: Mapping[str, Json]) -> list[str]:
    """Where a ruleset's ``event_types`` and its published ``event_schemas``
    disagree (nothing: they agree). A schema covers the stored data and its
    redacted forms, so it may allow more than the declaration: a key the
    stored data never has (``deck_count``), a ``null`` where a card is hidden;
    but every declared key is published, with its JSON types, and every key
    the schema requires is declared required."""
    out = [f"{kind}: published, not declared" for kind in sorted(set(schemas) - set(declared))]
    out += [f"{kind}: declared, not published" for kind in sorted(set(declared) - set(schemas))]
    for kind in sorted(set(declared) & set(schemas)):
        typed, schema = declared[kind], schemas[kind]
        if not is_typeddict(typed):
            out.append(f"{kind}: {typed!r} is not a TypedDict")
            continue
        hints = _hints(typed)
        out += [f"{kind}.{name}: not ReadOnly" for name in _read_only(hints)]
        props = schema.get("properties", {})
        out += [f"{kind}.{name}: not in the schema" for name in sorted(set(hints) - set(props))]
        loose = set(schema.get("required", ())) - required_keys(typed)
        out += [f"{kind}.{name}: required by the schema, not by the type" for name in sorted(loose)]
        for name in sorted(set(hints) & set(props)):
            extra = json_types(hints[name]) - schema_types(props[name])
            if extra:
                out.append(f"{kind}.{name}: {sorted(extra)} not allowed by its schema")
    return out


def mismatches(value: Any, annotation: Any, where: str = "") -> list[str]:
    """Where a stored value (an event's ``data``) is not what ``annotation``
    (its declaration) says, all the way down: a required key missing, a key
    not declared, a value outside a ``Literal``'s closed set or of another
    JSON type, in nested objects and arrays too (what mypy cannot see: the
    events ``decide`` makes). Each line names the path, ``where`` first."""
    annotation = _marks(annotation)[1]
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        if any(not mismatches(value, arm, where) for arm in get_args(annotation)):
            return []
        return [f"{where or 'value'}: {value!r:.60} fits none of {annotation}"]
    if origin is Literal:
        return [] if value in get_args(annotation) else [f"{where or 'value'}: {value!r} not in {get_args(annotation)}"]
    if is_typeddict(annotation):
        return _object_mismatches(value, annotation, where)
    if origin in _SEQUENCES and get_args(annotation) and isinstance(value, (list, tuple)):
        item = get_args(annotation)[0]
        return [line for index, element in enumerate(value)
                for line in mismatches(element, item, f"{where}[{index}]")]
    return _scalar_mismatches(value, annotation, where)


def _object_mismatches(value: Any, annotation: Any, where: str) -> list[str]:
    """``mismatches`` of a value declared as the ``TypedDict`` ``annotation``: an object, key by key."""
    if not isinstance(value, Mapping):
        return [f"{where or 'value'}: {value!r:.60} is not an object"]
    hints = _hints(annotation)
    at = f"{where}." if where else ""
    out = [f"{at}{name}: missing" for name in sorted(required_keys(annotation) - set(value))]
    out += [f"{at}{name}: not declared" for name in sorted(set(value) - set(hints))]
    for name in sorted(set(value) & set(hints)):
        out += mismatches(value[name], hints[name], f"{at}{name}")
    return out


def _scalar_mismatches(value: Any, annotation: Any, where: str) -> list[str]:
    """``mismatches`` of a value whose declaration says only which JSON types it may be."""
    allowed = json_types(annotation)
    try:
        stored = json_types(type(value))
    except TypeError:  # not a JSON value at all
        stored = frozenset()
    return [] if stored & allowed else [f"{where or 'value'}: {value!r:.60} is not {sorted(allowed)}"]


def unread_as_declared(handlers: Mapping[str, Any], declared: Mapping[str, type]) -> list[str]:
    """The ``evolve`` handlers (type string -> ``handler(state, data)``) whose
    ``data`` parameter is not annotated with that type's declaration: a
    dispatch table is where mypy loses the link between a type string and
    its data, so this holds it instead."""
    out = []
    for kind, handler in sorted(handlers.items()):
        params = list(inspect.signature(handler).parameters)
        hint = get_type_hints(handler).get(params[1]) if len(params) > 1 else None
        if kind not in declared:
            out.append(f"{kind}: handled, not declared")
        elif hint is not declared[kind]:
            out.append(f"{kind}: {getattr(handler, '__name__', handler)} reads {hint!r}, not {declared[kind]!r}")
    return out


__all__ = ["ANY_JSON", "disagreements", "json_types", "mismatches", "required_keys", "schema_types",
           "unread_as_declared"]
