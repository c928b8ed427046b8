"""Per-caller rate limiting (HTTP 429): a token bucket per seat token (or,
without one, per client address), kept in each referee process.

``REFEREE_RATE_LIMIT`` is ``"<per second>/<burst>"`` (default ``50/100``)
or ``off``. With N gunicorn workers a caller may get up to N times the rate;
the limit protects the referee from a runaway client, it is not a quota."""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Callable


def parse(setting: str | None) -> tuple[float, float] | None:
    """``"50/100"`` -> (50.0, 100.0); ``off`` -> None."""
    if setting is None or setting.strip().lower() in ("off", "0", "none", ""):
        return None
    rate, _, burst = setting.partition("/")
    r = float(rate)
    b = float(burst) if burst else 2 * r
    if r <= 0 or b < 1:
        raise ValueError(f"bad REFEREE_RATE_LIMIT {setting!r}: use <per second>/<burst> or off")
    return r, b


class RateLimiter:
    def __init__(self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.clock, self.max_keys = rate, burst, clock, max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """0.0 if ``key`` may make a request now, else the seconds to wait."""
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                wait = 0.0
            else:
                self._buckets[key] = (tokens, now)
                wait = (1 - tokens) / self.rate
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        return wait
