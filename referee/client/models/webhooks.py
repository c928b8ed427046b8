"""A game's end webhook as its creator reads it (``GET /v1/games/{id}/deliveries``, issue 40 item 3)."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.client.models.common import Json


@dataclass(frozen=True)
class WebhookAttempt:
    """One attempt at delivering the game's end: when, the receiver's status
    (``None``: none came back) and the error (``None``: accepted)."""

    attempt: int
    at: int
    status: int | None
    error: str | None

    @classmethod
    def from_json(cls, raw: Json) -> WebhookAttempt:
        return cls(int(raw["attempt"]), int(raw["at"]), raw["status"], raw["error"])


@dataclass(frozen=True)
class WebhookDeliveries:
    """How the game-end webhook went: ``state`` is ``waiting`` (the game is
    not over), ``pending``, ``delivered`` or ``failed`` (given up)."""

    game: str
    callback_url: str
    delivery: str
    state: str
    attempts: tuple[WebhookAttempt, ...]
    attempts_max: int
    delivered_at: int | None
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> WebhookDeliveries:
        return cls(raw["game"], raw["callback_url"], raw["delivery"], raw["state"],
                   tuple(WebhookAttempt.from_json(a) for a in raw["attempts"]), int(raw["attempts_max"]),
                   raw["delivered_at"], raw)
