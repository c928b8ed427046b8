"""The referee's public keys as ``referee audit --key`` gets them: a file (a
JWK set as ``GET /v1/keys`` serves it, or one JWK), or a referee's URL,
fetched once and then pinned (docs/audit.md).

Pinning is trust on first use: the keys a URL served the first time are
kept in a pin file (``--pins``, default ``$XDG_CONFIG_HOME/referee/pinned-keys.json``)
and used from then on without asking the URL again, so a referee that later
serves other keys cannot make its forgeries verify; ``--repin`` fetches
anew (after a rotation announced by the referee's operator)."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from referee.engine.signature import PublicKeys

FETCH_TIMEOUT_S = 10.0


class NoKeys(Exception):
    """The keys cannot be had (named): a usage error of ``referee audit``."""


def default_pins() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "referee" / "pinned-keys.json"


def keys_url(spec: str) -> str:
    """``spec`` as the URL of a key set: a referee's base URL gets ``/v1/keys``."""
    return spec if spec.rstrip("/").endswith("/v1/keys") else spec.rstrip("/") + "/v1/keys"


def _checked(jwks: Any, source: str) -> Any:
    if isinstance(jwks, dict) and "kty" in jwks:  # one JWK
        jwks = {"keys": [jwks]}
    try:
        PublicKeys.from_jwks(jwks)
    except ValueError as err:
        raise NoKeys(f"{source}: {err}") from None
    return jwks


def resolve(spec: str, pins: Path | None = None, *, repin: bool = False) -> tuple[Any, str]:
    """``(key set, how it was had)`` for ``--key spec``; ``NoKeys`` otherwise."""
    if not spec.startswith(("http://", "https://")):
        try:
            text = Path(spec).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise NoKeys(f"{spec}: cannot be read ({getattr(err, 'strerror', None) or err})") from None
        try:
            return _checked(json.loads(text), spec), f"keys from {spec}"
        except json.JSONDecodeError as err:
            raise NoKeys(f"{spec}: not JSON ({err.msg}, line {err.lineno})") from None
    url = keys_url(spec)
    pins = pins or default_pins()
    pinned = _read_pins(pins)
    if url in pinned and not repin:
        entry = pinned[url]
        return _checked(entry.get("jwks"), f"{pins} ({url})"), f"keys pinned for {url} on {entry.get('pinned_at')}"
    import requests  # only here: an audit of files needs no HTTP client (nor a server)
    try:
        response = requests.get(url, timeout=FETCH_TIMEOUT_S, headers={"Accept": "application/json"})
        response.raise_for_status()
        jwks = _checked(response.json(), url)
    except (requests.RequestException, ValueError) as err:
        raise NoKeys(f"{url}: cannot be fetched ({err})") from None
    pinned[url] = {"jwks": jwks, "pinned_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    pins.parent.mkdir(parents=True, exist_ok=True)
    aside = pins.with_name(f".{pins.name}.{os.getpid()}")
    aside.write_text(json.dumps(pinned, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(aside, pins)
    return jwks, f"keys fetched from {url}, pinned in {pins}"


def _read_pins(pins: Path) -> dict[str, Any]:
    try:
        found = json.loads(pins.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        raise NoKeys(f"the pin file {pins} cannot be read ({err})") from None
    if not isinstance(found, dict):
        raise NoKeys(f"the pin file {pins} is not an object of pinned key sets")
    return found
