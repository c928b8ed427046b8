"""The JSON-Schema fragments of the kit's cards and characters, which both
card rulesets' published schemas are built of: a card ID (R1; Face Off
plays the same 80, FO4), a list of them, a count, a character (R3, FO4)."""
from __future__ import annotations

from typing import Any

from referee.games.cards.characters import CHARACTERS
from referee.games.cards.deck import CARD_SET

Schema = dict[str, Any]

CARD: Schema = {"type": "string", "enum": sorted(CARD_SET)}
CARDS: Schema = {"type": "array", "items": CARD}
COUNT: Schema = {"type": "integer", "minimum": 0}
CHARACTER: Schema = {"enum": sorted(CHARACTERS)}
