"""The ladder (issue 42, docs/ladder.md): the ladders, one ladder's table,
a bot's profile."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.client.models.common import Json


@dataclass(frozen=True)
class LadderSummary:
    """One ladder of ``GET /v1/ladder`` (``players``: ``None`` for every count)."""

    key: str
    ruleset: str
    players: int | None
    bots: int
    games: int

    @classmethod
    def from_json(cls, raw: Json) -> LadderSummary:
        return cls(raw["key"], raw["ruleset"], raw["players"], int(raw["bots"]), int(raw["games"]))


@dataclass(frozen=True)
class Standing:
    """A bot in one ladder: its ``rating`` (``mu``, ``sigma``, ``ordinal``),
    whether it is provisional, its rated games and wins, per role too, its
    form and its health; ``rank`` and ``bot`` on a ladder's page, ``history``
    in a profile."""

    rating: Json
    provisional: bool
    games: int
    wins: int
    form: tuple[str, ...]
    health: Json
    rank: int | None = None
    bot: Json = field(default_factory=dict)
    history: tuple[Json, ...] = ()
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @property
    def ordinal(self) -> float:
        """What the ladder ranks by: mu - 3 sigma."""
        return float(self.rating["ordinal"])

    @classmethod
    def from_json(cls, raw: Json) -> Standing:
        return cls(raw["rating"], bool(raw["provisional"]), int(raw["games"]), int(raw["wins"]),
                   tuple(raw["form"]), raw["health"], raw.get("rank"), raw.get("bot") or {},
                   tuple(raw.get("history") or ()), raw)


@dataclass(frozen=True)
class LadderPage:
    """A page of one ladder's table (``next_cursor``: the next page's, ``None`` at the last)."""

    key: str
    ruleset: str
    players: int | None
    ranked_by: str
    provisional_below: int
    items: tuple[Standing, ...]
    next_cursor: str | None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> LadderPage:
        return cls(raw["key"], raw["ruleset"], raw["players"], raw["ranked_by"], int(raw["provisional_below"]),
                   tuple(Standing.from_json(item) for item in raw["items"]), raw["next_cursor"], raw)


@dataclass(frozen=True)
class BotProfile:
    """A bot's profile: its record, its standing (with its rating history) in every ladder, its last games."""

    bot: Json
    ladders: dict[str, Standing]
    games: tuple[Json, ...]
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> BotProfile:
        return cls(raw["bot"], {key: Standing.from_json(row) for key, row in raw["ladders"].items()},
                   tuple(raw["games"]), raw)
