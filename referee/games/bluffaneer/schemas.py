"""The JSON Schemas of what a Bluffaneer client receives (issue 9, the
contract): the view's ``state`` and every event's ``data``, as stored and as
redacted for a seat (a hidden card is ``null``, a hidden pile a count). The
conformance suite checks every view and event of random games against them."""
from __future__ import annotations

from typing import Any

from referee.engine.schema import closed_object
from referee.games.bluffaneer.state import CLAIMS, DECISION, OVER, ROLL, STEAL
from referee.games.bluffaneer.symbols import CARD_IDS, SYMBOLS

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 5}
MAYBE_SEAT: Schema = {"type": ["integer", "null"], "minimum": 0, "maximum": 5}
MS: Schema = {"type": "integer"}
CARD: Schema = {"type": "string", "enum": list(CARD_IDS)}
MAYBE_CARD: Schema = {"type": ["string", "null"], "enum": [*CARD_IDS, None]}
SYMBOL: Schema = {"type": "string", "enum": list(SYMBOLS)}
CARD_SHOWN: Schema = {"type": "object", "additionalProperties": False, "required": ["id", "symbols"],
                      "properties": {"id": CARD, "symbols": {"type": "array", "items": SYMBOL}}}
COINS: Schema = {"type": "array", "items": {"type": "integer", "minimum": 0}}


VIEW_SCHEMA: Schema = closed_object({
    "you": MAYBE_SEAT, "players": {"type": "integer", "minimum": 3, "maximum": 6},
    "phase": {"enum": [ROLL, STEAL, CLAIMS, DECISION, OVER]}, "turn": SEAT,
    "seats": {"type": "array", "items": closed_object({"seat": SEAT, "coins": {"type": "integer", "minimum": 0},
                                              "cards": {"const": 1},
                                              "card": {"oneOf": [CARD_SHOWN, {"type": "null"}]}})},
    "box": {"type": "integer", "minimum": 0},
    "dice": {"oneOf": [{"type": "array", "items": SYMBOL, "minItems": 2, "maxItems": 2}, {"type": "null"}]},
    "claim_window": closed_object({"opened_at": {"type": ["integer", "null"]},
                                   "deadline": {"type": ["integer", "null"]}}),
    "claims": {"type": "array", "items": closed_object({"seat": SEAT, "at": MS})},
    "passes": {"type": "array", "items": SEAT}, "claimant": MAYBE_SEAT,
    "discard": {"type": "array", "items": CARD_SHOWN}, "draw_pile": {"type": "integer", "minimum": 0},
    "last_flip": {"oneOf": [{"type": "null"}, closed_object({
        "kind": {"type": "string"}, "among": {"type": "array", "items": SEAT}, "index": {"type": "integer"},
        "seat": MAYBE_SEAT, "queued": {"type": "boolean"}})]},
    "die_faces": {"type": "array", "items": SYMBOL, "minItems": 6, "maxItems": 6},
    "claim_window_ms": {"type": "integer"},
    "last": {"oneOf": [{"type": "null"}, {
        "type": "object", "required": ["kind"],
        "description": "The last roll (dice_rolled: seat, dice), claim (claimed), decision (claim_accepted / "
                       "claim_challenged: claimant), revealed card (card_revealed: card, symbols, matches) "
                       "resignation (resigned, F34) or reshuffle (deck_reshuffled: count, F25).",
        "properties": {"kind": {"enum": ["dice_rolled", "claimed", "claim_accepted", "claim_challenged",
                                         "card_revealed", "resigned", "deck_reshuffled"]},
                       "count": {"type": "integer", "minimum": 0},
                       "seat": SEAT, "dice": {"type": "array", "items": SYMBOL, "minItems": 2, "maxItems": 2},
                       "claimant": SEAT, "card": CARD, "symbols": {"type": "array", "items": SYMBOL},
                       "matches": {"type": "boolean"}},
        "additionalProperties": False}]},
}, description="Bluffaneer: a seat's view (`state` of GET /v1/games/{id}); `card` is the seat's own only (F31).")

_TIE: dict[str, Schema] = {"tied": {"type": "array", "items": SEAT}, "flip": {"type": ["integer", "null"]},
                           "queued": {"type": "boolean"}}

EVENT_SCHEMAS: dict[str, Schema] = {
    "game_started": closed_object(
        {"players": {"type": "integer"}, "first_seat": SEAT, "die_faces": {"type": "array", "items": SYMBOL},
         "claim_window_ms": MS, "coins": COINS, "box": {"type": "integer"},
         "hands": {"type": "array", "items": MAYBE_CARD}, "discard": {"type": "array", "items": CARD},
         "dice_queue": {"type": "array", "items": SYMBOL},
         "flip_queue": {"type": "array", "items": {"type": "integer"}}},
        {"deck": {"type": "array", "items": CARD}, "deck_count": {"type": "integer"}},
        "F5-F8; redacted: other seats' hands null, the deck only as deck_count"),
    "dice_rolled": closed_object({"seat": SEAT, "dice": {"type": "array", "items": SYMBOL},
                                  "queued": {"type": "integer"}},
                        description="F9"),
    "coins_moved": closed_object({"rule": {"type": "string"}, "transfers": {"type": "array", "items": closed_object({
        "from": SEAT, "to": MAYBE_SEAT, "owed": {"type": "integer"}, "amount": {"type": "integer"}})}},
        description="F10-F26: to null is the box"),
    "card_revealed": closed_object({"seat": SEAT, "card": CARD, "symbols": {"type": "array", "items": SYMBOL},
                           "rule": {"type": "string"}, "matches": {"type": "boolean"}}, description="F16, F22, F23"),
    "deck_reshuffled": closed_object({}, {"order": {"type": "array", "items": CARD}, "count": {"type": "integer"}},
                            "F25; redacted: only count"),
    "card_drawn": closed_object({"seat": SEAT, "card": MAYBE_CARD}, description="F24; redacted: card null"),
    "claim_window_opened": closed_object({"seat": SEAT, "opened_at": MS, "deadline": MS}, description="F18"),
    "claimed": closed_object({"seat": SEAT, "at": MS}, description="F17"),
    "passed": closed_object({"seat": SEAT, "at": MS}, description="F18"),
    "claim_window_closed": closed_object({"reason": {"enum": ["answered", "timeout"]}, "at": MS, "winner": MAYBE_SEAT,
                                 **_TIE}, description="F19, F20"),
    "claim_accepted": closed_object({"seat": SEAT, "claimant": SEAT}, description="F21"),
    "claim_challenged": closed_object({"seat": SEAT, "claimant": SEAT}, description="F21"),
    "turn_ended": closed_object({"seat": SEAT, "next": SEAT}, description="F27"),
    "resigned": closed_object({"seat": SEAT}, description="F34"),
    "game_ended": closed_object({"reason": {"enum": ["last_coin_lost", "resigned"]}, "coins": COINS,
                                 "zero": {"type": "array", "items": SEAT},
                        "winner": SEAT, **_TIE}, description="F28-F30, F34"),
}
