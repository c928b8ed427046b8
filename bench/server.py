"""Start a throwaway Redis and `referee serve` for a benchmark run."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, Sequence

import requests

from referee.redis_server import free_port, start

REFEREE = str(Path(sys.executable).parent / "referee")


@contextlib.contextmanager
def live_server(workers: int = 2, threads: int | None = 8, extra_args: Sequence[str] = (),
                extra_env: dict[str, str] | None = None, rate_limit: str = "off",
                ready_path: str = "/health") -> Iterator[tuple[str, str]]:
    """Yields ``(api_url, redis_url)``; everything stops on exit. ``threads=None``
    keeps `referee serve`'s default; ``extra_args``/``extra_env`` go to it as they are;
    ``rate_limit`` is ``REFEREE_RATE_LIMIT`` (a limit too high to refuse anything
    still pays the limiter's every step)."""
    redis_port = free_port()
    redis_proc = start(redis_port, None)
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_RATE_LIMIT": rate_limit,  # default off: capacity, not policy
           **(extra_env or {})}
    port = free_port()
    argv = [REFEREE, "serve", "--port", str(port), "--workers", str(workers), *extra_args]
    if threads is not None:
        argv += ["--threads", str(threads)]
    serve = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if requests.get(url + ready_path, timeout=1).ok:
                    break
            except requests.RequestException:
                time.sleep(0.05)
        yield url, redis_url
    finally:
        serve.terminate()
        try:
            serve.wait(timeout=15)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait(timeout=10)
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
