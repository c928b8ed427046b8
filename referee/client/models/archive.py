"""The archive's answers (``GET /v1/archive/games``; issue 41)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.client.models.common import Json
from referee.client.models.events import HeadSignature
from referee.client.models.games import Result


@dataclass(frozen=True)
class ArchivedSeat:
    """A seat of an archived game: its number, name and bot (``None``: a person)."""

    seat: int
    name: str | None
    bot: str | None


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game as the archive keeps it: its public facts (its log:
    ``client.games.log(id)``, served from the archive once Redis forgot it)."""

    id: str
    ruleset: str
    ruleset_version: str
    status: str
    version: int
    created_at: int
    finished_at: int
    head: str
    seats: tuple[ArchivedSeat, ...]
    result: Result | None
    signature: HeadSignature | None
    custom: bool = False
    tournament: str | None = None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ArchivedGame:
        """Read one entry of ``games``."""
        return cls(raw["id"], raw["ruleset"], str(raw["ruleset_version"]), raw["status"], int(raw["version"]),
                   int(raw["created_at"]), int(raw["finished_at"]), raw["head"],
                   tuple(ArchivedSeat(int(s["seat"]), s.get("name"), s.get("bot")) for s in raw["seats"]),
                   Result.from_json(raw.get("result")), HeadSignature.from_json(raw.get("signature")),
                   bool(raw.get("custom", False)), raw.get("tournament"), raw)
