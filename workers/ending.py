"""A game's end, where a worker's run finishes it (issue 42 item 6): the
steps that would each be an RQ job of their own (``RqScheduler._finished``)
done there and then, by the process that holds the finished game — its
tournament's record and next launches, its place in its ladder (a rated
game), its pool's step (its bots' slots free, their health judged, the next
games matched) — and the games launched or dealt meanwhile handed to
``hold`` (the run plays them on, ``workers.jobs.Held``) instead of queued.
A step that fails, or a ladder another process is folding right now, is
left to its job, which the scheduler enqueues as before (retried): every
step done twice counts once, so nothing is lost or counted twice."""
from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace

from referee.bots import BUILT_IN
from referee.ladder.pool import Pool
from referee.ladder.service import Ladders
from referee.play.tournaments import Tournaments
from referee.service import Game, GameService
from referee.service.scheduling import Change
from referee.store.ladder import LadderBusy

#: a game launched or dealt for the caller to play on (``workers.jobs.Held.add``)
Hold = Callable[[str], None]


def tournaments_of(svc: GameService, *, hold: bool = False) -> Tournaments:
    """The tournaments of ``svc``'s games, kept in its store's tournament keys."""
    return Tournaments(svc, svc.store.tournaments, hold=hold)


def pool_of(svc: GameService, hold: Hold | None = None) -> Pool:
    """The pools of ``svc``'s games, matching by the ladders' ratings; the games dealt handed to ``hold``."""
    return Pool(svc, Ladders(svc).skills, hold=hold)


def settle_pool_game(svc: GameService, pool: Pool, ladder: str, game_id: str, *, gone: bool) -> str:
    """Release a pool game over (its seats' moves, timeouts and invalid answers: ``Loader.timing``), or one gone."""
    if gone:
        return pool.finished(ladder, game_id, None, [])
    game = finished_game(svc, game_id)
    if game.status == "active":
        return "not_finished"
    seats = [seat["bot"] for seat in game.header["seats"]]
    if all(bot is None or bot in BUILT_IN for bot in seats):  # no registered bot's health to judge: no log read
        return pool.finished(ladder, game_id, None, seats)
    return pool.finished(ladder, game_id, svc.loader.timing(game).latencies(), seats)


def finished_game(svc: GameService, game_id: str) -> Game:
    """The game as this process holds it when that copy is over (a finished game never changes), else loaded."""
    game = svc.cached(game_id)
    return game if game.status != "active" else svc.load(game_id)


def finish(svc: GameService, change: Change, hold: Hold | None = None) -> Change:
    """The steps of a finished game's end done here: ``change`` without
    those done (the scheduler enqueues the others' jobs). In order: its
    tournament's, its ladder's (so its pool matches on the ratings it
    moved), its pool's."""
    if change.active:
        return change
    if change.tournament is not None and _done(change, "recording it in " + change.tournament,
                                               lambda: _record_tournament(svc, change, hold)):
        change = replace(change, tournament=None)
    if change.rated and _done(change, "its ladder's record", lambda: _record_rated(svc, change.game_id)):
        change = replace(change, rated=False)
    pool = change.pool
    if pool is not None and _done(change, f"the {pool} pool's step",
                                  lambda: _pool_step(svc, pool, change.game_id, hold)):
        change = replace(change, pool=None)
    return change


def _done(change: Change, what: str, step: Callable[[], bool]) -> bool:
    """Run one step: whether it is done (else its job does it)."""
    try:
        return step()
    except Exception as exc:  # left to its job, which RQ retries
        print(f"referee worker: {what} for {change.game_id} failed: {exc!r}", file=sys.stderr, flush=True)
        return False


def _record_tournament(svc: GameService, change: Change, hold: Hold | None) -> bool:
    """Record a finished tournament game and launch the next ones, handed to
    ``hold`` (even those launched before a failure) when given."""
    tournaments = tournaments_of(svc, hold=hold is not None)
    try:
        tournaments.game_finished(str(change.tournament), change.game_id)
    finally:
        if hold is not None:
            for launched in tournaments.launched:
                hold(launched)
    return True


def _record_rated(svc: GameService, game_id: str) -> bool:
    """The game's place in its ladder, unless another process holds the
    ladder's lock right now (its entry is in the ledger then: the job folds it)."""
    try:
        Ladders(svc).record_game(finished_game(svc, game_id), wait_s=0.0)
    except LadderBusy:
        return False
    return True


def pool_step(svc: GameService, ladder: str, game_id: str, hold: Hold | None = None) -> tuple[str, list[str]]:
    """A pool game over: its bots' slots free, their health judged, then the
    next games matched (handed to ``hold`` when given): how it was settled,
    and the games dealt (``workers.pool.game_finished``, or a run that finished it)."""
    pool = pool_of(svc, hold)
    return settle_pool_game(svc, pool, ladder, game_id, gone=False), pool.fill(ladder)


def _pool_step(svc: GameService, ladder: str, game_id: str, hold: Hold | None) -> bool:
    """``pool_step`` as one of ``finish``'s steps."""
    pool_step(svc, ladder, game_id, hold)
    return True
