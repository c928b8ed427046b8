"""The ladder's job (issue 42, ``referee.ladder.service``): fold one
finished rated game into its ladder. Enqueued at the game's end
(``RqScheduler._finished``) unless the worker's run that finished it
recorded it (``workers.ending``), tried again when it fails (a ladder
another worker held too long, Redis gone a moment); a repeat records
nothing twice."""
from __future__ import annotations

from referee.ladder.service import Ladders
from referee.service import GameService
from workers import jobs


def record_game(game_id: str, svc: GameService | None = None) -> str:
    """Record ``game_id`` in its ladder (``Ladders.record``'s outcome)."""
    return Ladders(svc or jobs.service_from_env()).record(game_id)
