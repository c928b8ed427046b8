"""The ladders in Redis (issue 42; ``referee.ladder.ledger`` says what each
key is for). One ladder's keys share the hash tag ``{ladder:<key>}``, so
they live in one cluster slot (its save is one script):

- ``{ladder:K}:ledger`` sorted set: game id scored by ``finished_at`` (ms),
  equal scores sorted by id: the ladder's order;
- ``{ladder:K}:entries`` hash: game id -> the entry (``referee.ladder.ratings.entry_of``);
- ``{ladder:K}:table`` string: the table without its rows; ``{ladder:K}:rows``
  hash: bot -> its row;
- ``{ladder:K}:checkpoints`` hash: entries folded -> the whole table then;
- ``{ladder:K}:lock``: who folds now.

And ``ladder:keys``, the set of every ladder's key (``GET /v1/ladder``)."""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from referee.engine.protocol import Json

KEYS = "ladder:keys"
#: the ledger's entry and its place, added once (both keys in the ladder's slot)
_ADD = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
"""
#: the table and its changed rows, at once
_SAVE = """
redis.call('SET', KEYS[1], ARGV[1])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
return 1
"""
#: the lock let go only by who holds it
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class LadderBusy(Exception):
    """Another process held the ladder's lock for longer than waited."""


class LadderBook:
    """One ladder in Redis (the ``referee.ladder.ledger.Book`` contract)."""

    #: a lock's life (ms): a process killed while folding lets go after this
    LOCK_MS = 60_000

    def __init__(self, client: redis.Redis, key: str) -> None:
        self.redis: Any = client
        self.key = key
        tag = f"{{ladder:{key}}}"
        self.k_ledger, self.k_entries = f"{tag}:ledger", f"{tag}:entries"
        self.k_table, self.k_rows = f"{tag}:table", f"{tag}:rows"
        self.k_checkpoints, self.k_lock = f"{tag}:checkpoints", f"{tag}:lock"

    def add(self, entry: Json) -> bool:
        self.redis.sadd(KEYS, self.key)
        added = self.redis.eval(_ADD, 2, self.k_entries, self.k_ledger, entry["game"], entry["at"],
                                json.dumps(entry, separators=(",", ":")))
        return bool(added)

    def size(self) -> int:
        return int(self.redis.zcard(self.k_ledger))

    def rank(self, game_id: str) -> int | None:
        found = self.redis.zrank(self.k_ledger, game_id)
        return None if found is None else int(found)

    def entries(self, start: int, count: int) -> list[Json]:
        ids = self.redis.zrange(self.k_ledger, start, start + count - 1)
        if not ids:
            return []
        return [json.loads(raw) for raw in self.redis.hmget(self.k_entries, ids)]

    def entry(self, game_id: str) -> Json | None:
        raw = self.redis.hget(self.k_entries, game_id)
        return None if raw is None else json.loads(raw)

    def table(self) -> Json | None:
        raw = self.redis.get(self.k_table)
        if raw is None:
            return None
        state: Json = json.loads(raw)
        state["rows"] = {bot.decode(): json.loads(row) for bot, row in self.redis.hgetall(self.k_rows).items()}
        return state

    def head(self) -> Json | None:
        """The table without its rows (its counts), ``None`` before its first game."""
        raw = self.redis.get(self.k_table)
        return None if raw is None else json.loads(raw)

    def rows(self, bots: list[str] | None = None) -> dict[str, Json]:
        """Every row, or those of ``bots`` that the ladder has."""
        if bots is None:
            return {bot.decode(): json.loads(row) for bot, row in self.redis.hgetall(self.k_rows).items()}
        if not bots:
            return {}
        return {bot: json.loads(raw) for bot, raw in zip(bots, self.redis.hmget(self.k_rows, bots))
                if raw is not None}

    def save(self, state: Json, touched: set[str]) -> None:
        rows = state["rows"]
        head = {k: v for k, v in state.items() if k != "rows"}
        args: list[str] = [json.dumps(head, separators=(",", ":"))]
        for bot in sorted(touched & rows.keys()):
            args += [bot, json.dumps(rows[bot], separators=(",", ":"))]
        self.redis.eval(_SAVE, 2, self.k_table, self.k_rows, *args)

    def checkpoints(self) -> list[int]:
        return [int(raw) for raw in self.redis.hkeys(self.k_checkpoints)]

    def checkpoint(self, folded: int) -> Json | None:
        raw = self.redis.hget(self.k_checkpoints, str(folded))
        return None if raw is None else json.loads(raw)

    def put_checkpoint(self, state: Json, keep: int) -> None:
        self.redis.hset(self.k_checkpoints, str(state["folded"]), json.dumps(state, separators=(",", ":")))
        old = sorted(self.checkpoints())[:-keep]
        if old:
            self.redis.hdel(self.k_checkpoints, *[str(n) for n in old])

    @contextmanager
    def locked(self, wait_s: float = 30.0, step_s: float = 0.02) -> Iterator[None]:
        """Hold the ladder's lock (one folder at a time), waiting up to
        ``wait_s`` for it; ``LadderBusy`` past that (the job is tried again)."""
        token = os.urandom(12).hex()  # not the secrets' stream: a lock's name is no secret
        deadline = time.monotonic() + wait_s
        while not self.redis.set(self.k_lock, token, nx=True, px=self.LOCK_MS):
            if time.monotonic() > deadline:
                raise LadderBusy(f"ladder {self.key} is being folded by another process")
            time.sleep(step_s)
        try:
            yield
        finally:
            self.redis.eval(_UNLOCK, 1, self.k_lock, token)


def ladder_keys(client: Any) -> list[str]:
    """Every ladder's key, sorted."""
    return sorted(raw.decode() for raw in client.smembers(KEYS))
