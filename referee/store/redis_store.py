"""Redis implementation of the event store: atomic append, reads, waits."""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable, Mapping

import redis

from referee.engine import canonical, canonical_bytes, sha256_hex
from referee.engine.jsonenc import loads
from referee.store.clients import BlockingReads
from referee.store.retention import Retention

IDEMPOTENCY_TTL_S = 7 * 24 * 3600
#: where the append publishes a game's new head (``referee.store.pushed``)
PUSHED_CHANNEL = "referee:pushed"


@dataclass(frozen=True, slots=True)
class AppendResult:
    outcome: str  # "ok" | "conflict" | "idem" | "missing"
    version: int = 0
    record: bytes | None = None


@dataclass(frozen=True, slots=True)
class Appended:
    """One move as ``append_moves`` stores it: its envelopes, the head after
    it, and its idempotency key (scope, key) and record."""

    envelopes: list[dict[str, Any]]
    last_hash: str
    rng: int
    status: str
    at: int
    idem_key: tuple[str, str] | None = None
    idem_record: bytes = b""


#: a game's head: (version, last_hash, rng position, status, last receipt time)
Head = tuple[int, str, int, str, int]
HEAD_FIELDS = ("version", "last_hash", "rng", "status", "last_at")


def _keys(game_id: str) -> tuple[str, str, str]:
    tag = f"game:{{{game_id}}}"
    return f"{tag}:events", f"{tag}:meta", f"{tag}:secret"


