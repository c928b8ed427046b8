"""The JSON Schemas of what a client receives (issue 12; FO54, FO57): the
view's ``state`` and every Face Off event's ``data``, as stored and as
redacted for a seat or a spectator (``views.redact``): a hidden card, card
list or hand becomes ``null``; ``game_setup`` hides the decks and the hands
a seat may not see (``null``, with ``hand_size``, ``brown_size`` and
``blue_size``); ``deck_reshuffled`` shows every viewer the count of the new
deck instead of its order. Each event schema is closed: a field the rules
do not emit is refused.

The card, character and count schemas are BANG!'s (Face Off plays with its
80 cards and 16 characters); the figure-indexed shapes (0 the Sheriff's
character, 1 the Outlaw's, 2 the Renegade) and the board's squares are here,
and ``moves.py`` uses them for the moves too."""
from __future__ import annotations

from typing import Any

from referee.engine.schema import closed_object
from referee.games.cards.schemas import CARD, CARDS, CHARACTER, COUNT

Schema = dict[str, Any]

NULL: Schema = {"type": "null"}
SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 1, "description": "a player (FO1)"}
SEATS: Schema = {"type": "array", "items": SEAT, "maxItems": 2}
MAYBE_SEAT: Schema = {"type": ["integer", "null"], "minimum": 0, "maximum": 1}
CHAR: Schema = {"type": "integer", "enum": [0, 1, 2], "description": "0 Sheriff's, 1 Outlaw's, 2 Renegade"}
MAYBE_CHAR: Schema = {"oneOf": [CHAR, NULL], "description": "a character, or null (the Dynamite, FO41)"}
#: a seat, or -1 for none (the flow's Renegade controller and nugget placer)
SEAT_OR_NONE: Schema = {"type": "integer", "minimum": -1, "maximum": 1}
SQ: Schema = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 39},
              "minItems": 2, "maxItems": 2}
SQUARES: Schema = {"type": "array", "items": SQ}
CARD_OR_HIDDEN: Schema = {"oneOf": [CARD, NULL], "description": "the card, or null where hidden (FO57)"}
CARDS_OR_HIDDEN: Schema = {"oneOf": [CARDS, NULL], "description": "the cards, or null where hidden (FO57)"}
SEEN_BY: Schema = {**SEATS, "description": "the seats that see the hidden part (FO57); others get it as null"}
PILE: Schema = {"enum": ["brown", "blue"], "description": "FO4, FO24"}

#: a frame of the flow's agenda: open prompts and steps still owed. Only
#: ``kind`` is required and other fields are allowed: the frames are the
#: referee's working state (``flow.py``), published for replays and clients.
FRAME: Schema = {
    "type": "object", "required": ["kind"],
    "properties": {
        "kind": {"enum": ["shot", "indians", "duel", "dying", "store", "kit", "lucky", "multi", "after_hit"]},
        "char": CHAR,
    },
    "description": "shot (FO29, FO31), indians (FO22), duel (FO28), dying (FO39), store (FO26), kit (FO50), "
                   "lucky (FO53, R42), multi: Indians!/Gatling targets left (FO22), after_hit: abilities after "
                   "a hit (FO53)",
}

FLOW: Schema = closed_object({
    "round": {"type": "integer", "minimum": 1, "description": "FO8"},
    "active": {**CHAR, "description": "whose turn (FO8)"},
    "phase": {"enum": ["start", "start_jail", "move", "phase2", "play", "discard", "bid", "place", "over"],
              "description": "FO9, FO10, FO11, FO15, FO17, FO20, FO33, FO37"},
    "start": {"oneOf": [SQ, NULL], "description": "the turn-start square (FO12)"},
    "slots": {**COUNT, "description": "phase-2 slots left (FO15)"},
    "drew": {**COUNT, "description": "phase-2 slots used to draw (FO15, FO50, FO53)"},
    "walk": {"enum": [2, 3], "description": "steps per phase-2 move slot (FO15, FO51)"},
    "controller": {**SEAT_OR_NONE, "description": "the bid winner controlling the Renegade's turn, -1 none (FO32)"},
    "placer": {**SEAT_OR_NONE, "description": "the seat placing a spare nugget, -1 none (FO37)"},
    "bidders": {**SEATS, "description": "the seats that bid this round (FO33)"},
    "stack": {"type": "array", "items": FRAME, "description": "the open prompts and steps, the last on top"},
})

