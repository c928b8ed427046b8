"""What Redis pushes to every referee process: that an address is blocked
after failed authentications, and for how long (``window.lua``), so that a
request carrying a credential from an address known unblocked tests nothing
in Redis (docs/performance.md, "Performance"). Each process keeps one subscriber
connection and, for the addresses it has tested, whether they are blocked.

Games' heads are not pushed (issue 36 item 7): a view reads its game's head
from Redis in its request (with the limiter's round trip when it has one),
so it is never older than a move some client has seen acknowledged. A pushed
head could be, however early Redis publishes it: it crosses the machine on
its own socket, and a busy machine let the append's reply reach a client,
and that client's next request reach another process, first.

What a process knows is trusted only while its subscription is unbroken:

* it learns an address is clean from a test made *after* its ``SUBSCRIBE``
  was confirmed (from then on a block is pushed to it), and not if anything
  was forgotten meanwhile;
* every request that carries a credential drains the socket first
  (non-blocking, no round trip);
* a drain that finds ``MAX_DRAIN`` messages or more waiting (a process idle
  while others were refused) may not have everything Redis holds for it
  yet: that request tests Redis as before;
* a broken, closed or unconfirmed subscription forgets everything; requests
  test Redis until a new ``SUBSCRIBE`` is confirmed.

A block is a brake on guessing tokens, not a rule of the game: one that
reaches a process a moment late lets a few more guesses through there,
which the address's windows in Redis count all the same. The process whose
count filled the window knows the block from that count's reply
(``learn_blocked``), not from its own message: a guesser who keeps to one
process gets not one guess past the limit. Nothing here
decides a move: the append's version check does, in Redis.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import redis

#: the channel of blocks (one per Redis); a message of another kind is ignored
CHANNEL = "referee:pushed"

#: this many waiting messages or more: the process may be behind; test Redis instead
MAX_DRAIN = 256
#: after a failed (re)subscribe, wait this long before trying again
RETRY_S = 1.0
#: how long a (re)subscribe waits for Redis to confirm it
CONFIRM_S = 0.5


class Pushed:
    """One process's subscription and what it has learnt from it."""

    #: where a process publishes what every process should learn (an address blocked)
    channel = CHANNEL

    def __init__(self, client: Any, *, size: int = 65536, clock: Callable[[], float] = time.monotonic) -> None:
        self.kwargs = dict(client.connection_pool.connection_kwargs)
        self.connection_class = client.connection_pool.connection_class
        self.size, self.clock = size, clock
        self._lock = threading.Lock()
        self._conn: Any = None  # a subscription Redis confirmed, or None
        self._retry_at = 0.0
        self.epoch = 0  # bumped whenever anything learnt is forgotten
        self._blocked: OrderedDict[str, float] = OrderedDict()  # address key -> blocked until
        self._clean: OrderedDict[str, None] = OrderedDict()  # address keys tested unblocked

    # -- the subscription ----------------------------------------------------
    def sync(self) -> int | None:
        """Drain what Redis pushed; the epoch whose knowledge is complete
        now (pass it to the lookups and the ``learn_*`` of this request), or
        ``None``: test Redis for this request."""
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
            # the confirmation, once per process: from it on, every block is pushed here
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
        if data[:2] == b"b ":  # (an older referee's "h " heads are not trusted: module doc)
            who, wait_ms = data[2:].decode().rsplit(" ", 1)
            self._block(who, int(wait_ms))

    def _block(self, who: str, wait_ms: int) -> None:
        self._clean.pop(who, None)
        self._blocked[who] = self.clock() + wait_ms / 1000
        self._blocked.move_to_end(who)
        self._trim(self._blocked)

    def _trim(self, table: OrderedDict[str, Any]) -> None:
        if len(table) > self.size:
            while len(table) > self.size:
                table.popitem(last=False)
            self.epoch += 1  # a test compared with what was pushed out would be wrong

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

    def learn_blocked(self, who: str, wait_ms: int) -> None:
        """``who``'s window was filled (or found full) by this process's own
        count, blocked for ``wait_ms``: known here at once (the pushed
        message, the same news, may reach this process after its next request)."""
        with self._lock:
            self._block(who, wait_ms)