class EventStore:
    """All Redis access of the referee's games goes through here."""

    def __init__(self, client: redis.Redis, retention: Retention | None = None) -> None:
        self.retention = retention if retention is not None else Retention.from_env()
        # redis-py types every reply as a sync/async union; this store only
        # ever uses the sync client with bytes replies
        self.redis: Any = client
        # blocking reads outlast the ordinary socket timeout: pools of their own
        self._blocking = BlockingReads(client)
        lua = resources.files("referee.store")
        self._append = client.register_script(lua.joinpath("append.lua").read_text())
        self._create = client.register_script(lua.joinpath("create.lua").read_text())

    @staticmethod
    def idem_key(game_id: str, scope: str, key: str) -> str:
        """One namespace per caller (``seat:<n>``, ``worker``): a client can
        never occupy a key the worker will use."""
        return f"game:{{{game_id}}}:idem:{sha256_hex(canonical([scope, key]))}"

    # -- writes -------------------------------------------------------------
    def create(self, game_id: str, meta: Mapping[str, str], secret: Mapping[str, str],
               envelopes: list[dict[str, Any]]) -> bool:
        events, meta_key, secret_key = _keys(game_id)
        args: list[Any] = [json.dumps(meta), json.dumps(secret), self.retention.game_ttl_ms(meta.get("status", "active")),
                           len(envelopes), *(canonical_bytes(e) for e in envelopes)]
        return bool(self._create(keys=[events, meta_key, secret_key], args=args))

    def append(self, game_id: str, expected: int, envelopes: list[dict[str, Any]], *, last_hash: str,
               rng: int, status: str, at: int = 0, idem_key: tuple[str, str] | None = None,
               idem_record: bytes = b"") -> AppendResult:
        """Append ``envelopes`` if the game is still at ``expected``; store the
        idempotency record in the same step."""
        return self.append_moves(game_id, expected, [Appended(envelopes, last_hash, rng, status, at, idem_key,
                                                              idem_record)])

    def append_moves(self, game_id: str, expected: int, moves: list["Appended"]) -> AppendResult:
        """Append several moves in a row in one step (one round trip), if the
        game is still at ``expected``: each with its envelopes and its
        idempotency record, the head set after the last; nothing of it if the
        game moved on, or if the first move's key was used already."""
        events, meta_key, secret_key = _keys(game_id)
        idem = [self.idem_key(game_id, *m.idem_key) if m.idem_key else "" for m in moves]
        args: list[Any] = [expected, self.retention.idem_ttl_s(IDEMPOTENCY_TTL_S),
                           self.retention.game_ttl_ms(moves[-1].status), PUSHED_CHANNEL, game_id, len(moves)]
        for m in moves:
            args += [m.last_hash, m.rng, m.status, m.at, m.idem_record, len(m.envelopes),
                     *(canonical_bytes(e) for e in m.envelopes)]
        outcome, value = self._append(keys=[events, meta_key, idem[0], secret_key, *idem[1:]], args=args)
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == "idem":
            return AppendResult("idem", record=value)
        return AppendResult(outcome, version=int(value))

    # -- reads --------------------------------------------------------------
    def meta(self, game_id: str) -> dict[str, str] | None:
        _, meta_key, _ = _keys(game_id)
        raw = self.redis.hgetall(meta_key)
        if not raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    def head(self, game_id: str) -> Head | None:
        """(version, last_hash, rng position, status, last receipt time) in one round trip."""
        return self.parse_head(self.queue_head(self.redis, game_id))

    @staticmethod
    def queue_head(pipe: Any, game_id: str) -> Any:
        """Ask ``pipe`` (a client, or a pipeline that reads it with other
        commands in one round trip) for a game's head; ``parse_head`` reads the reply."""
        _, meta_key, _ = _keys(game_id)
        return pipe.hmget(meta_key, *HEAD_FIELDS)

    @staticmethod
    def queue_head_ttl(pipe: Any, game_id: str) -> None:
        """``queue_head`` and the PTTL of the game's keys (two replies)."""
        EventStore.queue_head(pipe, game_id)
        pipe.pttl(_keys(game_id)[1])

    def head_ttl(self, game_id: str) -> tuple[Head | None, int]:
        """The head and its keys' PTTL (ms; -1: none) in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        self.queue_head_ttl(pipe, game_id)
        reply, pttl = pipe.execute()
        return self.parse_head(reply), int(pttl)

    @staticmethod
    def parse_head(reply: Any) -> Head | None:
        version, last_hash, rng, status, last_at = reply
        if version is None:
            return None
        return int(version), last_hash.decode(), int(rng), status.decode(), int(last_at or 0)

    def secret(self, game_id: str) -> tuple[str, dict[str, Any]]:
        """The game's seed and the secrets dealt at its start."""
        _, _, secret_key = _keys(game_id)
        seed, dealt = self.redis.hmget(secret_key, "seed", "dealt")
        return (seed.decode() if seed else ""), (json.loads(dealt) if dealt else {})

    def idem_record(self, game_id: str, key: tuple[str, str]) -> bytes | None:
        """The record stored under ``(scope, key)``."""
        value = self.redis.get(self.idem_key(game_id, *key))
        return bytes(value) if value is not None else None

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        """Envelopes with ``after < seq <= upto``."""
        events, _, _ = _keys(game_id)
        end = f"{upto}-0" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(events, f"({after}-0" if after > 0 else "-", end)
        return [loads(fields[b"e"]) for _, fields in entries]

    def wait(self, game_id: str, after: int, timeout_s: float) -> None:
        """Block until an event with ``seq > after`` exists or the timeout
        (at most 30 s) passes. A Redis that stops answering meanwhile raises
        ``TimeoutError`` after the block (rounded up to a step of
        ``clients.BLOCK_STEPS_S``) plus the ordinary socket timeout."""
        events, _, _ = _keys(game_id)
        client, block_s = self._blocking.client(timeout_s)
        client.xread({events: f"{after}-0"}, count=1, block=max(1, int(block_s * 1000)))

    def iter_envelopes(self, game_id: str, batch: int = 1000) -> Iterable[dict[str, Any]]:
        after = 0
        while True:
            chunk = self.read_batch(game_id, after, batch)
            if not chunk:
                return
            yield from chunk
            after = chunk[-1]["seq"]

    def read_batch(self, game_id: str, after: int, count: int) -> list[dict[str, Any]]:
        events, _, _ = _keys(game_id)
        entries = self.redis.xrange(events, f"({after}-0" if after > 0 else "-", "+", count=count)
        return [loads(fields[b"e"]) for _, fields in entries]

    def ping(self) -> bool:
        return bool(self.redis.ping())
