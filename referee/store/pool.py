"""The ladders' matchmaking pools in Redis (``referee.ladder.pool`` holds
what they mean; docs/ladder.md, "The pool").

Keys of one ladder, all in its hash slot (one ``{pool:<key>}`` tag, so every
script here touches one cluster slot): ``pool:{pool:K}:entries`` (hash: bot
id -> its entry, JSON: ``bot``, ``name``, ``owner``, ``games_at_once``,
``same_table``, ``since`` = when it was last put in, ``put`` = that put-in's own
id), ``…:paused`` (hash: bot
-> why, in words), ``…:playing`` (hash: bot, registered or built-in -> its
pool games being played), ``…:games`` (hash: game id -> ``{seats, at,
anchors}``, the games booked and not yet over), ``…:since`` (hash: bot ->
when it began to wait for its next game), ``…:waited`` (list: the latest
waits, ms), ``…:started`` (sorted set: games started, by when; the last ten
minutes), ``…:stats`` (hash: ``anchor_games``, the games the built-in bots
sit in) and ``…:health:<bot>`` (list: ``"turns faults"`` of its last games).

Besides: ``pool:ladders`` (set: every ladder with a pool, for the periodic
tick) and ``pool:owner:{<owner>}`` (hash: ``<ladder> <bot>`` -> its games at
once, the owner's places under the per-owner limits; one slot per owner).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LADDERS = "pool:ladders"
#: waits kept for the median; started games kept for the rate
WAITS_KEPT = 200
STARTED_KEPT_MS = 10 * 60 * 1000

# book a game: KEYS entries, paused, playing, games, since, waited, started, stats;
# ARGV game id, now, the game's record, anchors' cap, R, R registered bots, then the anchors seated;
# -> {0, who} refused (a bot gone, paused or without a free slot; 'anchors': their cap), or {1, waits...};
# the record keeps each registered bot's put-in as booked (its entry's ``put``: which one the game counts for)
_BOOK = """
local r = tonumber(ARGV[5])
local record = cjson.decode(ARGV[3])
record['put'] = {}
for i = 6, 5 + r do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if not raw or redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then return {0, ARGV[i]} end
  local n = tonumber(redis.call('HGET', KEYS[3], ARGV[i]) or '0')
  local entry = cjson.decode(raw)
  if n >= tonumber(entry['games_at_once']) then return {0, ARGV[i]} end
  record['put'][ARGV[i]] = entry['put']
end
if #ARGV > 5 + r then
  if tonumber(redis.call('HGET', KEYS[8], 'anchor_games') or '0') >= tonumber(ARGV[4]) then return {0, 'anchors'} end
  redis.call('HINCRBY', KEYS[8], 'anchor_games', 1)
end
redis.call('HSET', KEYS[4], ARGV[1], cjson.encode(record))
local out = {1}
for i = 6, #ARGV do
  local n = redis.call('HINCRBY', KEYS[3], ARGV[i], 1)
  if i <= 5 + r then
    local since = redis.call('HGET', KEYS[5], ARGV[i])
    if since then
      local waited = math.max(0, tonumber(ARGV[2]) - tonumber(since))  -- clocks of two hosts may differ
      table.insert(out, tostring(waited))
      redis.call('LPUSH', KEYS[6], waited)
    end
    if n < tonumber(cjson.decode(redis.call('HGET', KEYS[1], ARGV[i]))['games_at_once']) then
      redis.call('HSET', KEYS[5], ARGV[i], ARGV[2])
    else
      redis.call('HDEL', KEYS[5], ARGV[i])
    end
  end
end
redis.call('LTRIM', KEYS[6], 0, WAITS_LAST)
redis.call('ZADD', KEYS[7], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', tonumber(ARGV[2]) - STARTED_KEPT_MS)
return out
""".replace("WAITS_LAST", str(WAITS_KEPT - 1)).replace("STARTED_KEPT_MS", str(STARTED_KEPT_MS))

# a game over (or never dealt): KEYS entries, paused, playing, games, since, stats, then each
# registered bot's health list; ARGV game id, now, window, then bot, turns, faults per health key
# -> 0 if it was released before, else 1
_RELEASE = """
local raw = redis.call('HGET', KEYS[4], ARGV[1])
if not raw then return 0 end
redis.call('HDEL', KEYS[4], ARGV[1])
local game = cjson.decode(raw)
if game['anchors'] and tonumber(redis.call('HINCRBY', KEYS[6], 'anchor_games', -1)) < 0 then
  redis.call('HSET', KEYS[6], 'anchor_games', 0)
end
local seen = {}
for _, bot in ipairs(game['seats']) do
  if not seen[bot] then
    seen[bot] = true
    if redis.call('HINCRBY', KEYS[3], bot, -1) <= 0 then redis.call('HDEL', KEYS[3], bot) end
    if redis.call('HEXISTS', KEYS[1], bot) == 1 then redis.call('HSETNX', KEYS[5], bot, ARGV[2]) end
  end
end
for i = 7, #KEYS do
  local at = 4 + (i - 7) * 3
  local entry = redis.call('HGET', KEYS[1], ARGV[at])
  if entry and game['put'] and cjson.decode(entry)['put'] == game['put'][ARGV[at]] then
    redis.call('RPUSH', KEYS[i], ARGV[at + 1] .. ' ' .. ARGV[at + 2])
    redis.call('LTRIM', KEYS[i], -tonumber(ARGV[3]), -1)
  end
end
return 1
"""

# put a bot in (or update its entry): KEYS entries, paused, since, playing, health; ARGV bot, entry, now,
# games at once -> 1 new, 0 updated; a paused bot is un-paused and its health starts afresh
_PUT = """
local new = redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if redis.call('HDEL', KEYS[2], ARGV[1]) == 1 then redis.call('DEL', KEYS[5]) end
if tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0') < tonumber(ARGV[4]) then
  redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[3])
