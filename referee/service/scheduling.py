"""What the service hands to RQ after each change of a game (DESIGN.md, Time):
a ``timeout`` job at every newly opened rules deadline, a turn-clock job at
every turn deadline, and a bot-turn job for every awaited bot seat. Games
that wait on a worker are kept in a watch set so a sweeper can re-enqueue
what a dead worker lost.

This is the queue adapter: with ``referee.store``, the only module that
talks to Redis. RQ's queue, its scheduler and the watch set live on the
queue Redis (``RQ_REDIS_URL``): a standalone Redis, since RQ cannot run on
a cluster (its transactions span keys of many slots). By default it is the
games' Redis (``REDIS_URL``) when that is standalone; when that is a
cluster, ``RQ_REDIS_URL`` must be set."""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import redis
from redis.client import Pipeline
from rq import Queue, Retry, SimpleWorker
from rq.job import Job

from referee import settings
from referee.bots import BUILT_IN
from referee.bots.webhook import CallLimits
from referee.engine.protocol import Seat
from referee.service.webhooks import retry_intervals

QUEUE = "referee"
WATCH = "referee:watch"
#: finished games whose archive write is not confirmed yet, scored by when they were last enqueued (ms)
ARCHIVE_PENDING = "referee:archive:pending"
SWEEPER_LOCK = "referee:sweeper"


def queue_connection(games: Any = None, *, timeout_s: float | None = None) -> Any:
    """The queue Redis: ``RQ_REDIS_URL``, else the games' Redis (``games``, a
    client already made, or ``REDIS_URL``) when it is standalone. A cluster
    without ``RQ_REDIS_URL`` stops the process with a message saying so."""
    from referee.store.clients import connect, is_cluster
    url = (settings.get("RQ_REDIS_URL") or "").strip()
    if url:
        found = connect(url, timeout_s=timeout_s) if timeout_s is not None else connect(url)
        if is_cluster(found):
            raise SystemExit(f"RQ_REDIS_URL={url} is a Redis Cluster node: RQ needs a standalone Redis")
        return found
    if games is None:
        games_url = settings.text("REDIS_URL")
        games = connect(games_url, timeout_s=timeout_s) if timeout_s is not None else connect(games_url)
    if is_cluster(games):
        raise SystemExit("REDIS_URL is a Redis Cluster: set RQ_REDIS_URL to a standalone Redis for the job "
                         "queue (RQ cannot run on a cluster)")
    return games


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
    start_deadline: int | None = None  # when the seats still open go to a built-in bot
    #: whether the game may be in the watch set: False when nothing was owed
    #: before this change (nothing to take out: a human's move after a human's)
    watched: bool = True
    #: the game has an end webhook: its end is delivered (``workers.webhooks``)
    callback: bool = False
    #: the referee keeps an archive: a finished game is written to it (``workers.archive``)
    archive: bool = False
    #: the game is rated (``referee.service.rated.is_rated``): its end goes to the ladder (``workers.ladder``)
    rated: bool = False
    #: the ladder whose pool dealt the game (``workers.pool``)
    pool: str | None = None

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
        times = [t for t in (self.open_deadline, self.turn_deadline, self.start_deadline) if t is not None]
        if self.bots:
            times.append(self.at)
        return min(times) if self.active and times else None


#: called after each job a worker performs: the job, what it returned (``None`` if it
#: failed), whether it succeeded and the seconds it took (``referee worker --log-jobs``)
JobDone = Callable[[Job, Any, bool, float], None]


class _Worker(SimpleWorker):
    """RQ's non-forking worker, whose heartbeat (a few times a job: a field
    and two expiries) goes to Redis in one round trip instead of three, and
    which tells ``on_job`` of each job it performed."""

    on_job: JobDone | None = None

    def perform_job(self, job: Job, queue: Queue, execution: Any) -> bool:
        started = time.monotonic()
        ok = bool(super().perform_job(job, queue, execution))
        if self.on_job is not None:
            # RQ keeps the return value on the job it just finished (a bot turn's is never stored)
            self.on_job(job, job._result if ok else None, ok, time.monotonic() - started)
        return ok

    def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
        if pipeline is not None:
            super().heartbeat(timeout, pipeline)
            return
        pipe = self.connection.pipeline(transaction=False)
        super().heartbeat(timeout, pipe)
        pipe.execute()


