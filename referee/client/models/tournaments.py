"""Tournaments: one, its games, and its summary in the listing."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.client.models.common import Json


@dataclass(frozen=True)
class TournamentGame:
    """One game of a tournament: its index, id, status and winners (names)."""

    index: int
    id: str
    status: str
    winners: tuple[str, ...] | None

    @classmethod
    def from_json(cls, raw: Json) -> TournamentGame:
        """Read one entry of ``games``."""
        winners = raw.get("winners")
        return cls(int(raw["index"]), raw["id"], raw["status"], None if winners is None else tuple(winners))


@dataclass(frozen=True)
class Tournament:
    """A tournament: progress (``games_finished`` of ``games_total``), every
    game, and ``standings`` (JSON: name, games, wins, win_rate, roles,
    rating, and in a clocked tournament each bot's ``latency`` per move:
    docs/clocks.md); ``cancel_token`` only in the answer to its creation."""

    id: str
    ruleset: str
    status: str
    players: int
    games_total: int
    games_launched: int | None
    games_finished: int
    entrants: tuple[Json, ...]
    seed_commitment: str
    seed: str | None
    games: tuple[TournamentGame, ...]
    standings: list[Json]
    cancel_token: str | None = field(default=None, repr=False)
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Tournament:
        """Read a ``Tournament`` object."""
        return cls(raw["id"], raw["ruleset"], raw["status"], int(raw["players"]), int(raw["games_total"]),
                   raw.get("games_launched"), int(raw["games_finished"]), tuple(raw["entrants"]),
                   raw["seed_commitment"], raw.get("seed"), tuple(TournamentGame.from_json(g) for g in raw["games"]),
                   list(raw["standings"]), raw.get("cancel_token"), raw)

    @property
    def running(self) -> bool:
        """Games are still being started or played (not finished, not cancelled)."""
        return self.status == "running"

    @property
    def callback_secret(self) -> str | None:
        """Signs every game's end webhook (``callback_url``); only in the answer to its creation."""
        secret = self.raw.get("callback_secret")
        return str(secret) if secret is not None else None


@dataclass(frozen=True)
class TournamentSummary:
    """One tournament of ``GET /v1/tournaments``: progress and entrants' names."""

    id: str
    ruleset: str
    status: str
    players: int
    games_total: int
    games_finished: int
    created_at: int
    entrants: tuple[str, ...]
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> TournamentSummary:
        """Read one entry of ``tournaments``."""
        return cls(raw["id"], raw["ruleset"], raw["status"], int(raw["players"]), int(raw["games_total"]),
                   int(raw["games_finished"]), int(raw["created_at"]), tuple(raw["entrants"]), raw)
