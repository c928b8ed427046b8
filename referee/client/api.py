"""The client proper: :class:`RefereeClient` and its sub-clients, one method
per route of openapi.yaml."""
from __future__ import annotations

import enum
import json as jsonlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar, cast

import httpx
from httpx_sse import EventSource, ServerSentEvent

from referee.client.errors import HttpProblem
from referee.client.models import (
    AuditReport,
    Bot,
    BotSummary,
    Event,
    EventPage,
    GameCreated,
    GameLog,
    GameSummary,
    Health,
    Json,
    KeySet,
    MoveAccepted,
    Page,
    Replay,
    Rule,
    Ruleset,
    SeatToken,
    Tournament,
    TournamentSummary,
    Turn,
    TurnAnswered,
    View,
)
from referee.client.transport import LOST, Http, RetryPolicy, Timeouts


class _Auto(enum.Enum):
    AUTO = "auto"


T = TypeVar("T")

#: ``expected_version=AUTO`` (the default): the last version this client saw of the game
AUTO = _Auto.AUTO

#: the pause before reconnecting a stream the server ended, unless it sent ``retry:``
DEFAULT_RECONNECT_S = 0.5


def _json(response: httpx.Response) -> Json:
    return cast(Json, response.json())


def _resuming(http: Http, path: str, *, token: str | None, params: Mapping[str, Any] | None,
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


def _page(http: Http, path: str, key: str, read: Callable[[Json], T], params: Mapping[str, Any]) -> Page[T]:
    """One page of a listing (``params`` that are ``None`` are left out)."""
    body = _json(http.request("GET", path, params={k: v for k, v in params.items() if v is not None}))
    return Page(tuple(read(item) for item in body[key]), body.get("next"), body)


def _every(first: Callable[[str | None], Page[T]]) -> Iterator[T]:
    """Every item of a listing, page after page (following ``next``)."""
    cursor: str | None = None
    while True:
        page = first(cursor)
        yield from page.items
        if page.next is None or not page.items and page.next == cursor:
            return
        cursor = page.next


class Games:
    """``client.games``: ``/v1/games`` and everything under it."""

    def __init__(self, owner: RefereeClient) -> None:
        self._owner = owner
        self._http = owner._http

    def create(self, ruleset: str, *, players: int | None = None, seats: Sequence[Mapping[str, Any]] | None = None,
               options: Mapping[str, Any] | None = None, seed: str | None = None,
               setup: Mapping[str, Any] | None = None) -> GameCreated:
        """``POST /v1/games``: a new game of ``ruleset`` with ``players`` seats,
        or the ``seats`` given (``{"name": …, "bot": …}``); ``options`` are the
        ruleset's (plus ``turn_timeout_s``); a ``seed`` or ``setup`` makes the
        game custom. Each seat's token is in the answer, once. Not retried
        once sent (the server keeps no key for it: a retry could make two games)."""
        body: Json = {"ruleset": ruleset}
        if players is not None:
            body["players"] = players
        if seats is not None:
            body["seats"] = [dict(s) for s in seats]
        for name, value in (("options", options), ("seed", seed), ("setup", setup)):
            if value is not None:
                body[name] = value
        created = GameCreated.from_json(_json(self._http.request("POST", "/v1/games", json=body, safe=False)))
        self._owner._saw(created.id, created.version)
        return created

    def list(self, *, ruleset: str | None = None, status: str | None = None, open_seats: bool | None = None,
             limit: int | None = None, cursor: str | None = None) -> Page[GameSummary]:
        """``GET /v1/games``: one page of games, newest first, their public
        facts only; filter by ``ruleset``, ``status`` (``active``,
        ``finished``) and ``open_seats`` (``True``: games with a seat to
        claim); ``cursor`` is the ``next`` of the page before."""
        flag = None if open_seats is None else "true" if open_seats else "false"
        return _page(self._http, "/v1/games", "games", GameSummary.from_json,
                     {"ruleset": ruleset, "status": status, "open_seats": flag, "limit": limit, "cursor": cursor})

    def all(self, *, ruleset: str | None = None, status: str | None = None, open_seats: bool | None = None,
            limit: int | None = None) -> Iterator[GameSummary]:
        """Every game of :meth:`list`, page after page (``limit``: per page)."""
        return _every(lambda cursor: self.list(ruleset=ruleset, status=status, open_seats=open_seats, limit=limit,
                                               cursor=cursor))

    def view(self, game_id: str, *, token: str | None = None) -> View:
        """``GET /v1/games/{id}``: the game as seat ``token`` sees it (a
        spectator's view without a token)."""
        view = View.from_json(_json(self._http.request("GET", f"/v1/games/{game_id}", token=token)))
        self._owner._saw(game_id, view.version)
        return view

    def move(self, game_id: str, move: Mapping[str, Any], *, token: str,
             expected_version: int | None | _Auto = AUTO, idempotency_key: str | None = None) -> MoveAccepted:
        """``POST /v1/games/{id}/moves``: play ``move`` (an entry of
        ``legal_moves``, as is) for seat ``token``.

        It carries an ``Idempotency-Key`` (a fresh uuid4 unless given), so it
        is retried safely: a retry gets the first answer back, receipt and
        all, and plays nothing twice. ``expected_version`` defaults to the
        last version this client saw of the game (by a view, an event page, a
        stream or a move); the move is refused with :class:`VersionConflict`
        if the game moved on meanwhile. ``None`` sends none (the move is
        judged against whatever the game is then).

        Raises :class:`NotYourTurn` (403), :class:`IllegalMove` (422, with
        ``rule``), :class:`VersionConflict` (409), :class:`GameOver` (410)."""
        body: Json = {"move": dict(move)}
        version = self._owner.last_version(game_id) if expected_version is AUTO else expected_version
        if version is not None:
            body["expected_version"] = version
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        accepted = MoveAccepted.from_json(_json(self._http.request(
            "POST", f"/v1/games/{game_id}/moves", token=token, json=body, headers={"Idempotency-Key": key},
            move=True)))
        self._owner._saw(game_id, accepted.version)
        return accepted

    def claim(self, game_id: str, seat: int, name: str) -> SeatToken:
        """``POST /v1/games/{id}/seats/{seat}/claim``: an open seat's token, to
        the first claimant only (a later claim: :class:`Conflict` ``seat_taken``).
        Not retried once sent: a lost answer may have given the seat away."""
        return SeatToken.from_json(_json(self._http.request(
            "POST", f"/v1/games/{game_id}/seats/{seat}/claim", json={"name": name}, safe=False)))

    def reissue(self, game_id: str, seat: int, *, owner_token: str) -> SeatToken:
        """``POST /v1/games/{id}/seats/{seat}/token``: a person's seat's new
        token; the old one stops working at once, its streams too. For a seat
        the creator seated, ``owner_token`` is the creator's
        (``GameCreated.owner_token``); a claimed seat is reissued by its
        claimant only, passing its own current token here (the creator's is
        refused: :class:`Forbidden`, ``seat_belongs_to_claimant``)."""
        return SeatToken.from_json(_json(self._http.request(
            "POST", f"/v1/games/{game_id}/seats/{seat}/token", token=owner_token, safe=False)))

    def events(self, game_id: str, *, token: str | None = None, after: int = 0, wait: float = 0) -> EventPage:
        """``GET /v1/games/{id}/events``: the events after version ``after``
        as seat ``token`` may see them. With ``wait`` (seconds, at most 30) it
        long-polls: it answers as soon as there is one, or after ``wait`` with
        none; the read timeout is ``wait`` plus a margin."""
        params: dict[str, Any] = {"after": after}
        if wait:
            params["wait"] = wait
        page = EventPage.from_json(_json(self._http.request(
            "GET", f"/v1/games/{game_id}/events", token=token, params=params,
            timeout=self._http.timeouts.long_poll(wait))))
        self._owner._saw(game_id, page.version)
        return page

    def stream(self, game_id: str, *, token: str | None = None, after: int = 0,
               reconnect: bool = True) -> Iterator[Event]:
        """``GET /v1/games/{id}/events/stream``: every event after ``after``,
        live, over Server-Sent Events, until the game is over.

        The server ends a stream after 60 s (and a stream may drop); the
        iterator then reconnects by itself with ``Last-Event-ID`` (the seq of
        the last event it yielded), so each event is yielded once and in
        order (``reconnect=False``: one connection only). Opening is retried
        per the client's policy; a connection that breaks before any new
        event counts as a failed try. The seat token travels in the
        Authorization header (never in the URL). Close the iterator (or
        leave the ``for``) to hang up."""
        owner = self._owner
        last = after

        def accept(sse: ServerSentEvent) -> tuple[Event | None, bool]:
            nonlocal last
            if sse.event == "end":
                end = jsonlib.loads(sse.data) if sse.data else {}
                if isinstance(end.get("version"), int):
                    owner._saw(game_id, end["version"])
                return None, True
            if not sse.data:  # a keep-alive or the retry: line
                return None, False
            event = Event.from_json(jsonlib.loads(sse.data))
            if event.seq <= last:  # yielded already (a resume overlaps)
                return None, False
            last = event.seq
            owner._saw(game_id, event.seq)
            return event, False

        return _resuming(self._http, f"/v1/games/{game_id}/events/stream", token=token, params={"after": after},
                         last_id=lambda: str(last), accept=accept, reconnect=reconnect)

    def replay(self, game_id: str, *, version: int | None = None) -> Replay:
        """``GET /v1/games/{id}/replay``: the spectator view at ``version``
        (default the latest); once the game is over, every seat's view too."""
        params = {"version": version} if version is not None else None
        replay = Replay.from_json(_json(self._http.request("GET", f"/v1/games/{game_id}/replay", params=params)))
        self._owner._saw(game_id, replay.latest_version)
        return replay

    def log(self, game_id: str, *, token: str | None = None) -> GameLog:
        """``GET /v1/games/{id}/log``: the full unredacted log (NDJSON), public
        once the game is over; before that only with the admin ``token``
        (else :class:`Forbidden` ``log_not_public``)."""
        return GameLog.from_ndjson(self._http.request("GET", f"/v1/games/{game_id}/log", token=token).text)

    def audit(self, game_id: str, *, token: str | None = None) -> AuditReport:
        """``GET /v1/games/{id}/audit``: the referee's verification of the
        game's log (hash chain, seed, replay, result, signature …); an active
        game only with the admin ``token``."""
        return AuditReport.from_json(_json(self._http.request("GET", f"/v1/games/{game_id}/audit", token=token)))


class Bots:
    """``client.bots``: webhook and outbound bots."""

    def __init__(self, owner: RefereeClient) -> None:
        self._http = owner._http

    def register(self, name: str, url: str | None, rulesets: Sequence[str], *, seating: str = "owner") -> Bot:
        """``POST /v1/bots``: register a bot for ``rulesets``: a webhook bot
        the referee calls at ``url``, or with ``url=None`` an outbound bot,
        which connects for its turns (:meth:`turns`). The answer's ``secret``
        is shown once: it signs the referee's calls and turns and
        authenticates the bot. ``seating``: who may seat it, ``owner``
        (whoever gives the secret as ``bot_secret``) or ``public``. Not
        retried once sent."""
        body: Json = {"name": name, "rulesets": list(rulesets), "seating": seating}
        if url is not None:
            body["url"] = url
        return Bot.from_json(_json(self._http.request("POST", "/v1/bots", json=body, safe=False)))

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> Page[BotSummary]:
        """``GET /v1/bots``: one page of registered bots, newest first (never a URL or secret)."""
        return _page(self._http, "/v1/bots", "bots", BotSummary.from_json, {"limit": limit, "cursor": cursor})

    def all(self, *, limit: int | None = None) -> Iterator[BotSummary]:
        """Every bot of :meth:`list`, page after page."""
        return _every(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, bot_id: str, *, secret: str) -> Bot:
        """``GET /v1/bots/{id}``: the bot, for its owner (``secret``)."""
        return Bot.from_json(_json(self._http.request("GET", f"/v1/bots/{bot_id}", token=secret)))

    def delete(self, bot_id: str, *, secret: str) -> Json:
        """``DELETE /v1/bots/{id}``: the owner (``secret``) deletes the bot;
        its place in ``REFEREE_BOTS_PER_CLIENT`` is free. Safe to retry (a
        retry after a lost answer is :class:`NotFound`)."""
        return _json(self._http.request("DELETE", f"/v1/bots/{bot_id}", token=secret, safe=True))

    def turns(self, bot_id: str, *, secret: str, after: str | None = None, reconnect: bool = True) -> Iterator[Turn]:
        """``GET /v1/bots/{id}/turns``: an outbound bot's open turns, in every
        game it plays, as they come (Server-Sent Events). The server ends a
        stream after a minute; the iterator reconnects with ``Last-Event-ID``
        (the last turn's id) and goes on, for ever unless ``reconnect=False``
        (one connection only). Check each with ``turn.verify(secret)`` and
        answer it with :meth:`answer` before ``turn.answer_by``."""
        last = after

        def accept(sse: ServerSentEvent) -> tuple[Turn | None, bool]:
            nonlocal last
            if not sse.data or sse.event not in ("turn", ""):
                return None, False
            if last is not None and sse.id and _turn_order(sse.id) <= _turn_order(last):
                return None, False
            last = sse.id or last
            return Turn.from_json(jsonlib.loads(sse.data), sse.id), False

        return _resuming(self._http, f"/v1/bots/{bot_id}/turns", token=secret, params=None,
                         last_id=lambda: last, accept=accept, reconnect=reconnect, first_id=after)

    def answer(self, bot_id: str, delivery: str, move: Mapping[str, Any], *, secret: str) -> TurnAnswered:
        """``POST /v1/bots/{id}/turns/{delivery}``: an outbound bot's answer
        to one turn (one of its ``legal_moves``). A turn takes one answer, so
        a retry cannot play twice: after a lost answer the retry may get
        :class:`Conflict` ``turn_closed`` (answered already, past its
        deadline, or never offered)."""
        return TurnAnswered.from_json(_json(self._http.request(
            "POST", f"/v1/bots/{bot_id}/turns/{delivery}", token=secret, json={"move": dict(move)}, safe=True)))


def _turn_order(event_id: str) -> tuple[int, ...]:
    """A turn event id (``<ms>-<n>``) as something to order by."""
    try:
        return tuple(int(part) for part in event_id.split("-"))
    except ValueError:
        return (0,)


class Tournaments:
    """``client.tournaments``: tournaments the workers play."""

    def __init__(self, owner: RefereeClient) -> None:
        self._http = owner._http

    def create(self, ruleset: str, entrants: Sequence[str | Mapping[str, str]], games: int, *,
               players: int | None = None, options: Mapping[str, Any] | None = None, seed: str | None = None,
               parallel: int | None = None, token: str | None = None) -> Tournament:
        """``POST /v1/tournaments``: ``games`` games of ``ruleset`` between
        ``entrants`` (``random``, ``heuristic``, a bot id, or ``{"bot", "name"}``).
        The admin ``token`` lifts the caps. The answer's ``cancel_token`` is
        shown once. Not retried once sent."""
        body: Json = {"ruleset": ruleset, "entrants": [e if isinstance(e, str) else dict(e) for e in entrants],
                      "games": games}
        for name, value in (("players", players), ("options", options), ("seed", seed), ("parallel", parallel)):
            if value is not None:
                body[name] = value
        return Tournament.from_json(_json(self._http.request("POST", "/v1/tournaments", token=token, json=body,
                                                             safe=False)))

    def list(self, *, status: str | None = None, limit: int | None = None,
             cursor: str | None = None) -> Page[TournamentSummary]:
        """``GET /v1/tournaments``: one page of tournaments, newest first;
        filter by ``status`` (``running``, ``finished``, ``cancelled``)."""
        return _page(self._http, "/v1/tournaments", "tournaments", TournamentSummary.from_json,
                     {"status": status, "limit": limit, "cursor": cursor})

    def all(self, *, status: str | None = None, limit: int | None = None) -> Iterator[TournamentSummary]:
        """Every tournament of :meth:`list`, page after page."""
        return _every(lambda cursor: self.list(status=status, limit=limit, cursor=cursor))

    def get(self, tournament_id: str) -> Tournament:
        """``GET /v1/tournaments/{id}``: progress, every game and the standings."""
        return Tournament.from_json(_json(self._http.request("GET", f"/v1/tournaments/{tournament_id}")))

    def cancel(self, tournament_id: str, *, token: str) -> Tournament:
        """``DELETE /v1/tournaments/{id}`` with the ``cancel_token`` (or the
        admin token): no new game starts; the games being played finish.
        Cancelling twice changes nothing, so it is retried safely."""
        return Tournament.from_json(_json(self._http.request("DELETE", f"/v1/tournaments/{tournament_id}",
                                                             token=token)))


class Rulesets:
    """``client.rulesets``: the rulesets the referee serves."""

    def __init__(self, owner: RefereeClient) -> None:
        self._http = owner._http

    def list(self) -> list[Ruleset]:
        """``GET /v1/rulesets``: every ruleset, with its schemas."""
        return [Ruleset.from_json(r) for r in _json(self._http.request("GET", "/v1/rulesets"))["rulesets"]]

    def get(self, name: str) -> Ruleset:
        """``GET /v1/rulesets/{name}``: one ruleset (:class:`NotFound` if unknown)."""
        return Ruleset.from_json(_json(self._http.request("GET", f"/v1/rulesets/{name}")))

    def rules(self, name: str) -> tuple[Rule, ...]:
        """``GET /v1/rulesets/{name}/rules``: every rule ID the ruleset cites,
        with its title and section, in document order."""
        body = _json(self._http.request("GET", f"/v1/rulesets/{name}/rules"))
        return tuple(Rule.from_json(r, body.get("ruleset", name)) for r in body["rules"])

    def catalogue(self, name: str) -> Json:
        """``GET /v1/rulesets/{name}/catalogue``: every card, character, role,
        die, face, symbol and map of the ruleset (JSON, the same keys for every ruleset)."""
        return _json(self._http.request("GET", f"/v1/rulesets/{name}/catalogue"))

    def rule(self, name: str, rule_id: str) -> Rule:
        """``GET /v1/rulesets/{name}/rules/{id}``: one rule with its text — the
        rule an :class:`IllegalMove`'s ``rule`` names (:class:`NotFound`
        ``unknown_rule`` for an ID the ruleset has no entry for)."""
        return Rule.from_json(_json(self._http.request("GET", f"/v1/rulesets/{name}/rules/{rule_id}")), name)


class RefereeClient:
    """A client of one referee (``base_url``, e.g. ``http://127.0.0.1:8000``).

    Sub-clients per area: :attr:`games`, :attr:`bots`, :attr:`tournaments`,
    :attr:`rulesets`; and :meth:`keys`, :meth:`health`, :meth:`metrics`,
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
        return KeySet.from_json(_json(self._http.request("GET", "/v1/keys")))

    def health(self) -> Health:
        """``GET /health``: alive, and Redis answers (else :class:`Unavailable`)."""
        return Health.from_json(_json(self._http.request("GET", "/health")))

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


__all__ = ["AUTO", "Bots", "Games", "HttpProblem", "RefereeClient", "Rulesets", "Tournaments"]
