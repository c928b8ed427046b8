"""The catalogue of BANG! Face Off (issue 24, item 2): the 80 cards and 16
characters of BANG! (FO4, the same IDs) with what they do on the board, the
three roles (FO2) and the built-in maps (FO6), built from the tables the
ruleset plays with (the cards kit's ``referee.games.cards.catalogue``, the maps
``board`` has read) and the prose Face Off changes (``catalogue.json``, read
through ``referee.engine.packagedata``). Pure: no I/O of its own."""
from __future__ import annotations

from typing import Any

from referee.engine.packagedata import package_tables
from referee.games.cards.catalogue import CARD_TEXT, CHARACTER_TEXT, card_entries, character_entries
from referee.games.faceoff.board import BUILTIN

_TEXTS = package_tables("referee.games.faceoff", "catalogue.json")
#: card key -> ``name``, Face Off ``rule``, ``text`` where the board changes the card
_CARDS: dict[str, dict[str, str]] = _TEXTS["cards"]
assert set(_CARDS) == set(CARD_TEXT)
#: where Face Off changes a character (FO50–FO53); the others play as in BANG! (FO53)
_CHARACTERS: dict[str, dict[str, str]] = {**{cid: {**said, "rule": "FO53"} for cid, said in CHARACTER_TEXT.items()},
                                          **_TEXTS["characters"]}
#: role -> ``name``, ``rule``, ``goal`` (FO2, FO3, FO32)
_ROLES: dict[str, dict[str, str]] = _TEXTS["roles"]


def _map(given: dict[str, Any]) -> dict[str, Any]:
    rows: list[str] = list(given["rows"])
    marks = {c: [x, y] for y, r in enumerate(rows) for x, c in enumerate(r) if c in "SBR"}
    return {
        "id": given["id"], "name": given.get("name", given["id"]), "size": [len(rows[0]), len(rows)],
        "width": len(rows[0]), "height": len(rows), "rows": rows,
        "starts": {"sheriff": marks.get("S"), "outlaw": marks.get("B"), "renegade": marks.get("R")},
        "nuggets": sum(r.count("N") for r in rows), "nugget_tokens": given.get("nugget_tokens", 16), "rule": "FO6",
    }


def catalogue() -> dict[str, Any]:
    """Cards (FO4: R1's, in two decks by border), characters (FO4, FO50–FO53),
    roles (FO2) and the built-in maps (FO6); no dice or symbols."""
    cards = card_entries(_CARDS)
    for card in cards:
        card["deck"] = card["border"]  # FO24: brown and blue decks
    characters = character_entries(_CHARACTERS)
    roles = [{"id": rid, "name": role["name"], "count_by_players": {"2": 1}, "goal": role["goal"], "rule": role["rule"]}
             for rid, role in _ROLES.items()]
    return {
        "ruleset": "bang-faceoff", "cards": cards, "characters": characters, "roles": roles,
        "dice": [], "faces": [], "symbols": [], "maps": [_map(m) for m in BUILTIN.values()],
    }
