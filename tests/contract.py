"""Check responses against ``openapi.yaml`` (the contract): every API test's
response must match the schema of its route, method, status and media type."""
from __future__ import annotations

import copy
import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jsonschema_rs
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from referee.http.contract import read_yaml
from tests.schemas import SchemaCheck

ROOT = Path(__file__).resolve().parents[1]
URN = "urn:referee:openapi"


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = read_yaml((ROOT / "openapi.yaml").read_text())  # once a worker
    return loaded


def spec_copy() -> dict[str, Any]:
    """A fresh copy of the contract for a module that hands it on (schemathesis keeps and may change its
    document): parsed once a worker, as ``spec``, instead of once a module by pure-Python YAML."""
    return copy.deepcopy(spec())


@lru_cache(maxsize=1)
def _documents() -> tuple[jsonschema_rs.Registry, Registry]:
    """The contract under its URN, for each validator of ``tests.schemas.SchemaCheck``."""
    return (jsonschema_rs.Registry([(URN, spec())]),
            Registry().with_resource(URN, Resource.from_contents(spec(), default_specification=DRAFT202012)))


@lru_cache(maxsize=1)
def _routes() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for template in spec()["paths"]:
        escaped = re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
        pattern = "^" + re.sub(r"\{[^}]+\}", r"[^/]+", escaped) + "$"
        out.append((re.compile(pattern), template))
    return out


@cache
def _check(ref: str) -> SchemaCheck:
    """The check of the schema at ``ref`` (a response's), made at its first response (the path's braces
    percent-encoded, as a URI's fragment has them)."""
    return SchemaCheck({"$ref": URN + quote(ref, safe="#/~")}, _documents())


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def check(method: str, path: str, status: int, content_type: str, body: bytes) -> None:
    """Raise ``AssertionError`` if the response breaks the contract (CORS
    preflights are transport, not contract)."""
    if method.upper() == "OPTIONS":
        return
    schema = response_schema(method, path, status, content_type)
    if schema is None:
        return
    errors = sorted(schema.errors(json.loads(body)), key=lambda e: list(e.path))
    assert not errors, f"{method} {path} {status}: " + "; ".join(
        f"{list(e.path)}: {e.message[:200]}" for e in errors[:5])


def response_schema(method: str, path: str, status: int, content_type: str) -> SchemaCheck | None:
    """The check of a response's JSON body (None: a body of another media type, not JSON); an
    ``AssertionError`` if the contract has no such response."""
    template = next((t for rx, t in _routes() if rx.match(path)), None)
    assert template is not None, f"{path} is not in openapi.yaml"
    op = spec()["paths"][template].get(method.lower())
    assert op is not None, f"{method} {template} is not in openapi.yaml"
    responses = op["responses"]
    assert str(status) in responses, f"{method} {template} -> {status} is not in openapi.yaml"
    response = responses[str(status)]
    ref = f"#/paths/{_pointer(template, method.lower(), 'responses', str(status))}"
    if "$ref" in response:
        ref = response["$ref"]
        response = spec()["components"]["responses"][ref.rsplit("/", 1)[1]]
    media = content_type.split(";")[0].strip()
    assert media in response.get("content", {}), f"{method} {template} {status}: {media} is not documented"
    if media not in ("application/json", "application/problem+json"):
        return None
    return _check(f"{ref}/{_pointer('content', media, 'schema')}")
