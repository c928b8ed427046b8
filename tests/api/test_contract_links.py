"""The contract's links lead a stateful fuzzer to every operation (issue 36,
item 8): a fuzzer that knows no ids saw 13 operations answer only 404. Each
creation (a game, a bot, a tournament) and each listing of rulesets and rules
declares OpenAPI ``links`` to the routes that use its ids (and the secrets
that go with them: a seat's token, the owner token, a bot's secret, a cancel
token), so schemathesis's state machine calls them with real ids.

A creation sets aside what the contract leaves to other schemas, as in
test_contract_truth.py (a tournament as the admin, past the caps). Every
response is checked as in test_schemathesis.py (no 5xx; status, headers
and body as documented; schema-valid data not refused as malformed), and
the run must reach at least half the linked operations with an answer
other than 404 (without the links, it saw only 404 from them). Each link on
its own is followed from a real answer in the second test.
Bounded: derandomized, MAX_EXAMPLES scenarios of at most STEPS calls."""
from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.core import NOT_SET
from schemathesis.generation.stateful.state_machine import StepOutput
from schemathesis.specs.openapi import expressions
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from referee.bots.webhook import UrlPolicy
from tests import contract as contract_spec
from tests.api.test_contract_truth import CurrentApp, _set_aside

pytestmark = pytest.mark.slow  # a stateful fuzzer's generated runs: started with the long ones (tests/conftest.py)

MAX_EXAMPLES = 100
STEPS = 8
ACCEPTED = ["2xx", "401", "403", "404", "409", "410", "422", "429"]
#: every operation a link leads to, and the operations it comes from
LINKED = {"viewGame", "submitMove", "claimSeat", "reissueToken", "listEvents", "streamEvents", "replayGame",
          "gameLog", "auditGame", "getBot", "botTurns", "answerTurn", "getTournament", "cancelTournament",
          "getRuleset", "listRules", "getCatalogue", "getRule"}
SOURCES = {"createGame", "registerBot", "createTournament", "listRulesets"}  # and listRules, a link's target

CONFIG = schemathesis.Config.from_dict({
    "seed": 36,
    "generation": {"deterministic": True, "max-examples": MAX_EXAMPLES, "mode": "positive"},
    "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
    # only the declared links: none inferred from responses, none calibrated at run time
    "phases": {"stateful": {"inference": {"algorithms": []}, "link-calibration": False}},
})
CURRENT = CurrentApp()
schema = schemathesis.openapi.from_dict(contract_spec.spec_copy(), config=CONFIG)
schema.app = CURRENT


def _code(content: bytes) -> str | None:
    try:
        body = json.loads(content)
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


def test_the_links_lead_a_stateful_fuzzer_to_every_linked_operation(app: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("referee.http.api.games", "referee.http.api.bots"):  # a stream ends after its first pass
        monkeypatch.setattr(f"{module}.STREAM_MAX_S", 0.0)
    app.config["BOT_URL_POLICY"] = UrlPolicy(allow_private=True, resolve=lambda host, port: ["127.0.0.1"])
    CURRENT.app = app
    answered: dict[str, set[int]] = defaultdict(set)

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any) -> None:
            if isinstance(case.query, dict) and "wait" in case.query:
                case.query["wait"] = 0  # a long-poll answers at once
            operation = case.operation.definition.raw["operationId"]
            if operation in ("createGame", "createTournament"):
                _set_aside(case)  # what the contract leaves to other schemas (test_contract_truth)
            if operation == "createTournament":  # past the caps a caller without the admin token has
                case.headers = {**(case.headers or {}), "Authorization": "Bearer admin-secret"}

        def after_call(self, response: Any, case: Any) -> None:
            answered[case.operation.definition.raw["operationId"]].add(response.status_code)

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            # a move's shape is its game's ruleset's: the one schema-valid body that may be a 400;
            # ignored_auth takes the secret a link passes for generated auth (test_schemathesis runs it)
            malformed_move = response.status_code == 400 and _code(response.content) == "malformed_move"
            case.validate_response(response, excluded_checks=[ignored_auth, *([positive_data_acceptance]
                                                                              if malformed_move else [])])

    Workflow.run(settings=settings(max_examples=MAX_EXAMPLES, stateful_step_count=STEPS, derandomize=True,
                                   database=None, deadline=None, suppress_health_check=list(HealthCheck),
                                   phases=[Phase.generate]))  # no shrinking: its replays are not deterministic
    assert SOURCES <= set(answered), sorted(SOURCES - set(answered))
    reached = {op for op in LINKED if answered[op] - {404}}
    print(f"reached through the links: {len(reached)} of {len(LINKED)}")
    # which links a bounded random walk takes varies with the contract; the test below follows each one
    assert len(reached) >= len(LINKED) // 2, f"only 404 from {sorted(LINKED - reached)}; answered: {dict(answered)}"


#: a request each source operation takes (its 2xx holds the ids its links pass on)
SOURCE_CALLS: dict[str, dict[str, Any]] = {
    "createGame": {"body": {"ruleset": "bluffaneer", "players": 3}},
    "registerBot": {"body": {"name": "b", "url": None, "rulesets": ["bluffaneer"]}},
    "createTournament": {"body": {"ruleset": "bluffaneer", "games": 1, "entrants": ["random"] * 3}},
    "listRulesets": {},
    "listRules": {"path_parameters": {"name": "bluffaneer"}},
}


#: the links as openapi.yaml declares them, by operation and status (schemathesis adds links it infers)
LINKS = {op["operationId"]: {status: answer["links"] for status, answer in op["responses"].items() if "links" in answer}
         for item in contract_spec.spec()["paths"].values()
         for op in item.values() if isinstance(op, dict) and "operationId" in op}
#: a path parameter no link passes: a bot's turn (``delivery``) is known only from its stream
UNLINKED = {"delivery": "1-0"}
#: a body a target needs that no link passes
BODIES: dict[str, Any] = {"answerTurn": {"move": {"type": "roll"}}, "submitMove": {"move": {"type": "roll"}},
          "claimSeat": {"name": "ann"}}


def test_every_link_leads_from_a_real_answer_to_a_real_resource(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each link of openapi.yaml, followed from its source's real answer the
    way a stateful fuzzer evaluates it (schemathesis's runtime expressions):
    the target finds the resource (never a 404) and answers as documented."""
    for module in ("referee.http.api.games", "referee.http.api.bots"):  # a stream ends after its first pass
        monkeypatch.setattr(f"{module}.STREAM_MAX_S", 0.0)
    CURRENT.app = app
    followed = set()
    for source, call in SOURCE_CALLS.items():
        operation = schema.find_operation_by_id(source)
        case = operation.Case(**call)
        response = case.call()
        status = str(response.status_code)
        assert status in LINKS[source], (source, status, response.text[:200])
        links = LINKS[source][status]
        for name, link in links.items():
            target = schema.find_operation_by_id(link["operationId"])
            parts: dict[str, dict[str, Any]] = {"path": {}, "query": {}, "header": {}}
            for key, expression in link["parameters"].items():
                where, _, param = key.rpartition(".")
                parts[where or "path"][param] = expressions.evaluate(expression, StepOutput(response, case))
            follow = target.Case(path_parameters={**UNLINKED, **parts["path"]}, query=parts["query"] or None,
                                 headers=parts["header"] or None, body=BODIES.get(link["operationId"], NOT_SET))
            answer = follow.call()
            assert answer.status_code != 404, (source, name, answer.status_code, answer.text[:200])
            follow.validate_response(answer, excluded_checks=[ignored_auth, positive_data_acceptance])
            followed.add(link["operationId"])
    assert followed == LINKED
