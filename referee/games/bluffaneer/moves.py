"""Move shapes, as clients POST them (F9, F12, F13, F17, F18, F21).

``{"type": "roll"}``, ``{"type": "steal", "target": seat}``,
``{"type": "claim"}``, ``{"type": "pass"}``, ``{"type": "accept"}``,
``{"type": "challenge"}``, ``{"type": "resign"}`` (F34, any awaited seat) and
the system command ``{"type": "timeout"}``.
"""
from __future__ import annotations

from typing import Any

from referee.engine.platform import RESIGN as RESIGN  # re-exported: the platform's resign (F34)
from referee.engine.protocol import Json, MalformedMove, Move

ROLL = "roll"
STEAL = "steal"
CLAIM = "claim"
PASS = "pass"
ACCEPT = "accept"
CHALLENGE = "challenge"
TIMEOUT = "timeout"

#: move type -> its fields besides ``type`` (all integers)
FIELDS: dict[str, tuple[str, ...]] = {
    ROLL: (), STEAL: ("target",), CLAIM: (), PASS: (), ACCEPT: (), CHALLENGE: (), RESIGN: (), TIMEOUT: (),
}


#: the JSON Schema of every move, from ``FIELDS``: published by ``GET
#: /v1/rulesets`` and enforced before ``decide`` (RulesetBase.check_move)
MOVE_SCHEMAS: dict[str, Json] = {
    kind: {"type": "object", "additionalProperties": False, "required": ["type", *fields],
           "x-rule": {ROLL: "F9", STEAL: "F12", CLAIM: "F17", PASS: "F18", ACCEPT: "F21", CHALLENGE: "F21",
                      RESIGN: "F34", TIMEOUT: "F18"}[kind],
           "properties": {"type": {"const": kind}, **{f: {"type": "integer", "minimum": 0} for f in fields}}}
    for kind, fields in FIELDS.items()
}


def parse(move: Any) -> tuple[str, int | None]:
    """``(type, target)`` of a well-formed move; ``MalformedMove`` for an
    unknown type or a missing, extra or ill-typed field."""
    if not isinstance(move, dict):
        raise MalformedMove("malformed_move", detail="a move is a JSON object with a type")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise MalformedMove("malformed_move", detail=f"unknown move type {kind!r}; "
                            f"one of {', '.join(sorted(FIELDS))}")
    fields = FIELDS[kind]
    if len(move) != len(fields) + 1 or any(f not in move for f in fields):
        expected = ", ".join(("type",) + fields)
        raise MalformedMove("malformed_move",
                            detail=f"a {kind} move has exactly the fields {expected}")
    target = move.get("target")
    if fields and (not isinstance(target, int) or isinstance(target, bool)):
        raise MalformedMove("malformed_move", detail=f"target must be a seat number, not {target!r}")
    return kind, target


def simple(kind: str) -> Move:
    """A move without fields."""
    return {"type": kind}


def steal(target: int) -> Move:
    """The roller's steal target (F12, F13)."""
    return {"type": STEAL, "target": target}
