"""Published schemas: options, moves, view and events (FO54, FO57)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.schema import closed_object, switch
from referee.games.cards.deck import ALL_CARDS
from referee.games.faceoff import event_schemas
from referee.games.faceoff.event_schemas import CHAR as _CHAR
from referee.games.faceoff.event_schemas import SQ as _SQ

Json = dict[str, Any]

_CARD: Json = {"type": "string", "enum": list(ALL_CARDS)}
_PATH: Json = {"type": "array", "items": _SQ, "maxItems": 3}

OPTIONS_SCHEMA: Json = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "map": {"type": ["string", "object"], "x-rule": "FO54", "default": "faceoff_1",
                "description": "faceoff_1, faceoff_2, or a custom map object (FO54; 422 naming each failed check)"},
        "renegade_variant": switch("FO48", "one of the two kills must be made with the Renegade"),
        "high_noon": switch("FO55", "not in the core ruleset: true is refused (module_not_implemented)"),
        "dodge_city": switch("FO56", "not in the core ruleset: true is refused (module_not_implemented)"),
    },
}

MOVE_SCHEMAS: dict[str, Json] = {
    "move": closed_object({"type": {"const": "move"}, "path": _PATH}, description="phase 1 (FO11)"),
    "walk": closed_object({"type": {"const": "walk"}, "path": _PATH}, description="a phase-2 move slot (FO15)"),
    "draw": closed_object({"type": {"const": "draw"},
                           "source": {"type": "string", "enum": ["deck", "discard", "hand"]}},
                          {"target": _CHAR},
                          description="a phase-2 draw slot (FO15, FO53)"),
    "play": closed_object({"type": {"const": "play"}, "card": _CARD},
                          {"target": _CHAR, "pick": {"type": "string"}}, description="phase 3 (FO17)"),
    "sid": closed_object({"type": {"const": "sid"}, "cards": {"type": "array", "items": _CARD,
                                                               "minItems": 2, "maxItems": 2}}),
    "end_turn": closed_object({"type": {"const": "end_turn"}}),
    "discard": closed_object({"type": {"const": "discard"}, "card": _CARD}, description="phase 4 (FO20)"),
    "respond": closed_object({"type": {"const": "respond"}, "card": _CARD}),
    "barrel": closed_object({"type": {"const": "barrel"}, "source": {"type": "string"}}),
    "choose": closed_object({"type": {"const": "choose"}, "card": _CARD}),
    "pass": closed_object({"type": {"const": "pass"}}),
    "bid": closed_object({"type": {"const": "bid"}, "card": _CARD}, description="the Renegade bid (FO33)"),
    "place": closed_object({"type": {"const": "place"}, "square": _SQ}, description="a spare nugget (FO37)"),
    "resign": closed_object({"type": {"const": "resign"}},
                            description="give the game up: the other player wins at once (FO58)"),
}

VIEW_SCHEMA: Json = {
    "type": "object",
    "required": ["map", "board", "figures", "nuggets", "characters", "distances", "sees_at", "phase", "active",
                 "hand", "you", "seats", "last"],
    "properties": {
        "seats": {"type": "array", "minItems": 2, "maxItems": 2,
                  "description": "each player's public facts in seat order: seat, role, char (its own figure), "
                                 "character, controls (the figures it decides for now, FO32, FO35), hand_size, "
                                 "bid_in (FO33), kills, trophies (FO45)"},
        "last": {"type": ["object", "null"], "required": ["kind"],
                 "description": "the last card_played, moved, draw_checked or bids_revealed (a card out of "
                                "sight again: null, FO57)"},
        "board": {"type": "array", "items": {"type": "string"},
                  "description": "rows top first: # rock, . floor, N nugget, S/B/R the figures"},
        "distances": {"type": "array", "description": "path distance between figures [from][to] (FO21)"},
        "sees_at": {"type": "array", "description": "modified distance (Mustang, Scope...) [from][to]"},
    },
}

EVENT_SCHEMAS: dict[str, Json] = event_schemas.EVENT_SCHEMAS


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
