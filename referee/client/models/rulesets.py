"""The referee's rulesets and the rules they cite, and what the referee says of
itself: its signing keys and its health."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.client.models.common import Json


@dataclass(frozen=True)
class Ruleset:
    """A ruleset the referee serves, with the JSON Schemas it enforces: its
    ``options``, each move type's (``moves``), the scenario ``setup``, a
    view's ``state`` (``view``) and each event type's ``data`` (``events``)."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    options: Json
    moves: Json
    setup: Json
    view: Json
    events: Json
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Ruleset:
        """Read a ``Ruleset`` object."""
        return cls(raw["name"], raw["title"], raw["version"], int(raw["min_players"]), int(raw["max_players"]),
                   raw["options"], raw["moves"], raw["setup"], raw["view"], raw["events"], raw)


@dataclass(frozen=True)
class Rule:
    """One rule a ruleset cites (in a refusal's ``rule``, prompts, results):
    its ID, title and section; ``text`` (markdown) from ``rulesets.rule``."""

    ruleset: str
    id: str
    title: str
    section: str
    text: str | None = None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json, ruleset: str | None = None) -> Rule:
        """Read one rule (an entry of ``rules``, or the rule itself)."""
        return cls(str(raw.get("ruleset", ruleset or "")), raw["id"], raw["title"], raw["section"], raw.get("text"),
                   raw)


@dataclass(frozen=True)
class Jwk:
    """One public signing key (RFC 8037 OKP, Ed25519): ``x`` is the 32-byte
    key, unpadded base64url."""

    kid: str
    kty: str
    crv: str
    x: str
    use: str | None = None

    @classmethod
    def from_json(cls, raw: Json) -> Jwk:
        """Read one JWK."""
        return cls(raw["kid"], raw["kty"], raw["crv"], raw["x"], raw.get("use"))


@dataclass(frozen=True)
class KeySet:
    """``GET /v1/keys``: the referee's public keys, a JWK set (the first signs)."""

    keys: tuple[Jwk, ...]
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> KeySet:
        """Read a ``KeySet`` object."""
        return cls(tuple(Jwk.from_json(k) for k in raw["keys"]), raw)

    def get(self, kid: str) -> Jwk | None:
        """The key ``kid`` (``None`` if the referee has none by that id)."""
        return next((k for k in self.keys if k.kid == kid), None)


@dataclass(frozen=True)
class Health:
    """``GET /health``: the API is alive and Redis answers."""

    status: str
    redis: str
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Health:
        """Read the health object."""
        return cls(str(raw.get("status")), str(raw.get("redis")), raw)
