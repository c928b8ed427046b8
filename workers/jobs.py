"""RQ jobs: plain functions whose arguments are ids and ints (STYLE.md §7).

Every job reloads the game and acts only if it is still at the version it
was scheduled for; moves go through the same service path as HTTP, with
``expected_version`` and an idempotency key derived from game, version and
seat, in the worker's own idempotency scope (no client can occupy it) — so a
duplicated, retried or late job never plays twice.
"""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial

from referee import bots, settings
from referee.engine.protocol import RefereeError, default_options
from referee.errors import ApiError
from referee.games import registry
from referee.service import Decided, Game, GameService
from referee.service.scheduling import Change, RqScheduler, queue_connection
from referee.store.clients import connect
from referee.store.redis_store import EventStore
from workers import ending
from workers.asking import bot_move
from workers.ending import tournaments_of

TIMEOUT = {"type": "timeout"}


@lru_cache(maxsize=1)
def service_from_env() -> GameService:
    # short timeouts like the API's: a stalled Redis fails a job fast (RQ retries it), never hangs a worker
    registry.load_all()  # every ruleset and its compiled move checks ready before the first job
    timeout_s = float(settings.text("REFEREE_REDIS_TIMEOUT_S"))
    client = connect(settings.text("REDIS_URL"), timeout_s=timeout_s)
    return GameService(EventStore(client), scheduler=RqScheduler(queue_connection(client, timeout_s=timeout_s)))


def _outcome(submit: Callable[[], object], done: str) -> str:
    """Run one submission; a lost race or a refusal is a harmless outcome."""
    try:
        submit()
        return done
    except ApiError as err:
        return "stale" if err.code in ("version_conflict", "game_over") else err.code
    except RefereeError as err:
        return err.code


def _too_early(svc: GameService, game: Game) -> str:
    """The job ran before its deadline (the RQ scheduler polls): schedule again."""
    svc.schedule(svc.change_of(game), attempt=f"-early{svc.clock()}")
    return "early"


