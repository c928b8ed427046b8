"""``/v1/games/{id}/deliveries``: how a game's end webhook went, for its
creator; and the check of a new game's ``callback_url`` against the URL
policy (issue 40 item 3, ``referee.service.webhooks``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint

from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.http.context import bearer_token, service, url_policy
from referee.service.webhooks import callback_option, check_callback, retry_intervals

bp = Blueprint("webhooks", __name__, url_prefix="/v1/games")


def check_new_game(body: Mapping[str, Any] | None) -> None:
    """A new game's or tournament's ``callback_url`` (in ``body``, a game's
    options or a tournament's spec), if any, is well formed and one this
    referee may call (the bots' URL policy: 422 ``callback_url_refused``),
    before anything is dealt."""
    if body and "callback_url" in body:
        check_callback(callback_option(body["callback_url"]), url_policy())


@bp.get("/<game_id>/deliveries")
def deliveries(game_id: str) -> Json:
    """Each attempt at delivering the game's end (``Authorization: Bearer <owner_token>``)."""
    token = bearer_token()
    if token is None:  # before anything is read (and before the rate limit: ratelimit.CREDENTIAL_FIRST)
        raise ApiError(401, "token_required", "a game's deliveries are its creator's: Authorization: Bearer "
                       "<owner_token> (a tournament's game: its cancel_token)")
    return service().webhooks.deliveries(game_id, token, most=1 + len(retry_intervals()))
