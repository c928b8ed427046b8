"""Rematches and series (issue 40 item 4): ``POST /v1/games/{id}/rematch``,
``GET /v1/series/{id}`` (``referee.service.rematch``)."""
from __future__ import annotations

from flask import Blueprint

from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.http import quotas
from referee.http.context import bearer_token, service
from referee.service import new_game_id

bp = Blueprint("rematch", __name__)
bp.register_error_handler(quotas.OverQuota, quotas.over_quota)  # 429 with Retry-After


@bp.post("/v1/games/<game_id>/rematch")
def rematch(game_id: str) -> tuple[Json, int]:
    """The next game of a finished game, for the same table with the seats
    rotated: 201 when this ask dealt it (counted in the caller's game quota),
    200 with the same game after. A person's seat token also takes that
    person's seat in it (its token, shown once)."""
    token = bearer_token()
    if token is None:  # before anything is read (and before the rate limit: ratelimit.CREDENTIAL_FIRST)
        raise ApiError(401, "token_required", "a rematch is asked with the game's owner_token or a person's "
                       "seat token of it: Authorization: Bearer <token>")
    svc, proposed = service(), new_game_id()
    if svc.next_game(game_id) is not None:
        body, created = svc.rematch(game_id, token, proposed)
    else:
        with quotas.game_place(quotas.ClientQuotas.of_app(), quotas.client(), proposed):
            body, created = svc.rematch(game_id, token, proposed)
    return body, 201 if created else 200


@bp.get("/v1/series/<series_id>")
def series(series_id: str) -> Json:
    """A series: its count, its players and their running score, each game's id, place and winners."""
    return service().series(series_id)
