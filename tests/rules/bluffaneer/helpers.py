"""Small builders shared by the Bluffaneer rules tests."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.protocol import Event
from referee.games import registry
from referee.games.bluffaneer.state import State
from tests.harness import Table, scenario

ROLL = {"type": "roll"}
CLAIM = {"type": "claim"}
PASS = {"type": "pass"}
ACCEPT = {"type": "accept"}
CHALLENGE = {"type": "challenge"}
RESIGN = {"type": "resign"}
TIMEOUT = {"type": "timeout"}


def steal(target: int) -> dict[str, Any]:
    return {"type": "steal", "target": target}


def game(
    players: int = 3,
    *,
    cards: Sequence[Any] | None = None,
    coins: Sequence[int] | None = None,
    turn: int = 0,
    dice: Sequence[str] = (),
    flips: Sequence[int] = (),
    deck: Sequence[Any] | None = None,
    discard: Sequence[Any] | None = None,
    options: dict[str, Any] | None = None,
    seed: str = "test",
) -> Table:
    """A scenario table: ``cards``/``coins`` per seat (``None`` entries left
    to the deal), the roller, queued dice and flips."""
    seats: list[dict[str, Any]] = [{} for _ in range(players)]
    for seat, card in enumerate(cards or ()):
        if card is not None:
            seats[seat]["card"] = list(card) if not isinstance(card, str) else card
    for seat, c in enumerate(coins or ()):
        seats[seat]["coins"] = c
    setup: dict[str, Any] = {"turn": turn, "seats": seats, "dice": list(dice), "flips": list(flips)}
    if deck is not None:
        setup["deck"] = list(deck)
    if discard is not None:
        setup["discard"] = list(discard)
    return scenario("bluffaneer", players, setup=setup, options=options, seed=seed)


def state(table: Table) -> State:
    s: State = table.state
    return s


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: Sequence[Event], type_: str) -> Event:
    found = [e for e in events if e.type == type_]
    assert len(found) == 1, f"{len(found)} {type_} events in {types(events)}"
    return found[0]


def shown(event: Event, seat: int | None) -> dict[str, Any]:
    """The data of ``event`` as ``seat`` receives it (never hidden entirely)."""
    redacted = registry.get("bluffaneer").redact(event, seat)
    assert redacted is not None
    return dict(redacted.data)
