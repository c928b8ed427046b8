"""BANG!'s creation options (R5, R82, R84): the table's size, the published
schema and what it cannot say (``check_options``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.protocol import InvalidSetup, Json
from referee.games.cards.characters import LIFE

#: R5: 4 to 7 players, or 3 in the optional 3-player game (R82)
MIN_PLAYERS, MAX_PLAYERS = 3, 7

OPTIONS_SCHEMA: Json = {
    "type": "object",
    "properties": {
        "three_player": {
            "type": "boolean",
            "description": "the optional 3-player game (R82): true is required for, and only allowed "
                           "with, 3 players (R5); default false",
            "default": False,
            "x-rule": "R5",
        },
        "characters": {
            "type": "array",
            "items": {"type": ["string", "null"]},
            "description": "per seat, a character kept from the previous game (R84) or null "
                           "for a random one; the service fills it from carry_characters_from",
            "x-rule": "R84",
        },
    },
    "additionalProperties": False,
}


def check_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    """The options with their default filled in: ``three_player`` exactly for
    3 players (R5, R82); ``characters`` one entry per seat, each a character
    of R3 named once, or null (R84)."""
    if not isinstance(options, Mapping):
        raise InvalidSetup("invalid_options", detail="options must be an object")
    unknown = sorted(set(options) - {"three_player", "characters"})
    if unknown:
        raise InvalidSetup("invalid_options", detail=f"unknown options: {', '.join(unknown)}")
    three = options.get("three_player", False)
    if not isinstance(three, bool):
        raise InvalidSetup("invalid_options", detail="three_player must be true or false")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup("invalid_options", rule="R5", detail="BANG! is for 3 to 7 players")
    if three != (players == 3):  # R5: 3 players only as the optional 3-player game, asked for by name
        raise InvalidSetup("invalid_options", rule="R5",
                           detail="3 players play only the optional 3-player game, three_player: true (R5, "
                                  "played under R82); 4 to 7 players cannot have it")
    out: dict[str, Any] = {"three_player": three}
    if "characters" in options:
        out["characters"] = _characters(options["characters"], players)
    return out


def _characters(chars: Any, players: int) -> list[str | None]:
    """R84: per seat a character kept from the previous game or null; R3: each a character, named once."""
    if not isinstance(chars, list) or len(chars) != players:
        raise InvalidSetup("invalid_options", rule="R84", detail=f"characters lists one entry per seat ({players})")
    named = [c for c in chars if c is not None]
    if any(not isinstance(c, str) or c not in LIFE for c in named):
        raise InvalidSetup("invalid_options", rule="R3", detail="unknown character")
    if len(set(named)) != len(named):
        raise InvalidSetup("invalid_options", rule="R3", detail="a character named twice")
    return list(chars)
