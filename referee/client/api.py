"""The client proper: :class:`RefereeClient` and its sub-clients, one method
per route of openapi.yaml."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from referee.client.archive import Archive
from referee.client.bots import Bots
from referee.client.calls import AUTO, json_of
from referee.client.errors import HttpProblem
from referee.client.games import Games
from referee.client.ladder import Ladder
from referee.client.models import Health, Json, KeySet
from referee.client.rulesets import Rulesets
from referee.client.tournaments import Tournaments
from referee.client.transparency import Transparency
from referee.client.transport import Http, RetryPolicy, Timeouts


class RefereeClient:
    """A client of one referee (``base_url``, e.g. ``http://127.0.0.1:8000``).

    Sub-clients per area: :attr:`games`, :attr:`bots`, :attr:`tournaments`,
    :attr:`rulesets`, :attr:`transparency`; and :meth:`keys`, :meth:`health`, :meth:`metrics`,
    :meth:`openapi`. Results are frozen dataclasses (their JSON in ``.raw``);
    problems are raised as :class:`HttpProblem` subclasses.

    ``retry``: the :class:`RetryPolicy` (``RetryPolicy(attempts=1)`` never
    retries); ``timeouts``: the :class:`Timeouts`; ``transport``: an httpx
    transport (e.g. ``httpx.WSGITransport(app=app)`` in tests); ``http``: a
    ready ``httpx.Client`` to use instead; ``sleep``: how to wait between
    tries (``time.sleep``). Usable as a context manager (closes on exit).
    It is safe to share between threads as ``httpx.Client`` is."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, retry: RetryPolicy | None = None,
                 timeouts: Timeouts | None = None, transport: httpx.BaseTransport | None = None,
                 http: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep,
                 headers: Mapping[str, str] | None = None, timeout: float | None = None) -> None:
        if timeouts is None:
            timeouts = Timeouts() if timeout is None else Timeouts(read=max(timeout, Timeouts.read))
        self._http = Http(base_url, retry=retry or RetryPolicy(), timeouts=timeouts, transport=transport,
                          http=http, sleep=sleep, headers=headers)
        self._versions: dict[str, int] = {}
        self._lock = threading.Lock()
        self.games = Games(self)
        self.bots = Bots(self)
        self.tournaments = Tournaments(self)
        self.rulesets = Rulesets(self)
        #: the transparency log of finished games (docs/transparency.md)
        self.transparency = Transparency(self)
        #: finished games kept for good: search and export (issue 41)
        self.archive = Archive(self)
        #: the bots' lasting ratings: the ladders, their tables, a bot's profile (issue 42)
        self.ladder = Ladder(self)

    # -- versions seen: the default expected_version of a move -----------------
    def _saw(self, game_id: str, version: int) -> None:
        with self._lock:
            if version > self._versions.get(game_id, -1):
                self._versions[game_id] = version

    def last_version(self, game_id: str) -> int | None:
        """The latest version of the game this client has seen (``None``: none yet)."""
        with self._lock:
            return self._versions.get(game_id)

    # -- meta ----------------------------------------------------------------
    def keys(self) -> KeySet:
        """``GET /v1/keys``: the referee's public signing keys (a JWK set) that
        verify receipts and final heads."""
        return KeySet.from_json(json_of(self._http.request("GET", "/v1/keys")))

    def health(self) -> Health:
        """``GET /health``: alive, and Redis answers (else :class:`Unavailable`)."""
        return Health.from_json(json_of(self._http.request("GET", "/health")))

    def metrics(self) -> str:
        """``GET /metrics``: the Prometheus text."""
        return self._http.request("GET", "/metrics").text

    def openapi(self) -> str:
        """``GET /openapi.yaml``: the contract, as YAML text."""
        return self._http.request("GET", "/openapi.yaml").text

    # -- plumbing --------------------------------------------------------------
    @property
    def base(self) -> str:
        """The referee's base URL."""
        return self._http.base

    @property
    def http(self) -> httpx.Client:
        """The underlying ``httpx.Client`` (e.g. to add ``event_hooks``)."""
        return self._http.client

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def __enter__(self) -> RefereeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the earlier client's flat methods (plain JSON), kept for its callers ----
    def _call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
        """Compatibility: one raw request (``json=``, ``params=``, ``headers=``);
        its 2xx response, else its problem raised."""
        return self._http.request(method, path, token=token, **kwargs)

    def create_game(self, ruleset: str, **body: Any) -> Json:
        """Compatibility: ``games.create(...).raw``."""
        return self.games.create(ruleset, **body).raw

    def view(self, game_id: str, token: str | None = None) -> Json:
        """Compatibility: ``games.view(...).raw``."""
        return self.games.view(game_id, token=token).raw

    def move(self, game_id: str, token: str, move: Mapping[str, Any], *, expected_version: int | None = None,
             idempotency_key: str | None = None) -> Json:
        """Compatibility: ``games.move(...).raw``; no ``expected_version`` unless given."""
        return self.games.move(game_id, move, token=token, expected_version=expected_version,
                               idempotency_key=idempotency_key).raw

    def events(self, game_id: str, token: str | None = None, *, after: int = 0, wait: float = 0) -> Json:
        """Compatibility: ``games.events(...).raw``."""
        return self.games.events(game_id, token=token, after=after, wait=wait).raw

    def log(self, game_id: str, token: str | None = None) -> list[Json]:
        """Compatibility: ``games.log(...).lines``."""
        return self.games.log(game_id, token=token).lines

    def audit(self, game_id: str, token: str | None = None) -> Json:
        """Compatibility: ``games.audit(...).raw``."""
        return self.games.audit(game_id, token=token).raw


__all__ = ["AUTO", "Archive", "Bots", "Games", "HttpProblem", "RefereeClient", "Rulesets", "Tournaments"]
