"""Frozen event types (issue 26 item 5): every ruleset declares each event's
data as a ``TypedDict`` of ``ReadOnly`` fields (``event_types``), which its
``evolve`` is typed with; the declarations agree with the published
``event_schemas`` and with the events random games really make, for every
ruleset in the registry (a plug-in that declares none is held to nothing)."""
from __future__ import annotations

import importlib
from typing import Any, Literal, NotRequired

import pytest
from typing_extensions import ReadOnly, TypedDict

from referee.engine.eventtypes import (
    ANY_JSON,
    disagreements,
    json_types,
    mismatches,
    schema_types,
    unread_as_declared,
)
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser
from tests.fingerprints import sizes

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

BUILT_IN = ("bang", "bang-dice", "bang-faceoff", "bluffaneer")
#: random actions a game is checked for at most
STEPS = 3000
#: each built-in ruleset's ``evolve`` dispatch table: type string -> handler(state, data)
HANDLERS = {"bang": "referee.games.bang.fold", "bang-dice": "referee.games.dice.fold",
            "bang-faceoff": "referee.games.faceoff.fold", "bluffaneer": "referee.games.bluffaneer.fold"}


class _Drawn(TypedDict):
    seat: ReadOnly[int]
    cards: ReadOnly[list[str]]
    reason: ReadOnly[Literal["draw", "general_store"]]
    target: NotRequired[ReadOnly[int | None]]


class _Loose(TypedDict):
    seat: int


SCHEMA: dict[str, Any] = {"type": "object", "required": ["cards", "reason", "seat"],
          "properties": {"seat": {"type": "integer"}, "cards": {"oneOf": [{"type": "array"}, {"type": "null"}]},
                         "reason": {"enum": ["draw", "general_store"]}, "target": {"type": ["integer", "null"]}}}


def test_json_types_of_annotations() -> None:
    assert json_types(ReadOnly[int | None]) == {"integer", "null"}
    assert json_types(Literal["a", 1]) == {"string", "integer"}
    assert json_types(list[str]) == json_types(tuple[int, ...]) == {"array"}
    assert json_types(Any) == ANY_JSON and json_types(_Drawn) == {"object"}
    with pytest.raises(TypeError):
        json_types(set[int])


def test_schema_types() -> None:
    assert schema_types({"type": "number"}) == {"number", "integer"}
    assert schema_types({"enum": ["x", None]}) == {"string", "null"}
    assert schema_types({"description": "anything"}) == ANY_JSON


def test_a_declaration_that_agrees_with_its_schema() -> None:
    assert disagreements({"cards_drawn": _Drawn}, {"cards_drawn": SCHEMA}) == []


def test_each_way_a_declaration_can_disagree_is_named() -> None:
    narrow = {**SCHEMA, "properties": {**SCHEMA["properties"], "seat": {"type": "string"}}}
    assert disagreements({"cards_drawn": _Drawn}, {"cards_drawn": narrow}) == \
        ["cards_drawn.seat: ['integer'] not allowed by its schema"]
    assert disagreements({"x": _Loose}, {"x": {"properties": {"seat": {}}, "required": ["seat", "y"]}}) == \
        ["x.seat: not ReadOnly", "x.y: required by the schema, not by the type"]
    assert disagreements({"a": _Drawn}, {"b": SCHEMA}) == ["b: published, not declared", "a: declared, not published"]
    assert disagreements({"cards_drawn": _Drawn}, {"cards_drawn": {"properties": {}}}) == [
        f"cards_drawn.{name}: not in the schema" for name in ("cards", "reason", "seat", "target")]


def _reads_drawn(state: int, data: _Drawn) -> int:
    return state


def _reads_loose(state: int, data: _Loose) -> int:
    return state


def test_a_handler_that_reads_another_type_is_named() -> None:
    assert unread_as_declared({"cards_drawn": _reads_drawn}, {"cards_drawn": _Drawn}) == []
    assert unread_as_declared({"cards_drawn": _reads_loose, "x": _reads_drawn}, {"cards_drawn": _Drawn}) == [
        f"cards_drawn: _reads_loose reads {_Loose!r}, not {_Drawn!r}", "x: handled, not declared"]


def test_mismatches_name_what_an_event_gets_wrong() -> None:
    assert mismatches({"seat": 1, "cards": ["x"], "reason": "draw"}, _Drawn) == []
    assert mismatches({"seat": "1", "cards": ["x"], "other": 0}, _Drawn) == [
        "reason: missing", "other: not declared", "seat: '1' is not ['integer']"]


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_ruleset_declares_its_events(name: str) -> None:
    rs = registry.get(name)
    assert rs.event_types, f"{name} declares no event types"
    assert disagreements(rs.event_types, rs.event_schemas) == []


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_evolve_handler_reads_its_event_as_declared(name: str) -> None:
    table = importlib.import_module(HANDLERS[name]).EVOLVE
    assert set(table) == set(registry.get(name).event_types)
    assert unread_as_declared(table, registry.get(name).event_types) == []


@pytest.mark.parametrize("name,players,options", [(n, p, o) for n, p, o in sizes() if registry.get(n).event_types])
def test_random_games_make_only_the_declared_events(name: str, players: int, options: dict[str, Any]) -> None:
    rs = registry.get(name)
    for game in range(2):
        table = Table(rs, players, options=options, seed=f"types-{game}")
        try:
            playout(table, random_chooser(Rng(f"types-moves-{game}".encode())), pick_seat=Rng(b"types-seats"),
                    max_steps=STEPS)
        except RuntimeError:  # a long random game (Face Off's, on its larger map): checked as far as it went
            assert len(table.events) > STEPS
        for event in table.events:
            assert event.type in rs.event_types, event.type
            assert mismatches(event.data, rs.event_types[event.type]) == [], event
