"""``client.transparency``: the referee's transparency log of finished games'
signed final heads (docs/transparency.md), fetched. The checks are
``referee audit --inclusion`` and ``referee witness`` (the server's package:
this client imports nothing of it) and the watch page's."""
from __future__ import annotations

from typing import Any

from referee.client.calls import Owner, json_of
from referee.client.models.transparency import ConsistencyProof, InclusionProof


class Transparency:
    """``client.transparency``: checkpoints and proofs."""

    def __init__(self, owner: Owner) -> None:
        self._http = owner._http

    def checkpoint(self) -> str:
        """``GET /v1/transparency/checkpoint``: the signed checkpoint now (a C2SP signed note)."""
        return self._http.request("GET", "/v1/transparency/checkpoint").text

    def inclusion(self, game_id: str, size: int | None = None) -> InclusionProof:
        """``GET /v1/transparency/proof/inclusion``: game ``game_id``'s inclusion proof
        (in the tree of ``size`` leaves; default: the log now)."""
        params: dict[str, Any] = {"game": game_id} if size is None else {"game": game_id, "size": size}
        return InclusionProof.from_json(json_of(self._http.request(
            "GET", "/v1/transparency/proof/inclusion", params=params)))

    def consistency(self, from_: int, to: int | None = None) -> ConsistencyProof:
        """``GET /v1/transparency/proof/consistency``: the tree of ``to`` (default: now) extends that of ``from_``."""
        params: dict[str, Any] = {"from": from_} if to is None else {"from": from_, "to": to}
        return ConsistencyProof.from_json(json_of(self._http.request(
            "GET", "/v1/transparency/proof/consistency", params=params)))
