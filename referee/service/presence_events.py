"""Who plays each seat taken over while its person is away, as a game's
events leave it (``seat_taken_over {seat, by}``, ``seat_returned {seat}``):
folded by the loader into ``Game.away``."""
from __future__ import annotations

from collections.abc import Iterable

from referee.engine.platform import SEAT_RETURNED, SEAT_TAKEN_OVER
from referee.engine.protocol import Json
from referee.service.game import Game


def away_after(game: Game, envelopes: Iterable[Json]) -> tuple[str | None, ...]:
    """``game.away`` after ``envelopes`` (its events after the version it was folded to)."""
    away: list[str | None] = list(game.away) if game.away else [None] * game.players
    changed = False
    for env in envelopes:
        if env["type"] == SEAT_TAKEN_OVER:
            away[env["data"]["seat"]] = str(env["data"]["by"])
            changed = True
        elif env["type"] == SEAT_RETURNED:
            away[env["data"]["seat"]] = None
            changed = True
    return tuple(away) if changed or game.away else ()
