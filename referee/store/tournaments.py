"""Tournaments in Redis (``referee.play.tournaments`` holds what they mean).

Keys, all in the tournament's hash slot (one ``{ID}`` tag, so every script
and transaction here touches one cluster slot): ``tournament:{ID}`` (hash:
spec, status ``running|finished|cancelled``, seed, cancel_hash, next = games
launched, finished, failed = games whose dealing was refused, stopped = that
refusal, a problem's JSON, closed_at = when it stopped running), ``…:games`` (hash: index -> game id), ``…:index``
(hash: game id -> index), ``…:results`` (hash: game id -> result with
entrants), ``…:winners`` (hash: game id -> winners' names) and
``…:standings`` (the standings fold, JSON).

The quotas (``referee.play.tournaments`` decides them): ``tournaments:quota:{CALLER}``
(sorted set: the caller's unfinished tournaments, scored by when their lease
lapses), ``tournaments:{in-flight}`` (sorted set: the tournament games being
played in the whole deployment, scored the same way) and
``tournaments:{in-flight}:waiting`` (sorted set: tournaments waiting for a
game slot, by when they began to wait). Each key is its own hash slot; a
script touches one key. A member whose lease lapsed (a worker that crashed
before freeing it) is dropped the next time the set is counted.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from referee.store.listing import TOURNAMENTS, Index
from referee.store.retention import Retention

T = TypeVar("T")

# claim the next game index while the tournament runs: {-1} once cancelled, all
# launched, or (ARGV[2]) as many games being played as it may play at once; else
# {index, the tournament's seed, 1 if a next claim could succeed now else 0}
_CLAIM = """
if redis.call('hget', KEYS[1], 'status') ~= 'running' then return {-1} end
local n = tonumber(redis.call('hget', KEYS[1], 'next') or '0')
if n >= tonumber(ARGV[1]) then return {-1} end
local playing = n - tonumber(redis.call('hget', KEYS[1], 'finished') or '0')
if ARGV[2] and playing >= tonumber(ARGV[2]) then return {-1} end
redis.call('hset', KEYS[1], 'next', n + 1)
local more = 1
if n + 1 >= tonumber(ARGV[1]) or (ARGV[2] and playing + 1 >= tonumber(ARGV[2])) then more = 0 end
return {n, redis.call('hget', KEYS[1], 'seed'), more}
"""
# running -> ARGV[1] (finished or cancelled), closed_at = ARGV[2]; returns the status before
_CLOSE = """
local status = redis.call('hget', KEYS[1], 'status')
if status == 'running' then redis.call('hset', KEYS[1], 'status', ARGV[1], 'closed_at', ARGV[2]) end
return status
"""

# a slot in a lease set: drop lapsed leases, renew the member if it is in, else
# add it below the limit; {1, count} or {0, the earliest lease's end}
_TAKE = """
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zscore', KEYS[1], ARGV[4]) then
  redis.call('zadd', KEYS[1], ARGV[3], ARGV[4])
  redis.call('pexpire', KEYS[1], ARGV[5])
  return {1, redis.call('zcard', KEYS[1])}
end
local n = redis.call('zcard', KEYS[1])
if n >= tonumber(ARGV[2]) then
  local first = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, first[2]}
end
redis.call('zadd', KEYS[1], ARGV[3], ARGV[4])
redis.call('pexpire', KEYS[1], ARGV[5])
return {1, n + 1}
"""

# one game's result recorded, if not recorded yet (-1) and if the standings are
# still as read (-2 otherwise: read and fold again); the games finished after it.
# KEYS: results, standings, winners, the tournament's hash; ARGV: game id, whether
# the standings were absent ("1"), the standings as read, result, winners,
# standings after the game, its events, the ttl (ms, 0: none) of every key of the
# tournament after it (KEYS[5..]: the rest of them); returns {games finished, the
# tournament's quota field, its status}
_RECORD = """
if redis.call('hexists', KEYS[1], ARGV[1]) == 1 then return -1 end
local stored = redis.call('get', KEYS[2])
if (ARGV[2] == '1' and stored) or (ARGV[2] ~= '1' and stored ~= ARGV[3]) then return -2 end
redis.call('hset', KEYS[1], ARGV[1], ARGV[4])
redis.call('hset', KEYS[3], ARGV[1], ARGV[5])
redis.call('set', KEYS[2], ARGV[6])
redis.call('hincrby', KEYS[4], 'events', ARGV[7])
local finished = redis.call('hincrby', KEYS[4], 'finished', 1)
local ttl = tonumber(ARGV[8])
for _, key in ipairs(KEYS) do
  if ttl > 0 then redis.call('pexpire', key, ttl) else redis.call('persist', key) end
