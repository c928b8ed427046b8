"""The game-end webhook's job (issue 40 item 3, ``referee.service.webhooks``):
one signed attempt at delivering a finished game's end; a failed attempt
raises, so RQ tries again after the next interval of
``REFEREE_WEBHOOK_RETRY_S`` (the job was enqueued with that ``Retry``), and
the last one gives up. A duplicate job, or one run after the delivery was
accepted, posts nothing (the store's once-flag)."""
from __future__ import annotations

import os

from referee.bots.webhook import CallLimits, UrlPolicy
from referee.service import GameService
from referee.service.webhooks import retry_intervals
from workers import jobs


class DeliveryFailed(Exception):
    """This attempt was not accepted: RQ retries the job after its next interval."""


def deliver_game_end(game_id: str, most: int | None = None, svc: GameService | None = None) -> str:
    """Deliver ``game_id``'s end to its callback URL, under the bot URLs'
    policy and call limits, attempt ``most`` at the most (as many as the
    ``Retry`` it was enqueued with allows; ``None``: this worker's
    ``REFEREE_WEBHOOK_RETRY_S``): ``delivered``, ``failed`` (the last attempt
    failed), or nothing to do (``busy``, ``no_callback``, ``not_over``,
    ``delivered`` already); raises ``DeliveryFailed`` when it is to be retried."""
    svc = svc or jobs.service_from_env()  # the worker's one service, as every job's
    most = most if most is not None else 1 + len(retry_intervals())
    outcome = svc.webhooks.deliver(game_id, policy=UrlPolicy.from_env(os.environ),
                                   limits=CallLimits.from_env(os.environ), most=most)
    if outcome == "retry":
        raise DeliveryFailed(f"game {game_id}: its end webhook was not accepted; tried again later")
    return outcome
