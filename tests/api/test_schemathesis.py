"""The contract, probed by schemathesis (issue 8, Deliver 5).

Every operation of ``openapi.yaml`` is called in-process (WSGI) on the Flask
app of the ``app`` fixture, against the real throwaway Redis, with
schema-valid and schema-invalid requests (positive and negative modes, plus
schemathesis's coverage phase: boundaries, missing parameters, undeclared
methods). Most cases are pointed at real resources this test creates (an active
game of every installed ruleset, the registry's: a plug-in ruleset, the
throwaway Nim of tests/plugins in this run, is probed as the built-in ones
are; a finished game; as a seat, the admin or a spectator; a bot as its owner; a
tournament); an awaited seat sometimes posts one of its legal moves and a
creation sometimes a body the referee takes, so 2xx bodies are checked too.

Every schemathesis check runs: no 5xx; status code, content type, headers
and body as documented (SSE events included); schema-valid data accepted
(or refused by the rules: 401/403/404/409/410/422), schema-invalid data
refused; a 405 carries ``Allow``. On top: every error is problem+json.

Bounded and reproducible: derandomized with a fixed seed, MAX_EXAMPLES
generated cases an operation (on top of the coverage phase's)."""
from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from referee.bots.webhook import UrlPolicy
from referee.games import registry
from tests import contract as contract_spec
from tests.api.helpers import auth, create, play_to_end

MAX_EXAMPLES = 30
SEED = 8
PROBLEM = "application/problem+json"
#: schema-valid requests may still be refused by credentials, the rules or the
#: state of a game (an illegal move 422, a finished game 410); never as malformed (400)
ACCEPTED = ["2xx", "401", "403", "404", "409", "410", "422", "429"]

CONFIG = schemathesis.Config.from_dict({
    "seed": SEED,
    "generation": {"deterministic": True, "max-examples": MAX_EXAMPLES, "mode": "all"},
    "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
    "phases": {"stateful": {"enabled": False}},
})



class CurrentApp:
    """A WSGI app that forwards to the running test's ``app`` fixture (its own
    throwaway-Redis data): schemathesis's fixture-backed (lazy) schema does not
    run on pytest 9.2, so the schema is loaded from the file and sent here."""

    app: Any = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        return self.app(environ, start_response)


CURRENT = CurrentApp()
schema = schemathesis.openapi.from_dict(contract_spec.spec_copy(), config=CONFIG)
schema.app = CURRENT


@pytest.fixture
def world(app: Any, client: FlaskClient, clock: Any, service: Any) -> dict[str, dict[str, Any]]:
    """Real resources: an active game of every installed ruleset (``games``),
    a finished one, a bot (on loopback, which this app allows) and a tournament."""
    app.config["BOT_URL_POLICY"] = UrlPolicy(allow_private=True)
    finished = create(client, ruleset="bluffaneer", players=3, seed="end")
    play_to_end(client, finished, clock, service)
    bot = client.post("/v1/bots", json=GOOD_BODIES["/v1/bots"]).get_json()
    tournament = client.post("/v1/tournaments", json=GOOD_BODIES["/v1/tournaments"]).get_json()
    games = {name: create(client, ruleset=name, players=_players(name), seed=f"st-{name}")
             for name in registry.names()}
    return {"games": games, "finished": finished, "bot": bot, "tournament": tournament}


def _players(name: str) -> int:
    """A table size ruleset ``name`` takes: 4, or its nearest bound."""
    ruleset = registry.get(name)
    return min(ruleset.max_players, max(ruleset.min_players, 4))


#: creation bodies the referee takes, sent now and then in place of a
#: schema-valid one (a generated ruleset or URL is nearly always a 422)
GOOD_BODIES: dict[str, dict[str, Any]] = {
    "/v1/games": {"ruleset": "bluffaneer", "players": 3},
    "/v1/bots": {"name": "bot", "url": "http://127.0.0.1:9/turn", "rulesets": ["bluffaneer"]},
    "/v1/tournaments": {"ruleset": "bluffaneer", "games": 1, "entrants": ["random", "random", "heuristic"]},
}


def _pick(case: Any, buckets: int) -> int:
    """A deterministic choice from the generated data (derandomized runs repeat it)."""
    data = [case.path_parameters, case.query, case.body, dict(case.headers or {})]
    return sum(json.dumps(data, sort_keys=True, default=str).encode()) % buckets


