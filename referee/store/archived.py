"""A game's archive state in Redis (issue 41; ``referee.service.archiving``
says what it means).

- ``game:{ID}:meta`` field ``archived``: when the archive write was
  confirmed (ms). Set with it, every key of the game (its events, meta,
  secret, end webhook's, and each idempotency record named in
  ``game:{ID}:idems``, the set ``append.lua`` keeps) gets the *archived* TTL
  (``REFEREE_RETENTION_ARCHIVED_S``) where it would otherwise live longer:
  Redis keeps the hot set, the archive the rest.
- ``restore``: a game the archive holds but Redis has forgotten is written
  back (its events, meta and secret) for that same short TTL, only if the
  id is free, so every route serves it through the one path it serves a live
  game by."""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from referee.engine import canonical_bytes

T = TypeVar("T")

# KEYS meta, then every other key of the game, its idempotency keys' set last; ARGV at (ms), ttl (ms, 0: none)
_CONFIRM = """
if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('hset', KEYS[1], 'archived', ARGV[1])
local ttl = tonumber(ARGV[2])
local function shorten(key)
  local left = redis.call('pttl', key)
  if left == -1 or left > ttl then redis.call('pexpire', key, ttl) end
end
if ttl > 0 then
  for _, idem in ipairs(redis.call('smembers', KEYS[#KEYS])) do shorten(idem) end
  for i = 1, #KEYS do shorten(KEYS[i]) end
end
return 1
"""

# KEYS events, meta, secret; ARGV meta JSON, secret JSON, ttl ms, n, events...
_RESTORE = """
if redis.call('exists', KEYS[2]) == 1 then return 0 end
redis.call('del', KEYS[1], KEYS[3])
for k, v in pairs(cjson.decode(ARGV[1])) do redis.call('hset', KEYS[2], k, v) end
for k, v in pairs(cjson.decode(ARGV[2])) do redis.call('hset', KEYS[3], k, v) end
local n = tonumber(ARGV[4])
for i = 1, n do redis.call('xadd', KEYS[1], tostring(i) .. '-0', 'e', ARGV[4 + i]) end
local ttl = tonumber(ARGV[3])
if ttl > 0 then for i = 1, 3 do redis.call('pexpire', KEYS[i], ttl) end end
return 1
"""


def game_keys(game_id: str) -> list[str]:
    """Every key a finished game may have, the meta first."""
    tag = f"game:{{{game_id}}}"
    return [f"{tag}:meta", f"{tag}:events", f"{tag}:secret", f"{tag}:hook", f"{tag}:hook:attempts", f"{tag}:idems"]


class ArchivedStore:
    """Games' archive marks, and games written back from the archive."""

    def __init__(self, client: Any, retry: Callable[[Callable[[], T]], T], archived_ttl_ms: int) -> None:
        self.redis = client
        self._retry: Any = retry
        self.ttl_ms = archived_ttl_ms
        self._confirm = client.register_script(_CONFIRM)
        self._restore = client.register_script(_RESTORE)

    def confirm(self, game_id: str, at: int) -> bool:
        """Mark the game's archive write confirmed and shorten its keys' life
        (``False``: Redis has no such game any more)."""
        keys = game_keys(game_id)
        return bool(self._retry(lambda: self._confirm(keys=keys, args=[at, self.ttl_ms])))

    def confirmed(self, game_id: str) -> bool:
        """Whether the game's archive write is confirmed (as Redis has it)."""
        return bool(self._retry(lambda: self.redis.hexists(game_keys(game_id)[0], "archived")))

    def secret_fields(self, game_id: str) -> dict[str, str]:
        """Every field of the game's secret hash (a finished game's: public by now)."""
        raw = self._retry(lambda: self.redis.hgetall(game_keys(game_id)[2]))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def restore(self, game_id: str, meta: Mapping[str, str], secret: Mapping[str, str],
                envelopes: list[dict[str, Any]]) -> bool:
        """Write an archived game back for the archived TTL, unless Redis has it."""
        meta_key, events, secret_key = game_keys(game_id)[:3]
        args: list[Any] = [json.dumps(dict(meta)), json.dumps(dict(secret)), self.ttl_ms, len(envelopes),
                           *(canonical_bytes(e) for e in envelopes)]
        return bool(self._retry(lambda: self._restore(keys=[events, meta_key, secret_key], args=args)))
