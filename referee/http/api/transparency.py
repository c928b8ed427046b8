"""The transparency log of finished games' final heads (issue 41 item 4;
docs/transparency.md): its signed checkpoint, inclusion and consistency proofs."""
from __future__ import annotations

from flask import Blueprint, Response

from referee.engine.protocol import Json
from referee.http.context import query, service
from referee.http.schemas import ConsistencyQuery, InclusionQuery

bp = Blueprint("transparency", __name__, url_prefix="/v1/transparency")
INCLUSION, CONSISTENCY = InclusionQuery(), ConsistencyQuery()


@bp.get("/checkpoint")
def checkpoint() -> Response:
    """The log's checkpoint now: a C2SP signed note (text)."""
    return Response(service().transparency.checkpoint(), mimetype="text/plain")


@bp.get("/proof/inclusion")
def inclusion() -> Json:
    args = query(INCLUSION)
    return service().transparency.inclusion(args["game"], args.get("size"))


@bp.get("/proof/consistency")
def consistency() -> Json:
    args = query(CONSISTENCY)
    return service().transparency.consistency(args["from_"], args.get("to"))
