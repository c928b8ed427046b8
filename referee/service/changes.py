"""Changes and notifications: what the job queue must know of a game after
each change (``change_of``), told to the scheduler (``Changes.notify``), and
the watch set the sweeper reads, entered before a write that makes a worker
owe the game something (``Changes.watch_ahead``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from referee.service.game import Game
from referee.service.metrics import GAMES_FINISHED
from referee.service.rated import is_rated
from referee.service.scheduling import Change


class Scheduler(Protocol):
    """What the service asks of the job queue after each change of a game."""

    def game_changed(self, change: Change, *, attempt: str = "") -> None: ...

    def start_tournament(self, tournament_id: str) -> None: ...

    def watch(self, game_id: str, due: int) -> None:
        """The sweeper looks at ``game_id`` once ``due`` (ms) has passed."""

    def archive_ahead(self, game_id: str, at: int) -> None:
        """The game may finish now: its archive write is owed from ``at`` (ms) if it does."""


class NoScheduler:
    """No job queue (a process that enqueues nothing): every change is heard, and dropped."""

    def game_changed(self, change: Change, *, attempt: str = "") -> None:
        return None

    def start_tournament(self, tournament_id: str) -> None:
        return None

    def watch(self, game_id: str, due: int) -> None:
        return None

    def archive_ahead(self, game_id: str, at: int) -> None:
        return None


def change_of(game: Game, before: Game | None = None) -> Change:
    """What the job queue must know of ``game`` now; the rules deadline is
    included only when ``before`` did not already have it open, and the
    game counts as watched only if a worker owed ``before`` something (or
    ``before`` is not known)."""
    active = game.status == "active"
    rs = game.ruleset
    started = active and not game.open_seats  # a game with open seats owes no worker anything yet
    to_act = frozenset(rs.to_act(game.state, memo=game.memo)) if started else frozenset()
    open_deadline = deadline = rs.deadline(game.state) if started else None
    if before is not None and before.status == "active" and rs.deadline(before.state) == deadline:
        deadline = None
    bots = {s: b for s in to_act if (b := game.bot_of(s)) is not None}
    watched = before is None or change_of(before).due() is not None
    return Change(game.id, game.version, active, game.last_at, to_act, bots, deadline,
                  game.turn_deadline(), game.header.get("tournament"), open_deadline, game.start_deadline(),
                  watched, game.callback, rated=not active and is_rated(game.header))


class Changes:
    """Tells the scheduler of each change of a game (``NoScheduler``: none)."""

    def __init__(self, scheduler: Scheduler | None, clock: Callable[[], int]) -> None:
        self.scheduler: Scheduler = scheduler if scheduler is not None else NoScheduler()
        #: whether anyone hears: without a job queue no change is worked out at all
        self.heard = scheduler is not None
        self.clock = clock
        #: told of each game a change finished (the transparency log's ``record``)
        self.on_finished: Callable[[Game], object] | None = None
        #: whether a finished game is written to the archive (``referee.service.archiving``)
        self.archiving = False

    def finished(self, game: Game, before: Game | None) -> None:
        """Count the game as finished if this change finished it, and tell ``on_finished``."""
        if finished(game, before) and self.on_finished is not None:
            self.on_finished(game)

    def marked(self, change: Change) -> Change:
        """``change`` as the scheduler is told it: a finished game's marked for the archive, if one is kept."""
        return replace(change, archive=True) if self.archiving and not change.active else change

    def watch_ahead(self, before: Game, after: Game) -> None:
        """A move after which a worker will owe the game something (a bot's
        turn, a deadline) while nothing was owed before: the game goes into
        the sweeper's watch set *before* the append, so a process killed
        between the append and the jobs it would enqueue loses no turn (the
        sweeper finds the game after its stall period; if the append does
        not land, it finds nothing owed and lets the game go)."""
        if self.heard and self.archiving and before.status == "active" and after.status != "active":
            # the archive write is owed before the append: a process killed between the append and its
            # job loses no game (the sweeper enqueues it; if the append did not land, the job finds it on)
            self.scheduler.archive_ahead(before.id, self.clock())
        if not self.heard or change_of(after).due() is None or change_of(before).due() is not None:
            return
        self.scheduler.watch(before.id, self.clock())

    def notify(self, game: Game, before: Game | None) -> None:
        """The scheduler hears of the change from ``before`` to ``game``."""
        self.finished(game, before)
        if self.heard:
            self.scheduler.game_changed(self.marked(change_of(game, before)))

    def hold(self, game: Game) -> None:
        """A new game whose first turns the worker that made it plays itself
        (a tournament's next game, ``workers.jobs``): no job is queued for
        it, but it is watched from now, so a worker killed before it plays
        it loses nothing (the sweeper finds it)."""
        self.finished(game, None)
        due = change_of(game).due()
        if due is not None:
            self.scheduler.watch(game.id, due)


def finished(game: Game, before: Game | None) -> bool:
    """Count the game as finished if this change finished it (and say whether it did)."""
    if game.status != "active" and (before is None or before.status == "active"):
        GAMES_FINISHED.labels(ruleset=game.ruleset.name).inc()
        return True
    return False
