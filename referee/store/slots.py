"""Open streams' slots in Redis (``referee.http.streams`` holds the caps): two
sorted sets, all slots (``referee:{streams}:all``) and a client's
(``referee:{streams}:client:<address>``), one hash tag so the script
touches one cluster slot; each member scored with its lease's end."""
from __future__ import annotations

from typing import Any

import redis

ALL_KEY = "referee:{streams}:all"

_ACQUIRE = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local per_client, most, lease = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if per_client > 0 and redis.call('ZCARD', KEYS[2]) >= per_client then return 1 end
if most > 0 and redis.call('ZCARD', KEYS[1]) >= most then return 2 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('ZADD', KEYS[2], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[2], lease)
redis.call('PEXPIRE', KEYS[1], lease)
return 0
"""


def client_key(client: str) -> str:
    return f"referee:{{streams}}:client:{client}"


class SlotStore:
    """Take and give back one stream slot."""

    def __init__(self, client: Any) -> None:
        self.redis: Any = client
        self._acquire = client.register_script(_ACQUIRE)  # EVALSHA, loaded once

    def acquire(self, slot: str, client: str, per_client: int, most: int, lease_ms: int) -> int:
        """0: taken; 1: the client's cap reached; 2: the deployment's."""
        return int(self._acquire(keys=[ALL_KEY, client_key(client)], args=[slot, per_client, most, lease_ms]))

    def open(self) -> int:
        """Slots held now, in every referee (leases not yet lapsed)."""
        seconds, micros = self.redis.time()
        return int(self.redis.zcount(ALL_KEY, seconds * 1000 + micros // 1000, "+inf"))

    def release(self, slot: str, client: str) -> None:
        """Give ``slot`` back; a Redis that does not answer lets its lease lapse."""
        try:
            pipe = self.redis.pipeline(transaction=False)
            for key in (ALL_KEY, client_key(client)):
                pipe.zrem(key, slot)
            pipe.execute()
        except redis.RedisError:
            pass
