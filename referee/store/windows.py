"""The rate limiter's moving windows in Redis (``referee.http.ratelimit`` holds
the policy): ``window.lua`` counts a caller's hits in each of its windows,
whose keys share the caller's hash tag (one cluster slot a script). One
round trip asks what a request needs: a window test, a window hit and a
game's head."""
from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

import redis

Window = tuple[list[str], list[Any]]  # a script's keys and arguments


class WindowStore:
    def __init__(self, client: Any, queue_head: Callable[[Any, str], Any],
                 retry: Callable[[Callable[[], Any]], Any] = lambda call: call(),
                 parse_head: Callable[[Any], Any] = lambda reply: reply) -> None:
        self.redis: Any = client
        #: queues a game's head on a pipeline (``EventStore.queue_head``): given, not imported,
        #: so that the store's modules import one another one way only (no cycle)
        self._queue_head = queue_head
        #: the head's reply as the service reads it (``EventStore.parse_head``), given for the same reason
        self._parse_head = parse_head
        #: through a cluster failover: a hit tried again may count twice, never let a caller past
        self._retry = retry
        self.window = client.register_script(resources.files("referee.store").joinpath("window.lua").read_text())

    def round_trip(self, test: Window | None, hit: Window | None, game_id: str | None) -> list[Any]:
        """One pipeline: ``EVALSHA`` straight (a ``Script`` in a pipeline asks
        ``SCRIPT EXISTS`` first, a round trip of its own) of ``test`` and
        ``hit``, then the game's head, parsed (``None``: no such game); a Redis
        that lost the script (restarted, flushed, a new master) gets it again, once."""
        def run() -> list[Any]:
            try:
                return self._pipeline(test, hit, game_id)
            except redis.exceptions.NoScriptError:
                self.redis.script_load(self.window.script)
                return self._pipeline(test, hit, game_id)
        replies: list[Any] = self._retry(run)
        if game_id is not None:
            replies[-1] = self._parse_head(replies[-1])
        return replies

    def _pipeline(self, test: Window | None, hit: Window | None, game_id: str | None) -> list[Any]:
        pipe = self.redis.pipeline(transaction=False)
        for window in (test, hit):
            if window is not None:
                keys, args = window
                # by name: a cluster pipeline refuses ``evalsha()``, not the command (one slot a script)
                pipe.execute_command("EVALSHA", self.window.sha, len(keys), *keys, *args)
        if game_id is not None:
            self._queue_head(pipe, game_id)
        return list(pipe.execute())

    def hit(self, keys: list[str], args: list[Any]) -> Any:
        return self._retry(lambda: self.window(keys=keys, args=args))