else
  redis.call('HDEL', KEYS[3], ARGV[1])
end
return new
"""

# pause a bot on a game booked for its put-in ARGV[3] (its entry's ``put`` then): only if it is in, not
# paused, and not put in again since
_PAUSE = """
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if cjson.decode(entry)['put'] ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""

# an owner's place for ARGV[1] with ARGV[2] games at once, under ARGV[3] bots and ARGV[4] games in all
# (the place it holds already not counted) -> {1} or {0, 'bots'|'games', what it holds besides}
_OWNER = """
local bots, games = 0, 0
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  if held[i] ~= ARGV[1] then
    bots = bots + 1
    games = games + tonumber(held[i + 1])
  end
end
if bots + 1 > tonumber(ARGV[3]) then return {0, 'bots', bots} end
if games + tonumber(ARGV[2]) > tonumber(ARGV[4]) then return {0, 'games', games} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {1}
"""


def _text(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


@dataclass(frozen=True, slots=True)
class PoolState:
    """One ladder's pool as read in one round trip."""

    entries: dict[str, dict[str, Any]]
    paused: dict[str, str]
    playing: dict[str, int]
    since: dict[str, int]
    games: int
    anchor_games: int
    waited: list[int]
    started: int  # games started in the last ``recent_ms``


class PoolStore:
    """Typed reads and writes of the pools' keys."""

    def __init__(self, client: Any, retry: Callable[[Callable[[], Any]], Any] = lambda call: call()) -> None:
        self.redis: Any = client
        self._retry = retry  # reads and repeatable writes, through a cluster failover
        self._book = client.register_script(_BOOK)
        self._release = client.register_script(_RELEASE)
        self._put = client.register_script(_PUT)
        self._pause = client.register_script(_PAUSE)
        self._owner = client.register_script(_OWNER)

    @staticmethod
    def key(ladder: str, part: str) -> str:
        return f"pool:{{pool:{ladder}}}:{part}"

    def _keys(self, ladder: str, *parts: str) -> list[str]:
        return [self.key(ladder, part) for part in parts]

    @staticmethod
    def owner_key(owner: str) -> str:
        return f"pool:owner:{{{owner}}}"

    # -- entries -----------------------------------------------------------------
    def put(self, ladder: str, bot: str, entry: dict[str, Any], now: int) -> bool:
        """Put ``bot`` in (un-paused, waiting while it has a free slot): whether it is new."""
        keys = self._keys(ladder, "entries", "paused", "since", "playing", f"health:{bot}")
        self._retry(lambda: self.redis.sadd(LADDERS, ladder))
        return bool(self._retry(lambda: self._put(keys=keys, args=[bot, json.dumps(entry), now,
                                                                   entry["games_at_once"]])))

    def leave(self, ladder: str, bot: str) -> bool:
        """Take ``bot`` out (its games being played go on): whether it was in."""
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=True)
            pipe.hdel(self.key(ladder, "entries"), bot)
            pipe.hdel(self.key(ladder, "paused"), bot)
            pipe.hdel(self.key(ladder, "since"), bot)
            pipe.delete(self.key(ladder, f"health:{bot}"))
            return list(pipe.execute())
        return bool(self._retry(run)[0])

    def entry(self, ladder: str, bot: str) -> dict[str, Any] | None:
        raw = self._retry(lambda: self.redis.hget(self.key(ladder, "entries"), bot))
        return None if raw is None else dict(json.loads(raw))

    def state(self, ladder: str, now: int, recent_ms: int) -> PoolState:
        """Entries, pauses, games being played, waits and starts of one pool (one slot, one round trip)."""
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            for part in ("entries", "paused", "playing", "since"):
                pipe.hgetall(self.key(ladder, part))
            pipe.hlen(self.key(ladder, "games"))
            pipe.hget(self.key(ladder, "stats"), "anchor_games")
            pipe.lrange(self.key(ladder, "waited"), 0, -1)
            pipe.zcount(self.key(ladder, "started"), now - recent_ms, "+inf")
            return list(pipe.execute())
        entries, paused, playing, since, games, anchors, waited, started = self._retry(run)
        return PoolState({_text(k): json.loads(v) for k, v in entries.items()},
                         {_text(k): _text(v) for k, v in paused.items()},
                         {_text(k): int(v) for k, v in playing.items()},
                         {_text(k): int(v) for k, v in since.items()}, int(games), int(anchors or 0),
                         [int(w) for w in waited], int(started))

    def ladders(self) -> list[str]:
        """Every ladder a bot was ever put in the pool of."""
        return sorted(_text(k) for k in self._retry(lambda: self.redis.smembers(LADDERS)))

    # -- games -------------------------------------------------------------------
    def book(self, ladder: str, game_id: str, seats: list[str], registered: list[str], anchors: list[str],
             anchor_cap: int, now: int) -> tuple[bool, list[int]]:
        """Book ``game_id`` for these bots at once, if each registered one is
        still in, un-paused, with a free slot, and (with ``anchors``) the
        built-in bots are under their cap: whether it was booked, and how long
        each registered bot had waited (ms)."""
        keys = self._keys(ladder, "entries", "paused", "playing", "games", "since", "waited", "started", "stats")
        record = json.dumps({"seats": seats, "at": now, "anchors": bool(anchors)})
        # a booking is no repeatable write: never tried twice
        out = self._book(keys=keys, args=[game_id, now, record, anchor_cap, len(registered), *registered,
                                          *anchors])
        if out[0] != 1:  # refused: out[1] says who
            return False, []
        return True, [int(_text(w)) for w in out[1:]]

    def games(self, ladder: str) -> dict[str, dict[str, Any]]:
        """The games booked and not released yet: id -> ``{seats, at, anchors, put}`` (``put``: each
        registered bot's entry's ``put`` when the game was booked)."""
        raw = self._retry(lambda: self.redis.hgetall(self.key(ladder, "games")))
        return {_text(k): json.loads(v) for k, v in raw.items()}

    def game(self, ladder: str, game_id: str) -> dict[str, Any] | None:
        """One booked game's record (``games``), ``None`` once released."""
        raw = self._retry(lambda: self.redis.hget(self.key(ladder, "games"), game_id))
        return None if raw is None else dict(json.loads(raw))

    def release(self, ladder: str, game_id: str, now: int, health: dict[str, tuple[int, int]],
                window: int) -> bool:
        """The game is over (or was never dealt): its bots' slots free, each
        registered bot's ``(turns, faults)`` kept in its health window (unless
        put in again since the game was booked: its entry's ``put`` differs
        from the record's). ``False``: released before."""
        bots = sorted(health)
        keys = self._keys(ladder, "entries", "paused", "playing", "games", "since", "stats",
                          *(f"health:{bot}" for bot in bots))
        args: list[Any] = [game_id, now, window]
        for bot in bots:
            args += [bot, *health[bot]]
        return bool(self._retry(lambda: self._release(keys=keys, args=args)))  # a second run finds it released

    def health(self, ladder: str, bot: str) -> list[tuple[int, int]]:
        """``bot``'s last games in this pool, oldest first: ``(turns, faults)``."""
        raw = self._retry(lambda: self.redis.lrange(self.key(ladder, f"health:{bot}"), 0, -1))
        return [(int(t), int(f)) for t, f in (_text(r).split() for r in raw)]

    def pause(self, ladder: str, bot: str, reason: str, put: str) -> bool:
        """Pause ``bot`` (unless it left, or was put in again since its put-in ``put``, a game record's)."""
        keys = self._keys(ladder, "entries", "paused", "since")
        return bool(self._retry(lambda: self._pause(keys=keys, args=[bot, reason, put])))

    # -- the owners' places --------------------------------------------------------
    def owner_places(self, owner: str) -> dict[str, int]:
        raw = self._retry(lambda: self.redis.hgetall(self.owner_key(owner)))
        return {_text(k): int(v) for k, v in raw.items()}

    def take_place(self, owner: str, place: str, games: int, most_bots: int, most_games: int
                   ) -> tuple[bool, str, int]:
        """``owner``'s place ``place`` with ``games`` at once, under both
        limits: ``(True, "", 0)``, or ``(False, "bots"|"games", what the owner
        holds besides it)``."""
        out = self._retry(lambda: self._owner(keys=[self.owner_key(owner)],
                                               args=[place, games, most_bots, most_games]))
        return (True, "", 0) if out[0] == 1 else (False, _text(out[1]), int(out[2]))

    def free_places(self, owner: str, *places: str) -> None:
        if places:
            self._retry(lambda: self.redis.hdel(self.owner_key(owner), *places))
