"""``GET /v1/games/{id}/broadcast`` (issue 40 item 6): the delayed
omniscient view of a game whose creator opted in (``referee.service.spectators``)."""
from __future__ import annotations

from flask import Blueprint, Response

from referee.http.context import bearer_token, service
from referee.service import reading

bp = Blueprint("spectators", __name__, url_prefix="/v1/games")


@bp.get("/<game_id>/broadcast")
def broadcast(game_id: str) -> Response:
    """Every seat's view, as late as the game's spectators see it; never to a seated token."""
    return Response(reading.broadcast(service(), game_id, bearer_token()), mimetype="application/json")
