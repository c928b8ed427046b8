"""What Redis pushes to every referee process, so that a view needs no round
trip (issue 10; README, "Performance").

Every append publishes the game's new head on ``CHANNEL`` (``append.lua``),
and a failed authentication that fills an address's window publishes that the
address is blocked, and for how long (``window.lua``). Each process keeps one
subscriber connection and, for the games it has read, their heads; for the
addresses it has tested, whether they are blocked.

What a process knows is trusted only while its subscription is unbroken:

* it learns a game's head from every message, and from a read made
  *after* its ``SUBSCRIBE`` was confirmed (a version only ever grows, so a
  message and a read may arrive in either order: the higher wins). A read
  is not kept if anything was forgotten meanwhile (an entry pushed out of
  the bounded tables, or the subscription lost): a message it would have
  been compared with may be gone;
* every request drains the socket first (non-blocking, no round trip): a
  move's head is published while its append runs and written to every
  subscriber in the same pass of Redis's event loop as the append's reply,
  so by the time that reply has gone through its process to a client and
  come back as a request here, the message is in this socket;
* a drain that finds ``MAX_DRAIN`` messages or more waiting (a process idle
  while others played) may not have everything Redis holds for it yet: that
  request reads Redis as before;
* a broken, closed or unconfirmed subscription forgets everything; requests
  read Redis until a new ``SUBSCRIBE`` is confirmed;
* a head is trusted until ``EXPIRY_MARGIN_S`` before its game's keys expire
  (retention), so an expired game is a 404 as before.

Nothing here decides a move: the append's version check does, in Redis.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import redis

from referee.store.redis_store import PUSHED_CHANNEL, Head

#: the channel of heads and blocks (one per Redis: its games' ids are unique)
CHANNEL = PUSHED_CHANNEL

#: this many waiting messages or more: the process may be behind; read Redis instead
MAX_DRAIN = 256
#: a head is not trusted closer than this to its game's expiry
EXPIRY_MARGIN_S = 1.0
#: after a failed (re)subscribe, wait this long before trying again
RETRY_S = 1.0
#: how long a (re)subscribe waits for Redis to confirm it
CONFIRM_S = 0.5


class Pushed:
    """One process's subscription and what it has learnt from it."""

    def __init__(self, client: Any, *, size: int = 65536, clock: Callable[[], float] = time.monotonic) -> None:
        self.kwargs = dict(client.connection_pool.connection_kwargs)
        self.connection_class = client.connection_pool.connection_class
        self.size, self.clock = size, clock
        self._lock = threading.Lock()
        self._conn: Any = None  # a subscription Redis confirmed, or None
        self._retry_at = 0.0
        self.epoch = 0  # bumped whenever anything learnt is forgotten
        self._heads: OrderedDict[str, tuple[Head, float]] = OrderedDict()  # head, trusted until
        self._blocked: OrderedDict[str, float] = OrderedDict()  # address key -> blocked until
        self._clean: OrderedDict[str, None] = OrderedDict()  # address keys tested unblocked

    # -- the subscription ----------------------------------------------------
    def sync(self) -> int | None:
        """Drain what Redis pushed; the epoch whose knowledge is complete
        now (pass it to the lookups and the ``learn_*`` of this request), or
        ``None``: read Redis for this request."""
        with self._lock:
            return self._sync()

    def _sync(self) -> int | None:
        if self._conn is None and not self._subscribe():
            return None
        drained = 0
        try:
            while self._conn.can_read(timeout=0):
                self._take(self._conn.read_response())
                drained += 1
                if drained >= MAX_DRAIN:  # behind: keep what was read, but do not trust it for this request
                    return None
        except (redis.RedisError, OSError, ValueError):
            self._forget()
            return None
        return self.epoch

    def _subscribe(self) -> bool:
        now = self.clock()
        if now < self._retry_at:
            return False
        self._retry_at = now + RETRY_S
        conn = self.connection_class(**self.kwargs)
        try:
            conn.connect()
            conn.send_command("SUBSCRIBE", CHANNEL)
            # the confirmation, once per process: from it on, every append is pushed here
            confirmed = conn.can_read(timeout=CONFIRM_S) and conn.read_response()[0] == b"subscribe"
        except (redis.RedisError, OSError, ValueError):
            confirmed = False
        if not confirmed:
            conn.disconnect()
            return False
        self._conn = conn
        return True

    def _forget(self) -> None:
        """The subscription broke (or was closed): what it taught is forgotten."""
        if self._conn is not None:
            self._conn.disconnect()
        self._conn = None
        self.epoch += 1
        self._heads.clear()
        self._blocked.clear()
        self._clean.clear()

    def close(self) -> None:
        with self._lock:
            self._forget()

    def _take(self, reply: Any) -> None:
        kind = reply[0]
        if kind != b"message":
            return
        data: bytes = reply[2]
        if data[:2] == b"h ":
            game_id, version, last_hash, rng, status, last_at, ttl_ms = data[2:].decode().rsplit(" ", 6)
            self._keep_head(game_id, (int(version), last_hash, int(rng), status, int(last_at)),
                            self._until(int(ttl_ms), self.clock()))
        elif data[:2] == b"b ":
            who, wait_ms = data[2:].decode().rsplit(" ", 1)
            self._clean.pop(who, None)
            self._blocked[who] = self.clock() + int(wait_ms) / 1000
            self._blocked.move_to_end(who)
            self._trim(self._blocked)

    def _keep_head(self, game_id: str, head: Head, until: float) -> None:
        """``head`` of ``game_id``, trusted until ``until``, unless a later one is known."""
        known = self._heads.get(game_id)
        if known is None or head[0] > known[0][0]:
            self._heads[game_id] = (head, until)
        self._heads.move_to_end(game_id)
        self._trim(self._heads)

    def _trim(self, table: OrderedDict[str, Any]) -> None:
        if len(table) > self.size:
            while len(table) > self.size:
                table.popitem(last=False)
            self.epoch += 1  # a read compared with what was pushed out would be wrong

    @staticmethod
    def _until(ttl_ms: int, asked_at: float) -> float:
        """Until when a head read or pushed at ``asked_at`` may be trusted:
        ``EXPIRY_MARGIN_S`` before its keys expire (``ttl_ms`` < 0: never)."""
        return float("inf") if ttl_ms < 0 else asked_at + ttl_ms / 1000 - EXPIRY_MARGIN_S

    # -- heads -----------------------------------------------------------------
    def head(self, game_id: str, epoch: int | None) -> Head | None:
        """The game's head as this process knows it, if it may be trusted
        (``epoch``: this request's ``sync``; ``None`` trusts nothing)."""
        if epoch is None:
            return None
        with self._lock:
            found = self._heads.get(game_id)
            if found is None:  # what a lost subscription taught is gone: no check of the epoch needed
                return None
            if self.clock() >= found[1]:
                del self._heads[game_id]
                return None
            self._heads.move_to_end(game_id)
            return found[0]

    def learn_head(self, game_id: str, head: Head, ttl_ms: int, epoch: int | None, asked_at: float) -> None:
        """A head read from Redis (with its keys' ``PTTL``) in a request that
        began at ``asked_at`` and synced at ``epoch``."""
        if epoch is None:
            return
        with self._lock:
            if epoch == self.epoch:
                self._keep_head(game_id, head, self._until(ttl_ms, asked_at))

    # -- failed authentication ------------------------------------------------------
    def blocked_for(self, who: str, epoch: int | None) -> float | None:
        """Seconds ``who`` stays blocked (> 0), 0.0 if known unblocked, ``None``
        if unknown here (test it in Redis)."""
        if epoch is None:
            return None
        with self._lock:
            until = self._blocked.get(who)
            if until is not None:
                left = until - self.clock()
                if left > 0:
                    return left
                del self._blocked[who]
                return None  # its window has room again: Redis knows for how long
            return 0.0 if who in self._clean else None

    def learn_clean(self, who: str, epoch: int | None) -> None:
        """``who`` was tested unblocked in Redis, in a request synced at
        ``epoch``; from now on a block of it is pushed."""
        if epoch is None:
            return
        with self._lock:
            if epoch == self.epoch and who not in self._blocked:
                self._clean[who] = None
                self._clean.move_to_end(who)
                while len(self._clean) > self.size:  # forgetting a clean address is safe: it is tested again
                    self._clean.popitem(last=False)