def fire_timeout(game_id: str, svc: GameService | None = None) -> str:
    """Submit the system ``timeout`` if a rules deadline is open and due.

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
            return _too_early(svc, game)
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


def fire_turn_clock(game_id: str, version: int, svc: GameService | None = None) -> str:
    """The turn clock ran out at ``version``: apply the rule-defined default
    move of the lowest awaited seat (recorded as ``by: {"default": "turn_clock"}``);
    in a clocked game, of the seat whose wait ran out first (docs/clocks.md)."""
    svc = svc or service_from_env()
    game = svc.load(game_id)
    if game.version != version or game.status != "active":
        return "stale"
    deadline = game.turn_deadline()
    if deadline is None:
        return "stale"
    if svc.clock() < deadline:
        return _too_early(svc, game)
    # a clocked game's seats whose wait ran out, the soonest first; else the lowest awaited seat
    seats = [seat for due, seat in game.clock_due() if due <= svc.clock()] if "clock" in game.header \
        else sorted(game.ruleset.to_act(game.state))
    for seat in seats:
        if not default_options(game.ruleset, game.state, seat):
            continue
        return _outcome(partial(svc.submit_for_seat, game_id, seat, None, expected_version=version,
                                idempotency_key=f"clock:{version}", by={"default": "turn_clock"}), "defaulted")
    return "nothing_owed"


def give_open_seats(game_id: str, svc: GameService | None = None) -> str:
    """The start deadline fell: the seats nobody claimed go to the game's
    ``start_bot`` (``GameService.give_open_seats``), and the game starts."""
    svc = svc or service_from_env()
    game = svc.load(game_id)
    due = game.start_deadline()
    if due is None:
        return "stale"
    if svc.clock() < due:
        return _too_early(svc, game)
    return f"given {svc.give_open_seats(game_id)}"


#: one job plays at most this many bot moves of a game in a row, for at most
#: this long, then puts the game back at the end of the queue (issue 20);
#: its moves are appended ``RUN_BATCH`` at a time, one round trip each
RUN_MOVES = 200
RUN_S = 0.25
RUN_BATCH = 25
#: a webhook caller's run: each move appended as it comes (a bot's answer
#: takes a while); at most this long on one game, then it goes back in the queue
POOL_RUN_S = 2.0


@dataclass(slots=True)
class Budget:
    """What one job may still play: ``left`` moves until ``until``
    (``time.monotonic``); ``webhooks``: registered bots' turns too (a
    webhook caller's thread), else built-in bots' only. One budget runs on
    from game to game: the games a run's tournament launches are played on
    what the first game left of it (``Held``)."""

    left: int
    until: float
    webhooks: bool = False

    @classmethod
    def of(cls, moves: int, seconds: float, *, webhooks: bool = False) -> Budget:
        return cls(moves, time.monotonic() + seconds, webhooks)

    def spent(self) -> bool:
        """Whether the budget of moves or time is used up."""
        return self.left <= 0 or time.monotonic() >= self.until


def next_turn(game: Game, budget: Budget) -> tuple[int, str] | None:
    """The seat a run plays next on ``game``, and its bot: the lowest
    awaited seat while only bots the run plays are awaited (``Budget.webhooks``)
    and the budget lasts; ``None``: the run ends here. A run is not stopped
    while a rules deadline is open: a claim window is answered in one run, never late."""
    if game.status != "active" or (budget.spent() and game.ruleset.deadline(game.state) is None):
        return None
    kinds = {s: game.bot_of(s) for s in game.ruleset.to_act(game.state, memo=game.memo)}
    if not kinds or not all(kind is not None and (budget.webhooks or kind in bots.BUILT_IN)
                            for kind in kinds.values()):
        return None
    seat = min(kinds)
    return seat, str(kinds[seat])


class Run:
    """The bot moves one job makes on one game in a row: each the bot's
    choice on its seat's view, decided by the service on the state the move
    before it left (``GameService.decide_for_seat``, keyed
    ``bot:<version>:<seat>`` as a single job's would be) and appended
    ``batch`` at a time in one round trip (``GameService.append_decided``):
    all of a batch, or none of it if the game moved on meanwhile. No job is
    scheduled for a turn the run plays; the scheduler hears where the run
    left the game once it ends (``settle``; the watch entry the game had stays
    meanwhile, so a worker killed mid-run is swept up like one killed mid-job)."""

    def __init__(self, svc: GameService, game: Game, batch: int) -> None:
        self.svc = svc
        self.batch = batch
        self.first = game  # as loaded when the run began
        self.start = game  # as last appended
        self.current = game  # as the last move decided left it
        self.pending: list[Decided] = []
        self.played = 0

    def play(self, seat: int, bot: str, budget: Budget) -> str:
        """Play from ``seat``'s turn on while ``next_turn`` finds one:
        ``played``, ``stale`` (the game moved on: another mover took over),
        or the code of the rules' refusal of a move."""
        turn: tuple[int, str] | None = (seat, bot)
        while turn is not None:
            budget.left -= 1
            refused = self.decide(*turn)
            if refused is not None:
                return refused if self.flush() else "stale"
            if len(self.pending) >= self.batch and not self.flush():
                return "stale"
            turn = next_turn(self.current, budget)
        return "played" if self.flush() else "stale"

    def decide(self, seat: int, bot: str) -> str | None:
        """Decide ``seat``'s bot's move on the game as the run left it
        (pending, not written); the code of the rules' refusal, or ``None``."""
        game = self.current
        move, by = bot_move(self.svc, game, seat, bot)
        try:
            decided = self.svc.decide_for_seat(game, seat, move, by, f"bot:{game.version}:{seat}")
        except RefereeError as err:
            return err.code
        self.pending.append(decided)
        self.current = decided.game
        return None

    def flush(self) -> bool:
        """Append what is pending in one step; ``False`` if the game moved on."""
        if not self.pending:
            return True
        appended = self.svc.append_decided(self.start, self.pending)
        if appended is None:
            return False
        # the game as appended: its timing folded over the run's moves (``decide_for_seat`` defers it)
        self.start = self.current = appended
        self.played, self.pending = self.played + len(self.pending), []
        return True

    def change(self) -> Change:
        """Where the run left the game, for the job queue: a deadline may
        have opened at a move the scheduler never heard of (a second job for
        it is harmless)."""
        return self.svc.change_of(self.start, self.first if self.played == 1 else None)


def play_run(svc: GameService, game: Game, seat: int, bot: str, budget: Budget, *, batch: int,
             held: Held | None = None) -> str:
    """A run (``Run``) from ``seat``'s turn on ``game`` as loaded, settled
    where it ends, even if it fails midway (``settle``)."""
    run = Run(svc, game, batch)
    try:
        return run.play(seat, bot, budget)
    finally:
        if run.played:
            settle(svc, run.change(), held)


def play_bot_turn(game_id: str, seat: int, version: int, svc: GameService | None = None) -> str:
    """Play a bot seat's move if the game still awaits it at ``version``.

    A built-in bot's move is followed by the next ones in the same job while
    only built-in bots are awaited (``Run``): each through the same decision
    as any move, with its own expected version, idempotency key and ``by``;
    then the games a tournament launched as the run finished one of its
    games (``Held``). A registered (webhook) bot is asked in the worker's
    pool of callers when it has one (``serve_webhooks``), so one slow bot
    does not hold the worker."""
    svc = svc or service_from_env()
    game = svc.load(game_id)
    if game.version != version or game.status != "active" \
            or seat not in game.ruleset.to_act(game.state, memo=game.memo):
        return "stale"
    bot = game.bot_of(seat)
    if bot is None:
        return "not_a_bot"
    if bot not in bots.BUILT_IN:
        pool = _webhook_pool
        if pool is not None:
            return pool.dispatch(svc, game, seat)
        return _play_once(svc, game, seat, bot)
    budget, held = Budget.of(RUN_MOVES, RUN_S), Held(svc)
    try:
        outcome = play_run(svc, game, seat, bot, budget, batch=RUN_BATCH, held=held)
    except ApiError as err:
        outcome = "stale" if err.code in ("version_conflict", "game_over") else err.code
    finally:
        held.play(budget)
    return outcome


class Held:
    """The games a run's tournament launched, or its pool dealt, as the run
    finished one of its games (``settle``): no job is queued for them
    (``Tournaments(hold=True)``, ``Pool(hold=...)``).
    While the run has budget left, each whose turn is a built-in bot's is
    played on in this very job (``play``), as the job queued for it would
    have played it: so a tournament of built-in bots costs no RQ job per
    game (issue 20), nor does a pool of built-in bots (issue 42). Each is in
    the watch set from its launch, so a worker killed before it plays it
    loses nothing (the sweeper finds it, as any game a dead worker owed a
    turn); whatever is not played here goes to the job queue."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        self.changes: list[Change] = []

    def add(self, game_id: str) -> None:
        """A game launched and held: as this process created it."""
        self.changes.append(self.svc.change_of(self.svc.cached(game_id)))

    def play(self, budget: Budget) -> None:
        """Play the held games on ``budget``, one after the other (a game
        finished meanwhile may launch more); queue the rest."""
        try:
            while self.changes:
                change = self.changes[0]
                turns = change.bot_turns()
                seat = turns[0] if len(turns) == 1 else None
                if budget.spent() or seat is None or change.bots[seat] not in bots.BUILT_IN:
                    break
                game = self.svc.cached(change.game_id)
                if game.version != change.version:
                    break
                play_run(self.svc, game, seat, change.bots[seat], budget, batch=RUN_BATCH, held=self)
                self.changes.pop(0)  # played: its run told the scheduler where it left the game
        finally:  # the rest, and one whose run failed (a second job for a game is harmless)
            while self.changes:
                self.svc.schedule(self.changes.pop(0))


def settle(svc: GameService, change: Change, held: Held | None = None) -> None:
    """Where a run leaves a game: a game it finished has its end's steps done
    here and now (``workers.ending``: a tournament game recorded and the next
    one launched, a rated game's place in its ladder, a pool game's bots freed
    and the next games dealt), not by jobs of their own; the scheduler hears
    of the rest, and enqueues the jobs of any step not done (retried).
    ``held``: the games launched or dealt meanwhile are held there instead
    of queued (the job plays them on)."""
    if not change.active:
        change = ending.finish(svc, change, held.add if held is not None else None)
    svc.schedule(change)


def _play_once(svc: GameService, game: Game, seat: int, bot: str) -> str:
    """One bot move for ``seat`` at the game's version (its default when a webhook bot fails)."""
    move, by = bot_move(svc, game, seat, bot)
    return _outcome(partial(svc.submit_for_seat, game.id, seat, move, expected_version=game.version,
                            idempotency_key=f"bot:{game.version}:{seat}", by=by),
                    "defaulted" if "default" in by else "played")


class WebhookPool:
    """Threads that call webhook bots for one worker process: the job that
    finds a webhook bot awaited hands the call here and returns, so the
    worker goes on with other games' turns while up to ``threads`` calls are
    in flight. Every call keeps the deadline, size limit, URL policy and
    signature of ``referee.bots.webhook.ask``. The thread plays on while
    only bots are awaited (a run: ``Budget(webhooks=True)``, each move
    appended as it comes, ``POOL_RUN_S`` at most), so a game of webhook bots
    costs no job per move. A turn is asked once per process at a time; a
    call lost with its process (``kill -9``) is swept up like any lost job
    (``sweep``)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webhook")
        self._lock = threading.Lock()
        self._asking: set[tuple[str, int, int]] = set()

    def dispatch(self, svc: GameService, game: Game, seat: int) -> str:
        turn = (game.id, game.version, seat)
        with self._lock:
            if turn in self._asking:
                return "asking"
            self._asking.add(turn)
        self._executor.submit(self._call, svc, game, seat, turn)
        return "dispatched"

    def _call(self, svc: GameService, game: Game, seat: int, turn: tuple[str, int, int]) -> None:
        try:
            bot = game.bot_of(seat)
            if bot is not None:  # this bot's turn, then the next bots' as long as only bots are awaited
                play_run(svc, game, seat, bot, Budget.of(RUN_MOVES, POOL_RUN_S, webhooks=True), batch=1)
        except Exception as exc:  # the turn stays owed: a retried job or the sweeper asks again
            print(f"referee worker: webhook turn {turn} failed: {exc!r}", file=sys.stderr, flush=True)
        finally:
            with self._lock:
                self._asking.discard(turn)

    def shutdown(self) -> None:
        """Let the calls in flight finish (each is bounded by the bot deadline)."""
        self._executor.shutdown(wait=True)


_webhook_pool: WebhookPool | None = None


def serve_webhooks(threads: int) -> WebhookPool | None:
    """Give this process a pool of ``threads`` webhook callers (0: call
    inline, one at a time, in the job itself)."""
    global _webhook_pool
    _webhook_pool = WebhookPool(threads) if threads > 0 else None
    return _webhook_pool


def sweep(svc: GameService | None = None, *, stall_ms: int = 10_000) -> int:
    """Re-enqueue the jobs of games a worker owes something for ``stall_ms``
    past its due time (a bot's turn, a deadline that fell): a worker died
    mid-job, or a job was lost. Games waiting on humans, or on a deadline
    still to come, are left alone. Harmless when nothing was lost: every job
    checks the version and keys its move."""
    svc = svc or service_from_env()
    now = svc.clock()
    scheduler = svc.scheduler
    if not isinstance(scheduler, RqScheduler):
        return 0
    revived = 0
    for game_id in scheduler.overdue(now - stall_ms):
        try:
            game = svc.load(game_id)
        except ApiError:
            scheduler.unwatch(game_id)
            continue
        change = svc.change_of(game)
        if not change.active:
            scheduler.unwatch(game_id)
            if svc.archive is not None:  # its worker died as it finished: the archive write may be owed too
                scheduler.archive_end(game_id, now, attempt=f"-sweep{now}")
            if change.rated:  # and its place in the ladder (recording it twice counts it once)
                scheduler.record_rated(game_id, attempt=f"-sweep{now}")
            continue
        scheduler.watch(game_id, now)  # next look after another stall period
        scheduler.game_changed(change, attempt=f"-sweep{now}")
        revived += 1
    return revived + sweep_archive(svc, scheduler, now - stall_ms, now)


def sweep_archive(svc: GameService, scheduler: RqScheduler, before: int, now: int) -> int:
    """Enqueue again the archive write of each finished game not confirmed
    since ``before`` (its job lost, or its retries spent while the database
    was down): a write is an upsert, so a repeat is harmless (issue 41)."""
    if svc.archive is None:
        return 0
    pending = scheduler.archive_pending(before)
    for game_id in pending:
        scheduler.archive_retried(game_id, now)
        scheduler.archive_end(game_id, now, attempt=f"-sweep{now}")
    return len(pending)


def tournament_game_finished(tournament_id: str, game_id: str) -> str:
    """Record a finished tournament game and start the next one."""
    return tournaments_of(service_from_env()).game_finished(tournament_id, game_id)


def start_tournament(tournament_id: str) -> str:
    """Launch a new tournament's first games."""
    return tournaments_of(service_from_env()).start(tournament_id)
