"""Where each person's seat was last seen (issue 40 item 1): the game's meta
hash keeps it in one field, ``presence`` (``presence.lua``), so the read of a
game's head (``EventStore.queue_head``, one ``HMGET``) brings it along and a
view costs no round trip more; and the games whose seats may go away are kept
in one sorted set, ``referee:away``, scored by when a worker looks at them
next (``referee.service.presence``)."""
from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

#: the sorted set of games a worker looks at for seats away past their grace window
AWAY = "referee:away"
#: a game's presence: ``{seat: (first, last)}`` (ms) of the seats ever seen
Seen = dict[int, tuple[int, int]]


def parse(raw: Any) -> Seen:
    """The meta hash's ``presence`` field (bytes, str or ``None``) as ``Seen``; a malformed one is none."""
    if not raw:
        return {}
    try:
        found = json.loads(raw)
        return {int(seat): (int(span[0]), int(span[1])) for seat, span in found.items()}
    except (ValueError, TypeError, AttributeError, IndexError, KeyError):
        return {}


class PresenceStore:
    """Seats seen, in their games' meta hashes, and the games to look at."""

    def __init__(self, client: Any, meta_key: Callable[[str], str],
                 retry: Callable[[Callable[[], Any]], Any] = lambda call: call()) -> None:
        self.redis: Any = client
        self._meta_key = meta_key
        self._retry = retry
        self._touch = client.register_script(resources.files("referee.store").joinpath("presence.lua").read_text())

    def touch(self, game_id: str, seat: int, now: int, window_ms: int,
              look_at: int | None) -> tuple[int, int] | None:
        """``seat`` seen at ``now``; the game is looked at by ``look_at`` (ms)
        unless it is looked at already (``None``: not at all). The seat's
        ``(first, last)`` as stored after it; ``None``: no such game."""
        def run() -> tuple[int, int] | None:
            span = self._touch(keys=[self._meta_key(game_id)], args=[seat, now, window_ms])
            if not span:
                return None
            if look_at is not None:
                self.redis.zadd(AWAY, {game_id: look_at}, nx=True)
            return int(span[0]), int(span[1])
        stored: tuple[int, int] | None = self._retry(run)
        return stored

    def seen(self, game_id: str) -> Seen:
        """The game's presence as stored."""
        return parse(self._retry(lambda: self.redis.hget(self._meta_key(game_id), "presence")))

    def due(self, now: int, count: int = 100) -> list[str]:
        """Games to look at by ``now``, the earliest first."""
        found = self._retry(lambda: self.redis.zrangebyscore(AWAY, 0, now, start=0, num=count))
        return [raw.decode() for raw in found]

    def look_again(self, game_id: str, at: int | None) -> None:
        """Look at the game again at ``at`` (``None``: no more, until a seat is seen)."""
        if at is None:
            self._retry(lambda: self.redis.zrem(AWAY, game_id))
        else:
            self._retry(lambda: self.redis.zadd(AWAY, {game_id: at}))
