"""RQ's scheduler as a thread of the worker process (issue 8, Found 11).

``worker.work(with_scheduler=True)`` forks the scheduler into a child
process. A ``kill -9`` of the worker leaves that child running (ppid 1),
refreshing its scheduler lock for ever, and a worker started after it does
not try the lock again before RQ's 10-minute maintenance round. Run as a
thread instead, the scheduler dies with its worker whatever the signal:

- SIGTERM/SIGINT: the worker stops (RQ's warm shutdown), then
  :meth:`SchedulerThread.stop` releases the lock at once;
- SIGKILL: nothing outlives the process; its lock (TTL ``interval + 60`` s,
  RQ's) is no longer refreshed, and a worker on the same host takes it over
  at once, since the holder it names is a process that no longer exists; a
  worker elsewhere takes it when it expires.

Each tick (every ``interval`` s) tries the lock again, so a scheduler never
waits for RQ's maintenance round to take over."""
from __future__ import annotations

import os
import socket
import sys
import threading
from collections.abc import Sequence
from typing import Any

from rq.exceptions import SchedulerNotFound
from rq.scheduler import RQScheduler
from rq.scripts import release_lock


def process_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this host (unknown pids count as alive)."""
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


class SchedulerThread:
    """One RQ scheduler for ``queues``, ticking in a daemon thread."""

    def __init__(self, connection: Any, queues: Sequence[str], *, interval: int = 1) -> None:
        # RQ's scheduler methods carry no type hints
        self.scheduler: Any = RQScheduler(list(queues), connection=connection, interval=interval,
                                          logging_level="WARNING")
        self.queues = tuple(queues)
        self.interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rq-scheduler", daemon=True)

    @property
    def name(self) -> str:
        """The scheduler's name: the value its locks hold."""
        return str(self.scheduler.name)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """End the thread and release the locks (RQ's ``scheduler.stop``)."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            self.scheduler.register_birth()
        except Exception as exc:  # Redis not there yet: the ticks retry
            _warn(f"scheduler registration failed: {exc!r}")
        while not self._stopping.is_set():
            try:
                self.tick()
            except Exception as exc:  # a Redis hiccup must not end scheduling
                _warn(f"scheduler tick failed: {exc!r}")
            self._stopping.wait(self.interval)
        try:
            self.scheduler.stop()  # releases the locks it holds, deletes its registration
        except Exception as exc:
            _warn(f"scheduler stop failed: {exc!r}; its lock expires within {self.interval + 60} s")

    def tick(self) -> None:
        """Take over locks a dead holder left, take or refresh the locks,
        keep the registration alive, move due jobs to their queues."""
        self.release_dead_holders()
        self.scheduler.acquire_locks()
        self.scheduler.heartbeat()
        if self.scheduler.acquired_locks:
            self.scheduler.enqueue_scheduled_jobs()

    def release_dead_holders(self) -> list[str]:
        """Release each queue's lock whose holder registered from this host
        with a process that no longer exists (a worker killed with SIGKILL).
        A holder that cannot be checked (another host, no registration) keeps
        its lock until it expires. Returns the queues released."""
        connection = self.scheduler.connection
        released = []
        for queue in self.queues:
            key = RQScheduler.get_locking_key(queue)
            raw = connection.get(key)
            owner = raw.decode() if isinstance(raw, bytes) else raw
            if owner is None or owner == self.name:
                continue
            try:
                holder = RQScheduler.fetch(owner, connection)
            except SchedulerNotFound:
                continue
            if holder.hostname == socket.gethostname() and not process_alive(holder.pid):
                if release_lock(connection, key, owner):  # only if still held by that owner
                    released.append(queue)
                    holder.register_death()
        return released


def _warn(message: str) -> None:
    print(f"referee worker: {message}", file=sys.stderr, flush=True)
