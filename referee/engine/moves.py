"""Moves as typed frozen values (issue 37 item 5), parsed once at the boundary.

A move arrives as JSON (``{"type": "play", "card": "BANG-1", "target": 2}``);
its ``type`` string and its keys are the published contract and the log's
storage format, never renamed. A ruleset declares each move type as a
frozen dataclass subclassing :class:`TypedMove` whose field names are the
JSON keys (a key that is a Python keyword is named in the field's metadata,
``field(metadata={"json": "from"})``), and hands them to a
:class:`MoveTable`. Its ``parse_move`` (``RulesetBase``) returns
``table.read(move)`` once the move matches its schema, so ``play`` and every
rule below it take a typed value mypy can check, never a ``dict[str, Any]``.

What a client sees stays JSON: ``legal_moves`` and ``default_move`` return
the JSON form (``TypedMove.to_json``), which is what the log records, what a
bot's answer is compared with byte for byte and what the views list.

A JSON array is read as a tuple (frozen all the way down); an optional key
left out is the field's default (``None`` unless the class says otherwise)
and is left out again by ``to_json``, so ``read`` then ``to_json`` gives the
move back as it was sent (``tests/unit/test_typed_moves.py``)."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, TypeVar

Json = dict[str, Any]
M = TypeVar("M", bound="TypedMove")

_MISSING = dataclasses.MISSING


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class TypedMove:
    """One move type of a ruleset: subclass it as a frozen dataclass and set
    ``TYPE`` to the move's ``type`` string."""

    TYPE: ClassVar[str] = ""

    @classmethod
    def keys(cls) -> tuple[tuple[str, str, bool], ...]:
        """(field name, JSON key, whether the key may be left out) of every field, in order."""
        return tuple((spec.name, spec.metadata.get("json", spec.name),
                      spec.default is not _MISSING or spec.default_factory is not _MISSING)
                     for spec in dataclasses.fields(cls))

    def to_json(self) -> Json:
        """The move as a client sends it: ``type`` first, then every key
        whose value is not a left-out optional (``None``)."""
        out: Json = {"type": self.TYPE}
        for name, key, optional in self.keys():
            value = getattr(self, name)
            if optional and value is None:
                continue
            out[key] = _thawed(value)
        return out


class MoveTable:
    """A ruleset's move types by their ``type`` string."""

    def __init__(self, classes: Iterable[type[TypedMove]]) -> None:
        self.by_type: dict[str, type[TypedMove]] = {}
        #: (field name, JSON key) of each type's fields, read once: ``read`` runs at every move
        self._keys: dict[str, tuple[tuple[str, str], ...]] = {}
        for cls in classes:
            if not cls.TYPE or cls.TYPE in self.by_type:
                raise ValueError(f"{cls.__name__}: TYPE {cls.TYPE!r} is empty or taken")
            self.by_type[cls.TYPE] = cls
            self._keys[cls.TYPE] = tuple((name, key) for name, key, _ in cls.keys())

    def read(self, move: Mapping[str, Any]) -> TypedMove:
        """The typed value of ``move``, a JSON object that matches its schema
        already (``RulesetBase.check_move``): its class by ``type``, every
        key a field, arrays as tuples. A ``KeyError`` or ``TypeError`` here
        is a schema that does not say what the class says: a bug, not bad input."""
        kind = move["type"]
        return self.by_type[kind](**{name: _frozen(move[key]) for name, key in self._keys[kind] if key in move})

    def types(self) -> list[str]:
        return sorted(self.by_type)
