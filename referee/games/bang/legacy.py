"""BANG! v2 as it wrote its logs (``referee.engine.legacy``): today's rules
(v3) translated at their edges.

What v3 changed in the events, and how it is translated:

* the ``awaiting`` event's windows and steps (``prompt``, ``then``) name the
  card they are for by its card ID (``"BANG-AS"``), or by its kind
  (``"bang"``) once it is shuffled into the deck (R59, R83); v2 wrote its
  key (``"BANG"``). Down: the key (``cards.KEY``; a kind upper-cased). Up: a key cannot tell
  its card by itself, so ``evolve`` reads it from the state it folds into:
  the card of the same key the agenda already names (a window reopened,
  the Duel passed on, a Gatling's next target), else the card just played
  (``state.last``), else the newest of that key on the discard pile: the
  card v3 would have named (R21, R32, R33, R34, R43);
* a result has a ``detail`` (one sentence, R55, R56, R82): down it is left
  out (``game_over`` and the result in ``seed_revealed``); up it is written
  again from the result's reason and winners.

v2 had no ``resign`` move (R85) and no ``player_resigned`` event: its logs
hold neither.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.legacy import Legacy
from referee.engine.protocol import Event, Json
from referee.games.bang.ending import result_detail
from referee.games.cards.deck import KEY

_CARDED = frozenset({"shot", "indians", "duel", "targets_left"})


def _frames_down(data: Mapping[str, Any]) -> Json:
    def down(frame: Any) -> Any:
        if frame is not None and frame.get("kind") in _CARDED:
            return {**frame, "card": KEY.get(frame["card"], frame["card"].upper())}
        return frame
    return {**data, "prompt": down(data["prompt"]), "then": [down(f) for f in data["then"]]}


def _card_for(state: Any, key: str) -> str:
    """The card ID of ``key`` a v2 window was opened for, or its kind once
    shuffled into the deck (see the module docstring)."""
    card = _found(state, key)
    return key.lower() if card is None or card in state.deck else card


def _found(state: Any, key: str) -> str | None:
    for f in reversed(state.stack):
        if KEY.get(f.card, f.card.upper()) == key:
            return str(f.card)
    last = state.last
    if last is not None and last.get("kind") == "card_played" and KEY.get(last["card"]) == key:
        return str(last["card"])
    return next((c for c in reversed(state.discard) if KEY[c] == key), None)


def _frames_up(state: Any, data: Mapping[str, Any]) -> Json:
    def up(frame: Any) -> Any:
        if frame is not None and frame.get("kind") in _CARDED and frame["card"] not in KEY and frame["card"].isupper():
            return {**frame, "card": _card_for(state, frame["card"])}
        return frame
    return {**data, "prompt": up(data["prompt"]), "then": [up(f) for f in data["then"]]}


def _without_detail(result: Any) -> Any:
    return {k: v for k, v in result.items() if k != "detail"} if isinstance(result, dict) else result


class BangV2(Legacy):
    """``bang`` v2: windows named their card by key, results had no ``detail``."""

    version = "2"

    def event_down(self, event: Event) -> Event:
        if event.type == "awaiting":
            return Event(event.type, _frames_down(event.data))
        if event.type == "game_over":
            return Event(event.type, {**event.data, "result": _without_detail(event.data["result"])})
        return event

    def event_up(self, event: Event) -> Event:
        if event.type == "game_over" and "detail" not in event.data["result"]:
            result = dict(event.data["result"])
            result["detail"] = result_detail(result)
            return Event(event.type, {**event.data, "result": result})
        return event

    def result_down(self, result: Json) -> Json:
        out: Json = _without_detail(result)
        return out

    def evolve(self, state: Any, event: Event) -> Any:
        event = self.event_up(event)
        if event.type == "awaiting" and state is not None:
            event = Event(event.type, _frames_up(state, event.data))
        return self.current.evolve(state, event)
