"""The ladders in Redis (issue 42; ``referee.ladder.ledger`` says what each
key is for). One ladder's keys share the hash tag ``{ladder:<key>}``, so
they live in one cluster slot (its save is one script):

- ``{ladder:K}:ledger`` sorted set: game id scored by ``finished_at`` (ms),
  equal scores sorted by id: the ladder's order;
- ``{ladder:K}:entries`` hash: game id -> the entry (``referee.ladder.ratings.entry_of``);
- ``{ladder:K}:games:<bot>`` and ``{ladder:K}:rated:<bot>`` sorted sets, like
  the ledger: each bot's games, and its rated ones (its profile's games and
  rating history: entered with the entry, in an order no fold changes);
- ``{ladder:K}:table`` string: the table without its rows; ``{ladder:K}:rows``
  hash: bot -> its row; ``{ladder:K}:after`` hash: rated game -> each of its
  bots' rating after it (written by the fold: a refold rewrites it);
- ``{ladder:K}:checkpoints`` hash: entries folded -> the whole table then;
- ``{ladder:K}:lock``: who folds now.

And ``ladder:keys``, the set of every ladder's key (``GET /v1/ladder``)."""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import redis

from referee.engine.protocol import Json

KEYS = "ladder:keys"
#: the ledger's entry, its place, and its place among each of its bots' games, added once (every key
#: in the ladder's slot: KEYS[3..] are the bots' indexes)
_ADD = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 0 then return 0 end
for i = 2, #KEYS do redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1]) end
return 1
"""
#: the table, its changed rows (ARGV[2] of them) and the ratings after its newly folded games, at once
_SAVE = """
redis.call('SET', KEYS[1], ARGV[1])
local rows = 3 + 2 * tonumber(ARGV[2])
for i = 3, rows - 1, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
for i = rows, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
return 1
"""
#: the entries at places ARGV[1]..ARGV[2] of the ledger, in one round trip
_ENTRIES = """
local ids = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ids))
"""
#: a bot's row, the ids of its last ARGV[2] games and ARGV[3] rated games (newest first) and the ratings after
#: those, read at once: a fold saves the rows and the ratings together (_SAVE), so the row counts exactly the
#: rated games whose ratings are read; false without a row (KEYS: rows, the bot's games, its rated, after)
_STANDING = """
local row = redis.call('HGET', KEYS[1], ARGV[1])
if not row then return false end
local recent = redis.call('ZREVRANGE', KEYS[2], 0, tonumber(ARGV[2]) - 1)
local rated = redis.call('ZREVRANGE', KEYS[3], 0, tonumber(ARGV[3]) - 1)
local after = {}
if #rated > 0 then after = redis.call('HMGET', KEYS[4], unpack(rated)) end
return {row, recent, rated, after}
"""
#: the lock let go only by who holds it
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Standing(NamedTuple):
    """A bot in one ladder, read at once (``LadderBook.standing``)."""

    row: Json
    recent: list[str]
    rated: list[str]
    after: dict[str, dict[str, list[float]]]


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
        self.k_table, self.k_rows, self.k_after = f"{tag}:table", f"{tag}:rows", f"{tag}:after"
        self.tag = tag
        self.k_checkpoints, self.k_lock = f"{tag}:checkpoints", f"{tag}:lock"

    def add(self, entry: Json) -> bool:
        self.redis.sadd(KEYS, self.key)
        bots = sorted({str(seat["bot"]) for seat in entry["seats"]})
        indexes = [self._games(bot, rated=False) for bot in bots]
        if entry["rated"]:
            indexes += [self._games(bot, rated=True) for bot in bots]
        added = self.redis.eval(_ADD, 2 + len(indexes), self.k_entries, self.k_ledger, *indexes, entry["game"],
                                entry["at"], json.dumps(entry, separators=(",", ":")))
        return bool(added)

    def _games(self, bot: str, *, rated: bool) -> str:
        return f"{self.tag}:{'rated' if rated else 'games'}:{bot}"

    def standing(self, bot: str, recent: int, rated: int) -> Standing | None:
        """``bot``'s row, the ids of its last ``recent`` games and last
        ``rated`` rated games (newest first) and the ratings after those, read
        at once (a fold landing between two reads made a profile whose rating
        history held a game its row did not count); ``None``: no row."""
        found = self.redis.eval(_STANDING, 4, self.k_rows, self._games(bot, rated=False),
                                self._games(bot, rated=True), self.k_after, bot, recent, rated)
        if found is None:
            return None
        row, recent_ids, rated_ids, after = found
        rated_games = [raw.decode() for raw in rated_ids]
        return Standing(json.loads(row), [raw.decode() for raw in recent_ids], rated_games,
                        {gid: json.loads(raw) for gid, raw in zip(rated_games, after) if raw is not None})

    def entries_of(self, game_ids: list[str]) -> dict[str, Json]:
        """The entries of ``game_ids`` that the ledger has."""
        if not game_ids:
            return {}
        return {gid: json.loads(raw) for gid, raw in zip(game_ids, self.redis.hmget(self.k_entries, game_ids))
                if raw is not None}

    def after(self) -> dict[str, dict[str, list[float]]]:
        """The ratings after every rated game (a bot's last ones: ``standing``)."""
        return {gid.decode(): json.loads(raw) for gid, raw in self.redis.hgetall(self.k_after).items()}

    def size(self) -> int:
        return int(self.redis.zcard(self.k_ledger))

    def rank(self, game_id: str) -> int | None:
        found = self.redis.zrank(self.k_ledger, game_id)
        return None if found is None else int(found)

    def entries(self, start: int, count: int) -> list[Json]:
        raws = self.redis.eval(_ENTRIES, 2, self.k_ledger, self.k_entries, start, start + count - 1)
        return [json.loads(raw) for raw in raws]

    def entry(self, game_id: str) -> Json | None:
        raw = self.redis.hget(self.k_entries, game_id)
        return None if raw is None else json.loads(raw)

    def table(self) -> Json | None:
        raw = self.redis.get(self.k_table)
        if raw is None:
            return None
        state: Json = json.loads(raw)
        state["rows"] = self.rows()
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

    def save(self, state: Json, touched: set[str], after: dict[str, dict[str, list[float]]]) -> None:
        rows = state["rows"]
        head = {k: v for k, v in state.items() if k != "rows"}
        saved = sorted(touched & rows.keys())
        args: list[str | int] = [json.dumps(head, separators=(",", ":")), len(saved)]
        for bot in saved:
            args += [bot, json.dumps(rows[bot], separators=(",", ":"))]
        for game, ratings in after.items():
            args += [game, json.dumps(ratings, separators=(",", ":"))]
        self.redis.eval(_SAVE, 3, self.k_table, self.k_rows, self.k_after, *args)

    def checkpoints(self) -> list[int]:
        return [int(raw) for raw in self.redis.hkeys(self.k_checkpoints)]

    def checkpoint(self, folded: int) -> Json | None:
        raw = self.redis.hget(self.k_checkpoints, str(folded))
        return None if raw is None else json.loads(raw)

    def put_checkpoint(self, state: Json, drop: list[int]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(self.k_checkpoints, str(state["folded"]), json.dumps(state, separators=(",", ":")))
        if drop:
            pipe.hdel(self.k_checkpoints, *[str(n) for n in drop])
        pipe.execute()

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
