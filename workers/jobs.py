"""RQ jobs: plain functions whose arguments are ids and ints (STYLE.md §7)."""
from __future__ import annotations

import os
from functools import lru_cache

import redis

from referee.errors import ApiError
from referee.games.base import RefereeError
from referee.scheduling import RqScheduler
from referee.service import GameService
from referee.store import EventStore

TIMEOUT = {"type": "timeout"}


@lru_cache(maxsize=1)
def service_from_env() -> GameService:
    client = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    return GameService(EventStore(client), scheduler=RqScheduler(client))


def fire_timeout(game_id: str, svc: GameService | None = None) -> str:
    """Submit the system ``timeout`` if a deadline is still open and due.

    Checked against the game's version *now*, not when the job was scheduled:
    claims or passes may have come in since. A late or duplicate job is
    refused by the rules and changes nothing."""
    svc = svc or service_from_env()
    for _ in range(5):
        game = svc.load(game_id)
        if game.status != "active":
            return "over"
        deadline = game.ruleset.deadline(game.state)
        if deadline is None:
            return "stale"
        if svc.clock() < deadline:
            svc.scheduler and svc.scheduler.game_changed(game_id, game.version, deadline, set())
            return "early"
        try:
            svc.submit_system(game_id, TIMEOUT, expected_version=game.version,
                              idempotency_key=f"timeout:{game.version}")
            return "fired"
        except ApiError as err:
            if err.code != "version_conflict":
                return err.code
        except RefereeError as err:
            return err.code
    return "busy"
