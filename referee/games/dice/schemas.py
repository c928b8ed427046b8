"""The JSON Schemas of what a client receives: the view's ``state`` and
every event's ``data`` (as stored and as redacted)."""
from __future__ import annotations

from typing import Any

from referee.engine.schema import closed_object
from referee.games.dice.characters import CHARACTER_IDS
from referee.games.dice.dice_faces import DIE_FACES, FACES
from referee.games.dice.ending import DETAILS
from referee.games.dice.role_cards import ROLE_KINDS, ROLES, role_cards

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 7}
MAYBE_SEAT: Schema = {"type": ["integer", "null"], "minimum": 0, "maximum": 7}
INT: Schema = {"type": "integer", "minimum": 0}
BOOL: Schema = {"type": "boolean"}
STR: Schema = {"type": "string"}
CARDS = sorted({c for n in ROLES for c in role_cards(ROLES[n])})
ROLE: Schema = {"enum": [*ROLE_KINDS, None]}
ROLE_CARD: Schema = {"enum": CARDS}
FACE: Schema = {"enum": list(FACES)}
KIND: Schema = {"enum": list(DIE_FACES)}
SEATS: Schema = {"type": "array", "items": SEAT}
ANY_LIST: Schema = {"type": "array"}

VIEW_SCHEMA: Schema = closed_object({
    "players": {"type": "integer", "minimum": 3, "maximum": 8},
    "modules": closed_object({"saloon_dice": BOOL, "chief_arrow": BOOL, "ghost": BOOL}),
    "turn": SEAT, "ghost_turn": BOOL,
    "seats": {"type": "array", "items": closed_object({
        "seat": SEAT, "character": {"enum": list(CHARACTER_IDS)}, "life": INT, "max_life": INT, "arrows": INT,
        "chief_arrow": BOOL, "alive": BOOL, "ghost": BOOL, "role": ROLE,
        "token": {"oneOf": [{"type": "null"}, closed_object({"face": FACE, "dice": INT})]},
        "resigned": BOOL})},
    "pile": {"type": "integer", "minimum": 0, "maximum": 9}, "chief_arrow_in_pile": BOOL,
    "dice": {"type": "array", "maxItems": 5, "items": closed_object({"die": INT, "kind": KIND, "face": FACE})},
    "last": {"oneOf": [{"type": "null"}, closed_object({
        "kind": {"const": "roll"}, "seat": SEAT, "roll": INT, "rolled": {"type": "array", "items": INT},
        "faces": {"type": "array", "items": FACE}})]},
    "rolls": INT, "max_rolls": INT, "saloon": {"enum": [None, "loudmouth", "coward"]},
    "shots": closed_object({"targets": {"type": "array", "items": SEATS},
                            "declared": {"type": "array", "items": closed_object({"target": SEAT, "double": BOOL})}}),
    "awaiting": {"type": ["string", "null"]}, "over": BOOL,
    "you": MAYBE_SEAT, "role": ROLE,
}, description="BANG! The Dice Game: a seat's view; roles hidden until death except the Sheriff's "
               "(all public with 3 players or at the end) (D74); `role` is the seat's own.")

EVENT_SCHEMAS: dict[str, Schema] = {
    "game_started": closed_object({
        "players": INT, "saloon_dice": BOOL, "chief_arrow": BOOL, "ghost_module": BOOL,
        "roles": {"type": "array", "items": ROLE},
        "characters": {"type": "array", "items": {"enum": list(CHARACTER_IDS)}},
        "max_life": ANY_LIST, "life": ANY_LIST, "arrows": ANY_LIST, "alive": ANY_LIST, "chief_holder": MAYBE_SEAT,
        "ghost": MAYBE_SEAT, "tokens": ANY_LIST, "queue": {"type": "array", "items": FACE}, "turn": SEAT},
        description="D5-D9; redacted: roles hidden from this seat are null"),
    "turn_started": closed_object({"seat": SEAT, "ghost": BOOL}, description="D14, D31"),
    "dice_rolled": closed_object({"seat": SEAT, "roll": INT, "saloon": {"enum": [None, "loudmouth", "coward"]},
                                  "die_kinds": {"type": "array", "items": KIND},
                                  "dice": {"type": "array", "items": FACE}, "rolled": {"type": "array", "items": INT},
                                  "preset": INT, "forced": INT}, description="D15-D17, D52, D66"),
    "arrow_taken": closed_object({"seat": SEAT, "chief": BOOL, "count": INT, "rule": STR}, description="D21, D34, D58"),
    "arrows_discarded": closed_object({"seat": SEAT, "regular": INT, "chief": BOOL, "by": SEAT, "rule": STR},
                                      description="D40, D43, D54"),
    "arrows_returned": closed_object({"seat": MAYBE_SEAT, "rule": STR}, description="D22, D26"),
    "life_lost": closed_object({"rule": STR, "losses": {"type": "array", "items": {"type": "array", "items": INT}}},
                               description="D28"),
    "life_gained": closed_object({"rule": STR, "seat": SEAT, "amount": INT}, description="D25, D45, D47, D48"),
    "player_eliminated": closed_object({"seat": SEAT, "role": ROLE, "role_card": ROLE_CARD, "ghost": BOOL},
                                       description="D29, D61, D75"),
    "player_resigned": closed_object({"seat": SEAT, "rule": STR}, description="D75"),
    "shots_planned": closed_object({"targets": {"type": "array", "items": SEATS}}, description="D24"),
    "shot_declared": closed_object({"target": SEAT, "double": BOOL}, description="D24, D46"),
    "token_given": closed_object({"seat": SEAT, "target": SEAT, "face": FACE, "dice": INT}, description="D65"),
    "awaiting": closed_object({"kind": STR, "seat": SEAT, "data": ANY_LIST, "agenda": ANY_LIST},
                              description="D73: the decision awaited and the steps after it"),
    "game_ended": closed_object({"winners": SEATS, "draw": BOOL, "reason": {"enum": list(DETAILS)},
                                 "roles": {"type": "array", "items": ROLE}}, description="D32, D33, D70"),
}
