"""``/v1/ladder`` and ``/v1/bots/{id}/profile``: the bots' lasting ratings
(issue 42; docs/ladder.md), read by anyone."""
from __future__ import annotations

from flask import Blueprint

from referee.engine.protocol import Json
from referee.http.context import query, service
from referee.http.schemas import LadderQuery
from referee.ladder.service import Ladders

bp = Blueprint("ladder", __name__)
PAGE = LadderQuery()


@bp.get("/v1/ladder")
def list_ladders() -> Json:
    return Ladders(service()).ladders()


@bp.get("/v1/ladder/<key>")
def get_ladder(key: str) -> Json:
    args = query(PAGE)
    return Ladders(service()).table(key, args.get("cursor"), args["limit"])


@bp.get("/v1/bots/<bot_id>/profile")
def bot_profile(bot_id: str) -> Json:
    return Ladders(service()).profile(bot_id)
