"""The HTTP layer of :mod:`referee.client`: one ``httpx.Client``, per-call
timeouts, problem responses turned into typed errors, and retries with
backoff (tenacity) for the requests that are safe to send twice."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import tenacity

from referee.client.errors import HttpProblem, problem_for, retry_after_header

T = TypeVar("T")

#: the server's longest long-poll (``wait``, openapi.yaml)
LONG_POLL_MAX_S = 30.0
#: the server's keep-alive comment interval on an SSE stream
STREAM_KEEPALIVE_S = 15.0

#: failures after which nothing was sent: retried whatever the method
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
#: failures after which the request may have been received (retried only when safe)
LOST = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


@dataclass(frozen=True)
class RetryPolicy:
    """When and how long to retry.

    A request is retried only when sending it twice is safe: a ``GET`` or
    ``DELETE``, or a ``POST`` carrying an ``Idempotency-Key`` (moves); any
    request whose connection could not be made (nothing was sent). It is
    retried on 429 and 503 after ``Retry-After`` seconds (at most
    ``retry_after_max_s``), and on a lost connection or timeout after an
    exponential backoff from ``backoff_s`` up to ``backoff_max_s`` (with
    jitter); at most ``attempts`` tries in all, and none started after
    ``total_s`` seconds. ``RetryPolicy(attempts=1)`` never retries."""

    attempts: int = 5
    total_s: float = 60.0
    backoff_s: float = 0.25
    backoff_max_s: float = 8.0
    retry_after_max_s: float = 60.0
    statuses: frozenset[int] = frozenset({429, 503})

    def delay(self, error: BaseException | None, attempt: int) -> float:
        """Seconds to wait before try ``attempt + 1`` after ``error``."""
        if isinstance(error, HttpProblem) and error.retry_after is not None:
            return min(max(0.0, error.retry_after), self.retry_after_max_s)
        return float(min(self.backoff_max_s, self.backoff_s * 2 ** max(0, attempt - 1)))

    def retries(self, error: BaseException, *, safe: bool) -> bool:
        """Whether ``error`` is worth another try (``safe``: the request may be sent twice)."""
        if isinstance(error, NOT_SENT):
            return True
        if not safe:
            return False
        if isinstance(error, HttpProblem):
            return error.status in self.statuses
        return isinstance(error, LOST)


@dataclass(frozen=True)
class Timeouts:
    """Per-call timeouts (seconds). ``read`` outlasts the server's longest
    long-poll (30 s); a long-poll of ``wait`` seconds reads for at least
    ``wait + poll_margin``; an SSE stream reads for ``stream_read`` between
    two chunks, more than the server's keep-alive (15 s)."""

    connect: float = 5.0
    read: float = LONG_POLL_MAX_S + 10.0
    write: float = 10.0
    pool: float = 10.0
    poll_margin: float = 10.0
    stream_read: float = 3 * STREAM_KEEPALIVE_S

    def plain(self, read: float | None = None) -> httpx.Timeout:
        """An ``httpx.Timeout`` with ``read`` (default ``self.read``)."""
        return httpx.Timeout(connect=self.connect, read=self.read if read is None else read,
                             write=self.write, pool=self.pool)

    def long_poll(self, wait_s: float) -> httpx.Timeout:
        """The timeout of a long-poll that may wait ``wait_s`` on the server."""
        return self.plain(max(self.read, wait_s + self.poll_margin))

    def stream(self) -> httpx.Timeout:
        """The timeout of an SSE stream."""
        return self.plain(max(self.stream_read, STREAM_KEEPALIVE_S + self.poll_margin))


class Http:
    """Sends requests to one referee and raises its problems as typed errors."""

    def __init__(self, base_url: str, *, retry: RetryPolicy, timeouts: Timeouts,
                 transport: httpx.BaseTransport | None = None, http: httpx.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep, headers: Mapping[str, str] | None = None) -> None:
        self.base = base_url.rstrip("/")
        self.retry, self.timeouts, self.sleep = retry, timeouts, sleep
        self.client = http if http is not None else httpx.Client(
            transport=transport, timeout=timeouts.plain(), follow_redirects=False,
            headers={"User-Agent": "referee-client/1", **(headers or {})})

    def url(self, path: str) -> str:
        """The absolute URL of ``path`` (``/v1/…``)."""
        return self.base + path

    @staticmethod
    def headers(token: str | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """Request headers: ``Authorization: Bearer <token>`` when a token is given."""
        out = dict(extra or {})
        if token:
            out["Authorization"] = f"Bearer {token}"
        return out

    def problem(self, response: httpx.Response, *, move: bool = False) -> HttpProblem:
        """The typed error of a response of status >= 400 (its body is read)."""
        response.read()
        body: Any
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            body = {"code": f"http_{response.status_code}", "detail": response.text[:200]}
        retry_after = retry_after_header(response.headers.get("Retry-After"))
        return problem_for(response.status_code, body, retry_after=retry_after, move=move,
                           method=response.request.method, url=str(response.request.url))

    def retrying(self, attempt: Callable[[], T], *, safe: bool) -> T:
        """Run ``attempt`` under the retry policy (``safe``: it may be sent twice)."""
        policy = self.retry

        def wait(state: tenacity.RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome is not None else None
            return policy.delay(error, state.attempt_number)

        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(max(1, policy.attempts)) | tenacity.stop_after_delay(policy.total_s),
            wait=wait, retry=tenacity.retry_if_exception(lambda e: policy.retries(e, safe=safe)),
            sleep=self.sleep, reraise=True)
        return retrying(attempt)

    def request(self, method: str, path: str, *, token: str | None = None, params: Mapping[str, Any] | None = None,
                json: Any = None, headers: Mapping[str, str] | None = None, timeout: httpx.Timeout | None = None,
                safe: bool | None = None, move: bool = False) -> httpx.Response:
        """Send one request (retried per the policy) and return its 2xx
        response, or raise its problem. ``safe`` defaults to: a GET or DELETE,
        or a request carrying an ``Idempotency-Key``."""
        sent = self.headers(token, headers)
        if safe is None:
            safe = method in ("GET", "HEAD", "DELETE") or "Idempotency-Key" in sent

        def attempt() -> httpx.Response:
            response = self.client.request(method, self.url(path), params=params, json=json, headers=sent,
                                           timeout=timeout if timeout is not None else self.timeouts.plain())
            if response.status_code >= 400:
                raise self.problem(response, move=move)
            return response
        return self.retrying(attempt, safe=safe)

    @contextmanager
    def stream(self, path: str, *, token: str | None, params: Mapping[str, Any] | None = None,
               headers: Mapping[str, str] | None = None) -> Iterator[httpx.Response]:
        """Open a streamed GET (retried per the policy until its status line
        is a 2xx) and close it when the block ends."""
        sent = self.headers(token, headers)

        def attempt() -> httpx.Response:
            request = self.client.build_request("GET", self.url(path), params=params, headers=sent,
                                                timeout=self.timeouts.stream())
            response = self.client.send(request, stream=True)
            if response.status_code >= 400:
                try:
                    raise self.problem(response)
                finally:
                    response.close()
            return response
        response = self.retrying(attempt, safe=True)
        try:
            yield response
        finally:
            response.close()

    def close(self) -> None:
        """Close the connections."""
        self.client.close()
