"""Prometheus metrics, per process (docs/operations.md, "Running at scale"). With
several gunicorn workers, ``referee serve`` sets ``PROMETHEUS_MULTIPROC_DIR``
so every process's samples are summed; a worker serves its own on
``--metrics-port``. What is counted where it happens: requests, moves (by
ruleset and by whom), games started and finished, bot calls and their
failures, Redis errors. What is read when scraped (``LIVE``): the queue's
depth and the open streams' slots, from Redis."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

REQUESTS = Counter("referee_http_requests_total", "HTTP requests", ["endpoint", "method", "status"])
LATENCY = Histogram("referee_http_request_seconds", "HTTP request latency", ["endpoint"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
MOVES = Counter("referee_moves_total", "moves appended", ["ruleset", "by"])  # by: seat, bot, system
GAMES_STARTED = Counter("referee_games_started_total", "games dealt", ["ruleset"])
GAMES_FINISHED = Counter("referee_games_finished_total", "games over (a result, or cancelled)", ["ruleset"])
BOT_CALLS = Counter("referee_bot_calls_total", "bots asked for a move", ["kind", "outcome"])
RATED_GAMES = Counter("referee_rated_games_total", "finished rated games recorded in a ladder (rated: false for "
                      "one the anti-pumping rule or a custom deal left unrated)", ["ladder", "rated"])
REDIS_ERRORS = Counter("referee_redis_errors_total", "requests and jobs failed by Redis", ["error"])

#: (endpoint, method, status) -> the children of ``REQUESTS`` and ``LATENCY`` for them, bound once
#: (``labels()`` checks and joins its labels under a lock on every call)
_HTTP: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe_request(endpoint: str, method: str, status: int, seconds: float) -> None:
    """One HTTP request counted (``REQUESTS``) and its latency observed (``LATENCY``)."""
    found = _HTTP.get((endpoint, method, status))
    if found is None:
        found = _HTTP[(endpoint, method, status)] = (
            REQUESTS.labels(endpoint=endpoint, method=method, status=str(status)), LATENCY.labels(endpoint=endpoint))
    found[0].inc()
    found[1].observe(seconds)


#: name -> (help, a reading of Redis): gauges read when scraped (``install_live``)
LIVE: dict[str, tuple[str, Callable[[], float]]] = {}


class _Live(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        for name, (text, read) in sorted(LIVE.items()):
            try:
                value = float(read())
            except Exception:  # noqa: BLE001 -- Redis unreachable: the gauge is left out, the error counted
                REDIS_ERRORS.labels(error="scrape").inc()
                continue
            yield GaugeMetricFamily(name, text, value=value)


def install_live(name: str, text: str, read: Callable[[], float]) -> None:
    """A gauge read from Redis when scraped (the same in every process: not summed)."""
    LIVE[name] = (text, read)


def serve(port: int) -> None:
    """This process's metrics, live gauges included, on ``127.0.0.1:port`` (a worker's)."""
    from prometheus_client import REGISTRY, start_http_server
    REGISTRY.register(_Live())
    start_http_server(port, addr="127.0.0.1")


def render() -> tuple[bytes, str]:
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        from prometheus_client import REGISTRY
        return generate_latest(REGISTRY) + generate_latest(_live_registry()), CONTENT_TYPE_LATEST
    registry.register(_Live())
    return generate_latest(registry), CONTENT_TYPE_LATEST


def _live_registry() -> CollectorRegistry:
    registry = CollectorRegistry()
    registry.register(_Live())
    return registry
