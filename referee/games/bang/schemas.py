"""The JSON Schemas of what a BANG! client receives (issue 9, the contract):
the view's ``state`` and every event's ``data``, as stored and as redacted
for a seat (hidden cards become counts, hidden roles null, R83). The
conformance suite checks every view and event of random games against them.
The card and character fragments are the cards kit's (``referee.games.cards.schemas``)."""
from __future__ import annotations

from typing import Any

from referee.engine.schema import closed_object
from referee.games.bang.roles import ROLES
from referee.games.cards.schemas import CARD, CARDS, CHARACTER, COUNT

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 6}
MAYBE_SEAT: Schema = {"type": ["integer", "null"], "minimum": 0, "maximum": 6}
CARDS_OR_COUNT: Schema = {"oneOf": [CARDS, COUNT], "description": "the cards, or their count where hidden (R83)"}
ROLE: Schema = {"enum": list(ROLES)}
MAYBE_ROLE: Schema = {"enum": [*ROLES, None]}
PHASE: Schema = {"enum": ["start", "draw", "play", "discard", "over"]}
REASON: Schema = {"type": "string"}
FRAME: Schema = {"type": "object", "required": ["kind"], "properties": {
    "kind": {"enum": ["shot", "indians", "duel", "dying", "store", "lucky", "kit", "draw_choice", "turn_step",
                      "targets_left", "after_hit"]}, "seat": SEAT},
    "description": "a window or a step of the referee's agenda (R43, R45, R77): see referee/games/bang/agenda.py"}
RESULT: Schema = {"type": "object", "required": ["winners", "seats", "reason", "detail"]}
LAST: Schema = {"oneOf": [{"type": "null"}, closed_object({
    "kind": {"enum": ["card_played", "draw_checked", "resigned"]}, "seat": SEAT}, {
    "card": {"oneOf": [CARD, {"type": "null"}]}, "target": MAYBE_SEAT, "pick": {"type": ["string", "null"]},
    "response": {"type": ["string", "null"]}, "cards": CARDS, "reason": REASON})],
    "description": "the last card played (who, at whom), \"draw!\" check (its cards, the result) or "
                   "resignation (R21, R41, R85)"}


LIFE: Schema = {"type": "integer", "description": "below 1 while the player is dying (R48); 0 once eliminated"}
PLAYER_SHOWN: Schema = closed_object({"seat": SEAT, "character": CHARACTER, "life": LIFE, "max_life": COUNT,
                             "alive": {"type": "boolean"}, "hand": COUNT, "in_play": CARDS, "role": MAYBE_ROLE})
SIGHT: Schema = {"oneOf": [{"type": "null"}, closed_object({
    "reach": {"type": "integer", "minimum": 1},
    "distance": {"type": "array", "items": {"type": ["integer", "null"], "minimum": 1}},
    "in_reach": {"type": "array", "items": {"type": ["boolean", "null"]}}})]}

VIEW_SCHEMA: Schema = closed_object({
    "seat": MAYBE_SEAT, "turn": SEAT, "phase": PHASE, "bangs": COUNT, "deck": COUNT, "discard": CARDS,
    "seats": {"type": "array", "items": PLAYER_SHOWN}, "last": LAST, "hand": {"oneOf": [CARDS, {"type": "null"}]},
    "role": MAYBE_ROLE, "distances": SIGHT, "result": {"oneOf": [RESULT, {"type": "null"}]},
    "roles_in_game": {"type": "array", "items": ROLE},
}, {"targets": {"type": "object", "additionalProperties": ROLE}},
    "BANG!: a seat's view (`state` of GET /v1/games/{id}): its own hand and role, public cards and roles (R83), "
    "distances (R14-R17), the role cards of the game (R4) and, with three players, each role's target (R82).")

_PLAYER_DEALT: Schema = closed_object({"seat": SEAT, "role": MAYBE_ROLE, "character": CHARACTER, "life": LIFE,
                              "max_life": COUNT, "alive": {"type": "boolean"}, "hand": CARDS_OR_COUNT,
                              "in_play": CARDS})

EVENT_SCHEMAS: dict[str, Schema] = {
    "game_started": closed_object({"three_player": {"type": "boolean"}, "turn": SEAT, "phase": PHASE,
                          "players": {"type": "array", "items": _PLAYER_DEALT}, "deck": CARDS_OR_COUNT,
                          "discard": CARDS}, description="R6; redacted: other hands and the deck as counts"),
    "turn_started": closed_object({"seat": SEAT}, description="R8"),
    "deck_reshuffled": closed_object({"deck": CARDS_OR_COUNT}, description="R59; redacted: a count"),
    "cards_drawn": closed_object({"seat": SEAT, "cards": CARDS_OR_COUNT, "reason": REASON},
                        description="from the deck into the hand; redacted for others: a count"),
    "card_shown": closed_object({"seat": SEAT, "card": CARD, "reason": REASON}, description="R62"),
    "card_taken": closed_object({"seat": SEAT, "from": MAYBE_SEAT, "zone": {"enum": ["hand", "in_play", "discard"]},
                        "reason": REASON}, {"card": CARD},
                       description="R28, R65, R70; a card from another hand is hidden from third seats"),
    "card_played": closed_object({"seat": SEAT, "card": CARD}, {"target": SEAT, "pick": {"type": "string"},
                                                        "response": {"type": "string"}}, "R21, R22, R43"),
    "card_discarded": closed_object({"seat": SEAT, "cards": CARDS, "reason": REASON}),
    "cards_revealed": closed_object({"seat": SEAT, "cards": CARDS_OR_COUNT, "reason": REASON},
                           description="R29, R42, R67; Kit Carlson's look is a count for others"),
    "draw_checked": closed_object({"seat": SEAT, "cards": CARDS, "card": {"oneOf": [CARD, {"type": "null"}]},
                          "reason": REASON, "from": {"enum": ["deck", "limbo"]}}, description="R41, R42"),
    "card_picked": closed_object({"seat": SEAT, "card": CARD}, description="R29"),
    "kit_kept": closed_object({"seat": SEAT, "kept": CARDS_OR_COUNT, "returned": CARDS_OR_COUNT}, description="R67"),
    "card_passed": closed_object({"seat": SEAT, "to": SEAT, "card": CARD}, description="R39"),
    "life_lost": closed_object({"seat": SEAT, "amount": COUNT, "by": MAYBE_SEAT}, description="R47"),
    "life_gained": closed_object({"seat": SEAT, "amount": COUNT}, description="R25, R26, R72"),
    "player_eliminated": closed_object({"seat": SEAT, "role": ROLE, "by": MAYBE_SEAT}, description="R51"),
    "player_resigned": closed_object({"seat": SEAT}, description="R85; player_eliminated follows"),
    "cards_inherited": closed_object({"seat": SEAT, "from": SEAT, "hand": CARDS_OR_COUNT, "in_play": CARDS},
                            description="R75; another's hand as a count for third seats"),
    "awaiting": closed_object({"to_act": {"type": "array", "items": SEAT}, "phase": PHASE, "bangs": COUNT,
                      "prompt": {"oneOf": [FRAME, {"type": "null"}]}, "then": {"type": "array", "items": FRAME}},
                     description="R43, R77: whose move the referee awaits, the open window and what is owed next"),
    "game_over": closed_object({"result": RESULT}, description="R55-R58, R82"),
}
