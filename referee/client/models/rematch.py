"""Rematches and series (issue 40 item 4): ``POST /v1/games/{id}/rematch``'s
answer and ``GET /v1/series/{id}``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.client.models.common import Json
from referee.client.models.games import Seat


@dataclass(frozen=True)
class Rematch:
    """A finished game's next game: its id, its seats (each with ``from_seat``,
    the seat its player or bot had in the finished game: ``from_seats``), its
    place in a series; asked with a person's seat token, that person's
    ``seat`` in it and its ``token`` (shown once: ``None`` after)."""

    id: str
    ruleset: str
    status: str
    rematch_of: str
    seats: tuple[Seat, ...]
    from_seats: tuple[int, ...]
    series: Json | None = None
    seat: int | None = None
    token: str | None = field(default=None, repr=False)
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Rematch:
        """Read a ``Rematch`` object."""
        return cls(raw["id"], raw["ruleset"], raw["status"], raw["rematch_of"],
                   tuple(Seat.from_json(s) for s in raw["seats"]), tuple(int(s["from_seat"]) for s in raw["seats"]),
                   raw.get("series"), raw.get("seat"), raw.get("token"), raw)


@dataclass(frozen=True)
class SeriesPlayer:
    """A player of a series (a seat of its first game), by name, with the games won so far."""

    player: int
    name: str
    wins: int


@dataclass(frozen=True)
class SeriesGame:
    """One game of a series: its id, place (from 1), status, the series
    player at each seat and the series players who won it."""

    id: str
    game: int
    status: str
    players: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Series:
    """``GET /v1/series/{id}``: its ``format`` (``{"best_of": n}`` or
    ``{"games": n}``), status, players with their running score, and games."""

    id: str
    format: Json
    status: str
    players: tuple[SeriesPlayer, ...]
    games: tuple[SeriesGame, ...]
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Series:
        """Read a ``Series`` object."""
        def game(g: Any) -> SeriesGame:
            return SeriesGame(g["id"], int(g["game"]), g["status"], tuple(g["players"]), tuple(g["winners"]))
        return cls(raw["id"], raw["format"], raw["status"],
                   tuple(SeriesPlayer(int(p["player"]), p["name"], int(p["wins"])) for p in raw["players"]),
                   tuple(game(g) for g in raw["games"]), raw)
