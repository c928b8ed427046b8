"""The moves (R11, R12, R43, R85): their JSON shapes and published schemas, the typed
moves (``referee.engine.moves``) the rules take, and the parser.

A move is a JSON object with ``type`` and exactly the fields below; a
missing, extra or ill-typed field (``true`` is not an integer), an unknown
type or an unknown card ID is a ``MalformedMove``.

=============  ===============================================  ==================
type           fields                                           when
=============  ===============================================  ==================
``play``       card, target? (int), pick? ("hand" | card ID)    own phase 2
``sid``        cards [2 card IDs]                               Sid Ketchum (R72)
``end_turn``   —                                                ends phase 2
``discard``    cards [card IDs]                                 phase 3 (R12)
``draw``       source ("deck"|"discard"|"hand"), target? (int)  Jesse / Pedro
``keep``       cards [2 card IDs]                               Kit Carlson
``choose``     card                                             General Store,
                                                                Lucky Duke
``barrel``     source (Barrel card ID | "jourdonnais")          shot window
``respond``    card                                             Missed!, BANG!
                                                                (Indians!, Duel),
                                                                Beer (dying)
``pass``       —                                                any window
``timeout``    —                                                system only
``resign``     —                                                R85
=============  ===============================================  ==================
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.moves import MoveTable, TypedMove
from referee.engine.protocol import MalformedMove
from referee.games.cards.deck import CARD_SET, KEY

# the shared card moves, part of this ruleset's move set (importers take them from referee.games.cards.moves)
from referee.games.cards.moves import Barrel, Choose, Draw, EndTurn, Pass, Play, Resign, Respond, Sid, Timeout

Json = dict[str, Any]

_STR, _INT, _CARDS = "str", "int", "cards"

#: type -> (required fields, optional fields), each name -> kind
SHAPES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "play": ({"card": _STR}, {"target": _INT, "pick": _STR}),
    "sid": ({"cards": _CARDS}, {}),
    "end_turn": ({}, {}),
    "discard": ({"cards": _CARDS}, {}),
    "draw": ({"source": _STR}, {"target": _INT}),
    "keep": ({"cards": _CARDS}, {}),
    "choose": ({"card": _STR}, {}),
    "barrel": ({"source": _STR}, {}),
    "respond": ({"card": _STR}, {}),
    "pass": ({}, {}),
    "timeout": ({}, {}),
    "resign": ({}, {}),
}

_CARD: dict[str, Any] = {"type": "string", "enum": sorted(CARD_SET)}
_FIELD_SCHEMAS: dict[str, dict[str, Any]] = {
    "card": _CARD, "target": {"type": "integer", "minimum": 0},
    "pick": {"type": "string", "enum": ["hand", *sorted(CARD_SET)]},
    "cards": {"type": "array", "items": _CARD, "minItems": 1},
}
_SOURCES = {"draw": ["deck", "discard", "hand"], "barrel": ["jourdonnais", *sorted(CARD_SET)]}
_RULES = {"play": "R11", "sid": "R72", "end_turn": "R11", "discard": "R12", "draw": "R10", "keep": "R67",
          "choose": "R43", "barrel": "R35", "respond": "R43", "pass": "R43", "timeout": "R77",
          "resign": "R85"}


def _move_schema(kind: str) -> dict[str, Any]:
    required, optional = SHAPES[kind]
    props: dict[str, Any] = {"type": {"const": kind}}
    for name in (*required, *optional):
        props[name] = {"type": "string", "enum": _SOURCES[kind]} if name == "source" else _FIELD_SCHEMAS[name]
    if kind in ("sid", "keep"):
        props["cards"] = {**_FIELD_SCHEMAS["cards"], "minItems": 2, "maxItems": 2}
    return {"type": "object", "additionalProperties": False, "required": ["type", *required],
            "properties": props, "x-rule": _RULES[kind]}


#: the JSON Schema of every move, from ``SHAPES``: published by ``GET
#: /v1/rulesets`` and enforced before ``decide`` (RulesetBase.check_move)
MOVE_SCHEMAS: dict[str, dict[str, Any]] = {kind: _move_schema(kind) for kind in SHAPES}

TARGETED = frozenset({"BANG", "PANIC", "CATBALOU", "DUEL", "JAIL"})
PICKED = frozenset({"PANIC", "CATBALOU"})


def _bad(detail: str) -> MalformedMove:
    return MalformedMove("malformed_move", detail=detail)


def _card(value: str, field: str) -> None:
    if value not in CARD_SET:
        raise _bad(f"{field}: unknown card {value!r}")


# --- the typed moves (``referee.engine.moves``): one class a move type, fields as the JSON keys ---------------

@dataclass(frozen=True, slots=True)
class Discard(TypedMove):
    """One card of the excess in phase 3 (R12)."""

    TYPE = "discard"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Keep(TypedMove):
    """Kit Carlson keeps two of the three cards he looked at (R67)."""

    TYPE = "keep"
    cards: tuple[str, ...]


#: a BANG! move as the rules take it
BangMove = Play | Sid | EndTurn | Discard | Draw | Keep | Choose | Barrel | Respond | Pass | Timeout | Resign

MOVES: MoveTable[BangMove] = MoveTable([Play, Sid, EndTurn, Discard, Draw, Keep, Choose, Barrel, Respond, Pass, Timeout,
                                        Resign])
_READERS = MOVES.readers


# --- parsing ----------------------------------------------------------------------------------------

#: type -> (required field names, every allowed field name incl. "type")
_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(req), frozenset(req) | frozenset(opt) | {"type"}) for kind, (req, opt) in SHAPES.items()
}


def _bad_keys(move: Any) -> MalformedMove:
    """Why ``move`` is not an object of a known type with exactly its fields (``parse`` found it is not)."""
    if type(move) is not dict:
        return _bad("a move is a JSON object")
    kind = move.get("type")
    shape = _KEYS.get(kind) if type(kind) is str else None
    if shape is None:
        return _bad(f"unknown move type {kind!r}")
    required, allowed = shape
    extra = sorted(key for key in move if key not in allowed)
    if extra:
        return _bad(f"{kind}: unexpected field {extra[0]!r}")
    missing = sorted(key for key in required if key not in move)
    return _bad(f"{kind}: missing field {missing[0]!r}")


def _check_value(kind: str, name: str, shape: str, value: Any) -> None:
    """A field's value is of its shape: a string, an integer (never ``true``) or a list of card IDs."""
    if shape == _STR:
        if type(value) is not str:
            raise _bad(f"{kind}: {name} must be a string")
    elif shape == _INT:
        if type(value) is not int:
            raise _bad(f"{kind}: {name} must be an integer")
    else:
        if type(value) is not list or not all(type(card) is str for card in value):
            raise _bad(f"{kind}: {name} must be a list of card IDs")
        for card in value:
            _card(card, name)


