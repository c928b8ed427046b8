"""Check responses against ``openapi.yaml`` (the contract): every API test's
response must match the schema of its route, method, status and media type."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = Path(__file__).resolve().parents[1]
URN = "urn:referee:openapi"


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    return loaded


@lru_cache(maxsize=1)
def _registry() -> Registry:
    return Registry().with_resource(URN, Resource.from_contents(spec(), default_specification=DRAFT202012))


@lru_cache(maxsize=1)
def _routes() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for template in spec()["paths"]:
        escaped = re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
        pattern = "^" + re.sub(r"\{[^}]+\}", r"[^/]+", escaped) + "$"
        out.append((re.compile(pattern), template))
    return out


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def check(method: str, path: str, status: int, content_type: str, body: bytes) -> None:
    """Raise ``AssertionError`` if the response breaks the contract (CORS
    preflights are transport, not contract)."""
    if method.upper() == "OPTIONS":
        return
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
        return
    schema = {"$ref": f"{URN}{ref}/{_pointer('content', media, 'schema')}"}
    errors = sorted(Draft202012Validator(schema, registry=_registry()).iter_errors(json.loads(body)),
                    key=lambda e: list(e.path))
    assert not errors, f"{method} {path} {status}: " + "; ".join(
        f"{list(e.path)}: {e.message[:200]}" for e in errors[:5])
