"""RQ jobs: plain functions whose arguments are ids and ints (STYLE.md §7).

Every job reloads the game and acts only if it is still at the version it
was scheduled for; moves go through the same service path as HTTP, with
``expected_version`` and an idempotency key derived from game, version and
seat, in the worker's own idempotency scope (no client can occupy it) — so a
duplicated, retried or late job never plays twice.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import lru_cache, partial

from referee import bots, settings
from referee.bots.webhook import BotFailure, CallLimits, UrlPolicy, ask, sign
from referee.engine import bot_seed
from referee.engine.protocol import Json, RefereeError, default_options
from referee.errors import ApiError
from referee.games import registry
from referee.service import Game, GameService, Turn
from referee.service.metrics import BOT_CALLS
from referee.service.scheduling import Change, RqScheduler, queue_connection
from referee.store.clients import connect
from referee.store.redis_store import EventStore

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
    if svc.scheduler is not None:
        svc.scheduler.game_changed(svc.change_of(game), attempt=f"-early{svc.clock()}")
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
    move of the lowest awaited seat (recorded as ``by: {"clock": ...}``)."""
    svc = svc or service_from_env()
    game = svc.load(game_id)
    if game.version != version or game.status != "active":
        return "stale"
    deadline = game.turn_deadline()
    if deadline is None:
        return "stale"
    if svc.clock() < deadline:
        return _too_early(svc, game)
    for seat in sorted(game.ruleset.to_act(game.state)):
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


def _bot_move(svc: GameService, game: Game, seat: int, bot: str) -> tuple[Json | None, Json]:
    """``(move, by)``: the bot's choice, or ``None`` — the prompt's default —
    when a registered bot fails, answers what fails the move boundary, or
    has had its attempts at this turn (``_registered_move``)."""
    if bot == "random":  # uniform over the legal moves: the rest of the view is not read
        legal = list(game.ruleset.legal_moves(game.state, seat, memo=game.memo))
        seed = bot_seed(game.seed, seat, game.version, mac=game.mac)
        return bots.choose(bot, game.ruleset.name, {}, legal, seed=seed), {"bot": bot}
    view = svc.view_of(game, seat)
    if bot in bots.BUILT_IN:
        # a stream from the game's secret seed: no opponent can predict it; the
        # audit re-derives it once the seed is revealed
        seed = bot_seed(game.seed, seat, game.version, mac=game.mac)
        BOT_CALLS.labels(kind="built-in", outcome="ok").inc()
        return bots.choose(bot, game.ruleset.name, view, view["legal_moves"], seed=seed), {"bot": bot}
    move, cause, kind = _registered_move(svc, game, seat, bot, view)
    BOT_CALLS.labels(kind=kind, outcome=cause or "ok").inc()
    if cause is not None:
        return None, {"bot": bot, "default": cause}
    return move, {"bot": bot}


def _registered_move(svc: GameService, game: Game, seat: int, bot: str,
                     view: Json) -> tuple[Json | None, str | None, str]:
    """``(move, None, kind)`` or ``(None, cause, kind)``: a registered bot's
    answer through the move boundary (``bots.check_answer``), or why its
    default is played. Each ask is counted per turn (game, version, seat);
    past ``bots.ATTEMPTS`` the bot is not asked again (``attempts_spent``):
    a job that asked and then failed (its process killed, Redis down, the
    rules refusing) is retried by RQ and the sweeper, never forever."""
    found = svc.bots.get(bot, touch=True)  # called: in use, it does not expire
    if found is None:
        return None, "unknown_bot", "webhook"
    record, secret = found
    kind = "webhook" if record.get("url") else "outbound"
    delivery, limits = f"{game.id}:{game.version}:{seat}", CallLimits.from_env(os.environ)
    if svc.bots.count_attempt(bot, delivery) > bots.ATTEMPTS:
        return None, bots.ATTEMPTS_SPENT, kind
    legal = view["legal_moves"]
    payload = {"game": game.id, "ruleset": game.ruleset.name, "seat": seat, "version": game.version,
               "view": view, "legal_moves": legal, "deadline": view.get("turn_deadline")}
    try:
        if kind == "webhook":
            answer = ask(record["url"], secret, payload, delivery=delivery, policy=UrlPolicy.from_env(os.environ),
                         limits=limits)
        else:
            answer = ask_outbound(svc, bot, secret, payload, delivery=delivery, limits=limits)
    except BotFailure as failure:
        return None, failure.cause, kind
    move, cause = bots.check_answer(game.ruleset, answer, legal)
    return move, cause, kind


