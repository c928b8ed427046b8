"""The moves as typed frozen values (``referee.engine.moves``), one class a
move type, as clients POST them (D73), their published schemas and the
parser that reads a move once, at the boundary.

``sid {target}``, ``roll {saloon}``, ``reroll {dice}``, ``stop``,
``arrow {chief}``, ``broken_arrow {target}``, ``shoot {target, double}``,
``beer {target}``, ``discard {target|null}``, ``bart {arrows}``,
``pedro {regular, chief}``, ``haunt {die, double, target}``, ``resign``
(D75) and the system command ``timeout``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.moves import MoveTable, TypedMove
from referee.engine.protocol import Json, MalformedMove
from referee.games.dice.dice_faces import COWARD, LOUDMOUTH

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
    "resign": ("D75", {}),
}

MOVE_SCHEMAS: dict[str, Json] = {
    kind: {"type": "object", "additionalProperties": False, "required": ["type", *fields], "x-rule": rule,
           "properties": {"type": {"const": kind}, **{f: {**v, "x-rule": rule} for f, v in fields.items()}}}
    for kind, (rule, fields) in FIELDS.items()
}


@dataclass(frozen=True, slots=True)
class Sid(TypedMove):
    """D45: Sid Ketchum gives a living player 1 life."""

    TYPE = "sid"
    target: int


@dataclass(frozen=True, slots=True)
class Roll(TypedMove):
    """D14, D52: the first roll, with an Old Saloon die in place of a base die or none."""

    TYPE = "roll"
    saloon: str | None


@dataclass(frozen=True, slots=True)
class Reroll(TypedMove):
    """D16: roll the named dice (numbered from 1) again."""

    TYPE = "reroll"
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Stop(TypedMove):
    """D16: keep every die."""

    TYPE = "stop"


@dataclass(frozen=True, slots=True)
class Arrow(TypedMove):
    """D58: an arrow result filled by the Chief's Arrow or a regular arrow."""

    TYPE = "arrow"
    chief: bool


@dataclass(frozen=True, slots=True)
class BrokenArrow(TypedMove):
    """D54: the living player who returns one regular arrow."""

    TYPE = "broken_arrow"
    target: int


@dataclass(frozen=True, slots=True)
class Shoot(TypedMove):
    """D24, D46: a shot symbol's target, doubled by Slab the Killer."""

    TYPE = "shoot"
    target: int
    double: bool


@dataclass(frozen=True, slots=True)
class Beer(TypedMove):
    """D25: a beer's target."""

    TYPE = "beer"
    target: int


@dataclass(frozen=True, slots=True)
class Discard(TypedMove):
    """D40: Kit Carlson discards one arrow of a player (``None``: no one)."""

    TYPE = "discard"
    target: int | None


@dataclass(frozen=True, slots=True)
class Bart(TypedMove):
    """D34: Bart Cassidy takes arrows instead of losing life."""

    TYPE = "bart"
    arrows: int


@dataclass(frozen=True, slots=True)
class Pedro(TypedMove):
    """D43: Pedro Ramirez discards arrows (and the Chief's Arrow) instead of losing life."""

    TYPE = "pedro"
    regular: int
    chief: bool


@dataclass(frozen=True, slots=True)
class Haunt(TypedMove):
    """D65: the Ghost gives a token of die 1's (or die 2's) face, ×2 on two equal faces."""

    TYPE = "haunt"
    die: int
    double: bool
    target: int


@dataclass(frozen=True, slots=True)
class Resign(TypedMove):
    """D75: the awaited seat gives the game up."""

    TYPE = "resign"


@dataclass(frozen=True, slots=True)
class Timeout(TypedMove):
    """D73: the system's command at a deadline (never a player's)."""

    TYPE = "timeout"


#: an answer to a prompt (D73)
Answer = Sid | Roll | Reroll | Stop | Arrow | BrokenArrow | Shoot | Beer | Discard | Bart | Pedro | Haunt
#: a move a player may send: an answer or ``resign`` (``Timeout`` is the system's)
DiceMove = Answer | Resign
MOVES: MoveTable[DiceMove | Timeout] = MoveTable([Sid, Roll, Reroll, Stop, Arrow, BrokenArrow, Shoot, Beer, Discard,
                                                  Bart, Pedro, Haunt, Resign, Timeout])

#: move type -> its JSON keys, exactly
_KEYS: dict[str, frozenset[str]] = {kind: frozenset(("type", *fields)) for kind, (_, fields) in FIELDS.items()}


def _int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


#: field -> its check (the same as its schema in ``FIELDS``; the conformance suite holds the two together)
_CHECKS: dict[str, Any] = {
    "target": lambda value: _int(value, 0, 7),
    "saloon": lambda value: value in (None, LOUDMOUTH, COWARD),
    "dice": lambda value: isinstance(value, list) and 1 <= len(value) <= 5
    and all(_int(die, 1, 5) for die in value) and len(set(value)) == len(value),
    "chief": lambda value: isinstance(value, bool),
    "double": lambda value: isinstance(value, bool),
    "arrows": lambda value: _int(value, 0, 9),
    "regular": lambda value: _int(value, 0, 9),
    "die": lambda value: _int(value, 1, 2),
}


def parse(move: Any) -> DiceMove | Timeout:
    """The typed move once it matches its schema; ``MalformedMove`` (naming
    the move's rule) otherwise."""
    if not isinstance(move, dict):
        raise MalformedMove("malformed_move", rule="D73", detail="a move is a JSON object with a type")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise MalformedMove("malformed_move", rule="D73",
                            detail=f"unknown move type {kind!r}; one of {', '.join(sorted(FIELDS))}")
    rule, fields = FIELDS[kind]
    if move.keys() != _KEYS[kind]:
        raise MalformedMove("malformed_move", rule=rule,
                            detail=f"a {kind} move has exactly the fields {', '.join(('type', *fields))}")
    for name in fields:
        if kind == "discard" and move[name] is None:
            continue
        if not _CHECKS[name](move[name]):
            raise MalformedMove("malformed_move", rule=rule, detail=f"a {kind} move: bad {name} {move[name]!r}")
    return read(move)


def read(move: Json) -> DiceMove | Timeout:
    """The typed value of ``move``, a move that matches its schema already."""
    return MOVES.read(move)
