"""RQ jobs of the ladders' pools (issue 42 item 3; ``referee.ladder.pool``):
plain functions whose arguments are ids (STYLE.md §7).

The pool keeps playing because three things match it: a bot put in
(``match``, queued by the API), a pool game over (where a worker's run
finishes it, ``workers.ending``; else ``game_finished``, queued by the
scheduler at its end; then matching at once) and the worker's
periodic tick (``tick``, from the sweeper thread, one worker at a time): a
lost job costs at most a tick's wait, and the tick also settles the games
whose end was never heard (their step lost) and those never dealt (a worker
died between booking and dealing). Each trigger fills the pool (``Pool.fill``:
matching rounds until one deals nothing), so a bot's free slots fill at once.
Every booking is atomic: two workers matching at once never book a bot twice."""
from __future__ import annotations

import sys

import workers.jobs as jobs
from referee.service import GameService
from workers.ending import pool_of, pool_step, settle_pool_game


def match(ladder: str, svc: GameService | None = None) -> str:
    """Deal the games ``ladder``'s waiting bots make now."""
    return f"dealt {len(pool_of(svc or jobs.service_from_env()).fill(ladder))}"


def game_finished(ladder: str, game_id: str, svc: GameService | None = None) -> str:
    """A pool game is over: its bots' slots free, their health judged (a bot
    timing out or answering invalidly paused), then the next games matched
    (a run that finishes a pool game does this itself, ``workers.ending``:
    this job is queued when it could not)."""
    outcome, dealt = pool_step(svc or jobs.service_from_env(), ladder, game_id)
    return f"{outcome}; dealt {len(dealt)}"


def tick(svc: GameService | None = None) -> int:
    """Every pool: the games whose end was not heard settled, then the waiting bots matched; the games dealt."""
    svc = svc or jobs.service_from_env()
    pool = pool_of(svc)
    dealt = 0
    for ladder in pool.ladders():
        try:
            for game_id, why in pool.overdue(ladder):
                settle_pool_game(svc, pool, ladder, game_id, gone=why == "gone")
            dealt += len(pool.fill(ladder))
        except Exception as exc:  # one pool's failure must not stop the others: next tick
            print(f"referee worker: the {ladder} pool's tick failed: {exc!r}", file=sys.stderr, flush=True)
    return dealt