def ask_outbound(svc: GameService, bot: str, secret: str, payload: Json, *, delivery: str,
                 limits: CallLimits) -> Json:
    """An outbound bot's move: the turn is put on the bot's stream (what its
    connection, ``GET /v1/bots/{id}/turns``, reads) with the webhook's payload
    and signature, then its answer (``POST /v1/bots/{id}/turns/{delivery}``)
    is waited for until the same deadline as a webhook call's; ``BotFailure``
    as for a webhook (``timeout``, ``bad_answer``, ``response_too_large``)."""
    answer_by = svc.clock() + int(limits.timeout_s * 1000)
    ts = int(time.time())
    body = json.dumps({**payload, "delivery": delivery, "answer_by": answer_by}, separators=(",", ":"))
    # the turn's text as a webhook's body, signed as a webhook's: the bot checks those very bytes
    turn = json.dumps({"delivery": delivery, "timestamp": ts, "signature": sign(secret, ts, body.encode()),
                       "body": body}, separators=(",", ":")).encode()
    svc.bots.offer_turn(bot, delivery, turn, int(limits.timeout_s * 1000))
    answer = svc.bots.wait_answer(bot, delivery, limits.timeout_s)
    if answer is None:
        raise BotFailure("timeout")
    if len(answer) > limits.max_response_bytes:
        raise BotFailure("response_too_large")
    try:
        move = json.loads(answer)
    except ValueError:
        raise BotFailure("bad_answer") from None
    if not isinstance(move, dict):
        raise BotFailure("bad_answer")
    return move


#: one job plays at most this many bot moves of a game in a row, for at most
#: this long, then puts the game back at the end of the queue (issue 20);
#: its moves are appended ``RUN_BATCH`` at a time, one round trip each
RUN_MOVES = 200
RUN_S = 0.25
RUN_BATCH = 25
#: a webhook caller's run: each move appended as it comes (a bot's answer
#: takes a while); at most this long on one game, then it goes back in the queue
POOL_RUN_S = 2.0


class _Run:
    """The turns one job plays in a row (``GameService.play_run``): the next
    awaited seat while the referee awaits only built-in bots (and, in a
    webhook caller's thread, registered bots too: ``webhooks``), until the
    budget of moves or time is spent. Each is the bot's choice on its own
    seat's view, keyed ``bot:<version>:<seat>`` as a single job's would be."""

    def __init__(self, svc: GameService, seat: int, bot: str, moves: int, seconds: float, *,
                 webhooks: bool = False) -> None:
        self.svc = svc
        self.first: tuple[int, str] | None = (seat, bot)
        self.left = moves
        self.until = time.monotonic() + seconds
        self.webhooks = webhooks

    def spent(self) -> bool:
        """Whether the budget of moves or time is used up."""
        return self.left <= 0 or time.monotonic() >= self.until

    def then(self, seat: int, bot: str) -> _Run:
        """A run of another game, starting with ``seat``'s turn, on what is left of this run's budget."""
        return _Run(self.svc, seat, bot, self.left, self.until - time.monotonic(), webhooks=self.webhooks)

    def __call__(self, game: Game) -> Turn | None:
        if self.first is not None:
            seat, bot = self.first
            self.first = None
        else:
            # not stopped while a rules deadline is open: a claim window is answered in one run, never late
            if game.status != "active" or (self.spent() and game.ruleset.deadline(game.state) is None):
                return None
            kinds = {s: game.bot_of(s) for s in game.ruleset.to_act(game.state, memo=game.memo)}
            if not kinds or not all(kind is not None and (self.webhooks or kind in bots.BUILT_IN)
                                    for kind in kinds.values()):
                return None
            seat = min(kinds)
            bot = str(kinds[seat])
        self.left -= 1
        move, by = _bot_move(self.svc, game, seat, bot)
        return seat, move, by, f"bot:{game.version}:{seat}"


def play_bot_turn(game_id: str, seat: int, version: int, svc: GameService | None = None) -> str:
    """Play a bot seat's move if the game still awaits it at ``version``.

    A built-in bot's move is followed by the next ones in the same job while
    only built-in bots are awaited (``_Run``, ``GameService.play_run``): each
    through the same decision as any move, with its own expected version,
    idempotency key and ``by``. A registered (webhook) bot is asked in the
    worker's pool of callers when it has one (``serve_webhooks``), so one
    slow bot does not hold the worker."""
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
    run, held = _Run(svc, seat, bot, RUN_MOVES, RUN_S), _Held(svc)
    try:
        outcome, _played = svc.play_run(game, run, batch=RUN_BATCH, settle=partial(_settle, svc, held=held))
    except ApiError as err:
        outcome = "stale" if err.code in ("version_conflict", "game_over") else err.code
    finally:
        held.play(run)
    return outcome


