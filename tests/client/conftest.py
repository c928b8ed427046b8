"""Fixtures of the client's tests: :class:`referee.client.RefereeClient`
talking to the real Flask app (and its real throwaway Redis) in process,
through httpx's WSGI transport. Every response is checked against
openapi.yaml, every request recorded, and the client's sleeps are recorded
instead of slept."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from referee.client import RefereeClient, RetryPolicy
from tests import contract

BASE = "http://referee.test"


class Sleeps(list[float]):
    """A stand-in for ``time.sleep`` that records each wait and sleeps none."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def template_of(path: str) -> str:
    """The openapi.yaml path template ``path`` matches."""
    found = next((t for rx, t in contract._routes() if rx.match(path)), None)
    assert found is not None, f"{path} is not in openapi.yaml"
    return found


def make_client(app: Any, *, sleeps: Sleeps | None = None, retry: RetryPolicy | None = None,
                calls: list[tuple[str, str]] | None = None,
                statuses: list[int] | None = None) -> RefereeClient:
    """A client of ``app`` over httpx's WSGI transport whose every response is
    checked against the contract (and recorded in ``calls``/``statuses``)."""
    def check(response: httpx.Response) -> None:
        if calls is not None:
            calls.append((response.request.method, template_of(response.url.path)))
        if statuses is not None:
            statuses.append(response.status_code)
        if response.headers.get("Content-Type", "").startswith("text/event-stream"):
            return
        response.read()
        contract.check(response.request.method, response.url.path, response.status_code,
                       response.headers.get("Content-Type", ""), response.content)

    client = RefereeClient(BASE, transport=httpx.WSGITransport(app=app),
                           sleep=sleeps if sleeps is not None else Sleeps(), retry=retry)
    client.http.event_hooks["response"].append(check)
    return client


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def calls() -> list[tuple[str, str]]:
    return []


@pytest.fixture
def api(app: Any, sleeps: Sleeps, calls: list[tuple[str, str]]) -> Iterator[RefereeClient]:
    """The client of the test app (the ``app`` fixture: rate limit off)."""
    with make_client(app, sleeps=sleeps, calls=calls) as client:
        yield client
