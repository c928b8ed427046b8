"""The archive's job (issue 41, ``referee.service.archiving``): write one
finished game to the archive and confirm it. A database that does not
answer fails the job, so RQ tries it again after the next interval of
``REFEREE_ARCHIVE_RETRY_S``; the sweeper enqueues it again past those,
until one lands. A duplicate job, or one run after the write was confirmed,
writes nothing."""
from __future__ import annotations

from referee.archive import ArchiveUnavailable
from referee.service import GameService
from referee.service.archiving import SETTLED
from referee.service.scheduling import RqScheduler
from workers import jobs


class ArchiveNotWritten(Exception):
    """The archive's database did not answer: the job is tried again (RQ's retries, then the sweeper)."""


def archive_game(game_id: str, svc: GameService | None = None) -> str:
    """Archive ``game_id``: ``archived``, or nothing to do (``confirmed``,
    ``not_over``, ``gone``, ``no_archive``); raises while the archive's
    database does not answer (the job is tried again)."""
    svc = svc or jobs.service_from_env()  # the worker's one service, as every job's
    try:
        outcome = svc.archiving.archive_game(game_id)
    except ArchiveUnavailable as err:  # one line in the worker's log, not the driver's whole traceback
        raise ArchiveNotWritten(f"game {game_id}: the archive's database does not answer "
                                f"({type(err.__cause__ or err).__name__}); the write is tried again") from None
    if outcome in SETTLED and isinstance(svc.scheduler, RqScheduler):
        svc.scheduler.archive_confirmed(game_id)
    return outcome
