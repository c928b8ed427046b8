"""BANG! The Dice Game v1, kept for the logs it wrote (``referee.engine.legacy``):
today's rules (v2) translated at their edges.

v1 differs from v2 only in words, never in what the rules decide:

* die faces were upper case (``SHOT1``, ``DOUBLE_GATLING``; v2: ``shot1``,
  ``double_gatling``) in ``game_started``'s ``queue`` and ``tokens``,
  ``dice_rolled``'s ``dice``, ``token_given``'s ``face`` and a scenario's
  ``dice``, ``queue`` and ``tokens[].face``;
* roles were role cards (``SHERIFF``, ``OUTLAW-2``): in ``game_started``'s
  and ``game_ended``'s ``roles`` (v2: the role ids ``sheriff``, ``outlaw``;
  the cards are numbered per role in seat order, so v1's follow from them),
  ``player_eliminated``'s ``role`` (v2: ``role`` the role id and
  ``role_card`` the card, ``outlaw_2``) and the sealed ``role:<seat>``
  secrets (v2: ``outlaw_2``);
* ``game_ended``'s and the result's ``reason`` was a sentence (``"D70: the
  last player alive wins"``; v2: a code, ``last_alive``, the sentence in the
  result's ``detail``), and v1's result had no ``detail`` nor ``resigned``;
* the rule an arrow is taken by was named ``D21`` / ``D37`` in ``awaiting``'s
  ``data`` and ``agenda`` (v2: ``d21`` / ``d37``);
* v1 had no ``resign`` (D75): a v1 log holds none, nor a ``player_resigned``.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from referee.engine.legacy import Legacy, recase
from referee.engine.protocol import Event, Json, Seat
from referee.games.dice.ending import DETAILS, detail
from referee.games.dice.role_cards import role_cards

_FACE_KEYS: dict[str, frozenset[str]] = {
    "game_started": frozenset({"queue", "tokens"}),
    "dice_rolled": frozenset({"dice"}),
    "token_given": frozenset({"face"}),
}
_RULE_UP = re.compile(r"D\d+\Z")
_RULE_DOWN = re.compile(r"d\d+\Z")
#: v1's reason sentences, each with the code it became (``{seat}``: the winner)
_REASON_PATTERNS = [(re.compile(re.escape(text).replace(re.escape("{seat}"), r"\d+") + r"\Z"), code)
                    for code, text in DETAILS.items()]


def card_down(card: str) -> str:
    """A role card as v1 spelled it: ``outlaw_2`` -> ``OUTLAW-2``."""
    return card.upper().replace("_", "-")


def card_up(card: str) -> str:
    """A v1 role card in v2's words: ``OUTLAW-2`` -> ``outlaw_2``."""
    return card.lower().replace("-", "_")


def _kinds_down(kinds: list[Any]) -> list[Any]:
    """Every seat's role id as v1's role card (numbered per role in seat order, D7)."""
    if any(k is None for k in kinds):  # a redacted deal: ``BangDiceV1.redact`` numbers it
        return [None if k is None else card_down(k) for k in kinds]
    return [card_down(c) for c in role_cards(kinds)]


def _kinds_up(cards: list[Any]) -> list[Any]:
    return [None if c is None else card_up(c).split("_")[0] for c in cards]


def reason_up(reason: str) -> str:
    """v1's ``reason`` sentence as v2's code."""
    return next((code for pattern, code in _REASON_PATTERNS if pattern.match(reason)), reason)


def _rules(value: Any, pattern: re.Pattern[str], spell: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return spell(value) if pattern.match(value) else value
    if isinstance(value, list):
        return [_rules(v, pattern, spell) for v in value]
    return value


def _translate(event: Event, down: bool) -> Event:
    data = dict(event.data)
    keys = _FACE_KEYS.get(event.type)
    if keys is not None:
        data = recase(data, keys, str.upper if down else str.lower)
    if event.type in ("game_started", "game_ended"):
        data["roles"] = (_kinds_down if down else _kinds_up)(list(data["roles"]))
    if event.type == "game_ended":
        data["reason"] = detail(data["reason"], data["winners"]) if down else reason_up(data["reason"])
    elif event.type == "player_eliminated":
        if down:
            data = {"seat": data["seat"], "role": card_down(data["role_card"]), "ghost": data["ghost"]}
        else:
            card = card_up(data["role"])
            data = {"seat": data["seat"], "role": card.split("_")[0], "role_card": card, "ghost": data["ghost"]}
    elif event.type == "awaiting":
        pattern, spell = (_RULE_DOWN, str.upper) if down else (_RULE_UP, str.lower)
        data["data"] = _rules(data["data"], pattern, spell)
        data["agenda"] = _rules(data["agenda"], pattern, spell)
    return Event(event.type, data) if keys is not None or data != event.data or event.type in (
        "game_started", "game_ended", "player_eliminated", "awaiting") else event


def scenario_up(scenario: Any) -> Any:
    """A v1 scenario ``setup`` in v2's words (its faces lower case)."""
    if not isinstance(scenario, dict):
        return scenario
    out = dict(scenario)
    for key in ("dice", "queue"):
        if isinstance(out.get(key), list):
            out[key] = [f.lower() if isinstance(f, str) else f for f in out[key]]
    if isinstance(out.get("tokens"), list):
        out["tokens"] = [{**t, "face": t["face"].lower()} if isinstance(t, dict) and isinstance(
            t.get("face"), str) else t for t in out["tokens"]]
    return out


class BangDiceV1(Legacy):
    """BANG! The Dice Game as v1 wrote its logs: upper case faces, role cards, a prose ``reason``."""

    version = "1"

    def event_down(self, event: Event) -> Event:
        return _translate(event, True)

    def event_up(self, event: Event) -> Event:
        return _translate(event, False)

    def result_down(self, result: Json) -> Json:
        out = {k: v for k, v in result.items() if k != "detail"}
        out["seats"] = [{k: v for k, v in s.items() if k != "resigned"} for s in result["seats"]]
        out["reason"] = result["detail"]
        return out

    def secret_down(self, name: str, value: Any) -> Any:
        return card_down(value) if name.startswith("role:") and isinstance(value, str) else value

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        """The deal as v1 showed it to ``seat``: its role cards where today's shows the role."""
        shown = self.current.redact(self.event_up(event), seat)
        if shown is None:
            return None
        out = self.event_down(shown)
        if event.type == "game_started":
            cards = [c if k is not None else None for c, k in zip(event.data["roles"], shown.data["roles"])]
            out = Event(out.type, {**out.data, "roles": cards})
        return out

    def scenario_up(self, scenario: Any) -> Any:
        return scenario_up(scenario)
