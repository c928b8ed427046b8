"""The archive's history (issue 41, docs/archive.md): ``GET /v1/archive/games``
searches finished games by their public facts, a page at a time;
``GET /v1/archive/export`` streams the matching games' logs as one NDJSON
bundle, which ``referee audit`` checks in one go."""
from __future__ import annotations

from flask import Blueprint, Response

from referee.engine.protocol import Json
from referee.http.context import query, service
from referee.http.schemas import ArchiveQuery

bp = Blueprint("archive", __name__, url_prefix="/v1/archive")
SEARCH = ArchiveQuery()


@bp.get("/games")
def search() -> Json:
    """Archived games, the latest finished first (``next``: the following page's cursor)."""
    return service().archiving.search(query(SEARCH))


@bp.get("/export")
def export() -> Response:
    """The matching archived games' logs, one after another, as NDJSON."""
    filters = query(SEARCH)
    return Response(service().archiving.export(filters), mimetype="application/x-ndjson")
