"""Move shapes (imperative, JSON) and their parsing.

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

from typing import Any

from referee.engine.protocol import MalformedMove
from referee.games.cards.deck import CARD_SET, KEY

Move = dict[str, Any]

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


#: type -> (required field names, every allowed field name incl. "type")
_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    t: (frozenset(req), frozenset(req) | frozenset(opt) | {"type"}) for t, (req, opt) in SHAPES.items()
}


def parse(move: Any) -> Move:
    """Check the shape of ``move``; return it unchanged if well formed."""
    if type(move) is not dict:
        raise _bad("a move is a JSON object")
    t = move.get("type")
    shape = _KEYS.get(t) if type(t) is str else None
    if shape is None:
        raise _bad(f"unknown move type {t!r}")
    required, allowed = shape
    if not allowed.issuperset(move):
        extra = sorted(k for k in move if k not in allowed)
        raise _bad(f"{t}: unexpected field {extra[0]!r}")
    if not required.issubset(move):
        missing = sorted(k for k in required if k not in move)
        raise _bad(f"{t}: missing field {missing[0]!r}")
    if len(move) == 1:
        return move
    req, opt = SHAPES[str(t)]
    for name, value in move.items():
        if name == "type":
            continue
        kind = req.get(name) or opt.get(name)
        if kind == _STR:
            if type(value) is not str:
                raise _bad(f"{t}: {name} must be a string")
        elif kind == _INT:
            if type(value) is not int:
                raise _bad(f"{t}: {name} must be an integer")
        else:
            if type(value) is not list or not all(type(c) is str for c in value):
                raise _bad(f"{t}: {name} must be a list of card IDs")
            for c in value:
                _card(c, name)
    return unstated(move)


def unstated(move: Move) -> Move:
    """The checks of ``parse`` that ``MOVE_SCHEMAS`` do not state (a card that
    needs a target or a pick, a draw from a hand), for a move that matches
    its schema already: the service checked it at the boundary."""
    t = move["type"]
    cards = move.get("cards")
    if cards is not None and len(set(cards)) != len(cards):
        raise _bad(f"{t}: cards names a card twice")
    if t in ("play", "choose", "respond"):
        _card(move["card"], "card")
    if t == "play":
        k = KEY[move["card"]]
        if k in TARGETED and "target" not in move:
            raise _bad(f"play: {move['card']} needs a target")
        if k not in TARGETED and k != "MISSED" and "target" in move:
            raise _bad(f"play: {move['card']} takes no target")
        if k in PICKED and "pick" not in move:
            raise _bad(f"play: {move['card']} needs a pick ('hand' or a card in play)")
        if k not in PICKED and "pick" in move:
            raise _bad(f"play: {move['card']} takes no pick")
        if "pick" in move and move["pick"] != "hand":
            _card(move["pick"], "pick")
    if t in ("sid", "keep") and len(move["cards"]) != 2:
        raise _bad(f"{t}: exactly two cards")
    if t == "draw":
        src = move["source"]
        if src not in ("deck", "discard", "hand"):
            raise _bad("draw: source is 'deck', 'discard' or 'hand'")
        if (src == "hand") != ("target" in move):
            raise _bad("draw: a target is given exactly with source 'hand'")
    if t == "barrel" and move["source"] != "jourdonnais":
        _card(move["source"], "source")
    return move
