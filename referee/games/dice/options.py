"""Game options (D1, D71): the three Old Saloon modules, ``expansion`` for all
of them, the clock is the platform's
``turn_timeout_s`` with the defaults of D73."""
from __future__ import annotations

from typing import Any

from referee.engine.protocol import InvalidSetup, Json
from referee.engine.schema import switch

MIN_PLAYERS, MAX_PLAYERS = 3, 8
MODULES = ("saloon_dice", "chief_arrow", "ghost")

OPTIONS_SCHEMA: Json = {
    "type": "object", "additionalProperties": False, "x-rule": "D1",
    "properties": {
        "saloon_dice": switch("D51", "D51–D57: the Loudmouth and Coward dice."),
        "chief_arrow": switch("D58", "D58–D60: the Indian Chief's Arrow."),
        "ghost": switch("D61", "D61–D66: the first eliminated player plays on as the Ghost (4–8 players, D71)."),
        "expansion": switch("D1", "D1, D71: all three modules (with 3 players: Saloon dice and Chief's Arrow)."),
    },
}


def check_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    """Defaults filled in, ``expansion`` spelled out (D1, D71); idempotent."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup("invalid_player_count", rule="D5",
                           detail=f"BANG! The Dice Game takes 3 to 8 players, not {players}")
    if players == 3 and options.get("ghost"):
        raise InvalidSetup("invalid_options", rule="D71", detail="the ghost module is not played with 3 players")
    every = bool(options.get("expansion"))
    out: dict[str, Any] = {m: bool(options.get(m)) or every for m in MODULES}
    if players == 3:
        out["ghost"] = False
    return out