def parse(move: Any) -> BangMove:
    """The typed move of ``move``, once its shape is checked (a ``MalformedMove`` otherwise); the
    keys are checked here and only a refusal is worked out apart (``_bad_keys``): it runs at every move."""
    kind: Any = move.get("type") if type(move) is dict else None
    keys = _KEYS.get(kind) if type(kind) is str else None
    if keys is None or not keys[1].issuperset(move) or not keys[0].issubset(move):
        raise _bad_keys(move)
    if len(move) > 1:
        required, optional = SHAPES[kind]
        for name, value in move.items():
            if name == "type":
                continue
            shape = required.get(name) or optional[name]
            kept = type(value) is str if shape == _STR else type(value) is int if shape == _INT else False
            if not kept:  # a list of cards, or a value of the wrong kind
                _check_value(kind, name, shape, value)
        unstated(move)
    return _READERS[kind](move)


def _check_play(move: Json) -> None:
    """A ``play``'s card is one, with a target exactly where it aims at a seat and a pick exactly for
    Panic! and Cat Balou (a Missed! may take a target: Calamity Janet, R63)."""
    card = move["card"]
    _card(card, "card")
    key = KEY[card]
    if key in TARGETED and "target" not in move:
        raise _bad(f"play: {card} needs a target")
    if key not in TARGETED and key != "MISSED" and "target" in move:
        raise _bad(f"play: {card} takes no target")
    if key in PICKED and "pick" not in move:
        raise _bad(f"play: {card} needs a pick ('hand' or a card in play)")
    if key not in PICKED and "pick" in move:
        raise _bad(f"play: {card} takes no pick")
    if "pick" in move and move["pick"] != "hand":
        _card(move["pick"], "pick")


def _check_draw(move: Json) -> None:
    """A ``draw``'s source is one, with a target exactly from a hand (R65)."""
    source = move["source"]
    if source not in ("deck", "discard", "hand"):
        raise _bad("draw: source is 'deck', 'discard' or 'hand'")
    if (source == "hand") != ("target" in move):
        raise _bad("draw: a target is given exactly with source 'hand'")


def unstated(move: Json) -> None:
    """The checks of ``parse`` that ``MOVE_SCHEMAS`` do not state (a card that
    needs a target or a pick, a draw from a hand), for a move that matches
    its schema already: the service checked it at the boundary."""
    kind = move["type"]
    cards = move.get("cards")
    if cards is not None and len(set(cards)) != len(cards):
        raise _bad(f"{kind}: cards names a card twice")
    if kind == "play":
        _check_play(move)
    elif kind in ("choose", "respond"):
        _card(move["card"], "card")
    elif kind in ("sid", "keep") and len(move["cards"]) != 2:
        raise _bad(f"{kind}: exactly two cards")
    elif kind == "draw":
        _check_draw(move)
    elif kind == "barrel" and move["source"] != "jourdonnais":
        _card(move["source"], "source")


def from_checked(move: Json) -> BangMove:
    """The typed move of ``move``, which matches its schema already, past ``unstated``'s checks
    (none for a move without fields: ``end_turn``, ``pass``, ``resign``)."""
    if len(move) > 1:
        unstated(move)
    return _READERS[move["type"]](move)
