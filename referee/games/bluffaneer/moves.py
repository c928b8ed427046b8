"""The moves, as clients POST them (F9, F12, F13, F17, F18, F21, F34), typed
(``referee.engine.moves``): one frozen class a move type, read once at the
boundary, their published JSON Schemas and the parser.

``{"type": "roll"}``, ``{"type": "steal", "target": seat}``,
``{"type": "claim"}``, ``{"type": "pass"}``, ``{"type": "accept"}``,
``{"type": "challenge"}``, ``{"type": "resign"}`` (F34, any awaited seat) and
the system command ``{"type": "timeout"}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.moves import MoveTable, TypedMove
from referee.engine.platform import RESIGN as RESIGN  # re-exported: the platform's resign (F34)
from referee.engine.protocol import Json, MalformedMove

ROLL = "roll"
STEAL = "steal"
CLAIM = "claim"
PASS = "pass"
ACCEPT = "accept"
CHALLENGE = "challenge"
TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class Roll(TypedMove):
    """The roller rolls both dice (F9)."""

    TYPE = ROLL


@dataclass(frozen=True, slots=True)
class Steal(TypedMove):
    """The roller robs ``target`` after a sword or ship double (F12, F13)."""

    TYPE = STEAL
    target: int


@dataclass(frozen=True, slots=True)
class Claim(TypedMove):
    """A non-roller claims the loot: "Give me the loot!" (F17)."""

    TYPE = CLAIM


@dataclass(frozen=True, slots=True)
class Pass(TypedMove):
    """A non-roller lets the claim window go by (F17, F18)."""

    TYPE = PASS


@dataclass(frozen=True, slots=True)
class Accept(TypedMove):
    """The roller believes the claimant (F21, F22)."""

    TYPE = ACCEPT


@dataclass(frozen=True, slots=True)
class Challenge(TypedMove):
    """The roller cries "Bluffing!" (F21, F23)."""

    TYPE = CHALLENGE


@dataclass(frozen=True, slots=True)
class Resign(TypedMove):
    """An awaited seat gives the game up (F34)."""

    TYPE = RESIGN


@dataclass(frozen=True, slots=True)
class Timeout(TypedMove):
    """The referee's own command: the claim window's deadline has passed (F18)."""

    TYPE = TIMEOUT


#: a claim window's answer (F17)
Answer = Claim | Pass
#: a move a seat sends
SeatMove = Roll | Steal | Claim | Pass | Accept | Challenge | Resign
#: a move as ``parse`` reads it
ParsedMove = SeatMove | Timeout

MOVES: MoveTable[ParsedMove] = MoveTable([Roll, Steal, Claim, Pass, Accept, Challenge, Resign, Timeout])

#: move type -> its fields besides ``type`` (all integers)
FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(key.key for key in cls.keys()) for kind, cls in MOVES.by_type.items()
}

_RULES = {ROLL: "F9", STEAL: "F12", CLAIM: "F17", PASS: "F18", ACCEPT: "F21", CHALLENGE: "F21", RESIGN: "F34",
          TIMEOUT: "F18"}

#: the JSON Schema of every move, from ``FIELDS``: published by ``GET
#: /v1/rulesets`` and enforced before ``decide`` (RulesetBase.check_move)
MOVE_SCHEMAS: dict[str, Json] = {
    kind: {"type": "object", "additionalProperties": False, "required": ["type", *fields],
           "x-rule": _RULES[kind],
           "properties": {"type": {"const": kind}, **{name: {"type": "integer", "minimum": 0} for name in fields}}}
    for kind, fields in FIELDS.items()
}


def read(move: Json) -> ParsedMove:
    """The typed value of a move that matches its schema (``MOVE_SCHEMAS``)."""
    return MOVES.read(move)


def parse(move: Any) -> ParsedMove:
    """The typed value of a well-formed move (``read``'s); ``MalformedMove`` for an
    unknown type or a missing, extra or ill-typed field."""
    if not isinstance(move, dict):
        raise MalformedMove("malformed_move", detail="a move is a JSON object with a type")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise MalformedMove("malformed_move", detail=f"unknown move type {kind!r}; "
                            f"one of {', '.join(sorted(FIELDS))}")
    fields = FIELDS[kind]
    if len(move) != len(fields) + 1 or (fields and any(name not in move for name in fields)):
        expected = ", ".join(("type",) + fields)
        raise MalformedMove("malformed_move",
                            detail=f"a {kind} move has exactly the fields {expected}")
    target = move.get("target", 0)
    if not isinstance(target, int) or isinstance(target, bool):
        raise MalformedMove("malformed_move", detail=f"target must be a seat number, not {target!r}")
    return MOVES.read(move)
