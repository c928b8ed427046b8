"""``client.tournaments``: tournaments the workers play."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from referee.client.calls import Owner, every, json_of, page_of
from referee.client.models import Json, Page, Tournament, TournamentSummary


class Tournaments:
    """``client.tournaments``: tournaments the workers play."""

    def __init__(self, owner: Owner) -> None:
        self._http = owner._http

    def create(self, ruleset: str, entrants: Sequence[str | Mapping[str, str]], games: int, *,
               players: int | None = None, options: Mapping[str, Any] | None = None, seed: str | None = None,
               parallel: int | None = None, token: str | None = None,
               callback_url: str | None = None) -> Tournament:
        """``POST /v1/tournaments``: ``games`` games of ``ruleset`` between
        ``entrants`` (``random``, ``heuristic``, a bot id, or ``{"bot", "name"}``).
        The admin ``token`` lifts the caps. The answer's ``cancel_token`` is
        shown once (and with ``callback_url``, every game's end webhook, the
        ``callback_secret`` that signs it). Not retried once sent."""
        body: Json = {"ruleset": ruleset, "entrants": [e if isinstance(e, str) else dict(e) for e in entrants],
                      "games": games}
        for name, value in (("players", players), ("options", options), ("seed", seed), ("parallel", parallel),
                            ("callback_url", callback_url)):
            if value is not None:
                body[name] = value
        return Tournament.from_json(json_of(self._http.request("POST", "/v1/tournaments", token=token, json=body,
                                                             safe=False)))

    def list(self, *, status: str | None = None, limit: int | None = None,
             cursor: str | None = None) -> Page[TournamentSummary]:
        """``GET /v1/tournaments``: one page of tournaments, newest first;
        filter by ``status`` (``running``, ``finished``, ``cancelled``)."""
        return page_of(self._http, "/v1/tournaments", "tournaments", TournamentSummary.from_json,
                     {"status": status, "limit": limit, "cursor": cursor})

    def all(self, *, status: str | None = None, limit: int | None = None) -> Iterator[TournamentSummary]:
        """Every tournament of :meth:`list`, page after page."""
        return every(lambda cursor: self.list(status=status, limit=limit, cursor=cursor))

    def get(self, tournament_id: str) -> Tournament:
        """``GET /v1/tournaments/{id}``: progress, every game and the standings."""
        return Tournament.from_json(json_of(self._http.request("GET", f"/v1/tournaments/{tournament_id}")))

    def cancel(self, tournament_id: str, *, token: str) -> Tournament:
        """``DELETE /v1/tournaments/{id}`` with the ``cancel_token`` (or the
        admin token): no new game starts; the games being played finish.
        Cancelling twice changes nothing, so it is retried safely."""
        return Tournament.from_json(json_of(self._http.request("DELETE", f"/v1/tournaments/{tournament_id}",
                                                             token=token)))
