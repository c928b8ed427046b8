"""A game as the referee shows it: created, its seats and tokens, a view, a
replay, its result, a summary of the listing."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.client.models.common import Json


def _ints(values: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in values or ())


@dataclass(frozen=True)
class Seat:
    """A seat of a game: its number, name and bot (``None`` for a person);
    ``token`` only in the answer to the game's creation (a secret: hand it
    to that seat's player only)."""

    seat: int
    name: str
    bot: str | None
    token: str | None = field(default=None, repr=False)
    #: presence, in a game's view, of a person's seat (``None`` elsewhere): whether its client is here
    connected: bool | None = None
    #: since when it is connected, or away (ms since the epoch; ``None``: never seen)
    since: int | None = None
    #: who plays it while it is taken over (away past the game's grace window; ``None``: its person)
    played_by: str | None = None

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Seat:
        """Read a ``Seat`` (or ``SeatWithToken``) object."""
        return cls(int(raw["seat"]), str(raw["name"]), raw.get("bot"), raw.get("token"), raw.get("connected"),
                   raw.get("since"), raw.get("played_by"))


@dataclass(frozen=True)
class GameCreated:
    """``POST /v1/games``'s answer: the new game with every seat's token."""

    id: str
    ruleset: str
    ruleset_version: str
    version: int
    status: str
    custom: bool
    seed_commitment: str
    created_at: int
    seats: tuple[Seat, ...]
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> GameCreated:
        """Read a ``GameCreated`` object."""
        return cls(raw["id"], raw["ruleset"], raw["ruleset_version"], int(raw["version"]), raw["status"],
                   bool(raw["custom"]), raw["seed_commitment"], int(raw["created_at"]),
                   tuple(Seat.from_json(s) for s in raw["seats"]), raw)

    @property
    def tokens(self) -> list[str]:
        """Every seat's token, in seat order ("" for a bot's seat or an open one: it has none)."""
        return [s.token or "" for s in self.seats]

    @property
    def owner_token(self) -> str | None:
        """The creator's secret: reissues a seat's lost token (``games.reissue``)."""
        token = self.raw.get("owner_token")
        return str(token) if token is not None else None

    @property
    def callback_secret(self) -> str | None:
        """The secret that signs the game-end webhook's deliveries (only with the option ``callback_url``)."""
        secret = self.raw.get("callback_secret")
        return str(secret) if secret is not None else None


@dataclass(frozen=True)
class SeatToken:
    """A seat's new token: an open seat claimed (``games.claim``, with the
    claimant's ``name``) or a lost one reissued (``games.reissue``)."""

    seat: int
    token: str = field(repr=False)
    name: str | None = None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> SeatToken:
        """Read a claim's or a reissue's answer."""
        return cls(int(raw["seat"]), str(raw["token"]), raw.get("name"), raw)


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning seats, each seat's outcome (``win``,
    ``loss``, ``draw``) and the reason."""

    winners: tuple[int, ...]
    outcomes: Mapping[int, str]
    reason: str
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json | None) -> Result | None:
        """Read a ``Result`` (``None`` while the game is on)."""
        if raw is None:
            return None
        return cls(_ints(raw.get("winners")), {int(s["seat"]): str(s["outcome"]) for s in raw.get("seats", ())},
                   str(raw.get("reason", "")), raw)


@dataclass(frozen=True)
class View:
    """``GET /v1/games/{id}``: the game as the caller may see it. ``seat`` is
    the caller's (``None`` for a spectator); ``state``, ``legal_moves`` and
    ``pending`` are the ruleset's JSON (every entry of ``legal_moves`` can be
    posted unchanged)."""

    id: str
    ruleset: str
    ruleset_version: str
    version: int
    status: str
    seat: int | None
    to_act: tuple[int, ...]
    legal_moves: list[Json]
    pending: Json | None
    deadline: int | None
    turn_deadline: int | None
    #: a clocked game's clock (each seat's bank, the server's time; docs/clocks.md), else ``None``
    clock: Json | None
    result: Result | None
    state: Json
    seats: tuple[Seat, ...]
    custom: bool
    seed_commitment: str
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def _fields(cls, raw: Json) -> dict[str, Any]:
        return dict(id=raw["id"], ruleset=raw["ruleset"], ruleset_version=raw["ruleset_version"],
                    version=int(raw["version"]), status=raw["status"], seat=raw.get("seat"),
                    to_act=_ints(raw.get("to_act")), legal_moves=list(raw.get("legal_moves") or []),
                    pending=raw.get("pending"), deadline=raw.get("deadline"), turn_deadline=raw.get("turn_deadline"),
                    clock=raw.get("clock"),
                    result=Result.from_json(raw.get("result")), state=raw.get("state") or {},
                    seats=tuple(Seat.from_json(s) for s in raw.get("seats", ())), custom=bool(raw.get("custom")),
                    seed_commitment=raw.get("seed_commitment", ""), raw=raw)

    @classmethod
    def from_json(cls, raw: Json) -> View:
        """Read a ``GameView`` object."""
        return cls(**cls._fields(raw))

    @property
    def active(self) -> bool:
        """The game is still being played."""
        return self.status == "active"

    @property
    def my_turn(self) -> bool:
        """The referee awaits the caller's seat now (it has legal moves)."""
        return self.seat is not None and self.seat in self.to_act and bool(self.legal_moves)

    @property
    def next_game(self) -> str | None:
        """A finished game's next game, once a rematch was asked (``games.rematch``)."""
        return self.raw.get("next_game")

    @property
    def rematch_of(self) -> str | None:
        """A rematch's finished game before it."""
        return self.raw.get("rematch_of")

    @property
    def series(self) -> Json | None:
        """A game of a series: its place in it (``{id, best_of | games, game, players}``; ``id`` is the
        series', for ``games.series``), else ``None``."""
        return self.raw.get("series")

    def clock_left(self, seat: int, elapsed_ms: float = 0) -> float | None:
        """A clocked game's ``seat``: the ms its running clock has left ``elapsed_ms``
        after this view arrived (measured by the caller's own monotonic clock, so
        its wall clock is never trusted; never below 0), or a stopped clock's bank;
        ``None`` without a clock (docs/clocks.md)."""
        seats = (self.clock or {}).get("seats") or []
        entry = next((s for s in seats if s.get("seat") == seat), None)
        if entry is None:
            return None
        if entry.get("running") and entry.get("left_ms") is not None and self.active:
            return max(0.0, float(entry["left_ms"]) - elapsed_ms)
        return float(entry["bank_ms"])

    @property
    def spectator_delay(self) -> SpectatorDelay | None:
        """The game's spectator delay (option ``spectator_delay``; ``None``: spectators see it live)."""
        return SpectatorDelay.from_json(self.raw.get("spectator_delay"))

    @property
    def chat(self) -> str | None:
        """Who may post at the table chat, where the game's creator said (option ``chat``: ``seats``,
        ``everyone`` or ``off``); ``None``: the default, every person's seat."""
        value = self.raw.get("chat")
        return None if value is None else str(value)


