"""Rulesets, health, metrics and the contract."""
from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app

from referee.engine import canonical_bytes
from referee.engine.phrases import PHRASES as PLATFORM_PHRASES
from referee.engine.protocol import Json
from referee.engine.signature import Keyring
from referee.errors import ApiError
from referee.games import registry
from referee.http import ruletexts
from referee.http.context import service
from referee.service.metrics import render

bp = Blueprint("meta", __name__)


def _described(name: str) -> Json:
    rs = registry.get(name)
    return {"name": rs.name, "title": rs.title, "version": rs.version, "min_players": rs.min_players,
            "max_players": rs.max_players, "options": rs.options_schema, "moves": rs.move_schemas,
            "setup": rs.setup_schema, "view": rs.view_schema, "events": rs.event_schemas}


@bp.get("/v1/rulesets")
def rulesets() -> Response:
    return Response(_encoded(tuple(registry.names()), None), mimetype="application/json")


@bp.get("/v1/rulesets/<name>")
def ruleset(name: str) -> Response:
    """One ruleset: its options and every move as the JSON Schemas it enforces."""
    names = tuple(registry.names())
    if name not in names:
        raise ApiError(404, "unknown_ruleset", f"no ruleset {name!r}; see GET /v1/rulesets")
    return Response(_encoded(names, name), mimetype="application/json")


@lru_cache(maxsize=64)
def _encoded(names: tuple[str, ...], name: str | None) -> bytes:
    """The body of ``/v1/rulesets`` (``name`` ``None``) or of one ruleset's
    route, as Flask encodes it, built once per set of rulesets installed: its
    schemas never change while the process runs, and encoding them took
    milliseconds a request (a table page asks on every opening)."""
    body: Json = {"rulesets": [_described(n) for n in names]} if name is None else _described(name)
    encoded: Response = current_app.json.response(body)  # type: ignore[assignment]  # Flask's Response
    return bytes(encoded.get_data())


#: the keys of every catalogue (issue 24, item 2); a ruleset without a ``catalogue`` hook has these, empty
CATALOGUE_LISTS = ("cards", "characters", "roles", "dice", "faces", "symbols", "maps")


@bp.get("/v1/rulesets/<name>/catalogue")
def catalogue(name: str) -> Response:
    """Every card, character, role, die, face, symbol and map of the ruleset,
    built from its own tables (issue 24, item 2); it changes only with the
    ruleset's version, hence the long cache and the ETag of name+version."""
    version = str(getattr(_known(name), "version", ""))
    response = Response(_catalogue(name, version), mimetype="application/json")
    response.cache_control.public, response.cache_control.max_age = True, 86400
    response.set_etag(f"{name}-{version}")
    return response


@lru_cache(maxsize=64)
def _catalogue(name: str, version: str) -> bytes:
    """The catalogue of ruleset ``name`` at ``version``, built once and encoded."""
    hook = getattr(registry.get(name), "catalogue", None)
    built: Json = dict(hook()) if callable(hook) else {}
    body: Json = {key: list(built.get(key) or []) for key in CATALOGUE_LISTS}
    phrases = {**PLATFORM_PHRASES, **ruleset_phrases(registry.get(name))}
    return canonical_bytes({**built, **body, "phrases": phrases, "ruleset": name, "version": version})


def ruleset_phrases(rs: Any) -> Mapping[str, str]:
    """The ruleset's events in words (issue 25, the watch page): its
    ``phrases`` attribute (``RulesetBase.phrases``) if it sets one, else
    ``PHRASES`` of a ``phrases`` module in the package its class lives in
    (``referee.games.bang.phrases``), else none."""
    own = getattr(rs, "phrases", None)
    if own:
        return dict(own)
    package = getattr(sys.modules.get(type(rs).__module__), "__package__", None)
    if not package or importlib.util.find_spec(f"{package}.phrases") is None:
        return {}
    return dict(getattr(importlib.import_module(f"{package}.phrases"), "PHRASES", {}))


@bp.get("/v1/rulesets/<name>/rules")
def rule_index(name: str) -> Json:
    """Every rule ID the ruleset cites, with its title and section (issue 24, item 6)."""
    rs = _known(name)
    return {"ruleset": name, "rules": [{"id": rule_id, "title": found["title"], "section": found["section"]}
                                       for rule_id in ruletexts.ids(rs)
                                       if (found := ruletexts.entry(rs, rule_id)) is not None]}


@bp.get("/v1/rulesets/<name>/rules/<rule_id>")
def rule_text(name: str, rule_id: str) -> Json:
    """One rule's text (markdown): what a refusal's ``rule`` refers to."""
    found = ruletexts.entry(_known(name), rule_id)
    if found is None:
        raise ApiError(404, "unknown_rule", f"ruleset {name!r} has no rule {rule_id!r}; "
                                            f"its rule IDs are listed at GET /v1/rulesets/{name}/rules")
    return {"ruleset": name, "id": found["id"], "title": found["title"], "section": found["section"],
            "text": found["text"]}


def _known(name: str) -> object:
    if name not in registry.names():
        raise ApiError(404, "unknown_ruleset", f"no ruleset {name!r}; see GET /v1/rulesets")
    return registry.get(name)


@bp.get("/v1/keys")
def signing_keys() -> Response:
    """The referee's public keys (a JWK set): what verifies its receipts and
    final heads (docs/audit.md)."""
    response = Response(_jwks(service().keyring), mimetype="application/json")
    response.cache_control.public, response.cache_control.max_age = True, 300
    return response


@lru_cache(maxsize=4)
def _jwks(keyring: Keyring) -> bytes:
    return canonical_bytes(keyring.jwks())


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
    from referee.http import contract
    return contract.render((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text(), list(names))
