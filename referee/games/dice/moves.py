"""Move shapes, as clients POST them (D73), their schemas and the parser.

``sid {target}``, ``roll {saloon}``, ``reroll {dice}``, ``stop``,
``arrow {chief}``, ``broken_arrow {target}``, ``shoot {target, double}``,
``beer {target}``, ``discard {target|null}``, ``bart {arrows}``,
``pedro {regular, chief}``, ``haunt {die, double, target}`` and the
system command ``timeout``."""
from __future__ import annotations

from typing import Any

from referee.engine.protocol import Json, MalformedMove
from referee.engine.schema import first_refusal, validator
from referee.games.dice.rules import COWARD, LOUDMOUTH

SEAT: Json = {"type": "integer", "minimum": 0, "maximum": 7}
COUNT: Json = {"type": "integer", "minimum": 0, "maximum": 9}
BOOL: Json = {"type": "boolean"}

#: move type -> (rule, fields)
FIELDS: dict[str, tuple[str, dict[str, Json]]] = {
    "sid": ("D45", {"target": SEAT}),
    "roll": ("D14", {"saloon": {"enum": [None, LOUDMOUTH, COWARD]}}),
    "reroll": ("D16", {"dice": {"type": "array", "minItems": 1, "maxItems": 5, "uniqueItems": True,
                                "items": {"type": "integer", "minimum": 1, "maximum": 5}}}),
    "stop": ("D16", {}),
    "arrow": ("D58", {"chief": BOOL}),
    "broken_arrow": ("D54", {"target": SEAT}),
    "shoot": ("D24", {"target": SEAT, "double": BOOL}),
    "beer": ("D25", {"target": SEAT}),
    "discard": ("D40", {"target": {"type": ["integer", "null"], "minimum": 0, "maximum": 7}}),
    "bart": ("D34", {"arrows": COUNT}),
    "pedro": ("D43", {"regular": COUNT, "chief": BOOL}),
    "haunt": ("D65", {"die": {"type": "integer", "minimum": 1, "maximum": 2}, "double": BOOL, "target": SEAT}),
    "timeout": ("D73", {}),
}

MOVE_SCHEMAS: dict[str, Json] = {
    kind: {"type": "object", "additionalProperties": False, "required": ["type", *fields], "x-rule": rule,
           "properties": {"type": {"const": kind}, **{f: {**v, "x-rule": rule} for f, v in fields.items()}}}
    for kind, (rule, fields) in FIELDS.items()
}


def parse(move: Any) -> Json:
    """The move itself once it matches its schema; ``MalformedMove`` otherwise."""
    if not isinstance(move, dict):
        raise MalformedMove("malformed_move", rule="D73", detail="a move is a JSON object with a type")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_SCHEMAS:
        raise MalformedMove("malformed_move", rule="D73",
                            detail=f"unknown move type {kind!r}; one of {', '.join(sorted(MOVE_SCHEMAS))}")
    schema = MOVE_SCHEMAS[kind]
    if not validator(schema).is_valid(move):
        refused = first_refusal(schema, move, f"a {kind} move")
        assert refused is not None
        raise MalformedMove("malformed_move", rule=refused[0] or FIELDS[kind][0], detail=refused[1])
    return move
