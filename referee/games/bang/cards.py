"""BANG!'s former home of the card table (R1, R2), now the cards kit's
``referee.games.cards.deck``: a re-export kept for the tests and callers
that import ``referee.games.bang.cards``."""
from __future__ import annotations

from referee.games.cards.deck import (
    ALL_CARDS,
    BLUE,
    BLUE_KEYS,
    CARD_SET,
    KEY,
    RANK,
    SUIT,
    WEAPON_OF,
    WEAPON_RANGE,
    explodes,
    is_heart,
    red,
)

__all__ = ["ALL_CARDS", "BLUE", "BLUE_KEYS", "CARD_SET", "KEY", "RANK", "SUIT", "WEAPON_OF", "WEAPON_RANGE",
           "explodes", "is_heart", "red"]
