"""What the service hands to RQ after each accepted move: a ``timeout`` job
at every newly opened deadline (DESIGN.md, Time)."""
from __future__ import annotations

from datetime import datetime, timezone

import redis
from rq import Queue

from referee.games.base import Seat

QUEUE = "referee"


class RqScheduler:
    """Enqueues plain RQ jobs (``workers.jobs``) on the ``referee`` queue."""

    def __init__(self, client: redis.Redis) -> None:
        self.queue = Queue(QUEUE, connection=client)

    def game_changed(self, game_id: str, version: int, deadline: int | None, to_act: set[Seat]) -> None:
        if deadline is not None:
            at = datetime.fromtimestamp(deadline / 1000, tz=timezone.utc)
            self.queue.enqueue_at(at, "workers.jobs.fire_timeout", game_id,
                                  job_id=f"timeout-{game_id}-{deadline}", result_ttl=60)