def _awaited_seat(client: FlaskClient, game: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """A seat the game awaits (seat 0 if none) and its legal moves."""
    to_act = client.get(f"/v1/games/{game['id']}").get_json().get("to_act") or [0]
    seat = to_act[0]
    mine = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][seat]["token"])).get_json()
    return seat, mine.get("legal_moves", [])


def _use_real_resources(case: Any, world: dict[str, dict[str, Any]], client: FlaskClient) -> None:
    """Point most schema-valid cases at real resources (a generated id is
    nearly always a 404 and would test little else): a game as an awaited
    seat (now and then with one of its legal moves), the admin or a
    spectator; the bot as its owner; the tournament. Now and then a creation
    sends a body the referee takes. The generated data stays otherwise."""
    meta = case.meta
    negative = {loc for loc in ParameterLocation if meta is not None and meta.is_negative_at(loc)}
    pick = _pick(case, 7)
    if case.method == "POST" and case.path in GOOD_BODIES and not negative and pick < 2:
        case.body = dict(GOOD_BODIES[case.path])
        if case.path == "/v1/games":  # a game of any installed ruleset
            names = registry.names()
            name = names[_pick(case, 7 * len(names)) // 7]
            case.body = {"ruleset": name, "players": _players(name)}
    if pick == 6 or ParameterLocation.PATH in negative:
        return  # the generated id (404)
    headers = dict(case.headers or {})
    if "bot_id" in case.path_parameters:
        bot = world["bot"]
        if case.method == "DELETE":  # a bot of its own: the world's stays for the cases after it
            bot = client.post("/v1/bots", json=GOOD_BODIES["/v1/bots"]).get_json()
        case.path_parameters["bot_id"] = bot["id"]
        if pick < 4:
            headers["Authorization"] = f"Bearer {bot['secret']}"
    if "tournament_id" in case.path_parameters:
        case.path_parameters["tournament_id"] = world["tournament"]["id"]
    if "game_id" in case.path_parameters:
        # each installed ruleset's game and the finished one, chosen apart from ``pick`` (the same data)
        games = [*world["games"].values(), world["finished"]]
        game = games[_pick(case, 7 * len(games)) // 7]
        case.path_parameters["game_id"] = game["id"]
        if pick < 3:
            seat, legal = _awaited_seat(client, game)
            headers["Authorization"] = f"Bearer {game['seats'][seat]['token']}"
            if case.path.endswith("/moves") and legal and pick < 2 and ParameterLocation.BODY not in negative \
                    and isinstance(case.body, dict):
                case.body = {**case.body, "move": legal[0]}  # a move the rules take: 201
                case.body.pop("expected_version", None)
        elif pick == 3:
            headers["Authorization"] = "Bearer admin-secret"  # the app fixture's admin token
        else:
            headers.pop("Authorization", None)
    if ParameterLocation.HEADER not in negative:
        case.headers = headers


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _code(response: Any) -> str | None:
    try:
        body = json.loads(response.content)
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_the_contract(case: Any, app: Any, client: FlaskClient,
                                            world: dict[str, dict[str, Any]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # a stream ends after its first pass and a long-poll waits a moment, not 30 s
    monkeypatch.setattr("referee.http.api.games.STREAM_MAX_S", 0.0)
    if isinstance(case.query, dict) and 0.01 < _number(case.query.get("wait")) <= 30:
        case.query["wait"] = 0.01
    _use_real_resources(case, world, client)
    CURRENT.app = app
    response = case.call()
    # a move's shape is the game's ruleset's, which no schema of the body can
    # know: the one schema-valid body openapi.yaml says may be a 400 (Move)
    malformed_move = response.status_code == 400 and _code(response) == "malformed_move"
    # a bot its owner deleted is gone: the same request sent again with bad credentials is rightly a 404
    deleted = case.method == "DELETE" and response.status_code == 200 and "bot_id" in case.path_parameters
    case.validate_response(response, excluded_checks=[positive_data_acceptance] * malformed_move
                           + [ignored_auth] * deleted)
    if response.status_code >= 400:
        content_type = {k.lower(): v for k, v in response.headers.items()}.get("content-type", [""])
        assert content_type[0].startswith(PROBLEM), (response.status_code, content_type, response.text[:300])
