"""``client.bots``: webhook and outbound bots, and an outbound bot's turns."""
from __future__ import annotations

import json as jsonlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from httpx_sse import ServerSentEvent

from referee.client.calls import Owner, every, json_of, page_of, resuming
from referee.client.models import Bot, BotSummary, Json, Page, Turn, TurnAnswered


class Bots:
    """``client.bots``: webhook and outbound bots."""

    def __init__(self, owner: Owner) -> None:
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
        return Bot.from_json(json_of(self._http.request("POST", "/v1/bots", json=body, safe=False)))

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> Page[BotSummary]:
        """``GET /v1/bots``: one page of registered bots, newest first (never a URL or secret)."""
        return page_of(self._http, "/v1/bots", "bots", BotSummary.from_json, {"limit": limit, "cursor": cursor})

    def all(self, *, limit: int | None = None) -> Iterator[BotSummary]:
        """Every bot of :meth:`list`, page after page."""
        return every(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, bot_id: str, *, secret: str) -> Bot:
        """``GET /v1/bots/{id}``: the bot, for its owner (``secret``)."""
        return Bot.from_json(json_of(self._http.request("GET", f"/v1/bots/{bot_id}", token=secret)))

    def delete(self, bot_id: str, *, secret: str) -> Json:
        """``DELETE /v1/bots/{id}``: the owner (``secret``) deletes the bot;
        its place in ``REFEREE_BOTS_PER_CLIENT`` is free. Safe to retry (a
        retry after a lost answer is :class:`NotFound`)."""
        return json_of(self._http.request("DELETE", f"/v1/bots/{bot_id}", token=secret, safe=True))

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

        return resuming(self._http, f"/v1/bots/{bot_id}/turns", token=secret, params=None,
                         last_id=lambda: last, accept=accept, reconnect=reconnect, first_id=after)

    def answer(self, bot_id: str, delivery: str, move: Mapping[str, Any], *, secret: str) -> TurnAnswered:
        """``POST /v1/bots/{id}/turns/{delivery}``: an outbound bot's answer
        to one turn (one of its ``legal_moves``). A turn takes one answer, so
        a retry cannot play twice: after a lost answer the retry may get
        :class:`Conflict` ``turn_closed`` (answered already, past its
        deadline, or never offered)."""
        return TurnAnswered.from_json(json_of(self._http.request(
            "POST", f"/v1/bots/{bot_id}/turns/{delivery}", token=secret, json={"move": dict(move)}, safe=True)))

    # -- the ladders' matchmaking pools (docs/ladder.md, "The pool") -----------------------
    def join_pool(self, ladder: str, bot_id: str, *, secret: str, games_at_once: int | None = None,
                  same_table: int | None = None) -> Json:
        """``PUT /v1/ladder/{key}/pool/{id}``: the owner (``secret``) puts the
        bot in the ladder's pool, where the workers keep dealing it games;
        again, it updates the entry and un-pauses a paused bot. A built-in
        bot (``random``, ``heuristic``): ``secret`` is the admin token. Safe to
        retry (the same entry)."""
        body = {name: value for name, value in (("games_at_once", games_at_once), ("same_table", same_table))
                if value is not None}
        return json_of(self._http.request("PUT", f"/v1/ladder/{ladder}/pool/{bot_id}", token=secret, json=body,
                                          safe=True))

    def leave_pool(self, ladder: str, bot_id: str, *, secret: str) -> Json:
        """``DELETE /v1/ladder/{key}/pool/{id}``: the owner takes the bot out;
        its games being played finish (a retry after a lost answer is
        :class:`NotFound` ``not_in_pool``)."""
        return json_of(self._http.request("DELETE", f"/v1/ladder/{ladder}/pool/{bot_id}", token=secret, safe=True))

    def pool(self, ladder: str) -> Json:
        """``GET /v1/ladder/{key}/pool``: the pool's bots (each one's status) and its stats."""
        return json_of(self._http.request("GET", f"/v1/ladder/{ladder}/pool"))


def _turn_order(event_id: str) -> tuple[int, ...]:
    """A turn event id (``<ms>-<n>``) as something to order by."""
    try:
        return tuple(int(part) for part in event_id.split("-"))
    except ValueError:
        return (0,)
