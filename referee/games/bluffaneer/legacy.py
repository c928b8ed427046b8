"""Bluffaneer v1, kept for the logs it wrote (``referee.engine.legacy``):
today's rules (v2) translated at their edges.

v1 differs from v2 only in words, never in what the rules decide:

* the symbols (F2) were upper case: ``CHEST``, ``SWORD``, ``SHIP``, ``SKULL``
  (v2: ``chest``, ``sword``, ``ship``, ``skull``) in ``game_started``'s
  ``die_faces`` and ``dice_queue``, ``dice_rolled``'s ``dice``,
  ``card_revealed``'s ``symbols``, the ``die_faces`` option and a scenario's
  ``dice`` and symbol-pair card references. Card IDs (``CHEST-SWORD-1``) are
  the same in both;
* ``game_ended``'s and the result's ``reason`` was the sentence ``"a player
  lost his last coin"`` (v2: the code ``last_coin_lost``, F28), and the
  result had no ``detail``;
* v1 had no ``resign`` (F34): a v1 log holds none, nor a ``resigned`` event.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.legacy import Legacy, recase
from referee.engine.protocol import Event, Json
from referee.games.bluffaneer.ending import LAST_COIN_LOST

#: v1's ``reason`` of a game that ended at 0 coins (F28)
V1_REASON = "a player lost his last coin"
#: the keys of each event type whose strings are symbols (F2)
_SYMBOL_KEYS: dict[str, frozenset[str]] = {
    "game_started": frozenset({"die_faces", "dice_queue"}),
    "dice_rolled": frozenset({"dice"}),
    "card_revealed": frozenset({"symbols"}),
}
_REASONS_DOWN = {LAST_COIN_LOST: V1_REASON}
_REASONS_UP = {V1_REASON: LAST_COIN_LOST}


def _respelled(event: Event, spell: Any, reasons: Mapping[str, str]) -> Event:
    keys = _SYMBOL_KEYS.get(event.type)
    if keys is not None:
        return Event(event.type, recase(dict(event.data), keys, spell))
    if event.type == "game_ended" and event.data.get("reason") in reasons:
        return Event(event.type, {**event.data, "reason": reasons[event.data["reason"]]})
    return event


def _pair_up(ref: Any) -> Any:
    """A scenario's card reference in v2's words: a pair of symbols lower case, a card ID as it is."""
    return [s.lower() if isinstance(s, str) else s for s in ref] if isinstance(ref, list) else ref


def scenario_up(scenario: Any) -> Any:
    """A v1 scenario ``setup`` in v2's words (its ``dice`` and symbol pairs lower case)."""
    if not isinstance(scenario, dict):
        return scenario
    out = dict(scenario)
    if isinstance(out.get("dice"), list):
        out["dice"] = [f.lower() if isinstance(f, str) else f for f in out["dice"]]
    for key in ("deck", "discard"):
        if isinstance(out.get(key), list):
            out[key] = [_pair_up(ref) for ref in out[key]]
    if isinstance(out.get("seats"), list):
        out["seats"] = [{**seat, "card": _pair_up(seat["card"])} if isinstance(seat, dict) and "card" in seat
                        else seat for seat in out["seats"]]
    return out


class BluffaneerV1(Legacy):
    """Bluffaneer as v1 wrote its logs: upper case symbols, a prose ``reason``."""

    version = "1"

    def event_down(self, event: Event) -> Event:
        return _respelled(event, str.upper, _REASONS_DOWN)

    def event_up(self, event: Event) -> Event:
        return _respelled(event, str.lower, _REASONS_UP)

    def options_up(self, options: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(options)
        if isinstance(out.get("die_faces"), (list, tuple)):
            out["die_faces"] = [f.lower() if isinstance(f, str) else f for f in out["die_faces"]]
        return out

    def result_down(self, result: Json) -> Json:
        out = {k: v for k, v in result.items() if k != "detail"}
        out["reason"] = _REASONS_DOWN.get(out["reason"], out["reason"])
        return out

    def scenario_up(self, scenario: Any) -> Any:
        return scenario_up(scenario)
