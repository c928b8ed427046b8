"""The creation options (FO1, FO48, FO54–FO56): the map (a built-in one or a
map object, checked by ``board.check_map``), the Renegade variant, and the
modules the spec only notes for a later revision (refused)."""
from __future__ import annotations

from typing import Any

from referee.engine.protocol import InvalidSetup, Json
from referee.engine.schema import switch
from referee.games.faceoff.scenario import resolve_map

#: FO1: exactly two players
MIN_PLAYERS, MAX_PLAYERS = 2, 2

OPTIONS_SCHEMA: Json = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "map": {"type": ["string", "object"], "x-rule": "FO54", "default": "faceoff_1",
                "description": "faceoff_1, faceoff_2, or a custom map object (FO54; 422 naming each failed check)"},
        "renegade_variant": switch("FO48", "one of the two kills must be made with the Renegade"),
        # x-refused: true is refused with this code, so a form offers neither (issue 38)
        "high_noon": {**switch("FO55", "not in the core ruleset: true is refused (module_not_implemented)"),
                      "x-refused": "module_not_implemented"},
        "dodge_city": {**switch("FO56", "not in the core ruleset: true is refused (module_not_implemented)"),
                       "x-refused": "module_not_implemented"},
    },
}


def check_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    """FO1: two players; FO55, FO56: no module; the map resolved (FO54: a map object checked) and the
    Renegade variant (FO48) filled in."""
    if players != 2:
        raise InvalidSetup("invalid_options", rule="FO1", detail="Face Off is for exactly 2 players")
    for module, rule in (("high_noon", "FO55"), ("dodge_city", "FO56")):
        if options.get(module):
            raise InvalidSetup("module_not_implemented", rule=rule,
                               detail=f"{module}: the spec defines only notes for a later revision "
                                      "(its cards are not in this referee)")
    chosen = resolve_map(options.get("map", "faceoff_1"))
    out: dict[str, Any] = {"map": chosen["id"] if isinstance(options.get("map", "faceoff_1"), str) else chosen,
                           "renegade_variant": bool(options.get("renegade_variant", False))}
    return out


def option_sets(players: int) -> list[dict[str, Any]]:
    """Both built-in maps (FO6) and the Renegade variant (FO48)."""
    return [{"map": "faceoff_1"}, {"map": "faceoff_2"}, {"map": "faceoff_1", "renegade_variant": True}]
