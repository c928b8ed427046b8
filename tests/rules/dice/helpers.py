"""Builders shared by the BANG! The Dice Game rules tests."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.protocol import Event
from referee.games.dice.state import State
from tests.harness import Table, scenario

ROLES = {3: ["deputy", "outlaw", "renegade"], 4: ["sheriff", "renegade", "outlaw", "outlaw"],
         5: ["sheriff", "renegade", "outlaw", "outlaw", "deputy"],
         6: ["sheriff", "renegade", "outlaw", "outlaw", "outlaw", "deputy"]}
PLAIN = ["jesse_jones", "rose_doolan", "lucky_duke", "black_jack", "willy_the_kid", "kit_carlson",
         "calamity_janet", "suzy_lafayette"]
STOP = {"type": "stop"}


def game(players: int = 4, *, chars: Sequence[str] | None = None, roles: Sequence[str] | None = None,
         queue: Sequence[str] = (), options: dict[str, Any] | None = None, seed: str = "dice",
         **setup: Any) -> Table:
    """A scenario table: roles and characters fixed (plain ones by default), forced faces queued."""
    body: dict[str, Any] = {"roles": list(roles or ROLES[players]),
                            "characters": list(chars or PLAIN[:players]), "queue": list(queue), **setup}
    return scenario("bang-dice", players, seed=seed, options=options, setup=body)


def st(t: Table) -> State:
    return t.state


def act(t: Table, move: dict[str, Any]) -> Table:
    """The awaited seat plays ``move``."""
    return t.play(st(t).prompt_seat, move)


def default(t: Table) -> dict[str, Any]:
    """The rule-defined default move of the seat the game awaits."""
    s = st(t)
    assert s.prompt_seat is not None
    move = t.ruleset.default_move(s, s.prompt_seat)
    assert move is not None
    return move


def roll(t: Table, saloon: str | None = None) -> Table:
    return act(t, {"type": "roll", "saloon": saloon})


def reroll(t: Table, *dice: int) -> Table:
    return act(t, {"type": "reroll", "dice": list(dice)})


def target(t: Table, kind: str, seat: int, **extra: Any) -> Table:
    return act(t, {"type": kind, "target": seat, **extra})


def shoot(t: Table, seat: int, double: bool = False) -> Table:
    return act(t, {"type": "shoot", "target": seat, "double": double})


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: Sequence[Event], kind: str) -> Event:
    return next(e for e in events if e.type == kind)
