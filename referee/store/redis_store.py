"""Redis implementation of the event store: atomic append, reads, waits."""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

import redis

from referee import settings
from referee.engine import canonical, canonical_bytes, sha256_hex
from referee.engine.jsonenc import loads
from referee.store.archived import ArchivedStore
from referee.store.bots import BotDirectory
from referee.store.clients import BlockingReads, is_cluster, through_failover
from referee.store.listing import GAMES, Index
from referee.store.places import PlaceStore
from referee.store.pool import PoolStore
from referee.store.presence import PresenceStore, Seen, parse
from referee.store.retention import Retention
from referee.store.slots import SlotStore
from referee.store.tournaments import TournamentStore
from referee.store.transparency import TransparencyStore
from referee.store.webhooks import WebhookStore
from referee.store.windows import WindowStore

T = TypeVar("T")

IDEMPOTENCY_TTL_S = 7 * 24 * 3600


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
#: the head's fields, then the seats' presence read in the same ``HMGET`` (``referee.store.presence``)
HEAD_FIELDS = ("version", "last_hash", "rng", "status", "last_at", "presence")


class SeenHead(tuple[int, str, int, str, int]):
    """A head as read, with the seats' presence read in the same round trip (``seen``)."""

    seen: Seen = {}

    def __new__(cls, head: Head, seen: Seen) -> SeenHead:
        made = super().__new__(cls, head)
        made.seen = seen
        return made


def _keys(game_id: str) -> tuple[str, str, str]:
    tag = f"game:{{{game_id}}}"
    return f"{tag}:events", f"{tag}:meta", f"{tag}:secret"


def summary_of(header: bytes | str, status: bytes | str, version: bytes | str | int, tokens: bytes | str | None,
               names: bytes | str | None) -> dict[str, Any]:
    """A game's listing facts from its stored meta fields (``summaries``; an archived game's too)."""
    held = json.loads(tokens or b"[]")
    return {"header": json.loads(header), "status": status.decode() if isinstance(status, bytes) else status,
            "version": int(version), "open": [i for i, t in enumerate(held) if t == "open"],
            # a seat given to a built-in bot at the start deadline holds "bot:<name>"
            "given": {i: t[4:] for i, t in enumerate(held) if t.startswith("bot:")},
            "names": json.loads(names) if names else None}


class NotReplicated(redis.exceptions.ConnectionError):
    """A write that no replica confirmed within the wait: it may be lost if
    its master dies now, so it is not acknowledged (503; a retry with the
    same idempotency key is answered from its record once it is replicated)."""


# an idempotency record read back, written again as it is (see append.lua)
_TOUCH = """
local rec = redis.call("GET", KEYS[1])
if rec then redis.call("SET", KEYS[1], rec, "KEEPTTL") end
return rec
"""

#: how long a write waits for a replica's confirmation, ms (``REFEREE_REDIS_WAIT_MS``)
DEFAULT_WAIT_MS = 1000
#: how long a master's count of replicas is trusted, seconds
REPLICAS_TTL_S = 1.0


def replicas_of(client: Any) -> int:
    """The fewest replicas any master of ``client``'s Redis has (0: none, or unknown)."""
    try:
        if is_cluster(client):
            nodes = client.cluster_nodes()  # {"ip:port": {"node_id", "flags", "master_id", ...}}
            masters = {info["node_id"]: 0 for info in nodes.values() if "master" in info["flags"]}
            for info in nodes.values():
                if "slave" in info["flags"] and info.get("master_id") in masters:
                    masters[info["master_id"]] += 1
            return min(masters.values()) if masters else 0
        return int(client.info("replication").get("connected_slaves", 0))
    except redis.RedisError:
        return 0


