"""The moves of Face Off as clients POST them (FO9–FO58), their published
JSON Schemas and the parser held to them (the conformance suite checks that
the two agree).

* phase 1: ``{"type": "move", "path": [[x, y], [x, y]]}`` (FO11–FO14);
* phase 2, per slot: ``{"type": "draw", "source": "deck"}`` (Pedro Ramirez: ``"source":
  "discard"``; Jesse Jones: ``"source": "hand", "target": char``) or
  ``{"type": "walk", "path": [...]}`` with 0–2 steps (Willy the Kid 3);
* phase 3: ``{"type": "play", "card": ID[, "target": char][, "pick": ...]}``,
  ``{"type": "sid", "cards": [ID, ID]}``, ``{"type": "end_turn"}``;
* phase 4: ``{"type": "discard", "card": ID}``;
* windows: ``respond`` (Missed!/BANG!/Beer), ``barrel``, ``choose``
  (General Store, Kit Carlson), ``pass``;
* the bid: ``{"type": "bid", "card": ID}``; the spare nugget:
  ``{"type": "place", "square": [x, y]}``;
* at any decision: ``{"type": "resign"}``, the other player wins (FO58).

Targets are character indices: 0 the Sheriff's, 1 the Outlaw's, 2 the Renegade.

Each move type is a frozen class (``referee.engine.moves.TypedMove``), read
once at the boundary (``parse``, ``read``): ``decide`` and every rule below
it take these; what a client sees and the log records stays the JSON."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.engine.moves import MoveTable, TypedMove
from referee.engine.protocol import MalformedMove
from referee.engine.schema import closed_object
from referee.games.cards.deck import ALL_CARDS

# the shared card moves, part of this ruleset's move set (importers take them from referee.games.cards.moves)
from referee.games.cards.moves import Barrel, Choose, Draw, EndTurn, Pass, Play, Resign, Respond, Sid, Timeout
from referee.games.faceoff.schemas import CHAR, SQ

Json = dict[str, Any]
Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class _PathMove(TypedMove):
    """A move along a path: the squares entered, in order (arrays frozen as tuples)."""

    path: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class FigureMove(_PathMove):
    """Phase 1 (FO11–FO14): the figure's path, the squares entered in order."""

    TYPE = "move"


@dataclass(frozen=True, slots=True)
class Walk(_PathMove):
    """A phase-2 slot's walk (FO15), 0–2 steps (Willy the Kid 3, FO51)."""

    TYPE = "walk"


@dataclass(frozen=True, slots=True)
class Discard(TypedMove):
    """Phase 4 (FO20): one card over the hand limit."""

    TYPE = "discard"
    card: str


@dataclass(frozen=True, slots=True)
class Bid(TypedMove):
    """The Renegade bid (FO33): a card of the seat's own character's hand."""

    TYPE = "bid"
    card: str


@dataclass(frozen=True, slots=True)
class Place(TypedMove):
    """The spare nugget's square (FO37)."""

    TYPE = "place"
    square: Square


#: every move type by its ``type`` string
MOVES: MoveTable[TypedMove] = MoveTable([FigureMove, Walk, Draw, Play, Sid, EndTurn, Discard, Respond, Barrel, Choose,
                                         Pass, Bid, Place, Resign, Timeout])
_READERS = MOVES.readers

_CARD: Json = {"type": "string", "enum": list(ALL_CARDS)}
_PATH: Json = {"type": "array", "items": SQ, "maxItems": 3}

MOVE_SCHEMAS: dict[str, Json] = {
    "move": closed_object({"type": {"const": "move"}, "path": _PATH}, description="phase 1 (FO11)"),
    "walk": closed_object({"type": {"const": "walk"}, "path": _PATH}, description="a phase-2 move slot (FO15)"),
    "draw": closed_object({"type": {"const": "draw"},
                           "source": {"type": "string", "enum": ["deck", "discard", "hand"]}},
                          {"target": CHAR},
                          description="a phase-2 draw slot (FO15, FO53)"),
    "play": closed_object({"type": {"const": "play"}, "card": _CARD},
                          {"target": CHAR, "pick": {"type": "string"}}, description="phase 3 (FO17)"),
    "sid": closed_object({"type": {"const": "sid"}, "cards": {"type": "array", "items": _CARD,
                                                               "minItems": 2, "maxItems": 2}}),
    "end_turn": closed_object({"type": {"const": "end_turn"}}),
    "discard": closed_object({"type": {"const": "discard"}, "card": _CARD}, description="phase 4 (FO20)"),
    "respond": closed_object({"type": {"const": "respond"}, "card": _CARD}),
    "barrel": closed_object({"type": {"const": "barrel"}, "source": {"type": "string"}}),
    "choose": closed_object({"type": {"const": "choose"}, "card": _CARD}),
    "pass": closed_object({"type": {"const": "pass"}}),
    "bid": closed_object({"type": {"const": "bid"}, "card": _CARD}, description="the Renegade bid (FO33)"),
    "place": closed_object({"type": {"const": "place"}, "square": SQ}, description="a spare nugget (FO37)"),
    "resign": closed_object({"type": {"const": "resign"}},
                            description="give the game up: the other player wins at once (FO58)"),
}


#: type -> (required fields, optional fields), each name -> kind: the parser's view of ``MOVE_SCHEMAS``
SHAPES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "move": ({"path": "path"}, {}), "walk": ({"path": "path"}, {}),
    "draw": ({"source": "source"}, {"target": "char"}),
    "play": ({"card": "card"}, {"target": "char", "pick": "str"}),
    "sid": ({"cards": "cards2"}, {}), "end_turn": ({}, {}), "discard": ({"card": "card"}, {}),
    "respond": ({"card": "card"}, {}), "barrel": ({"source": "str"}, {}), "choose": ({"card": "card"}, {}),
    "pass": ({}, {}), "bid": ({"card": "card"}, {}), "place": ({"square": "square"}, {}),
    "resign": ({}, {}),
}
_CARD_SET = frozenset(ALL_CARDS)


