"""Prometheus metrics. With several gunicorn workers, ``referee serve`` sets
``PROMETHEUS_MULTIPROC_DIR`` so every process's samples are summed."""
from __future__ import annotations

import os

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client import multiprocess

REQUESTS = Counter("referee_http_requests_total", "HTTP requests", ["endpoint", "method", "status"])
LATENCY = Histogram("referee_http_request_seconds", "HTTP request latency", ["endpoint"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))


def render() -> tuple[bytes, str]:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
