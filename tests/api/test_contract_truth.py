"""The contract says what the referee enforces (issue 36, item 8): a fuzzer
found six schema-valid requests the referee refused as invalid (a bot
``url`` of ``"0"``, ``seats: [{}]`` for BANG!, a tournament with ``parallel:
63`` or ``players: 1``, ``cursor=0`` on the three listings).

Here schemathesis generates schema-valid requests only (positive mode) for
the six operations those came from, and every one must be taken: a 2xx, or
one of the refusals that are not about the request's shape (the deployment's
bot URL policy, the admin token a large tournament needs, a quota). Any other
refusal (``invalid_bot_url``, ``bad_player_count``, ``invalid_cursor``,
``too_few_entrants``…) means the contract admits what the referee refuses.

What the contract leaves to other schemas is set aside, so the test checks
what openapi.yaml binds: a game's ``setup`` and the options beyond those a
table size needs (the ruleset's own schemas, GET /v1/rulesets/{name}) are
dropped, and a seat's bot or a tournament's entrant (random, heuristic or a
registered bot id, which no schema can list) is a built-in bot. Host names
resolve to loopback, which this app allows: whether a host resolves is the
deployment's, not the contract's. Bounded: derandomized, MAX_EXAMPLES an
operation."""
from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from jsonschema import Draft202012Validator

from referee.bots.webhook import UrlPolicy
from referee.games import registry
from referee.http import contract
from tests import contract as contract_spec

MAX_EXAMPLES = 60
OPERATIONS = ["listGames", "listBots", "listTournaments", "registerBot", "createGame", "createTournament"]
#: refusals of a well-formed request: the deployment's bot (and callback) URL policy, a
#: tournament beyond what a caller without the admin token may ask, quotas
TAKEN = {(422, "bot_url_refused"), (422, "callback_url_refused"), (403, "tournament_too_large"),
         (429, "tournament_quota"), (503, "tournaments_busy")}
#: each ruleset's option keys the contract binds to a table size (``GameSizes``, ``TournamentSizes``)
BOUND_OPTIONS = {name: {key for p in range(rs.min_players, rs.max_players + 1) for key in rs.options_for(p)}
                 for name in contract.built_in() for rs in [registry.get(name)]}

CONFIG = schemathesis.Config.from_dict({
    "seed": 36,
    "generation": {"deterministic": True, "max-examples": MAX_EXAMPLES, "mode": "positive"},
    "phases": {"stateful": {"enabled": False}, "coverage": {"enabled": False}},
})


class CurrentApp:
    """A WSGI app that forwards to the running test's ``app`` fixture."""

    app: Any = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        return self.app(environ, start_response)


CURRENT = CurrentApp()
schema = schemathesis.openapi.from_dict(contract_spec.spec_copy(), config=CONFIG).include(operation_id=OPERATIONS)
schema.app = CURRENT


def _set_aside(case: Any) -> None:
    """Drop or fill what the contract leaves to other schemas (the module's docstring)."""
    body = case.body
    if not isinstance(body, dict):
        return
    body.pop("setup", None)
    if isinstance(body.get("options"), dict):
        bound = BOUND_OPTIONS.get(str(body.get("ruleset")), set())
        body["options"] = {k: v for k, v in body["options"].items() if k in bound}
    for seat in body.get("seats") or []:
        if seat.get("bot") is not None:
            seat["bot"] = "random"
    if "entrants" in body:
        body["entrants"] = ["random" if i % 2 else "heuristic" for i in range(len(body["entrants"]))]


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_a_schema_valid_request_is_never_refused_as_invalid(case: Any, app: Any) -> None:
    app.config["BOT_URL_POLICY"] = UrlPolicy(allow_private=True, resolve=lambda host, port: ["127.0.0.1"])
    _set_aside(case)
    if case.operation.definition.raw.get("operationId") == "createTournament" and \
            json.dumps(case.body, sort_keys=True).__hash__() % 2:
        case.headers = {**(case.headers or {}), "Authorization": "Bearer admin-secret"}  # past the caps
    CURRENT.app = app
    response = case.call()
    if response.status_code < 400:
        return
    code = json.loads(response.content).get("code")
    assert (response.status_code, code) in TAKEN, \
        f"schema-valid {case.method} {case.path} {case.query} {case.body} refused: {response.status_code} " \
        f"{response.text[:300]}"


def _valid(ref: str, instance: Any) -> bool:
    """Whether ``instance`` matches the schema at ``ref`` in openapi.yaml (JSON Schema 2020-12)."""
    return bool(Draft202012Validator({"$ref": ref, **DOC}).is_valid(instance))


DOC = {k: v for k, v in contract_spec.spec().items() if k in ("components", "paths")}
BODY = "#/paths/~1v1~1{}/post/requestBody/content/application~1json/schema"


@pytest.mark.parametrize("found", [
    ("#/components/parameters/Cursor/schema", "0"),
    (BODY.format("bots"), {"name": "b", "url": "0", "rulesets": ["bluffaneer"]}),
    (BODY.format("games"), {"ruleset": "bang", "seats": [{}]}),
    (BODY.format("tournaments"), {"ruleset": "bluffaneer", "games": 1, "entrants": ["random"] * 2, "players": 1}),
], ids=["cursor", "bot-url", "bang-seats", "tournament-players"])
def test_what_the_fuzzer_found_refused_is_schema_invalid_now(found: tuple[str, Any]) -> None:
    ref, instance = found
    assert not _valid(ref, instance)


def test_the_contract_still_takes_what_the_referee_takes(client: Any) -> None:
    """The other side: a cursor the referee served, a real bot URL, BANG!'s
    3-player game, a tournament of the default size; and ``parallel: 63`` is
    schema-valid, a 403 without the admin token (the fifth finding)."""
    assert _valid("#/components/parameters/Cursor/schema", "1764921600000.0123456789abcdef")
    assert _valid(BODY.format("bots"), {"name": "b", "url": "https://bot.eu-west-1.example.com:8443/turn?x=1",
                                        "rulesets": ["bang"]})
    assert _valid(BODY.format("bots"), {"name": "b", "url": "http://[2001:db8::1]/", "rulesets": ["bang"]})
    assert _valid(BODY.format("games"), {"ruleset": "bang", "players": 3, "options": {"three_player": True}})
    assert not _valid(BODY.format("games"), {"ruleset": "bang", "players": 3})
    assert not _valid(BODY.format("games"), {"ruleset": "bang", "players": 4, "seats": [{}] * 5})
    big = {"ruleset": "bluffaneer", "games": 1, "entrants": ["random"] * 3, "parallel": 63}
    assert _valid(BODY.format("tournaments"), big)
    r = client.post("/v1/tournaments", json=big)
    assert r.status_code == 403 and r.get_json()["code"] == "tournament_too_large"
    for path in ("/v1/games", "/v1/bots", "/v1/tournaments"):
        r = client.get(path, query_string={"cursor": "0.a"})
        assert r.status_code == 200, (path, r.get_json())
        assert client.get(path, query_string={"cursor": "00.a"}).get_json()["code"] == "invalid_cursor"