end
return {finished, redis.call('hget', KEYS[4], 'quota'), redis.call('hget', KEYS[4], 'status')}
"""

IN_FLIGHT = "tournaments:{in-flight}"
WAITING = "tournaments:{in-flight}:waiting"

#: every key of a tournament besides its hash
PARTS = ("games", "index", "results", "standings", "winners")


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class TournamentStore:
    """Typed reads and writes of tournaments' keys."""

    def __init__(self, client: Any, retry: Callable[[Callable[[], Any]], Any] = lambda call: call(),
                 retention: Retention | None = None) -> None:
        self.redis: Any = client
        #: how long a tournament's keys live: as long as its games do (``ttl_ms``)
        self.retention = retention if retention is not None else Retention()
        self._retry = retry  # reads and repeatable writes, through a cluster failover
        self._claim = client.register_script(_CLAIM)
        self._close = client.register_script(_CLOSE)
        self._take = client.register_script(_TAKE)
        self._record = client.register_script(_RECORD)
        #: every tournament, newest first (``GET /v1/tournaments``)
        self.listed = Index(client, TOURNAMENTS)

    @staticmethod
    def key(tid: str, part: str = "") -> str:
        return f"tournament:{{{tid}}}" + (f":{part}" if part else "")

    def create(self, tid: str, fields: dict[str, Any], standings: str) -> None:
        """A new tournament's hash and empty standings, in one transaction."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(self.key(tid, "standings"), standings)
        pipe.hset(self.key(tid), mapping=fields)
        pipe.execute()
        self._retry(lambda: self.listed.add(tid, int(json.loads(fields["spec"]).get("created_at", 0))))

    def page(self, after: tuple[int, str] | None, count: int) -> list[tuple[str, int, dict[str, str | None]]]:
        """``(id, created_at, {spec, status, finished})`` newest first after ``after``; expired ones dropped."""
        ids = self._retry(lambda: self.listed.page(after, count))
        if not ids:
            return []
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            for tid, _ in ids:
                pipe.hmget(self.key(tid), "spec", "status", "finished")
            return list(pipe.execute())
        out, gone = [], []
        for (tid, at), raw in zip(ids, self._retry(run)):
            if raw[0] is None:
                gone.append(tid)
            else:
                out.append((tid, at, dict(zip(("spec", "status", "finished"), map(_text, raw)))))
        self._retry(lambda: self.listed.drop(*gone))
        return out

    def ttl_ms(self, *, running: bool) -> int:
        """The TTL (ms, 0: none) of a tournament's keys: its games' idle retention while it runs, their
        finished retention once it is over."""
        return self.retention.game_ttl_ms("active" if running else "finished")

    def retain(self, tid: str, ttl_ms: int) -> None:
        """Every key of the tournament expires in ``ttl_ms`` (0: never)."""
        def run() -> None:
            pipe = self.redis.pipeline(transaction=False)
            for name in (self.key(tid), *(self.key(tid, part) for part in PARTS)):
                if ttl_ms:
                    pipe.pexpire(name, ttl_ms)
                else:
                    pipe.persist(name)
            pipe.execute()
        self._retry(run)

    def fields(self, tid: str, *names: str) -> list[str | None]:
        """Fields of the tournament's hash (``None`` where absent)."""
        return [_text(v) for v in self._retry(lambda: self.redis.hmget(self.key(tid), *names))]

    def field(self, tid: str, name: str) -> str | None:
        return self.fields(tid, name)[0]

    def close(self, tid: str, status: str, now_ms: int) -> str | None:
        """``running`` -> ``status``, closed at ``now_ms``; the status before (a repeat is harmless)."""
        return _text(self._retry(lambda: self._close(keys=[self.key(tid)], args=[status, now_ms])))

    def stop(self, tid: str, problem: str, now_ms: int) -> str | None:
        """A claimed game could not be dealt (``problem``: the refusal, JSON):
        it counts as failed, the refusal is kept, and the tournament is
        closed ``cancelled``; the status before."""
        def run() -> None:
            pipe = self.redis.pipeline(transaction=True)
            pipe.hincrby(self.key(tid), "failed", 1)
            pipe.hsetnx(self.key(tid), "stopped", problem)
            pipe.execute()
        run()  # not repeatable (a count): not retried
        return self.close(tid, "cancelled", now_ms)

    def claim(self, tid: str, games: int, parallel: int | None = None) -> tuple[int, bytes, bool]:
        """``(index, seed, more)``: the next game index to launch, or -1
        (cancelled, all launched, or ``parallel`` games launched and not
        finished); the tournament's seed (read in the same step); and whether
        a next claim could succeed now (``False``: it would give -1 unless a
        game finishes meanwhile, whose ``game_finished`` launches the next)."""
        args = [games] if parallel is None else [games, parallel]
        reply = self._claim(keys=[self.key(tid)], args=args)
        if int(reply[0]) < 0:
            return -1, b"", False
        return int(reply[0]), bytes(reply[1] or b""), bool(int(reply[2]))

    def add_game(self, tid: str, index: int, game_id: str) -> None:
        def run() -> None:
            pipe = self.redis.pipeline(transaction=True)
            pipe.hset(self.key(tid, "games"), str(index), game_id)
            pipe.hset(self.key(tid, "index"), game_id, index)
            pipe.execute()
        self._retry(run)

    def games(self, tid: str) -> dict[int, str]:
        """Index -> game id of every game launched."""
        raw = self._retry(lambda: self.redis.hgetall(self.key(tid, "games")))
        return {int(k): v.decode() for k, v in raw.items()}

    def index_of(self, tid: str, game_id: str) -> int | None:
        raw = self._retry(lambda: self.redis.hget(self.key(tid, "index"), game_id))
        return int(raw) if raw is not None else None

    def recording(self, tid: str, game_id: str) -> tuple[bool, int | None]:
        """``(has_standings(tid), index_of(tid, game_id))`` in one round trip."""
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            pipe.exists(self.key(tid, "standings"))
            pipe.hget(self.key(tid, "index"), game_id)
            return list(pipe.execute())
        has, raw = self._retry(run)
        return bool(has), int(raw) if raw is not None else None

    def winners(self, tid: str) -> dict[str, str]:
        """Game id -> its winners (JSON) of every game recorded."""
        raw = self._retry(lambda: self.redis.hgetall(self.key(tid, "winners")))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def results(self, tid: str) -> dict[str, str]:
        raw = self._retry(lambda: self.redis.hgetall(self.key(tid, "results")))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def standings(self, tid: str) -> bytes | None:
        raw = self._retry(lambda: self.redis.get(self.key(tid, "standings")))
        return bytes(raw) if raw is not None else None

    def record(self, tid: str, game_id: str, entry: str, winners: str,
               fold: Callable[[bytes | None], str], *, events: int = 0,
               ttl_ms: int = 0) -> tuple[int, str | None, str | None] | None:
        """Add one game's result and winners and fold it into the standings
        (``fold``: stored standings -> new ones) in one step, optimistic (two
        workers finishing games at once: one reads and folds again); the
        number of games finished (the finished games' events counted too, for
        progress) and the ``quota`` and ``status`` fields right after, or
        ``None`` if the game was recorded before; every key of
        the tournament then expires in ``ttl_ms`` (0: never), as ``retain``
        sets it. Two round trips: the read, then ``_RECORD``, which writes
        only if the standings are still those folded."""
        results, table = self.key(tid, "results"), self.key(tid, "standings")
        keys = [results, table, self.key(tid, "winners"), self.key(tid),
                *(self.key(tid, part) for part in PARTS if part not in ("results", "standings", "winners"))]

        def read() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hexists(results, game_id)
            pipe.get(table)
            return list(pipe.execute())
        while True:
            recorded, stored = self._retry(read)
            if recorded:
                return None
            folded = fold(stored)
            reply = self._record(keys=keys, args=[game_id, "1" if stored is None else "0", stored or b"", entry,
                                                  winners, folded, events, ttl_ms])
            if isinstance(reply, list):
                return int(reply[0]), _text(reply[1]), _text(reply[2])
            if int(reply) == -1:
                return None

    def migrate(self, tid: str, index: dict[str, int], winners: dict[str, str], standings: str) -> None:
        """Write the index, winners and standings of a tournament stored before
        they were kept (the standings only if still absent)."""
        for game_id, i in index.items():
            self.redis.hset(self.key(tid, "index"), game_id, i)
        for game_id, names in winners.items():
            self.redis.hset(self.key(tid, "winners"), game_id, names)
        self.redis.set(self.key(tid, "standings"), standings, nx=True)

    def has_standings(self, tid: str) -> bool:
        return bool(self._retry(lambda: self.redis.exists(self.key(tid, "standings"))))

    # -- quotas: leases in sorted sets, one key (one slot) per script -------------
    @staticmethod
    def quota_key(caller: str) -> str:
        return f"tournaments:quota:{{{caller}}}"

    def take(self, key: str, member: str, limit: int, now_ms: int, lease_ms: int) -> tuple[bool, int]:
        """A slot of ``key`` for ``member`` (renewed if it holds one) while
        fewer than ``limit`` leases are live: ``(True, slots taken)``, or
        ``(False, when the earliest lease lapses, ms)``."""
        taken, n = self._retry(lambda: self._take(keys=[key], args=[now_ms, limit, now_ms + lease_ms, member,
                                                                    lease_ms]))
        return bool(int(taken)), int(float(n))

    def renew(self, key: str, member: str, now_ms: int, lease_ms: int) -> None:
        """Extend ``member``'s lease, if it still holds one."""
        def run() -> None:
            pipe = self.redis.pipeline(transaction=True)
            pipe.zadd(key, {member: now_ms + lease_ms}, xx=True)
            pipe.pexpire(key, lease_ms)
            pipe.execute()
        self._retry(run)

    def free(self, key: str, member: str) -> None:
        self._retry(lambda: self.redis.zrem(key, member))

    def live(self, key: str, now_ms: int) -> list[str]:
        """The members of ``key`` whose lease has not lapsed."""
        raw = self._retry(lambda: self.redis.zrangebyscore(key, f"({now_ms}", "+inf"))
        return [m.decode() for m in raw]

    def count(self, key: str, now_ms: int) -> int:
        """Live leases of ``key``."""
        return int(self._retry(lambda: self.redis.zcount(key, f"({now_ms}", "+inf")))

    def wait(self, tid: str, since_ms: int) -> None:
        """``tid`` waits for a game slot since ``since_ms`` (keeping an earlier place)."""
        self._retry(lambda: self.redis.zadd(WAITING, {tid: since_ms}, lt=True))

    def next_waiting(self) -> tuple[str, int] | None:
        """The tournament that has waited longest for a game slot, taken off
        the list, and since when."""
        popped = self.redis.zpopmin(WAITING)
        return (str(_text(popped[0][0])), int(popped[0][1])) if popped else None

    def wait_then_next(self, tid: str, since_ms: int) -> tuple[str, int] | None:
        """``wait(tid, since_ms)`` then ``next_waiting()``, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(WAITING, {tid: since_ms}, lt=True)
        pipe.zpopmin(WAITING)
        popped = pipe.execute()[1]
        return (str(_text(popped[0][0])), int(popped[0][1])) if popped else None

    def waiting(self) -> int:
        return int(self._retry(lambda: self.redis.zcard(WAITING)))
