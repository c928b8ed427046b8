"""RQ jobs: plain functions whose arguments are ids and ints (STYLE.md §7).

Every job reloads the game and acts only if it is still at the version it
was scheduled for; moves go through the same service path as HTTP, with
``expected_version`` and an idempotency key derived from game, version and
seat, in the worker's own idempotency scope (no client can occupy it) — so a
duplicated, retried or late job never plays twice.
"""
from __future__ import annotations

import os
from functools import lru_cache, partial
from typing import Any, Callable


from referee import bots
from referee.bots.webhook import BotFailure, CallLimits, UrlPolicy, ask
from referee.engine import bot_seed
from referee.errors import ApiError
from referee.engine.protocol import Json, RefereeError, default_options
from referee.scheduling import WATCH, RqScheduler
from referee.service import Game, GameService
from referee.store import EventStore
from referee.store.clients import DEFAULT_TIMEOUT_S, connect

TIMEOUT = {"type": "timeout"}


@lru_cache(maxsize=1)
def service_from_env() -> GameService:
    # short timeouts like the API's: a stalled Redis fails a job fast (RQ retries it), never hangs a worker
    client = connect(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                     timeout_s=float(os.environ.get("REFEREE_REDIS_TIMEOUT_S", DEFAULT_TIMEOUT_S)))
    return GameService(EventStore(client), scheduler=RqScheduler(client))


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


def _bot_move(svc: GameService, game: Game, seat: int, bot: str) -> tuple[Json | None, Json]:
    """``(move, by)``: the bot's choice, or ``None`` — the prompt's default —
    when a webhook bot fails or answers a move that is not legal."""
    view = svc.view_of(game, seat)
    legal = view["legal_moves"]
    if bot in bots.BUILT_IN:
        # a stream from the game's secret seed: no opponent can predict it; the
        # audit re-derives it once the seed is revealed
        seed = bot_seed(game.seed, seat, game.version)
        return bots.choose(bot, game.ruleset.name, view, legal, seed=seed), {"bot": bot}
    found = svc.bots.get(bot)
    cause = "unknown_bot"
    if found is not None:
        record, secret = found
        payload = {"game": game.id, "ruleset": game.ruleset.name, "seat": seat, "version": game.version,
                   "view": view, "legal_moves": legal, "deadline": view.get("turn_deadline")}
        try:
            move = ask(record["url"], secret, payload, delivery=f"{game.id}:{game.version}:{seat}",
                       policy=UrlPolicy.from_env(os.environ), limits=CallLimits.from_env(os.environ))
            if move in legal:
                return move, {"bot": bot}
            cause = "illegal_move"
        except BotFailure as failure:
            cause = failure.cause
    return None, {"bot": bot, "default": cause}


def play_bot_turn(game_id: str, seat: int, version: int, svc: GameService | None = None) -> str:
    """Play one move for a bot seat if the game still awaits it at ``version``."""
    svc = svc or service_from_env()
    game = svc.load(game_id)
    if game.version != version or game.status != "active" or seat not in game.ruleset.to_act(game.state):
        return "stale"
    bot = game.bot_of(seat)
    if bot is None:
        return "not_a_bot"
    move, by = _bot_move(svc, game, seat, bot)
    return _outcome(partial(svc.submit_for_seat, game_id, seat, move, expected_version=version,
                            idempotency_key=f"bot:{version}:{seat}", by=by),
                    "defaulted" if "default" in by else "played")


def sweep(svc: GameService | None = None, *, stall_ms: int = 10_000) -> int:
    """Re-enqueue the jobs of games a worker owes something for ``stall_ms``
    past its due time (a bot's turn, a deadline that fell): a worker died
    mid-job, or a job was lost. Games waiting on humans, or on a deadline
    still to come, are left alone. Harmless when nothing was lost: every job
    checks the version and keys its move."""
    svc = svc or service_from_env()
    now = svc.clock()
    client: Any = svc.store.redis
    revived = 0
    for raw in client.zrangebyscore(WATCH, 0, now - stall_ms, start=0, num=100):
        game_id = raw.decode()
        try:
            game = svc.load(game_id)
        except ApiError:
            client.zrem(WATCH, game_id)
            continue
        change = svc.change_of(game)
        if svc.scheduler is None or not change.active:
            client.zrem(WATCH, game_id)
            continue
        client.zadd(WATCH, {game_id: now})  # next look after another stall period
        svc.scheduler.game_changed(change, attempt=f"-sweep{now}")
        revived += 1
    return revived


def tournament_game_finished(tournament_id: str, game_id: str) -> str:
    """Record a finished tournament game and start the next one."""
    from referee.tournaments import Tournaments
    return Tournaments(service_from_env()).game_finished(tournament_id, game_id)


def start_tournament(tournament_id: str) -> str:
    from referee.tournaments import Tournaments
    return Tournaments(service_from_env()).start(tournament_id)
