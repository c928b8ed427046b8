"""The catalogue of Bluffaneer (issue 24, item 2): the four symbols (F2),
the two dice (F3) and the 18 cards (F4), built from ``symbols``' tables.
Pure: no I/O."""
from __future__ import annotations

from typing import Any

from referee.games.bluffaneer.symbols import CARD_IDS, CARD_SYMBOLS, DEFAULT_DIE_FACES, SYMBOLS

#: symbol -> (name as F2 gives it, rule of its double, what a double of it does)
_SYMBOLS: dict[str, tuple[str, str, str]] = {
    "chest": ("Treasure chest", "F11", "Rolled doubled, every other player pays the roller 1 coin."),
    "sword": ("Sword", "F12", "Rolled doubled, a player the roller names pays him 2 coins."),
    "ship": ("Pirate ship", "F13", "Rolled doubled, a player the roller names pays him 3 coins."),
    "skull": ("Skull and crossbones", "F14", "Rolled doubled, the roller pays 1 coin to each other player "
                                             "in turn."),
}


def catalogue() -> dict[str, Any]:
    """Cards (F4: one entry per card ID, each showing a pair of symbols),
    symbols (F2) and the two dice (F3; the ``die_faces`` option may change
    them per game); no characters, roles, faces beyond the symbols or maps."""
    cards = []
    for card in CARD_IDS:
        a, b = CARD_SYMBOLS[card]
        cards.append({
            "id": card, "name": f"{_SYMBOLS[a][0]} and {_SYMBOLS[b][0].lower()}", "kind": "pair",
            "suit": None, "rank": None, "copies": 1, "symbols": [a, b],
            "text": f"Matches a roll of {_SYMBOLS[a][0].lower()} and {_SYMBOLS[b][0].lower()}, in either order.",
            "rule": "F15",
        })
    return {
        "ruleset": "bluffaneer", "cards": cards, "characters": [], "roles": [],
        "dice": [{"id": "default", "name": "Die", "faces": list(DEFAULT_DIE_FACES), "rule": "F3", "count": 2}],
        "faces": [],
        "symbols": [{"id": s, "name": _SYMBOLS[s][0], "text": _SYMBOLS[s][2], "rule": _SYMBOLS[s][1]}
                    for s in SYMBOLS],
        "maps": [],
    }
