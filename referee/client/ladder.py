"""``client.ladder``: the bots' lasting ratings (issue 42, docs/ladder.md)."""
from __future__ import annotations

from urllib.parse import quote

from referee.client.calls import Owner, json_of
from referee.client.models.ladder import BotProfile, LadderPage, LadderSummary


class Ladder:
    """``client.ladder``: the ladders, a ladder's table a page at a time, a bot's profile."""

    def __init__(self, owner: Owner) -> None:
        self._http = owner._http

    def list(self) -> list[LadderSummary]:
        """``GET /v1/ladder``: every ladder, its bots and rated games."""
        found = json_of(self._http.request("GET", "/v1/ladder"))
        return [LadderSummary.from_json(item) for item in found["ladders"]]

    def get(self, key: str, *, cursor: str | None = None, limit: int | None = None) -> LadderPage:
        """``GET /v1/ladder/{key}``: a page of the ladder ``key`` (``bang``, ``bang:3``, ...), best first."""
        params = {k: v for k, v in {"cursor": cursor, "limit": limit}.items() if v is not None}
        return LadderPage.from_json(json_of(self._http.request("GET", f"/v1/ladder/{quote(key)}", params=params)))

    def profile(self, bot_id: str) -> BotProfile:
        """``GET /v1/bots/{id}/profile``: a bot's standing in every ladder, its rating history, its last games."""
        return BotProfile.from_json(json_of(self._http.request("GET", f"/v1/bots/{quote(bot_id)}/profile")))
