"""Who a token proves to be, as the rate limiter asks it
(``referee.http.ratelimit.Credentials``): a seat's token hash, a bot's
secret, a tournament's cancel token, read through the service. The limiter
itself reads no store (an import contract in ``pyproject.toml``)."""
from __future__ import annotations

import json

from referee.play.tournaments import Tournaments
from referee.service import GameService
from referee.store.clients import REDIS_ERROR


class ServiceCredentials:
    """``Credentials`` over one process's service."""

    unavailable: tuple[type[Exception], ...] = (REDIS_ERROR,)

    def __init__(self, service: GameService) -> None:
        self.service = service

    def seat_token_hashes(self, game_id: str) -> tuple[str, ...]:
        meta = self.service.store.meta(game_id)
        return tuple(json.loads(meta["tokens"])) if meta and "tokens" in meta else ()

    def bot_secret(self, bot_id: str) -> str | None:
        found = self.service.bots.get(bot_id)
        return None if found is None else str(found[1])

    def tournament_token_matches(self, tournament_id: str, token: str) -> bool:
        return Tournaments(self.service, self.service.store.tournaments).cancel_token_matches(tournament_id, token)