def _when(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


class RqScheduler:
    """Enqueues plain RQ jobs (``workers.jobs``) on the ``referee`` queue."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis: Any = client  # the queue Redis (``queue_connection``)
        self.queue = Queue(QUEUE, connection=client)

    # -- the watch set: games a worker owes something, scored by when --------------
    def overdue(self, before: int, count: int = 100) -> list[str]:
        """Watched games due before ``before`` (ms), the oldest first."""
        return [raw.decode() for raw in self.redis.zrangebyscore(WATCH, 0, before, start=0, num=count)]

    def depth(self) -> int:
        """Jobs waiting on the queue (not counting those scheduled for later)."""
        return int(self.queue.count)

    def watch(self, game_id: str, due: int) -> None:
        self.redis.zadd(WATCH, {game_id: due})

    def unwatch(self, game_id: str) -> None:
        self.redis.zrem(WATCH, game_id)

    def sweep_turn(self, holder: str, ms: int) -> bool:
        """Whether this process sweeps now: one at a time for ``ms``."""
        return bool(self.redis.set(SWEEPER_LOCK, holder, nx=True, px=ms))

    def game_changed(self, change: Change, *, attempt: str = "") -> None:
        gid, version = change.game_id, change.version
        if change.deadline is not None:
            self.queue.enqueue_at(_when(change.deadline), "workers.jobs.fire_timeout", gid,
                                  job_id=f"timeout-{gid}-{change.deadline}{attempt}", result_ttl=60)
        if change.start_deadline is not None:
            self.queue.enqueue_at(_when(change.start_deadline), "workers.jobs.give_open_seats", gid,
                                  job_id=f"start-{gid}-{version}{attempt}", result_ttl=60)
        if change.turn_deadline is not None and change.turn_deadline <= change.at:
            # already due (a clocked seat whose bank ran out: docs/clocks.md): at once, not at the scheduler's next poll
            self.queue.enqueue("workers.jobs.fire_turn_clock", gid, version,
                               job_id=f"clock-{gid}-{version}{attempt}", result_ttl=60)
        elif change.turn_deadline is not None:
            self.queue.enqueue_at(_when(change.turn_deadline), "workers.jobs.fire_turn_clock", gid, version,
                                  job_id=f"clock-{gid}-{version}{attempt}", result_ttl=60)
        for seat in change.bot_turns():
            # nobody reads a bot turn's outcome: RQ lets it expire after a second (result_ttl=0 would have it
            # deleted at once, which costs RQ about six more round trips a job than the expiry set with the rest)
            self.queue.enqueue("workers.jobs.play_bot_turn", gid, seat, version,
                               job_id=f"bot-{gid}-{version}-{seat}{attempt}", result_ttl=1,
                               job_timeout=60, retry=Retry(max=2))
        if not change.active:
            self._finished(change, attempt)
        due = change.due()
        if due is not None and not attempt:  # the sweeper looks once it is overdue
            self.watch(gid, due)
        elif due is None and change.watched:
            self.unwatch(gid)

    def _finished(self, change: Change, attempt: str) -> None:
        """The jobs a game's end owes: its tournament's next step, its pool's
        (its bots' slots free, their health judged, the next games matched),
        its end webhook, its archive write, its place in the ladder (a rated game)."""
        gid = change.game_id
        if change.tournament is not None:
            self.queue.enqueue("workers.jobs.tournament_game_finished", change.tournament, gid,
                               job_id=f"tgame-{gid}{attempt}", result_ttl=300, retry=Retry(max=3))
        if change.pool is not None:
            self.queue.enqueue("workers.pool.game_finished", change.pool, gid,
                               job_id=f"pgame-{gid}{attempt}", result_ttl=300, retry=Retry(max=3))
        if change.callback:
            self.deliver_end(gid, attempt)
        if change.archive:
            self.archive_end(gid, change.at, attempt)
        if change.rated:
            self.record_rated(gid, attempt)

    def record_rated(self, game_id: str, attempt: str = "") -> None:
        """A finished rated game's place in the ladder (``workers.ladder``): tried
        again after 1, 5 and 30 s when it fails; a repeat records nothing twice."""
        self.queue.enqueue("workers.ladder.record_game", game_id, job_id=f"ladder-{game_id}{attempt}",
                           result_ttl=300, job_timeout=120, retry=Retry(max=3, interval=[1, 5, 30]))

    def deliver_end(self, game_id: str, attempt: str = "") -> None:
        """A finished game's end webhook (``workers.webhooks``): one attempt
        now, one after each interval of ``REFEREE_WEBHOOK_RETRY_S``, then given up."""
        intervals = retry_intervals()
        self.queue.enqueue("workers.webhooks.deliver_game_end", game_id, 1 + len(intervals),
                           job_id=f"hook-{game_id}{attempt}",
                           result_ttl=300, job_timeout=int(CallLimits.from_env(os.environ).timeout_s) + 60,
                           retry=Retry(max=len(intervals), interval=intervals) if intervals else None)

    def archive_end(self, game_id: str, at: int, attempt: str = "") -> None:
        """A finished game's archive write (``workers.archive``): the game is
        entered in the pending set first, so a job lost (a worker killed
        mid-write, its retries spent) is enqueued again by the sweeper until
        one confirms it; RQ tries a failed one again after each interval of
        ``REFEREE_ARCHIVE_RETRY_S``."""
        self.redis.zadd(ARCHIVE_PENDING, {game_id: at}, nx=True)
        intervals = retry_intervals(settings.text("REFEREE_ARCHIVE_RETRY_S"), "REFEREE_ARCHIVE_RETRY_S")
        self.queue.enqueue("workers.archive.archive_game", game_id, job_id=f"archive-{game_id}{attempt}",
                           result_ttl=0, job_timeout=120,  # nobody reads its result: Redis keeps none
                           retry=Retry(max=len(intervals), interval=intervals) if intervals else None)

    def archive_ahead(self, game_id: str, at: int) -> None:
        """The game may finish with the write about to be made: pending from ``at`` (ms)."""
        self.redis.zadd(ARCHIVE_PENDING, {game_id: at}, nx=True)

    def archive_pending(self, before: int, count: int = 100) -> list[str]:
        """Finished games not confirmed in the archive, last enqueued before ``before`` (ms)."""
        return [raw.decode() for raw in self.redis.zrangebyscore(ARCHIVE_PENDING, 0, before, start=0, num=count)]

    def archive_retried(self, game_id: str, at: int) -> None:
        """The sweeper enqueued the game's archive write again at ``at``."""
        self.redis.zadd(ARCHIVE_PENDING, {game_id: at}, xx=True)

    def archive_confirmed(self, game_id: str) -> None:
        """The game's archive write is confirmed: nothing more to enqueue."""
        self.redis.zrem(ARCHIVE_PENDING, game_id)

    def work(self, *, burst: bool = False, with_scheduler: bool = False, on_job: JobDone | None = None) -> None:
        """Work the queue in this process (RQ's non-forking worker) until
        stopped, or, with ``burst``, until it is empty; ``on_job`` hears of
        each job done. RQ's own log says only what went wrong."""
        worker = _Worker([QUEUE], connection=self.redis)
        worker.on_job = on_job
        worker.work(burst=burst, with_scheduler=with_scheduler, logging_level="WARNING")

    def start_tournament(self, tournament_id: str) -> None:
        self.queue.enqueue("workers.jobs.start_tournament", tournament_id,
                           job_id=f"tstart-{tournament_id}", result_ttl=300, retry=Retry(max=3))

    def match_pool(self, ladder: str) -> None:
        """A ladder's pool changed (a bot put in): match its waiting bots now, not at the next tick."""
        self.queue.enqueue("workers.pool.match", ladder, result_ttl=60)