_CHAR_DEALT: Schema = closed_object(
    {"name": CHARACTER, "life": {"type": "integer", "minimum": 1}, "max_life": COUNT, "hand": CARDS_OR_HIDDEN,
     "in_play": CARDS, "pos": SQ},
    {"hand_size": COUNT})

RESULT: Schema = closed_object({
    "winners": SEATS,
    "seats": {"type": "array", "minItems": 2, "maxItems": 2, "items": closed_object({
        "seat": SEAT, "role": {"enum": ["sheriff", "outlaw"]}, "outcome": {"enum": ["win", "loss", "draw"]},
        "kills": COUNT})},
    "reason": {"enum": ["two_kills", "no_characters_left", "resigned"]},
    "detail": {"type": "string", "description": "one sentence citing the rule (FO47, FO49, FO58)"},
})

EVENT_SCHEMAS: dict[str, Schema] = {
    "game_setup": closed_object({
        "map": closed_object({"id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,63}$"},
                              "name": {"type": "string", "minLength": 1, "maxLength": 80},
                              "rows": {"type": "array", "minItems": 5, "maxItems": 40,
                                       "items": {"type": "string", "pattern": "^[.#NSBR]{5,40}$"}}}),
        "sheriff_seat": SEAT,
        "chars": {"type": "array", "items": _CHAR_DEALT, "minItems": 3, "maxItems": 3},
        "brown": CARDS_OR_HIDDEN, "blue": CARDS_OR_HIDDEN, "brown_discard": CARDS, "blue_discard": CARDS,
        "nuggets": SQUARES, "reserve": COUNT,
        "trophies": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "array", "items": {
            "type": "array", "prefixItems": [CHARACTER, {"type": "boolean"}], "minItems": 2, "maxItems": 2}}},
        "set_aside": {"type": "array", "items": CHARACTER},
        "renegade_variant": {"type": "boolean"},
        "flow": FLOW,
    }, {"brown_size": COUNT, "blue_size": COUNT},
        description="FO2, FO4, FO6, FO7, FO54: the map, the characters in figure order, the decks, nuggets and "
                    "reserve; redacted (FO57): both decks null with their sizes, a hand null (with hand_size) "
                    "unless it is the seat's own character's"),
    "flow": closed_object({"flow": FLOW}, description="FO8, FO9, FO32-FO37: the referee's control state after a "
                                                       "decision (turn, phase, slots, Renegade control, agenda)"),
    "cards_drawn": closed_object({
        "char": CHAR, "cards": CARDS_OR_HIDDEN, "count": {"type": "integer", "minimum": 1},
        "from": {"enum": ["brown", "blue", "brown_discard"]},
        "reason": {"enum": ["draw", "nugget", "black_jack", "stagecoach", "wells_fargo", "bart_cassidy",
                            "suzy_lafayette", "replacement", "pedro_ramirez"]},
        "seen_by": SEEN_BY},
        description="FO13 (a nugget: the blue deck), FO15, FO24, FO42, FO52, FO53 (Pedro Ramirez: the brown "
                    "discard, seen by both); redacted (FO57): cards null for a seat that may not see the hand"),
    "deck_reshuffled": closed_object({"deck": PILE, "order": CARDS_OR_HIDDEN}, {"count": COUNT},
                                     description="FO25: a discard pile shuffled into its own deck; redacted: "
                                                 "order null and its count"),
    "moved": closed_object({"char": CHAR, "path": {**SQUARES, "maxItems": 3}, "phase": {"enum": [1, 2]}},
                           description="FO11, FO12, FO14, FO15, FO51: the squares entered, in order"),
    "nugget_taken": closed_object({"char": CHAR, "square": SQ}, description="FO13"),
    "draw_checked": closed_object({"char": CHAR, "card": CARD, "reason": {"enum": ["dynamite", "jail", "barrel"]}},
                                  {"from": {"enum": ["deck", "limbo"]}, "cards": CARDS},
                                  description="FO10, FO19, FO24, FO29, FO41, FO53 (Lucky Duke, R42: from the "
                                              "limbo, the cards he turned, the chosen one last)"),
    "card_played": closed_object({"char": CHAR, "card": CARD},
                                 {"target": CHAR, "pick": {"oneOf": [{"const": "hand"}, CARD]}, "to": CHAR},
                                 description="FO17-FO19, FO22, FO23, FO26-FO29, FO39 (a Beer while dying); "
                                             "to: the character a blue card goes in front of"),
    "card_discarded": closed_object({
        "char": CHAR, "cards": CARDS,
        "reason": {"enum": ["dynamite", "jail", "replaced", "cat_balou", "hand_limit", "sid_ketchum", "missed",
                            "indians", "duel", "eliminated"]}},
        description="FO19, FO20, FO22, FO24, FO27-FO29, FO40, FO41, FO53 (Sid Ketchum)"),
    "card_taken": closed_object({
        "char": CHAR, "from": CHAR, "card": CARD_OR_HIDDEN, "zone": {"enum": ["hand", "in_play"]},
        "reason": {"enum": ["panic", "jesse_jones", "el_gringo"]}, "seen_by": SEEN_BY},
        description="FO27, FO53 (Jesse Jones, El Gringo); redacted (FO57): a card from a hand is null for a "
                    "seat that may not see the taker's hand"),
    "cards_inherited": closed_object({"char": CHAR, "from": CHAR, "hand": CARDS_OR_HIDDEN, "in_play": CARDS,
                                      "seen_by": SEEN_BY},
                                     description="FO40, FO53 (Vulture Sam); redacted (FO57): the hand null"),
    "life_changed": closed_object({"char": CHAR, "kind": {"enum": ["gain", "loss"]},
                                   "amount": {"type": "integer", "minimum": 1}}, {"by": MAYBE_CHAR},
                                  description="FO22, FO23, FO39, FO41, FO45 (by: the character responsible for a "
                                              "loss, null for the Dynamite), FO53"),
    "card_passed": closed_object({"char": CHAR, "to": CHAR, "card": CARD}, description="FO41: the Dynamite"),
    "cards_revealed": closed_object({"char": CHAR, "cards": CARDS_OR_HIDDEN,
                                     "reason": {"enum": ["general_store", "kit_carlson", "lucky_duke"]}},
                                    {"seen_by": SEEN_BY},
                                    description="FO26, FO50, FO53 (Lucky Duke, R42): brown deck top into the "
                                                "limbo; redacted (FO57): with seen_by, cards null for a seat not "
                                                "in it and for a spectator; without, public to all"),
    "card_picked": closed_object({"char": CHAR, "card": CARD_OR_HIDDEN, "public": {"type": "boolean"}},
                                 {"seen_by": SEEN_BY},
                                 description="FO26 (public), FO50 (Kit Carlson's, seen by his controller); "
                                             "redacted (FO57): card null"),
    "limbo_returned": closed_object({"count": {"type": "integer", "minimum": 1}},
                                    description="FO50: Kit Carlson's unkept cards back on the brown deck"),
    "card_shown": closed_object({"char": CHAR, "card": CARD, "reason": {"enum": ["black_jack"]}},
                                description="FO52"),
    "bid_made": closed_object({"seat": SEAT, "card": CARD_OR_HIDDEN, "seen_by": SEEN_BY},
                              description="FO33; redacted (FO57): card null for all but the bidder"),
    "bids_revealed": closed_object({"bids": {"type": "array", "items": {"oneOf": [CARD, NULL]}, "minItems": 2,
                                             "maxItems": 2},
                                    "winner": MAYBE_SEAT},
                                   description="FO33, FO36: both bids by seat (null: no bid), winner null on a tie"),
    "nugget_placed": closed_object({"seat": SEAT, "square": SQ}, description="FO37"),
    "character_eliminated": closed_object({"char": CHAR, "character": CHARACTER, "by": MAYBE_CHAR,
                                           "credited": MAYBE_SEAT, "with_renegade": {"type": "boolean"}},
                                          description="FO40, FO41, FO45, FO48: credited null means set aside"),
    "character_replaced": closed_object({"char": CHAR, "character": CHARACTER, "life": {"type": "integer",
                                                                                       "minimum": 1},
                                         "pool_reshuffled": {"type": "boolean"}},
                                        description="FO42, FO49"),
    "game_over": closed_object({"result": RESULT}, description="FO47, FO49"),
}

VIEW_SCHEMA: Schema = {
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
