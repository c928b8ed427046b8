"""A finished game's link to its rematch (issue 40 item 4): the next game's
id, kept in the finished game's meta hash (``next_game``), set once. The
link is written before the next game is created, so two referees asked at
once agree on one id, and the one that loses the race to create it finds it."""
from __future__ import annotations

from typing import Any

from referee.store.redis_store import EventStore, _keys

#: set ``next_game`` unless set already (and only on a game that exists); the id it holds now
_LINK = """
if redis.call("EXISTS", KEYS[1]) == 0 then return false end
redis.call("HSETNX", KEYS[1], "next_game", ARGV[1])
return redis.call("HGET", KEYS[1], "next_game")
"""


class RematchLinks:
    """Each finished game's ``next_game``, in its own meta hash (its slot)."""

    def __init__(self, store: EventStore) -> None:
        self.redis: Any = store.redis
        self._retry = store._retry  # noqa: SLF001 (the store's failover retry, shared)
        self._link = store.redis.register_script(_LINK)

    def link(self, game_id: str, next_id: str) -> str | None:
        """``next_id`` as ``game_id``'s next game, unless it has one already:
        the next game's id either way (``None``: no game ``game_id``)."""
        _, meta_key, _ = _keys(game_id)
        found = self._retry(lambda: self._link(keys=[meta_key], args=[next_id]))
        return found.decode() if isinstance(found, bytes) else found

    def next_of(self, game_id: str) -> str | None:
        """The id of ``game_id``'s next game, if a rematch was asked."""
        _, meta_key, _ = _keys(game_id)
        found = self._retry(lambda: self.redis.hget(meta_key, "next_game"))
        return found.decode() if isinstance(found, bytes) else found
