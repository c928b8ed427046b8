"""A client's places in Redis (``referee.http.quotas`` holds the policy): the
games it created that still count and the bots it registered, each a sorted
set ``quota:{<who>}:<kind>`` (``who``: ``addr:<address>``, the rate
limiter's name for the client) whose members are the ids holding a place,
scored by when each was taken. A place is taken by one script, so that
requests racing in any number of referees never take more than the limit;
a place whose game or bot is gone is dropped when the set is full and
recounted (``referee.http.quotas``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

# take a place for ARGV[1] below the limit ARGV[2] (scored ARGV[3]; the set
# lives ARGV[4] ms, 0: forever): 1 taken (or held already), 0 full
_TAKE = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
return 1
"""


def place_key(who: str, kind: str) -> str:
    """One hash tag per client: each set is one cluster slot."""
    return f"quota:{{{who}}}:{kind}"


class PlaceStore:
    """Take, list and free a client's places."""

    def __init__(self, client: Any, queue_head: Callable[[Any, str], Any],
                 retry: Callable[[Callable[[], Any]], Any] = lambda call: call()) -> None:
        self.redis: Any = client
        #: queues a game's head on a pipeline (``EventStore.queue_head``): given, so the store's modules
        #: import one another one way only
        self._queue_head = queue_head
        self._retry = retry
        self._take = client.register_script(_TAKE)

    def take(self, key: str, member: str, limit: int, now_ms: int, keep_ms: int) -> bool:
        """A place for ``member`` if fewer than ``limit`` are held (``True``
        also when ``member`` holds one already)."""
        return bool(self._take(keys=[key], args=[member, limit, now_ms, keep_ms]))

    def members(self, key: str) -> dict[str, int]:
        """The ids holding a place, and when each took it."""
        found = self._retry(lambda: self.redis.zrange(key, 0, -1, withscores=True))
        return {member.decode(): int(score) for member, score in found}

    def free(self, key: str, *members: str) -> None:
        if members:
            self._retry(lambda: self.redis.zrem(key, *members))

    def heads(self, game_ids: list[str]) -> list[Any]:
        """Each game's raw head (``EventStore.parse_head`` reads it), in one round trip."""
        def run() -> list[Any]:
            pipe = self.redis.pipeline(transaction=False)
            for game_id in game_ids:
                self._queue_head(pipe, game_id)
            return list(pipe.execute())
        return list(self._retry(run)) if game_ids else []
