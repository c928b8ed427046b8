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

Targets are character indices: 0 the Sheriff's, 1 the Outlaw's, 2 the Renegade."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.schema import closed_object
from referee.games.cards.deck import ALL_CARDS
from referee.games.faceoff.schemas import CHAR, SQ

Json = dict[str, Any]

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


def _int(v: Any, lo: int, hi: int) -> bool:
    """An integer as JSON Schema counts them (2.0 is one; true is not)."""
    if type(v) is float and v.is_integer():
        v = int(v)
    return type(v) is int and lo <= v <= hi


def _ints(v: Any) -> Any:
    """``v`` with integral floats made ints (a parsed move's numbers, as the schema reads them)."""
    if type(v) is float and v.is_integer():
        return int(v)
    if type(v) is list:
        return [_ints(x) for x in v]
    return v


def normal(move: dict[str, Any]) -> dict[str, Any]:
    """A well-formed move with its numbers as ints."""
    return {k: _ints(v) for k, v in move.items()}


def _square(v: Any) -> bool:
    return type(v) is list and len(v) == 2 and _int(v[0], 0, 39) and _int(v[1], 0, 39)


_KIND_OK: dict[str, Callable[[Any], bool]] = {
    "path": lambda v: type(v) is list and len(v) <= 3 and all(_square(q) for q in v),
    "square": _square,
    "source": lambda v: v in ("deck", "discard", "hand") and type(v) is str,
    "char": lambda v: _int(v, 0, 2),
    "card": lambda v: type(v) is str and v in _CARD_SET,
    "cards2": lambda v: type(v) is list and len(v) == 2 and all(type(c) is str and c in _CARD_SET for c in v),
    "str": lambda v: type(v) is str,
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
    required, optional = SHAPES[kind]
    for name in move:
        if name != "type" and name not in required and name not in optional:
            return f"a {kind} move has no field {name!r}"
    for name in required:
        if name not in move:
            return f"a {kind} move needs {name!r}"
    for name, value in move.items():
        want = required.get(name) or optional.get(name)
        if want is not None and not _KIND_OK[want](value):
            return f"a {kind} move: {name!r} is malformed"
    return None
