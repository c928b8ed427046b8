"""Real processes the tests start (servers, workers, Redis)."""
from __future__ import annotations

import signal
import subprocess
from collections.abc import Collection

import redis

from referee.store.redis_server import free_port, start


def stop(*procs: subprocess.Popen[bytes], timeout: float = 15,
         quick: Collection[subprocess.Popen[bytes]] = ()) -> None:
    """Terminate real processes, in order; kill one that will not go. Those
    of ``quick`` (``referee serve``: gunicorn) get SIGINT, gunicorn's quick
    stop: its SIGTERM, a graceful stop, waits up to 5 s for every connection,
    an idle keep-alive one too, and its workers look once a second; a
    throwaway server has nothing to finish."""
    for proc in procs:
        if proc in quick:
            proc.send_signal(signal.SIGINT)
        else:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def own_redis(tries: int = 5) -> tuple[int, subprocess.Popen[bytes]]:
    """A real Redis of this process's own on a free port. Under pytest-xdist
    every worker process starts one (``make test``): two workers may draw the
    same free port at once, so the server that answers must be the one started
    (its ``process_id``), else another port is drawn: no two workers share a
    server and flush each other's keys."""
    for _ in range(tries):
        port = free_port()
        try:
            proc = start(port, None)
        except SystemExit:  # the port was taken between free_port() and the server's bind
            continue
        with redis.Redis(port=port) as probe:
            if probe.info("server")["process_id"] == proc.pid:
                return port, proc
        proc.terminate()  # another worker's server answered on this port
        proc.wait(timeout=10)
    raise RuntimeError(f"no Redis of this process's own after {tries} free ports")
