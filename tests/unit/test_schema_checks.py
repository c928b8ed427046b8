"""The tests' schema check (``tests.schemas``) takes only a "yes" from its
compiled validator (jsonschema_rs): here that validator says "yes" exactly
when jsonschema, the reference, does — over every view and event of a random
game of every ruleset, each of them broken a few ways, and over the API's
responses as the contract checks them — so no value the reference refuses
passes."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser
from tests import contract
from tests.api.helpers import auth, create
from tests.schemas import SchemaCheck, check_of

#: how many steps of each random game are looked at (every view and event of each)
STEPS = 25


class _Enough(Exception):
    """Raised from ``playout``'s step hook once ``STEPS`` were looked at."""


def _broken(value: Any) -> list[Any]:
    """``value`` broken one way at a time: each top-level field taken away,
    given a value of another type, or (a list) given an item of another type."""
    out: list[Any] = []
    if isinstance(value, dict):
        for key, field in value.items():
            out.append({k: v for k, v in value.items() if k != key})
            out.append({**value, key: {"not": "this"}})
            if isinstance(field, list):
                out.append({**value, key: [*field, {"not": "this"}]})
        out.append({**value, "surplus": [1]})
    return out


def _agree(check: SchemaCheck, value: Any) -> tuple[int, int]:
    """Both validators' verdicts on ``value`` and its broken forms agree; (matched, refused)."""
    verdicts = []
    for candidate in [value, *_broken(value)]:
        candidate = json.loads(json.dumps(candidate))
        fast = check.matches(candidate)
        assert fast == check.reference_matches(candidate), candidate
        assert (check.errors(candidate) == []) == fast
        verdicts.append(fast)
    return verdicts.count(True), verdicts.count(False)


@pytest.mark.parametrize("ruleset", registry.names())
def test_the_compiled_check_agrees_with_the_reference_on_every_view_and_event(ruleset: str) -> None:
    rs = registry.get(ruleset)
    if not rs.view_schema:
        pytest.skip(f"{ruleset} publishes no view schema")
    table = Table(rs, rs.min_players, options=rs.options_for(rs.min_players), seed=b"schema-checks")
    seen = [0, 0]

    def look(t: Table, events: Any) -> None:
        for seat in [None, *range(t.config.players)]:
            body = {k: v for k, v in rs.view(t.state, seat).items() if k != "pending"}
            for i, n in enumerate(_agree(check_of(rs.view_schema), body)):
                seen[i] += n
        for event in events:
            if rs.event_schemas and event.type in rs.event_schemas:
                for i, n in enumerate(_agree(check_of(rs.event_schemas[event.type]), event.data)):
                    seen[i] += n

    def on_step(t: Table) -> None:
        look(t, t.last)
        if len(t.events) - setup >= STEPS:
            raise _Enough

    setup = len(table.events)
    look(table, table.events)
    try:  # to the end, or STEPS steps into a longer game
        playout(table, random_chooser(Rng(b"schema-checks/moves")), pick_seat=Rng(b"schema-checks/seats"),
                on_step=on_step)
    except _Enough:
        pass
    assert seen[0] and seen[1], f"matched {seen[0]}, refused {seen[1]}: both verdicts must be met"


def test_the_contract_check_agrees_with_the_reference_on_responses(client: Any) -> None:
    game = create(client, ruleset="bluffaneer", players=3)
    responses = [client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])),
                 client.get(f"/v1/games/{game['id']}"), client.get("/v1/games/nope"),
                 client.get(f"/v1/games/{game['id']}/events?after=0")]
    seen = [0, 0]
    for response in responses:
        schema = contract.response_schema("GET", response.request.path, response.status_code,
                                          response.content_type or "")
        assert schema is not None
        for i, n in enumerate(_agree(schema, response.get_json())):
            seen[i] += n
    assert seen[0] >= len(responses) and seen[1], seen  # each response matches; a broken form may too


def test_a_response_that_breaks_the_contract_is_refused_with_the_references_errors() -> None:
    with pytest.raises(AssertionError, match="'id' is a required property"):
        contract.check("GET", "/v1/games/g1", 200, "application/json", b"{}")
    with pytest.raises(AssertionError, match="is not of type 'integer'"):
        contract.check("GET", "/v1/games/nope", 404, "application/problem+json",
                       json.dumps({"type": "about:blank", "title": "t", "status": "404", "code": "x",
                                   "detail": "d"}).encode())
