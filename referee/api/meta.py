"""Rulesets, health, metrics and the contract."""
from __future__ import annotations

from referee.engine.protocol import Json

from pathlib import Path

from flask import Blueprint, Response

from referee.api.context import service
from referee.errors import ApiError
from referee.games import registry
from referee.metrics import render

bp = Blueprint("meta", __name__)


@bp.get("/v1/rulesets")
def rulesets() -> Json:
    out = []
    for name in registry.names():
        rs = registry.get(name)
        out.append({"name": rs.name, "title": rs.title, "version": rs.version,
                    "min_players": rs.min_players, "max_players": rs.max_players,
                    "options": rs.options_schema})
    return {"rulesets": out}


@bp.get("/health")
def health() -> Json:
    try:
        service().store.ping()
    except Exception as exc:  # any failure to reach Redis means unhealthy
        raise ApiError(503, "redis_unavailable", f"Redis does not answer: {type(exc).__name__}") from None
    return {"status": "ok", "redis": "ok"}


@bp.get("/metrics")
def metrics() -> Response:
    body, content_type = render()
    return Response(body, content_type=content_type)


@bp.get("/openapi.yaml")
def openapi() -> Response:
    text = (Path(__file__).resolve().parents[2] / "openapi.yaml").read_text()
    return Response(text, mimetype="application/yaml")