def wait_setting(client: Any) -> int:
    """``REFEREE_REDIS_WAIT_REPLICAS``: how many replicas must confirm a
    game's write before it is acknowledged; ``auto`` (the default) is 1 when
    every master has a replica, else 0 (nothing is waited for)."""
    raw = settings.text("REFEREE_REDIS_WAIT_REPLICAS").strip().lower()
    if raw in ("", "auto"):
        return 1 if replicas_of(client) > 0 else 0
    if not raw.isdigit():
        raise SystemExit(f"REFEREE_REDIS_WAIT_REPLICAS={raw!r}: use auto or a whole number of replicas")
    return int(raw)


class EventStore:
    """All Redis access of the referee's games goes through here."""

    def __init__(self, client: Any, retention: Retention | None = None, *, wait_replicas: int | None = None,
                 wait_ms: int | None = None, failover_s: float | None = None) -> None:
        self.retention = retention if retention is not None else Retention.from_env()
        # redis-py types every reply as a sync/async union; this store only
        # ever uses the sync client with bytes replies
        self.redis: Any = client
        #: a Redis Cluster: a game's keys on its slot's master; a failover waited out
        self.cluster = is_cluster(client)
        #: replicas that confirm a game's every write before it is acknowledged (0: none waited for)
        self.wait_replicas = wait_setting(client) if wait_replicas is None else wait_replicas
        self.wait_ms = wait_ms if wait_ms is not None else int(settings.text("REFEREE_REDIS_WAIT_MS"))
        self.failover_s = failover_s if failover_s is not None else float(
            settings.text("REFEREE_REDIS_FAILOVER_S"))
        # blocking reads outlast the ordinary socket timeout: pools of their own
        self._blocking = BlockingReads(client)
        lua = resources.files("referee.store")
        self._append = client.register_script(lua.joinpath("append.lua").read_text())
        self._create = client.register_script(lua.joinpath("create.lua").read_text())
        self._touch = client.register_script(_TOUCH)
        self._seat = client.register_script(lua.joinpath("seat.lua").read_text())
        self._chat = client.register_script(lua.joinpath("chat.lua").read_text())
        self._replicas: dict[str, tuple[int, float]] = {}  # master -> (its replicas, known until)
        #: registered webhook bots
        self.bots = BotDirectory(client, self.retention.idle_s)
        #: tournaments' specs, games and standings
        self.tournaments = TournamentStore(client, self._retry, self.retention)
        #: every game, newest first (``GET /v1/games``)
        self.games_index = Index(client, GAMES)
        #: the places clients hold under their quotas (``referee.http.quotas``)
        self.places = PlaceStore(client, self.queue_head, self._retry)
        #: where each person's seat was last seen, and the games to look at for seats away
        self.presence = PresenceStore(client, lambda game_id: _keys(game_id)[1], self._retry)
        #: games' end webhooks: where each goes and how its delivery went (issue 40 item 3)
        self.webhooks = WebhookStore(client, self._retry, self.retention)
        #: the transparency log of finished games' final heads (issue 41 item 4)
        self.transparency = TransparencyStore(client, self._retry)
        #: games' archive marks, and archived games written back (issue 41)
        self.archived = ArchivedStore(client, self._retry, self.retention.archived_ttl_ms())
        #: the ladders' matchmaking pools (issue 42 item 3)
        self.pool = PoolStore(client, self._retry)

    def _retry(self, call: Callable[[], T]) -> T:
        """``call`` tried again through a cluster failover (``clients.through_failover``)."""
        return through_failover(self.redis, call, deadline_s=self.failover_s)

    def _written(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run a game's write script and, when replicas are waited for, ``WAIT``
        on the same connection (WAIT counts the replicas that have this
        connection's writes): on a cluster, a connection to the master of the
        game's slot. Too few confirmations raise :class:`NotReplicated`.

        A master waits for as many replicas as it has now, up to
        ``wait_replicas``: after a failover the promoted replica serves alone
        until a replica joins it, and its writes are acknowledged on it alone
        meanwhile (docs/operations.md, "Running at scale": what a lone master can lose)."""
        if not self.wait_replicas:
            return script(keys=keys, args=args)
        if self.cluster:
            node = self.redis.get_node_from_key(keys[0])
            node_client, name = self.redis.get_redis_connection(node), node.name
        else:
            node_client, name = self.redis, ""
        wanted = min(self.wait_replicas, self._replicas_now(node_client, name))
        if not wanted:
            return script(keys=keys, args=args)
        for _ in range(2):
            pipe = node_client.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", wanted, self.wait_ms)
            try:
                reply, confirmed = pipe.execute()
            except redis.exceptions.NoScriptError:  # a new master (after a failover) or a flushed one
                node_client.script_load(script.script)
                continue
            except redis.exceptions.MovedError:  # the slot has a new master: learn it, then try again
                self.redis.nodes_manager.initialize()
                raise redis.exceptions.TryAgainError("the game's slot moved") from None
            if int(confirmed) < wanted:
                self._replicas.pop(name, None)  # a replica may have gone: count them again
                raise NotReplicated(f"{confirmed} of {wanted} replicas confirmed the write within {self.wait_ms} ms")
            return reply
        raise redis.exceptions.NoScriptError("the script could not be loaded")

    def _replicas_now(self, node_client: Any, name: str) -> int:
        """The replicas a master has now (asked again after ``REPLICAS_TTL_S``)."""
        now = time.monotonic()
        known = self._replicas.get(name)
        if known is not None and known[1] > now:
            return known[0]
        info: Any = node_client.info("replication")
        count = int(info.get("connected_slaves", 0)) if info.get("role") == "master" else 0
        self._replicas[name] = (count, now + REPLICAS_TTL_S)
        return count

    @staticmethod
    def idem_key(game_id: str, scope: str, key: str) -> str:
        """One namespace per caller (``seat:<n>``, ``worker``): a client can
        never occupy a key the worker will use."""
        return f"game:{{{game_id}}}:idem:{sha256_hex(canonical([scope, key]))}"

    # -- writes -------------------------------------------------------------
    def create(self, game_id: str, meta: Mapping[str, str], secret: Mapping[str, str],
               envelopes: list[dict[str, Any]]) -> bool:
        events, meta_key, secret_key = _keys(game_id)
        args: list[Any] = [json.dumps(meta), json.dumps(secret),
                           self.retention.game_ttl_ms(meta.get("status", "active")),
                           len(envelopes), *(canonical_bytes(e) for e in envelopes)]
        # a repeat of a create that landed finds the id taken: the caller deals anew
        return bool(self._retry(lambda: self._written(self._create, [events, meta_key, secret_key], args)))

    def seat_event(self, game_id: str, expected: int, seat: int, expect: str, token_hash: str, name: str | None,
                   envelope: dict[str, Any], last_hash: str, at: int) -> str:
        """Append a seat's event (claimed, token reissued) if the game is
        still at ``expected`` and the seat's token hash is ``expect`` (``""``:
        any real token), setting the seat's new token hash (and name) with
        it: ``ok``, ``conflict``, ``seat`` (the seat changed meanwhile) or ``missing``."""
        events, meta_key, secret_key = _keys(game_id)
        args = [expected, seat, expect, token_hash, name or "", canonical_bytes(envelope), last_hash, at,
                self.retention.game_ttl_ms("active")]
        outcome = self._retry(lambda: self._written(self._seat, [events, meta_key, secret_key], args))
        return str(outcome.decode() if isinstance(outcome, bytes) else outcome)

    def chat_event(self, game_id: str, expected: int, envelope: dict[str, Any], last_hash: str,
                   kept: tuple[str, str], rate: tuple[str, int, int, int] | None) -> str:
        """Append a table chat event (docs/chat.md) if the game is still at
        ``expected``, its last_at untouched, keeping ``kept`` (a field of the
        game's secret hash and its value: a message's opening, a hidden mark)
        and counting ``rate`` (the poster's field, now, window ms, limit):
        ``ok``, ``conflict``, ``missing`` or ``rate:<ms to wait>``. Never
        tried again on its own (a retry of one that landed would post twice)."""
        events, meta_key, secret_key = _keys(game_id)
        field, now, window, limit = rate if rate is not None else ("", 0, 0, 0)
        args = [expected, canonical_bytes(envelope), last_hash, kept[0], kept[1],
                self.retention.game_ttl_ms("active"), field, now, window, limit]
        outcome = self._written(self._chat, [events, meta_key, secret_key], args)
        return str(outcome.decode() if isinstance(outcome, bytes) else outcome)

    def chat_kept(self, game_id: str) -> dict[str, str]:
        """The game's chat fields of its secret hash (``chat:<seq>`` openings,
        ``hidden:<seq>`` marks), never the seed beside them."""
        _, _, secret_key = _keys(game_id)
        raw = self._retry(lambda: self.redis.hgetall(secret_key))
        return {k.decode(): v.decode() for k, v in raw.items() if k.startswith((b"chat:", b"hidden:"))}

    def chat_hide_kept(self, game_id: str, seq: int, by: str) -> None:
        """Mark message ``seq`` hidden once the game is over (its log is final: no event follows)."""
        _, _, secret_key = _keys(game_id)
        self._retry(lambda: self.redis.hsetnx(secret_key, f"hidden:{seq}", by))

    def index_game(self, game_id: str, created_at: int) -> None:
        """List a new game (``GET /v1/games``); the two oldest listed are
        dropped if their keys have expired, so the index keeps no more than
        what lives."""
        def run() -> None:
            pipe = self.redis.pipeline(transaction=False)  # listed, and the two oldest read, in one round trip
            pipe.zadd(GAMES, {game_id: created_at})
            pipe.zrange(GAMES, 0, 1)
            oldest = pipe.execute()[1]
            gone = [m.decode() for m, alive in zip(oldest, self._alive([m.decode() for m in oldest])) if not alive]
            self.games_index.drop(*gone)
        self._retry(run)

    def _alive(self, game_ids: list[str]) -> list[bool]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.exists(_keys(game_id)[1])
        return [bool(n) for n in pipe.execute()]

    def summaries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        """Each game's header, status and version (``None``: expired), in one round trip."""
        if not game_ids:
            return []
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hmget(_keys(game_id)[1], "header", "status", "version", "tokens", "names")
            return list(pipe.execute())
        return [None if header is None else summary_of(header, status, version, tokens, names)
                for header, status, version, tokens, names in self._retry(run)]

    def append(self, game_id: str, expected: int, envelopes: list[dict[str, Any]], *, last_hash: str,
               rng: int, status: str, at: int = 0, idem_key: tuple[str, str] | None = None,
               idem_record: bytes = b"") -> AppendResult:
        """Append ``envelopes`` if the game is still at ``expected``; store the
        idempotency record in the same step."""
        return self.append_moves(game_id, expected, [Appended(envelopes, last_hash, rng, status, at, idem_key,
                                                              idem_record)])

    def append_moves(self, game_id: str, expected: int, moves: list[Appended]) -> AppendResult:
        """Append several moves in a row in one step (one round trip), if the
        game is still at ``expected``: each with its envelopes and its
        idempotency record, the head set after the last; nothing of it if the
        game moved on, or if the first move's key was used already."""
        events, meta_key, secret_key = _keys(game_id)
        none = f"game:{{{game_id}}}:idem:none"  # no key: a name in the game's slot all the same
        idem = [self.idem_key(game_id, *m.idem_key) if m.idem_key else none for m in moves]
        args: list[Any] = [expected, self.retention.idem_ttl_s(IDEMPOTENCY_TTL_S),
                           self.retention.game_ttl_ms(moves[-1].status), len(moves)]
        for m in moves:
            args += [m.last_hash, m.rng, m.status, m.at, m.idem_record, len(m.envelopes),
                     *(canonical_bytes(e) for e in m.envelopes)]
        keys = [events, meta_key, idem[0], secret_key, *idem[1:], f"game:{{{game_id}}}:idems"]
        if moves[0].idem_key:  # a repeat of an append that landed is answered from its record: safe to try again
            outcome, value = self._retry(lambda: self._written(self._append, keys, args))
        else:
            outcome, value = self._written(self._append, keys, args)
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == "idem":
            return AppendResult("idem", record=value)
        return AppendResult(outcome, version=int(value))

    # -- reads --------------------------------------------------------------
    def meta(self, game_id: str) -> dict[str, str] | None:
        _, meta_key, _ = _keys(game_id)
        raw = self._retry(lambda: self.redis.hgetall(meta_key))
        if not raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    def head(self, game_id: str) -> Head | None:
        """(version, last_hash, rng position, status, last receipt time) in one round trip."""
        return self.parse_head(self._retry(lambda: self.queue_head(self.redis, game_id)))

    @staticmethod
    def queue_head(pipe: Any, game_id: str) -> Any:
        """Ask ``pipe`` (a client, or a pipeline that reads it with other
        commands in one round trip) for a game's head; ``parse_head`` reads the reply."""
        _, meta_key, _ = _keys(game_id)
        return pipe.hmget(meta_key, *HEAD_FIELDS)

    @staticmethod
    def parse_head(reply: Any) -> Head | None:
        version, last_hash, rng, status, last_at, *presence = reply
        if version is None:
            return None
        return SeenHead((int(version), last_hash.decode(), int(rng), status.decode(), int(last_at or 0)),
                        parse(presence[0] if presence else None))

    def secret(self, game_id: str) -> tuple[str, dict[str, Any]]:
        """The game's seed and the secrets dealt at its start."""
        _, _, secret_key = _keys(game_id)
        seed, dealt = self._retry(lambda: self.redis.hmget(secret_key, "seed", "dealt"))
        return (seed.decode() if seed else ""), (json.loads(dealt) if dealt else {})

    def idem_record(self, game_id: str, key: tuple[str, str]) -> bytes | None:
        """The record stored under ``(scope, key)`` (when replicas are waited
        for, once a replica has it)."""
        name = self.idem_key(game_id, *key)
        value = self._retry(lambda: self._written(self._touch, [name], []) if self.wait_replicas
                            else self.redis.get(name))
        return bytes(value) if value is not None else None

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        """Envelopes with ``after < seq <= upto``."""
        events, _, _ = _keys(game_id)
        end = f"{upto}-0" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self._retry(lambda: self.redis.xrange(events, f"({after}-0" if after > 0 else "-", end))
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
        entries = self._retry(lambda: self.redis.xrange(events, f"({after}-0" if after > 0 else "-", "+",
                                                        count=count))
        return [loads(fields[b"e"]) for _, fields in entries]

    def ping(self) -> bool:
        return bool(self.redis.ping())

    # -- the platform's own keys ----------------------------------------------
    def widen_pool(self, connections: int) -> None:
        """Let the client hold at least ``connections`` connections (per node on a cluster)."""
        if self.cluster:
            for node in self.redis.get_nodes():
                pool = node.redis_connection.connection_pool if node.redis_connection else None
                if pool is not None:
                    pool.max_connections = max(int(pool.max_connections), connections)
            self.redis.nodes_manager.connection_kwargs["max_connections"] = connections
            return
        pool = self.redis.connection_pool
        pool.max_connections = max(int(pool.max_connections), connections)

    def stream_slots(self) -> Any:
        """The open streams' slots (``referee.store.slots``)."""
        return SlotStore(self.redis)

    def windows(self) -> Any:
        """The rate limiter's windows (``referee.store.windows``)."""
        return WindowStore(self.redis, self.queue_head, self._retry, self.parse_head)
