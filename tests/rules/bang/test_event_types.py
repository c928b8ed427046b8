"""BANG!'s frozen event types (issue 26 item 5), held deeper than the
registry-wide test does: the closed sets they declare (``Literal``: reasons,
zones, roles, phases, agenda kinds) and the nested shapes (the dealt seats,
the agenda entries of ``awaiting``, the result) are what random games of
every player count really store. ``decide`` emits through a plain mapping,
so mypy cannot see this; the games can."""
from __future__ import annotations

import types
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints

import pytest
from typing_extensions import ReadOnly, is_typeddict

from referee.engine.eventtypes import json_types, required_keys
from referee.engine.rng import Rng
from referee.games.bang import RULESET as R
from referee.games.bang.event_types import CardsDrawn, CardTaken, Entry
from referee.games.sim import Table, playout, random_chooser

_WRAPPERS = (ReadOnly, Required, NotRequired)


def _bare(annotation: Any) -> Any:
    while get_origin(annotation) in _WRAPPERS:
        annotation = get_args(annotation)[0]
    return annotation


def off(value: Any, annotation: Any, where: str) -> list[str]:
    """Where ``value`` is not what ``annotation`` declares, all the way down."""
    annotation = _bare(annotation)
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        arms = [off(value, arm, where) for arm in get_args(annotation)]
        return [] if any(not arm for arm in arms) else [f"{where}: {value!r:.60} fits none of {annotation}"]
    if origin is Literal:
        return [] if value in get_args(annotation) else [f"{where}: {value!r} not in {get_args(annotation)}"]
    if is_typeddict(annotation):
        if not isinstance(value, dict):
            return [f"{where}: {value!r:.60} is not an object"]
        hints = get_type_hints(annotation, include_extras=True)
        out = [f"{where}.{name}: missing" for name in sorted(required_keys(annotation) - set(value))]
        out += [f"{where}.{name}: not declared" for name in sorted(set(value) - set(hints))]
        for name in sorted(set(value) & set(hints)):
            out += off(value[name], hints[name], f"{where}.{name}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r:.60} is not an array"]
        return [line for at, item in enumerate(value) for line in off(item, get_args(annotation)[0], f"{where}[{at}]")]
    kinds = json_types(annotation)
    if value is None or isinstance(value, bool):
        kind = "null" if value is None else "boolean"
    else:
        kind = {int: "integer", str: "string", float: "number"}.get(type(value), type(value).__name__)
    return [] if kind in kinds else [f"{where}: {value!r:.60} is not {sorted(kinds)}"]


def test_off_names_a_value_outside_a_closed_set_and_a_nested_key_left_out() -> None:
    good = {"seat": 1, "cards": ["BANG-AS"], "reason": "draw"}
    assert off(good, CardsDrawn, "cards_drawn") == []
    (wrong,) = off({**good, "reason": "luck", "seat": 1}, CardsDrawn, "cards_drawn")
    assert wrong.startswith("cards_drawn.reason: 'luck' not in ('draw', ")
    assert off({"seat": 0, "from": None, "card": "BANG-AS", "zone": "discard", "reason": "pedro_ramirez"},
               CardTaken, "card_taken") == []
    assert off([{"seat": 2}], list[Entry], "then") == ["then[0].kind: missing"]
    assert off({"kind": "kit", "seat": 2, "hand": []}, Entry, "prompt") == ["prompt.hand: not declared"]
    assert off({"kind": "shot", "seat": "2"}, Entry, "prompt") == ["prompt.seat: '2' is not ['integer']"]


@pytest.mark.parametrize("players", range(R.min_players, R.max_players + 1))
def test_random_games_store_their_events_as_declared_all_the_way_down(players: int) -> None:
    for options in R.option_sets(players):
        for game in range(3):
            table = Table(R, players, options=dict(options), seed=f"deep-types-{game}")
            playout(table, random_chooser(Rng(f"deep-types-moves-{game}".encode())), pick_seat=Rng(b"deep-seats"),
                    max_steps=3000)
            for event in table.events:
                assert off(event.data, R.event_types[event.type], event.type) == [], event