@dataclass(frozen=True)
class Replay(View):
    """``GET /v1/games/{id}/replay``: the spectator view at a version, the
    game's ``latest_version``, the ``shown_versions`` (those a client could
    have been shown: the only ones replayed) and, once it is over, every
    seat's view."""

    latest_version: int = 0
    views: list[Json] | None = None
    shown_versions: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, raw: Json) -> Replay:
        """Read a ``Replay`` object."""
        return cls(**cls._fields(raw), latest_version=int(raw["latest_version"]), views=raw.get("views"),
                   shown_versions=_ints(raw.get("shown_versions")))


@dataclass(frozen=True)
class SpectatorDelay:
    """A game's spectator tiers (issue 40 item 6): while it runs, spectators
    see it ``versions`` late; ``omniscient``: its creator offers the delayed
    broadcast of every hand (``games.broadcast``)."""

    versions: int
    omniscient: bool

    @classmethod
    def from_json(cls, raw: Json | None) -> SpectatorDelay | None:
        """Read a ``SpectatorDelay`` object (``None``: the game has no delay)."""
        return None if raw is None else cls(int(raw["versions"]), bool(raw["omniscient"]))


@dataclass(frozen=True)
class Broadcast(View):
    """``GET /v1/games/{id}/broadcast``: the spectator view at the delayed
    version and every seat's view there (``views``, by seat; empty while the
    game is inside the delay)."""

    views: list[Json] = field(default_factory=list)

    @classmethod
    def from_json(cls, raw: Json) -> Broadcast:
        """Read a ``Broadcast`` object."""
        return cls(**cls._fields(raw), views=list(raw.get("views") or []))


@dataclass(frozen=True)
class GameSummary:
    """One game of ``GET /v1/games``: its public facts (no token, no seed)."""

    id: str
    ruleset: str
    status: str
    version: int
    players: int
    created_at: int
    seats: tuple[Seat, ...]
    custom: bool = False
    tournament: str | None = None
    #: the ladder whose matchmaking pool started the game
    pool: str | None = None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> GameSummary:
        """Read one entry of ``games``."""
        return cls(raw["id"], raw["ruleset"], raw["status"], int(raw["version"]), int(raw["players"]),
                   int(raw["created_at"]), tuple(Seat.from_json(s) for s in raw.get("seats", ())),
                   bool(raw.get("custom", False)), raw.get("tournament"), raw.get("pool"), raw)

    @property
    def spectator_delay(self) -> int | None:
        """The game's spectator delay in versions (``version`` is then what its spectators see)."""
        delay = self.raw.get("spectator_delay")
        return None if delay is None else int(delay)
