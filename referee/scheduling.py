"""What the service hands to RQ after each change of a game (DESIGN.md, Time):
a ``timeout`` job at every newly opened rules deadline, a turn-clock job at
every turn deadline, and a bot-turn job for every awaited bot seat. Games
that wait on a worker are kept in a watch set so a sweeper can re-enqueue
what a dead worker lost."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

import redis
from rq import Queue, Retry

from referee.bots import BUILT_IN
from referee.engine.protocol import Seat

QUEUE = "referee"
WATCH = "referee:watch"


@dataclass(frozen=True, slots=True)
class Change:
    """A game as it is after an accepted move (or at creation)."""

    game_id: str
    version: int
    active: bool
    at: int  # receipt time of the change, ms
    to_act: frozenset[Seat] = frozenset()
    bots: dict[Seat, str] = field(default_factory=dict)  # awaited seats played by a bot
    deadline: int | None = None  # the rules' deadline, when newly opened
    turn_deadline: int | None = None  # the turn clock's deadline
    tournament: str | None = None
    open_deadline: int | None = None  # the rules' deadline while open, new or not
    #: whether the game may be in the watch set: False when nothing was owed
    #: before this change (nothing to take out: a human's move after a human's)
    watched: bool = True

    def bot_turns(self) -> list[Seat]:
        """The bot seats that get a job: the lowest alone when every awaited
        seat is a built-in bot (its job plays the others in a row,
        ``workers.jobs``; so the seats move in the same order however many
        workers there are), else every awaited bot seat."""
        if self.to_act and len(self.bots) == len(self.to_act) and all(b in BUILT_IN for b in self.bots.values()):
            return [min(self.bots)]
        return sorted(self.bots)

    def due(self) -> int | None:
        """When a worker owes this game something: a bot's turn at once, a
        deadline when it falls. ``None``: nothing (humans to move, no clock)."""
        times = [t for t in (self.open_deadline, self.turn_deadline) if t is not None]
        if self.bots:
            times.append(self.at)
        return min(times) if self.active and times else None


def _when(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


class RqScheduler:
    """Enqueues plain RQ jobs (``workers.jobs``) on the ``referee`` queue."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self.queue = Queue(QUEUE, connection=client)

    def game_changed(self, change: Change, *, attempt: str = "") -> None:
        gid, version = change.game_id, change.version
        if change.deadline is not None:
            self.queue.enqueue_at(_when(change.deadline), "workers.jobs.fire_timeout", gid,
                                  job_id=f"timeout-{gid}-{change.deadline}{attempt}", result_ttl=60)
        if change.turn_deadline is not None:
            self.queue.enqueue_at(_when(change.turn_deadline), "workers.jobs.fire_turn_clock", gid, version,
                                  job_id=f"clock-{gid}-{version}{attempt}", result_ttl=60)
        for seat in change.bot_turns():
            self.queue.enqueue("workers.jobs.play_bot_turn", gid, seat, version,
                               job_id=f"bot-{gid}-{version}-{seat}{attempt}", result_ttl=60,
                               job_timeout=60, retry=Retry(max=2))
        if not change.active and change.tournament is not None:
            self.queue.enqueue("workers.jobs.tournament_game_finished", change.tournament, gid,
                               job_id=f"tgame-{gid}{attempt}", result_ttl=300, retry=Retry(max=3))
        due = change.due()
        if due is not None and not attempt:  # the sweeper looks once it is overdue
            self.redis.zadd(WATCH, {gid: due})
        elif due is None and change.watched:
            self.redis.zrem(WATCH, gid)

    def start_tournament(self, tournament_id: str) -> None:
        self.queue.enqueue("workers.jobs.start_tournament", tournament_id,
                           job_id=f"tstart-{tournament_id}", result_ttl=300, retry=Retry(max=3))
