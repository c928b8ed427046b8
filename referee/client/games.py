"""``client.games``: ``/v1/games`` and everything under it."""
from __future__ import annotations

import json as jsonlib
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from httpx_sse import ServerSentEvent

from referee.client.calls import AUTO, Auto, Owner, every, json_of, page_of, resuming
from referee.client.models import (
    AuditReport,
    Broadcast,
    ChatMessage,
    Event,
    EventPage,
    GameCreated,
    GameLog,
    GameSummary,
    Json,
    MoveAccepted,
    Page,
    Rematch,
    Replay,
    SeatToken,
    Series,
    View,
    WebhookDeliveries,
)


class Games:
    """``client.games``: ``/v1/games`` and everything under it."""

    def __init__(self, owner: Owner) -> None:
        self._owner = owner
        self._http = owner._http

    def create(self, ruleset: str, *, players: int | None = None, seats: Sequence[Mapping[str, Any]] | None = None,
               options: Mapping[str, Any] | None = None, seed: str | None = None,
               setup: Mapping[str, Any] | None = None) -> GameCreated:
        """``POST /v1/games``: a new game of ``ruleset`` with ``players`` seats,
        or the ``seats`` given (``{"name": …, "bot": …}``); ``options`` are the
        ruleset's (plus ``turn_timeout_s``, or ``clock``: docs/clocks.md; ``away_grace_s``,
        ``away_bot``: docs/presence.md; ``callback_url`` for the game-end webhook:
        ``GameCreated.callback_secret`` signs it); a ``seed`` or ``setup`` makes the game custom.
        Each seat's token is in the answer, once. Not retried
        once sent (the server keeps no key for it: a retry could make two games)."""
        body: Json = {"ruleset": ruleset}
        if players is not None:
            body["players"] = players
        if seats is not None:
            body["seats"] = [dict(s) for s in seats]
        for name, value in (("options", options), ("seed", seed), ("setup", setup)):
            if value is not None:
                body[name] = value
        created = GameCreated.from_json(json_of(self._http.request("POST", "/v1/games", json=body, safe=False)))
        self._owner._saw(created.id, created.version)
        return created

    def list(self, *, ruleset: str | None = None, status: str | None = None, open_seats: bool | None = None,
             source: str | None = None, limit: int | None = None, cursor: str | None = None) -> Page[GameSummary]:
        """``GET /v1/games``: one page of games, newest first, their public
        facts only; filter by ``ruleset``, ``status`` (``active``,
        ``finished``), ``open_seats`` (``True``: games with a seat to
        claim) and ``source`` (who started them: ``people``, ``tournament``
        or ``pool``); ``cursor`` is the ``next`` of the page before."""
        flag = None if open_seats is None else "true" if open_seats else "false"
        return page_of(self._http, "/v1/games", "games", GameSummary.from_json,
                       {"ruleset": ruleset, "status": status, "open_seats": flag, "source": source, "limit": limit,
                        "cursor": cursor})

    def all(self, *, ruleset: str | None = None, status: str | None = None, open_seats: bool | None = None,
            source: str | None = None, limit: int | None = None) -> Iterator[GameSummary]:
        """Every game of :meth:`list`, page after page (``limit``: per page)."""
        return every(lambda cursor: self.list(ruleset=ruleset, status=status, open_seats=open_seats, source=source,
                                               limit=limit, cursor=cursor))

    def view(self, game_id: str, *, token: str | None = None) -> View:
        """``GET /v1/games/{id}``: the game as seat ``token`` sees it (a
        spectator's view without a token)."""
        view = View.from_json(json_of(self._http.request("GET", f"/v1/games/{game_id}", token=token)))
        self._owner._saw(game_id, view.version)
        return view

    def move(self, game_id: str, move: Mapping[str, Any], *, token: str,
             expected_version: int | None | Auto = AUTO, idempotency_key: str | None = None) -> MoveAccepted:
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
        accepted = MoveAccepted.from_json(json_of(self._http.request(
            "POST", f"/v1/games/{game_id}/moves", token=token, json=body, headers={"Idempotency-Key": key},
            move=True)))
        self._owner._saw(game_id, accepted.version)
        return accepted

    def claim(self, game_id: str, seat: int, name: str) -> SeatToken:
        """``POST /v1/games/{id}/seats/{seat}/claim``: an open seat's token, to
        the first claimant only (a later claim: :class:`Conflict` ``seat_taken``).
        Not retried once sent: a lost answer may have given the seat away."""
        return SeatToken.from_json(json_of(self._http.request(
            "POST", f"/v1/games/{game_id}/seats/{seat}/claim", json={"name": name}, safe=False)))

    def reissue(self, game_id: str, seat: int, *, owner_token: str) -> SeatToken:
        """``POST /v1/games/{id}/seats/{seat}/token``: a person's seat's new
        token; the old one stops working at once, its streams too. For a seat
        the creator seated, ``owner_token`` is the creator's
        (``GameCreated.owner_token``); a claimed seat is reissued by its
        claimant only, passing its own current token here (the creator's is
        refused: :class:`Forbidden`, ``seat_belongs_to_claimant``)."""
        return SeatToken.from_json(json_of(self._http.request(
            "POST", f"/v1/games/{game_id}/seats/{seat}/token", token=owner_token, safe=False)))

    def rematch(self, game_id: str, *, token: str) -> Rematch:
        """``POST /v1/games/{id}/rematch``: the next game of a finished game,
        the same ruleset, options and bots, the seats rotated one place. With
        the creator's ``owner_token``: the game; with a person's seat token of
        the finished game, also that person's new ``seat`` and its ``token``,
        shown that once (``None`` after). Every ask answers with the same game."""
        return Rematch.from_json(json_of(self._http.request(
            "POST", f"/v1/games/{game_id}/rematch", token=token, safe=False)))

    def series(self, series_id: str) -> Series:
        """``GET /v1/series/{id}``: a series' running score and its games (its id is its first game's)."""
        return Series.from_json(json_of(self._http.request("GET", f"/v1/series/{series_id}")))

    def deliveries(self, game_id: str, *, owner_token: str) -> WebhookDeliveries:
        """``GET /v1/games/{id}/deliveries``: how the game-end webhook (option
        ``callback_url``) went, each attempt's status and error; the
        creator's ``owner_token`` only (:class:`NotFound` ``no_callback`` for
        a game created without one)."""
        return WebhookDeliveries.from_json(json_of(self._http.request(
            "GET", f"/v1/games/{game_id}/deliveries", token=owner_token)))

    def events(self, game_id: str, *, token: str | None = None, after: int = 0, wait: float = 0) -> EventPage:
        """``GET /v1/games/{id}/events``: the events after version ``after``
        as seat ``token`` may see them. With ``wait`` (seconds, at most 30) it
        long-polls: it answers as soon as there is one, or after ``wait`` with
        none; the read timeout is ``wait`` plus a margin."""
        params: dict[str, Any] = {"after": after}
        if wait:
            params["wait"] = wait
        page = EventPage.from_json(json_of(self._http.request(
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

        return resuming(self._http, f"/v1/games/{game_id}/events/stream", token=token, params={"after": after},
                         last_id=lambda: str(last), accept=accept, reconnect=reconnect)

    def replay(self, game_id: str, *, version: int | None = None) -> Replay:
        """``GET /v1/games/{id}/replay``: the spectator view at ``version``
        (default the latest); once the game is over, every seat's view too."""
        params = {"version": version} if version is not None else None
        replay = Replay.from_json(json_of(self._http.request("GET", f"/v1/games/{game_id}/replay", params=params)))
        self._owner._saw(game_id, replay.latest_version)
        return replay

    def broadcast(self, game_id: str) -> Broadcast:
        """``GET /v1/games/{id}/broadcast``: every seat's view as late as the
        game's spectators see it, for a game whose creator opted in
        (``spectator_omniscient``; else :class:`Forbidden` ``broadcast_not_offered``).
        Asked as a spectator: a seat's token is refused (``broadcast_not_for_seats``)."""
        return Broadcast.from_json(json_of(self._http.request("GET", f"/v1/games/{game_id}/broadcast")))

    def log(self, game_id: str, *, token: str | None = None) -> GameLog:
        """``GET /v1/games/{id}/log``: the full unredacted log (NDJSON), public
        once the game is over; before that only with the admin ``token``
        (else :class:`Forbidden` ``log_not_public``)."""
        return GameLog.from_ndjson(self._http.request("GET", f"/v1/games/{game_id}/log", token=token).text)

    def audit(self, game_id: str, *, token: str | None = None) -> AuditReport:
        """``GET /v1/games/{id}/audit``: the referee's verification of the
        game's log (hash chain, seed, replay, result, signature …); an active
        game only with the admin ``token``."""
        return AuditReport.from_json(json_of(self._http.request("GET", f"/v1/games/{game_id}/audit", token=token)))

    def chat(self, game_id: str, text: str, *, token: str | None = None) -> ChatMessage:
        """``POST /v1/games/{id}/chat``: say ``text`` at the table as seat
        ``token`` (no token: a spectator, where the creator opened the chat to
        everyone). Plain text, one line, at most 280 characters (else
        :class:`Unprocessable`); 5 messages in 10 s a seat (:class:`RateLimited`).
        Not retried once sent: a retry could say it twice."""
        message = ChatMessage.from_json(json_of(self._http.request(
            "POST", f"/v1/games/{game_id}/chat", token=token, json={"text": text}, safe=False)))
        if message.seq is not None:  # None: a spectator's post at a game shown late
            self._owner._saw(game_id, message.seq)
        return message

    def chat_messages(self, game_id: str, *, token: str | None = None, after: int = 0) -> tuple[ChatMessage, ...]:
        """``GET /v1/games/{id}/chat``: the messages after event ``after``, a
        hidden one's text withheld (but from the admin ``token``)."""
        raw = json_of(self._http.request("GET", f"/v1/games/{game_id}/chat", token=token, params={"after": after}))
        return tuple(ChatMessage.from_json(m) for m in raw["messages"])

    def hide_chat(self, game_id: str, seq: int, *, token: str) -> None:
        """``POST /v1/games/{id}/chat/{seq}/hide``: hide message ``seq``'s text,
        as the game's creator (``token``: its ``owner_token``) or the admin."""
        json_of(self._http.request("POST", f"/v1/games/{game_id}/chat/{seq}/hide", token=token))
