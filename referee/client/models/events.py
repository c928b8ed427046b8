"""A game's events and what vouches for them: a page of events, a move's
receipt, the signed head, the log and its audit."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.client.models.common import Json
from referee.client.models.games import Result


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
    the events the move caused (as the caller may see them) and the receipt;
    in a clocked game, what the clock charged it (``clock``: ``used_ms``,
    ``bank_ms``; docs/clocks.md); on the move that finishes the game, where
    its inclusion proof in the transparency log is served
    (``inclusion_proof``, docs/transparency.md). A retry under the same
    Idempotency-Key gets the very same answer."""

    version: int
    status: str
    events: tuple[Event, ...]
    receipt: Receipt
    raw: Json = field(repr=False, compare=False)
    clock: Json | None = None
    inclusion_proof: str | None = None

    @classmethod
    def from_json(cls, raw: Json) -> MoveAccepted:
        """Read a ``MoveAccepted`` object."""
        return cls(int(raw["version"]), raw["status"], tuple(Event.from_json(e) for e in raw["events"]),
                   Receipt.from_json(raw["receipt"]), raw, raw.get("clock"), raw.get("inclusion_proof"))


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