class _Held:
    """The games a run's tournament launched as the run finished one of its
    games (``_settle``): no job is queued for them yet. While the run has
    budget left, each whose turn is a built-in bot's is played on in this
    very job (``play``), as the job queued for it would have played it: so
    a tournament of built-in bots costs no RQ job per game (issue 20). Each
    is put in the watch set as it is launched, so a worker killed before it
    plays it loses nothing (the sweeper finds it, as any game a dead worker
    owed a turn); whatever is not played here goes to the job queue."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        self.changes: list[Change] = []

    def __call__(self, change: Change) -> None:
        """A game launched (``Tournaments(launched=…)``): held, and watched."""
        due = change.due()
        watch = getattr(self.svc.scheduler, "watch", None)
        if due is not None and watch is not None:
            watch(change.game_id, due)
        self.changes.append(change)

    def play(self, run: _Run) -> None:
        """Play the held games on ``run``'s budget, one after the other (a
        game finished meanwhile may launch more); queue the rest."""
        try:
            while self.changes:
                change = self.changes[0]
                turns = change.bot_turns()
                seat = turns[0] if len(turns) == 1 else None
                if run.spent() or seat is None or change.bots[seat] not in bots.BUILT_IN:
                    break
                game = self.svc.cached(change.game_id)
                if game.version != change.version:
                    break
                run = run.then(seat, change.bots[seat])
                self.svc.play_run(game, run, batch=RUN_BATCH, settle=partial(_settle, self.svc, held=self))
                self.changes.pop(0)  # played: its run told the scheduler where it left the game
        finally:  # the rest, and one whose run failed (a second job for a game is harmless)
            while self.changes and self.svc.scheduler is not None:
                self.svc.scheduler.game_changed(self.changes.pop(0))


def _settle(svc: GameService, change: Change, *, held: Callable[[Change], None] | None = None) -> None:
    """Where a run leaves a game: a tournament game it finished is recorded
    (and the next one launched) here and now, not by a job of its own; the
    scheduler hears of the rest. If recording fails, the job does it (retried).
    ``held``: who hears of the games launched meanwhile instead of the job
    queue (``_Held``: the job plays them on)."""
    if not change.active and change.tournament is not None:
        from referee.play.tournaments import Tournaments
        try:
            Tournaments(svc, launched=held).game_finished(change.tournament, change.game_id)
            change = replace(change, tournament=None)
        except Exception as exc:  # left to tournament_game_finished, which RQ retries
            print(f"referee worker: recording {change.game_id} in {change.tournament} failed: {exc!r}",
                  file=sys.stderr, flush=True)
    if svc.scheduler is not None:
        svc.scheduler.game_changed(change)


def _play_once(svc: GameService, game: Game, seat: int, bot: str) -> str:
    """One bot move for ``seat`` at the game's version (its default when a webhook bot fails)."""
    move, by = _bot_move(svc, game, seat, bot)
    return _outcome(partial(svc.submit_for_seat, game.id, seat, move, expected_version=game.version,
                            idempotency_key=f"bot:{game.version}:{seat}", by=by),
                    "defaulted" if "default" in by else "played")


class WebhookPool:
    """Threads that call webhook bots for one worker process: the job that
    finds a webhook bot awaited hands the call here and returns, so the
    worker goes on with other games' turns while up to ``threads`` calls are
    in flight. Every call keeps the deadline, size limit, URL policy and
    signature of ``referee.bots.webhook.ask``. The thread plays on while
    only bots are awaited (a run: ``_Run(webhooks=True)``, each move
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
                svc.play_run(game, _Run(svc, seat, bot, RUN_MOVES, POOL_RUN_S, webhooks=True), batch=1,
                             settle=partial(_settle, svc))
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
            continue
        scheduler.watch(game_id, now)  # next look after another stall period
        scheduler.game_changed(change, attempt=f"-sweep{now}")
        revived += 1
    return revived


def tournament_game_finished(tournament_id: str, game_id: str) -> str:
    """Record a finished tournament game and start the next one."""
    from referee.play.tournaments import Tournaments
    return Tournaments(service_from_env()).game_finished(tournament_id, game_id)


def start_tournament(tournament_id: str) -> str:
    from referee.play.tournaments import Tournaments
    return Tournaments(service_from_env()).start(tournament_id)
