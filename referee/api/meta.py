"""Rulesets, health, metrics and the contract."""
from __future__ import annotations

from referee.engine.protocol import Json

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response

from referee.api.context import service
from referee.errors import ApiError
from referee.games import registry
from referee.metrics import render

bp = Blueprint("meta", __name__)


def _described(name: str) -> Json:
    rs = registry.get(name)
    return {"name": rs.name, "title": rs.title, "version": rs.version, "min_players": rs.min_players,
            "max_players": rs.max_players, "options": rs.options_schema, "moves": rs.move_schemas,
            "setup": rs.setup_schema, "view": rs.view_schema, "events": rs.event_schemas}


@bp.get("/v1/rulesets")
def rulesets() -> Json:
    return {"rulesets": [_described(name) for name in registry.names()]}


@bp.get("/v1/rulesets/<name>")
def ruleset(name: str) -> Json:
    """One ruleset: its options and every move as the JSON Schemas it enforces."""
    if name not in registry.names():
        raise ApiError(404, "unknown_ruleset", f"no ruleset {name!r}; see GET /v1/rulesets")
    return _described(name)


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
    return Response(_contract(tuple(registry.names())), mimetype="application/yaml")


@lru_cache(maxsize=4)
def _contract(names: tuple[str, ...]) -> str:
    """openapi.yaml with its generated schemas made for the rulesets installed here."""
    from referee import contract
    return contract.render((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text(), list(names))
