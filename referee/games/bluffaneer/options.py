"""Game options: ``first_seat`` (F8), ``claim_window_ms`` (F18), ``die_faces`` (F3)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.protocol import InvalidSetup, Json
from referee.games.bluffaneer.symbols import DEFAULT_DIE_FACES, SYMBOLS

MIN_PLAYERS = 3
MAX_PLAYERS = 6
DEFAULT_WINDOW_MS = 5000
MIN_WINDOW_MS = 1000
MAX_WINDOW_MS = 60000

OPTIONS_SCHEMA: Json = {
    "type": "object",
    "additionalProperties": False,
    "x-rule": "F33",
    "properties": {
        "first_seat": {
            "type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1,
            "description": "F8: the first roller; left out, the referee picks one from the seed.",
            "x-rule": "F8",
        },
        "claim_window_ms": {
            "type": "integer", "minimum": MIN_WINDOW_MS, "maximum": MAX_WINDOW_MS,
            "default": DEFAULT_WINDOW_MS,
            "description": "F18: how long the claim window stays open after a roll, in ms.",
            "x-rule": "F18",
        },
        "die_faces": {
            "type": "array", "minItems": 6, "maxItems": 6,
            "items": {"type": "string", "enum": list(SYMBOLS)},
            "allOf": [{"contains": {"const": symbol}} for symbol in SYMBOLS],
            "default": list(DEFAULT_DIE_FACES),
            "description": "F3: the six faces of both dice; each symbol at least once.",
            "x-rule": "F3",
        },
    },
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_players(players: Any) -> None:
    """3 to 6 players, or the game cannot be created (F1)."""
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup("invalid_player_count", rule="F1",
                           detail=f"Bluffaneer takes 3 to 6 players, not {players!r}")


def _bad(detail: str, rule: str | None) -> InvalidSetup:
    return InvalidSetup("invalid_options", rule=rule, detail=detail)


def check_options(options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """The options with defaults filled in; ``InvalidSetup`` for an unknown
    key or a bad value (F1, F3, F8, F18). Idempotent."""
    check_players(players)
    unknown = sorted(set(options) - set(OPTIONS_SCHEMA["properties"]))
    if unknown:
        raise _bad(f"unknown option(s): {', '.join(map(str, unknown))}", "F33")
    out: dict[str, Any] = {}
    if "first_seat" in options:
        seat = options["first_seat"]
        if not _is_int(seat) or not 0 <= seat < players:
            raise _bad(f"first_seat must be a seat 0..{players - 1}, not {seat!r}", "F8")
        out["first_seat"] = seat
    window = options.get("claim_window_ms", DEFAULT_WINDOW_MS)
    if not _is_int(window) or not MIN_WINDOW_MS <= window <= MAX_WINDOW_MS:
        raise _bad(f"claim_window_ms must be an integer {MIN_WINDOW_MS}..{MAX_WINDOW_MS}, "
                   f"not {window!r}", "F18")
    out["claim_window_ms"] = window
    faces = options.get("die_faces", DEFAULT_DIE_FACES)
    if (not isinstance(faces, (list, tuple)) or len(faces) != 6
            or any(not isinstance(f, str) or f not in SYMBOLS for f in faces)
            or set(faces) != set(SYMBOLS)):
        raise _bad("die_faces must list exactly six symbols of "
                   f"{', '.join(SYMBOLS)}, each at least once; got {faces!r}", "F3")
    out["die_faces"] = list(faces)
    return out
