"""Typed results of :mod:`referee.client`: frozen dataclasses read from the
JSON the referee answers (openapi.yaml), each keeping that JSON whole as
``.raw``. What depends on the ruleset (a view's ``state``, ``legal_moves``,
``pending``, an event's ``data``) stays plain JSON."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

#: a JSON object as decoded
Json = dict[str, Any]


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

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Seat:
        """Read a ``Seat`` (or ``SeatWithToken``) object."""
        return cls(int(raw["seat"]), str(raw["name"]), raw.get("bot"), raw.get("token"))


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
class HeadSignature:
    """The referee's Ed25519 signature of a finished game's final head (on
    its last event, ``seed_revealed``), under key ``kid`` of ``GET /v1/keys``."""

    kid: str
    sig: str

    @classmethod
    def from_json(cls, raw: Json | None) -> HeadSignature | None:
        """Read a ``HeadSignature`` (``None`` when absent)."""
        return None if raw is None else cls(raw["kid"], raw["sig"])


@dataclass(frozen=True)
class Event:
    """One event of a game's log as the caller may see it: ``seq`` (the
    version it took the game to), ``type``, ``actor`` (a seat, ``None`` for
    the referee), ``at`` (ms), ``data`` (the ruleset's JSON, redacted for the
    caller when ``redacted``), and its place in the hash chain."""

    seq: int
    type: str
    actor: int | None
    at: int
    data: Json | None
    commit: str
    prev: str
    hash: str
    salt: str | None
    redacted: bool
    signature: HeadSignature | None
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Event:
        """Read an ``Event`` envelope."""
        return cls(int(raw["seq"]), raw["type"], raw.get("actor"), int(raw["at"]), raw.get("data"),
                   raw.get("commit", ""), raw.get("prev", ""), raw.get("hash", ""), raw.get("salt"),
                   bool(raw.get("redacted", False)), HeadSignature.from_json(raw.get("signature")), raw)


@dataclass(frozen=True)
class EventPage:
    """``GET /v1/games/{id}/events``: the events after ``after`` (possibly
    none, when a long-poll timed out) and the game's version and status."""

    id: str
    version: int
    status: str
    events: tuple[Event, ...]
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> EventPage:
        """Read an ``EventPage`` object."""
        return cls(raw["id"], int(raw["version"]), raw["status"],
                   tuple(Event.from_json(e) for e in raw["events"]), raw)


@dataclass(frozen=True)
class Receipt:
    """The referee's signed statement that it accepted a move of ``game``
    received at ``at`` (ms), taking it to ``version`` with head ``head``:
    ``sig`` is an Ed25519 signature under key ``kid`` of ``GET /v1/keys``.
    Keep it: ``referee audit LOG --receipt FILE`` fails a log that does not
    hold ``head`` at ``version``."""

    game: str
    version: int
    head: str
    at: int
    kid: str
    sig: str
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> Receipt:
        """Read a ``Receipt`` object."""
        return cls(raw["game"], int(raw["version"]), raw["head"], int(raw["at"]), raw["kid"], raw["sig"], raw)


@dataclass(frozen=True)
class MoveAccepted:
    """``POST /v1/games/{id}/moves``' 201: the game's new version and status,
    the events the move caused (as the caller may see them) and the receipt.
    A retry under the same Idempotency-Key gets the very same answer."""

    version: int
    status: str
    events: tuple[Event, ...]
    receipt: Receipt
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> MoveAccepted:
        """Read a ``MoveAccepted`` object."""
        return cls(int(raw["version"]), raw["status"], tuple(Event.from_json(e) for e in raw["events"]),
                   Receipt.from_json(raw["receipt"]), raw)


@dataclass(frozen=True)
class GameLog:
    """``GET /v1/games/{id}/log``: the full, unredacted log (public once the
    game is over): the ``header`` and its hash, then every event. ``lines``
    holds each NDJSON line decoded, as the server sent it."""

    header: Json
    header_hash: str
    events: tuple[Event, ...]
    lines: list[Json] = field(repr=False, compare=False)
    text: str = field(repr=False, compare=False, default="")

    @classmethod
    def from_ndjson(cls, text: str) -> GameLog:
        """Read the NDJSON log (``text`` is kept: it is what ``referee audit`` reads)."""
        import json
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        first = lines[0] if lines else {}
        return cls(first.get("header", {}), first.get("hash", ""), tuple(Event.from_json(e) for e in lines[1:]),
                   lines, text)


@dataclass(frozen=True)
class AuditCheck:
    """One check of an audit: its name, whether it holds, what it found;
    ``checked`` is false for ``signature``/``receipts`` when no key was given."""

    name: str
    ok: bool
    detail: str
    checked: bool | None = None

    @classmethod
    def from_json(cls, raw: Json) -> AuditCheck:
        """Read one entry of ``checks``."""
        return cls(raw["name"], bool(raw["ok"]), str(raw.get("detail", "")), raw.get("checked"))


@dataclass(frozen=True)
class AuditReport:
    """``GET /v1/games/{id}/audit``: the verification report. ``ok`` when
    every check holds; ``divergence`` is the first place where the log is not
    what it must be (``None`` when it is)."""

    id: str
    ok: bool
    format: int
    events: int
    signed: bool
    checks: tuple[AuditCheck, ...]
    divergence: Json | None
    result: Result | None
    raw: Json = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> AuditReport:
        """Read an ``AuditReport`` object."""
        return cls(raw["id"], bool(raw["ok"]), int(raw["format"]), int(raw["events"]), bool(raw.get("signed")),
                   tuple(AuditCheck.from_json(c) for c in raw["checks"]), raw.get("divergence"),
                   Result.from_json(raw.get("result")), raw)


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

    @classmethod
    def from_json(cls, raw: Json) -> Bot:
        """Read a ``Bot`` object."""
        kind = raw.get("kind") or ("webhook" if raw.get("url") else "outbound")
        return cls(raw["id"], raw["name"], raw.get("url"), tuple(raw["rulesets"]), int(raw["created_at"]),
                   str(kind), raw.get("secret"), raw)


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
    rating); ``cancel_token`` only in the answer to its creation."""

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
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> GameSummary:
        """Read one entry of ``games``."""
        return cls(raw["id"], raw["ruleset"], raw["status"], int(raw["version"]), int(raw["players"]),
                   int(raw["created_at"]), tuple(Seat.from_json(s) for s in raw.get("seats", ())),
                   bool(raw.get("custom", False)), raw.get("tournament"), raw)


@dataclass(frozen=True)
class BotSummary:
    """One bot of ``GET /v1/bots`` (never its URL or secret)."""

    id: str
    name: str
    kind: str
    rulesets: tuple[str, ...]
    created_at: int
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, raw: Json) -> BotSummary:
        """Read one entry of ``bots``."""
        return cls(raw["id"], raw["name"], raw["kind"], tuple(raw["rulesets"]), int(raw["created_at"]), raw)


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


Item = TypeVar("Item")


@dataclass(frozen=True)
class Page(Generic[Item]):
    """One page of a listing, newest first: its ``items`` and ``next``, the
    following page's cursor (``None``: this is the last page)."""

    items: tuple[Item, ...]
    next: str | None
    raw: Json = field(repr=False, compare=False)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


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
