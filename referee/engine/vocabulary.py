"""One vocabulary for every ruleset's views, events and results (docs/vocabulary.md, "One
vocabulary"): what a table app may rely on to draw any game with no branch
per ruleset. The conformance suite holds every installed ruleset to it (a
plug-in's too); a ruleset author can call ``problems`` from its own tests.

* ``state.seats`` is the list of per-seat public facts, one per seat in seat
  order, each with its ``seat``; ``state.last`` is ``null`` or the last thing
  a table would draw (a roll, a card played, a die's result) with its ``kind``.
* Identifiers are lower snake case (``sheriff``, ``shot1``, ``card_played``)
  or a card ID of the ruleset's catalogue (``MISSED-5S``): one spelling in
  views, events, results and scenarios. A value under ``role`` or
  ``character`` is one of the catalogue's. Strings under the ruleset's
  ``text_keys`` (prose, a drawn map) and under ``detail``, ``name``, ``text``
  are not identifiers.
* ``pending`` is ``null`` or ``{kind, awaiting, deadline, default, ...}``:
  ``awaiting`` the seats the referee awaits (``to_act``), ``deadline`` the
  view's, ``default`` ``null`` or ``[{seat, move}]``, what the referee plays
  for an awaited seat at the deadline, public. The caller's own answers are in
  ``legal_moves`` only: no ``moves`` in ``pending``.
* ``result`` is ``null`` or ``{winners, seats: [{seat, outcome}], reason,
  detail}``: ``outcome`` ``win``/``loss``/``draw``, ``winners`` the seats that
  won, ``reason`` a code, ``detail`` a sentence.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from referee.engine.protocol import Event, Json

IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*\Z")
#: keys whose strings are words for people, never identifiers
PROSE_KEYS = frozenset({"detail", "name", "text", "title"})
OUTCOMES = frozenset({"win", "loss", "draw"})
PENDING_KEYS = ("kind", "awaiting", "deadline", "default")
#: strings whose spelling a lexicon remembers, at most (the vocabulary's words are few; ids are many)
SPELLED_KEPT = 50_000


class Lexicon:
    """What one ruleset's identifiers may be: lower snake case, its card IDs,
    and for ``role`` / ``character`` values its catalogue's."""

    def __init__(self, catalogue: Mapping[str, Any] | None, text_keys: Iterable[str] = ()) -> None:
        catalogue = catalogue or {}
        self.cards = frozenset(c["id"] for c in catalogue.get("cards", ()))
        self.roles = frozenset(r["id"] for r in catalogue.get("roles", ()))
        self.characters = frozenset(c["id"] for c in catalogue.get("characters", ()))
        self.skip = PROSE_KEYS | frozenset(text_keys)
        #: whether a string is spelled as an identifier (lower snake case or a card ID), as seen before
        self._spelled: dict[str, bool] = {}

    def words(self, value: Any, where: str) -> list[str]:
        """The identifiers of ``value`` (JSON) not spelled as the vocabulary says."""
        out: list[str] = []
        self._walk(value, [where], None, out)
        return out

    def _walk(self, value: Any, path: list[str | int], key: str | None, out: list[str]) -> None:
        # the path is kept as parts and written out only for a problem: a view has thousands of values
        if isinstance(value, str):
            problem = self._problem(value, key)
            if problem is not None:
                out.append(f"{_written(path)}: {problem}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, (str, list, dict)):
                    path.append(i)
                    self._walk(item, path, key, out)
                    path.pop()
        elif isinstance(value, dict):
            for k, item in value.items():
                if k not in self.skip and isinstance(item, (str, list, dict)):
                    path.append(k)
                    self._walk(item, path, k, out)
                    path.pop()

    def _problem(self, value: str, key: str | None) -> str | None:
        """What is wrong with the string ``value`` under ``key``, or ``None``."""
        if key == "role" and self.roles:
            return None if value in self.roles else f"role {value!r} is not one of the catalogue's {sorted(self.roles)}"
        if key == "character" and self.characters:
            return None if value in self.characters else f"character {value!r} is not one of the catalogue's"
        spelled = self._spelled.get(value)
        if spelled is None:
            if len(self._spelled) >= SPELLED_KEPT:
                self._spelled.clear()
            spelled = self._spelled[value] = bool(IDENTIFIER.match(value)) or value in self.cards
        return None if spelled else f"{value!r} is neither lower snake case nor a card ID of the catalogue"


def _written(path: list[str | int]) -> str:
    """``["state", "seats", 0, "role"]`` as ``state.seats[0].role``."""
    return "".join(f"[{part}]" if isinstance(part, int) else part if i == 0 else f".{part}"
                   for i, part in enumerate(path))


def view_problems(lexicon: Lexicon, body: Json, players: int) -> list[str]:
    """What breaks the vocabulary in one seat's view (``seat_view``'s body)."""
    out: list[str] = []
    state = body.get("state")
    if not isinstance(state, dict):
        return ["state: not an object"]
    seats = state.get("seats")
    if not isinstance(seats, list) or len(seats) != players or \
            any(not isinstance(s, dict) or s.get("seat") != i for i, s in enumerate(seats)):
        out.append(f"state.seats: not the list of {players} seats' facts, each with its seat, in seat order")
    if "last" not in state:
        out.append("state.last: missing (null, or the last roll / card played / result with its kind)")
    elif state["last"] is not None and not (isinstance(state["last"], dict) and isinstance(
            state["last"].get("kind"), str)):
        out.append("state.last: neither null nor an object with a kind")
    out += lexicon.words(state, "state")
    out += pending_problems(lexicon, body)
    out += result_problems(lexicon, body.get("result"), players)
    return out


def pending_problems(lexicon: Lexicon, body: Json) -> list[str]:
    """``pending`` as the vocabulary says, agreeing with ``to_act`` and ``deadline``."""
    pending, to_act = body.get("pending"), body.get("to_act") or []
    if pending is None:
        return ["pending: null while seats are awaited"] if to_act else []
    if not isinstance(pending, dict):
        return ["pending: not an object"]
    out = [f"pending.{k}: missing" for k in PENDING_KEYS if k not in pending]
    if "moves" in pending:
        out.append("pending.moves: the caller's answers belong in legal_moves only")
    if not isinstance(pending.get("kind"), str) or not IDENTIFIER.match(pending["kind"]):
        out.append(f"pending.kind: {pending.get('kind')!r} is no lower snake case code")
    out += _disagreements(pending, body, to_act)
    out += _default_problems(pending.get("default"), to_act)
    out += lexicon.words({k: v for k, v in pending.items() if k != "default"}, "pending")
    return out


def _disagreements(pending: Json, body: Json, to_act: list[Any]) -> list[str]:
    """Where ``pending`` says other than the view's ``to_act`` and ``deadline``."""
    out = []
    if "awaiting" in pending and pending["awaiting"] != sorted(to_act):
        out.append(f"pending.awaiting: {pending['awaiting']!r}, and to_act is {sorted(to_act)!r}")
    if "deadline" in pending and pending["deadline"] != body.get("deadline"):
        out.append(f"pending.deadline: {pending['deadline']!r}, and the view's deadline is {body.get('deadline')!r}")
    return out


def _default_problems(default: Any, to_act: list[Any]) -> list[str]:
    """``pending.default``: null, or ``[{seat, move}]`` of awaited seats."""
    if default is not None and not (isinstance(default, list) and all(
            isinstance(d, dict) and set(d) == {"seat", "move"} and d["seat"] in to_act
            and isinstance(d["move"], dict) and isinstance(d["move"].get("type"), str) for d in default)):
        return [f"pending.default: {default!r} is neither null nor [{{seat, move}}] of awaited seats"]
    return []


def result_problems(lexicon: Lexicon, result: Any, players: int) -> list[str]:
    """``result`` as the vocabulary says."""
    if result is None:
        return []
    if not isinstance(result, dict):
        return ["result: not an object"]
    out = _seat_problems(result, players)
    if not isinstance(result.get("reason"), str) or not IDENTIFIER.match(result["reason"]):
        out.append(f"result.reason: {result.get('reason')!r} is no lower snake case code")
    if not isinstance(result.get("detail"), str) or not result["detail"].strip():
        out.append("result.detail: missing (a sentence saying why)")
    out += lexicon.words(result, "result")
    return out


def _seat_problems(result: Json, players: int) -> list[str]:
    """``result.seats``: every seat in seat order with its outcome; ``result.winners``: those who won."""
    seats = result.get("seats")
    if not isinstance(seats, list) or [s.get("seat") if isinstance(s, dict) else None for s in seats] != \
            list(range(players)) or any(s.get("outcome") not in OUTCOMES for s in seats):
        return ["result.seats: not [{seat, outcome: win|loss|draw}] for every seat in seat order"]
    if result.get("winners") != [s["seat"] for s in seats if s["outcome"] == "win"]:
        return [f"result.winners: {result.get('winners')!r} are not the seats whose outcome is win"]
    return []


def event_problems(lexicon: Lexicon, event: Event) -> list[str]:
    """The identifiers of one rules event spelled against the vocabulary."""
    out = [] if IDENTIFIER.match(event.type) else [f"event type {event.type!r} is no lower snake case code"]
    return out + lexicon.words(dict(event.data), event.type)