def _int(value: Any, low: int, high: int) -> bool:
    """An integer as JSON Schema counts them (2.0 is one; true is not)."""
    if type(value) is float and value.is_integer():
        value = int(value)
    return type(value) is int and low <= value <= high


def _ints(value: Any) -> Any:
    """``value`` with integral floats made ints (a parsed move's numbers, as the schema reads them)."""
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is list:
        return [_ints(x) for x in value]
    return value


def normal(move: dict[str, Any]) -> dict[str, Any]:
    """A well-formed move with its numbers as ints."""
    return {k: _ints(v) for k, v in move.items()}


#: the kinds of field that hold numbers -> whether a well-formed value of it holds ints only
_ALL_INTS: dict[str, Callable[[Any], bool]] = {
    "path": lambda value: all(type(x) is int and type(y) is int for x, y in value),
    "square": lambda value: type(value[0]) is int and type(value[1]) is int,
    "char": lambda value: type(value) is int,
}
#: move type -> its fields that hold numbers, each with its ``_ALL_INTS`` check (a type with none: left out)
_NUMBER_FIELDS: dict[str, tuple[tuple[str, Callable[[Any], bool]], ...]] = {
    kind: fields for kind, (required, optional) in SHAPES.items()
    if (fields := tuple((name, _ALL_INTS[want]) for name, want in {**required, **optional}.items()
                        if want in _ALL_INTS))
}


def _integral(move: dict[str, Any]) -> bool:
    """Whether a well-formed ``move`` holds no float (``normal`` would give it back unchanged):
    only the fields that hold numbers are looked at, most moves have none."""
    fields = _NUMBER_FIELDS.get(move["type"])
    return fields is None or all(name not in move or ints(move[name]) for name, ints in fields)


def _square(value: Any) -> bool:
    if type(value) is not list or len(value) != 2:
        return False
    x, y = value
    if type(x) is int and type(y) is int:  # the usual square, checked without a call (a path holds up to 3)
        return 0 <= x <= 39 and 0 <= y <= 39
    return _int(x, 0, 39) and _int(y, 0, 39)


_KIND_OK: dict[str, Callable[[Any], bool]] = {
    "path": lambda value: type(value) is list and len(value) <= 3 and all(_square(q) for q in value),
    "square": _square,
    "source": lambda value: value in ("deck", "discard", "hand") and type(value) is str,
    "char": lambda value: _int(value, 0, 2),
    "card": lambda value: type(value) is str and value in _CARD_SET,
    "cards2": lambda value: type(value) is list and len(value) == 2
    and all(type(card) is str and card in _CARD_SET for card in value),
    "str": lambda value: type(value) is str,
}


def malformed(move: Any) -> str | None:
    """Why ``move`` breaks ``MOVE_SCHEMAS`` (None: it matches), without a schema validator."""
    if not isinstance(move, dict):
        return "a move is a JSON object"
    kind = move.get("type")
    if kind == "timeout" and len(move) == 1:
        return None
    if not isinstance(kind, str) or kind not in SHAPES:
        return f"unknown move type {kind!r}; one of {', '.join(sorted(SHAPES))}"
    return _field_malformed(kind, move)


#: move type -> (its required keys, every key it may have, ``type`` included)
_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(required), frozenset({"type", *required, *optional}))
    for kind, (required, optional) in SHAPES.items()
}
#: move type -> its fields' checks by name
_CHECKS: dict[str, dict[str, Callable[[Any], bool]]] = {
    kind: {name: _KIND_OK[want] for name, want in {**required, **optional}.items()}
    for kind, (required, optional) in SHAPES.items()
}


def _field_malformed(kind: str, move: dict[str, Any]) -> str | None:
    """Why a ``kind`` move's fields break its schema: one unknown, one required left out, one of
    the wrong shape (None: they match). The keys are compared as sets, and only a refusal is
    looked for key by key (``_key_malformed``): it runs at every move."""
    required, allowed = _KEYS[kind]
    if not allowed.issuperset(move) or not required.issubset(move):
        return _key_malformed(kind, move)
    checks = _CHECKS[kind]
    for name, value in move.items():
        check = checks.get(name)
        if check is not None and not check(value):
            return f"a {kind} move: {name!r} is malformed"
    return None


def _key_malformed(kind: str, move: dict[str, Any]) -> str:
    """The first unknown key of a ``kind`` move, else the first required one left out."""
    required, optional = SHAPES[kind]
    unknown = [name for name in move if name != "type" and name not in required and name not in optional]
    if unknown:
        return f"a {kind} move has no field {unknown[0]!r}"
    return f"a {kind} move needs {next(name for name in required if name not in move)!r}"


def parse(move: Any) -> TypedMove:
    """The typed move of ``move`` as sent, or ``MalformedMove`` (FO9): the hand-written parser held to
    ``MOVE_SCHEMAS`` (the conformance suite checks that they agree), numbers as integers. A move of
    a known type goes straight to its fields' checks: ``parse`` runs at every move."""
    kind: Any = move.get("type") if type(move) is dict else None
    why = _field_malformed(kind, move) if type(kind) is str and kind in SHAPES else malformed(move)
    if why is not None:
        raise MalformedMove("malformed_move", rule="FO9", detail=why)
    return _READERS[kind](move if _integral(move) else normal(move))


def read(move: Json) -> TypedMove:
    """The typed move of ``move``, which matches its schema already (the service checked it)."""
    return MOVES.read(move)
