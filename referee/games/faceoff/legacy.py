"""BANG! Face Off version 2, kept for the logs it wrote (``referee.engine.legacy``):
today's rules (version 3) translated at their edges.

Version 2 differs from version 3 only in words, never in what the rules decide:

* the built-in maps were ``faceoff-1`` and ``faceoff-2`` (version 3:
  ``faceoff_1``, ``faceoff_2``): the ``map`` option and ``game_setup``'s
  ``map.id``;
* the agenda's frames (``flow.stack``, in ``flow`` and ``game_setup``) named
  the card that opened a shot or an Indians!/Gatling round by its key in
  capitals (``BANG``, ``GATLING``; version 3: ``bang``, ``gatling``);
* the result (``game_over``'s and ``seed_revealed``'s) had no ``detail``;
* version 2 had no ``resign`` (FO58): its logs hold none, nor a ``resigned``
  result.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.engine.legacy import Legacy
from referee.engine.protocol import Event, Json
from referee.games.faceoff.board import OLD_IDS

_NEW_IDS = {new: old for old, new in OLD_IDS.items()}


def _flow(flow: Any, spell: Callable[[str], str]) -> Any:
    """``flow`` with each frame's card ``key`` respelled."""
    if not isinstance(flow, dict) or not any("key" in fr for fr in flow.get("stack", ())):
        return flow
    return {**flow, "stack": [{**fr, "key": spell(fr["key"])} if isinstance(fr.get("key"), str) else fr
                              for fr in flow["stack"]]}


def _detail(result: Json) -> Json:
    """A version-2 result with today's ``detail`` (FO47, FO49)."""
    from referee.games.faceoff.elimination import result_detail
    winners = list(result["winners"])
    resigned = 1 - winners[0] if result["reason"] == "resigned" and winners else None
    return {**result, "detail": result_detail(result["reason"], winners, resigned)}


def _respelled(event: Event, ids: Mapping[str, str], spell: Callable[[str], str]) -> Event:
    d = event.data
    if event.type == "flow":
        flow = _flow(d["flow"], spell)
        return event if flow is d["flow"] else Event(event.type, {**d, "flow": flow})
    if event.type == "game_setup":
        out = dict(d)
        m = d.get("map")
        if isinstance(m, dict) and m.get("id") in ids:
            out["map"] = {**m, "id": ids[m["id"]]}
        out["flow"] = _flow(d["flow"], spell)
        return Event(event.type, out)
    return event


class FaceOffV2(Legacy):
    """BANG! Face Off as version 2 wrote its logs: hyphenated map ids, card keys in capitals
    in the agenda, no result ``detail``."""

    version = "2"

    def event_down(self, event: Event) -> Event:
        if event.type == "game_over":
            return Event(event.type, {**event.data, "result": self.result_down(event.data["result"])})
        return _respelled(event, _NEW_IDS, str.upper)

    def event_up(self, event: Event) -> Event:
        if event.type == "game_over":
            return Event(event.type, {**event.data, "result": _detail(event.data["result"])})
        return _respelled(event, OLD_IDS, str.lower)

    def options_up(self, options: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(options)
        if isinstance(out.get("map"), str) and out["map"] in OLD_IDS:
            out["map"] = OLD_IDS[out["map"]]
        return out

    def result_down(self, result: Json) -> Json:
        return {k: v for k, v in result.items() if k != "detail"}

    def validate_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        out = dict(self.current.validate_options(self.options_up(options), players))
        if isinstance(out.get("map"), str) and out["map"] in _NEW_IDS:
            out["map"] = _NEW_IDS[out["map"]]
        return out
