"""What the sub-clients share: ``AUTO``, a response's JSON, a listing's pages, and
a stream of Server-Sent Events resumed with ``Last-Event-ID``."""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, TypeVar, cast

import httpx
from httpx_sse import EventSource, ServerSentEvent

from referee.client.models import Json, Page
from referee.client.transport import LOST, Http


class Auto(enum.Enum):
    """The type of ``AUTO``."""

    AUTO = "auto"


T = TypeVar("T")

#: ``expected_version=AUTO`` (the default): the last version this client saw of the game
AUTO = Auto.AUTO

#: the pause before reconnecting a stream the server ended, unless it sent ``retry:``
DEFAULT_RECONNECT_S = 0.5


def json_of(response: httpx.Response) -> Json:
    return cast(Json, response.json())


def resuming(http: Http, path: str, *, token: str | None, params: Mapping[str, Any] | None,
              last_id: Callable[[], str | None], accept: Callable[[ServerSentEvent], tuple[T | None, bool]],
              reconnect: bool = True, first_id: str | None = None) -> Iterator[T]:
    """Server-Sent Events from ``path``, resumed with ``Last-Event-ID``.

    Each event goes through ``accept``: what to yield (or ``None``) and
    whether the stream is over. When the server ends a stream, the next
    connection sends ``last_id()`` as ``Last-Event-ID`` (after the server's
    ``retry:`` pause); when one breaks, after a backoff, and after as many
    breaks in a row with no new event as the policy's attempts it gives up.
    ``params`` go on the first connection only (``first_id``: its Last-Event-ID)."""
    resumed, failures = False, 0
    while True:
        pause = DEFAULT_RECONNECT_S
        progressed = opened = False
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-store"}
        resume_at = last_id() if resumed else first_id
        if resume_at is not None:
            headers["Last-Event-ID"] = resume_at
        try:
            with http.stream(path, token=token, params=None if resumed else params, headers=headers) as response:
                opened = True
                for sse in EventSource(response).iter_sse():
                    if sse.retry is not None:
                        pause = sse.retry / 1000
                    item, over = accept(sse)
                    if item is not None:
                        progressed, failures = True, 0
                        yield item
                    if over:
                        return
        except LOST as exc:  # dropped mid-stream: resume where it broke
            if not opened or not reconnect:  # the policy's tries to open it are spent, or one connection only
                raise
            failures = 0 if progressed else failures + 1
            if failures >= max(1, http.retry.attempts):
                raise
            pause = http.retry.delay(exc, failures)
        if not reconnect:
            return
        resumed = True
        http.sleep(pause)


def page_of(http: Http, path: str, key: str, read: Callable[[Json], T], params: Mapping[str, Any]) -> Page[T]:
    """One page of a listing (``params`` that are ``None`` are left out)."""
    body = json_of(http.request("GET", path, params={k: v for k, v in params.items() if v is not None}))
    return Page(tuple(read(item) for item in body[key]), body.get("next"), body)


def every(first: Callable[[str | None], Page[T]]) -> Iterator[T]:
    """Every item of a listing, page after page (following ``next``)."""
    cursor: str | None = None
    while True:
        page = first(cursor)
        yield from page.items
        if page.next is None or not page.items and page.next == cursor:
            return
        cursor = page.next


class Owner(Protocol):
    """What a sub-client uses of the client that owns it: its transport and the versions it saw."""

    _http: Http

    def _saw(self, game_id: str, version: int) -> None: ...

    def last_version(self, game_id: str) -> int | None: ...
