"""Bots: a registered bot, its summary in the listing, and the turns an
outbound bot is offered and answers."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.client.models.common import Json


@dataclass(frozen=True)
class Bot:
    """A registered bot: a ``webhook`` bot the referee calls at ``url``, or an
    ``outbound`` one (no url) that connects for its turns; ``secret`` only in
    the answer to its registration (shown once: it signs the referee's calls
    and turns, and authenticates the bot)."""

    id: str
    name: str
    url: str | None
    rulesets: tuple[str, ...]
    created_at: int
    kind: str = "webhook"
    secret: str | None = field(default=None, repr=False)
    raw: Json = field(default_factory=dict, repr=False, compare=False)
    #: who registered it: an opaque id (two bots of one owner at a rated table move no rating)
    owner: str = ""

    @classmethod
    def from_json(cls, raw: Json) -> Bot:
        """Read a ``Bot`` object."""
        kind = raw.get("kind") or ("webhook" if raw.get("url") else "outbound")
        return cls(raw["id"], raw["name"], raw.get("url"), tuple(raw["rulesets"]), int(raw["created_at"]),
                   str(kind), raw.get("secret"), raw, str(raw.get("owner") or raw["id"]))


@dataclass(frozen=True)
class BotSummary:
    """One bot of ``GET /v1/bots`` (never its URL or secret)."""

    id: str
    name: str
    kind: str
    rulesets: tuple[str, ...]
    created_at: int
    raw: Json = field(default_factory=dict, repr=False, compare=False)
    owner: str = ""  # who registered it: an opaque id

    @classmethod
    def from_json(cls, raw: Json) -> BotSummary:
        """Read one entry of ``bots``."""
        return cls(raw["id"], raw["name"], raw["kind"], tuple(raw["rulesets"]), int(raw["created_at"]), raw,
                   str(raw.get("owner") or raw["id"]))


@dataclass(frozen=True)
class Turn:
    """One turn offered to an outbound bot (``GET /v1/bots/{id}/turns``):
    ``id`` its place on the bot's stream, ``delivery`` what to answer
    (``POST /v1/bots/{id}/turns/{delivery}``), ``body`` the payload's text as
    signed (``signature`` = ``sha256=<hex HMAC-SHA256(secret, timestamp + "." +
    body)>``), ``payload`` that text decoded: ``{game, ruleset, seat, version,
    view, legal_moves, deadline, delivery, answer_by}``."""

    id: str
    delivery: str
    timestamp: int
    signature: str
    body: str = field(repr=False)
    payload: Json = field(repr=False, compare=False)
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json, event_id: str = "") -> Turn:
        """Read a ``turn`` event's data (``event_id``: its SSE id)."""
        import json
        body = str(raw["body"])
        return cls(event_id, str(raw["delivery"]), int(raw["timestamp"]), str(raw["signature"]), body,
                   json.loads(body), raw)

    @property
    def game(self) -> str:
        """The game the turn is in."""
        return str(self.payload["game"])

    @property
    def seat(self) -> int:
        """The bot's seat in that game."""
        return int(self.payload["seat"])

    @property
    def legal_moves(self) -> list[Json]:
        """The moves the bot may answer (one of them, as is)."""
        return list(self.payload.get("legal_moves") or [])

    @property
    def view(self) -> Json:
        """The seat's view of the game (as ``GET /v1/games/{id}`` would show it)."""
        view: Json = self.payload.get("view") or {}
        return view

    @property
    def answer_by(self) -> int | None:
        """The deadline of an answer (ms since the epoch); after it the default is played."""
        found = self.payload.get("answer_by")
        return int(found) if found is not None else None

    def verify(self, secret: str, *, max_age_s: float | None = 300.0, now: float | None = None) -> bool:
        """Whether the referee signed this turn with the bot's ``secret``
        (and, with ``max_age_s``, signed it lately: replays are refused)."""
        import hashlib
        import hmac
        import time
        expected = "sha256=" + hmac.new(secret.encode(), f"{self.timestamp}.{self.body}".encode(),
                                        hashlib.sha256).hexdigest()
        fresh = max_age_s is None or abs((time.time() if now is None else now) - self.timestamp) <= max_age_s
        return fresh and hmac.compare_digest(expected, self.signature)


@dataclass(frozen=True)
class TurnAnswered:
    """``POST /v1/bots/{id}/turns/{delivery}``'s 202: the answer was handed
    to the worker waiting for it."""

    delivery: str
    accepted: bool
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> TurnAnswered:
        """Read the answer's acknowledgement."""
        return cls(str(raw["delivery"]), bool(raw["accepted"]), raw)
