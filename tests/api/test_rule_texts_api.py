"""Rule IDs a user can look up over HTTP (issue 24, item 6): GET
/v1/rulesets/{name}/rules lists a ruleset's rule IDs, GET
/v1/rulesets/{name}/rules/{id} serves one rule's text, and the rule a refusal
names is one of them. Every response is checked against openapi.yaml by the
test client."""
from __future__ import annotations

from typing import Any

from referee.http import ruletexts
from tests.api.helpers import create, move

BUILT_IN = {"bang": "R43", "bang-dice": "D5", "bang-faceoff": "FO12", "bluffaneer": "F17"}


def test_each_built_in_ruleset_lists_its_rules_and_serves_each_text(client: Any) -> None:
    for name, rule_id in BUILT_IN.items():
        index = client.get(f"/v1/rulesets/{name}/rules")
        assert index.status_code == 200
        body = index.get_json()
        assert body["ruleset"] == name and [r["id"] for r in body["rules"]] == ruletexts.ids(name)
        listed = {r["id"]: r for r in body["rules"]}
        r = client.get(f"/v1/rulesets/{name}/rules/{rule_id}")
        assert r.status_code == 200
        rule = r.get_json()
        assert rule["ruleset"] == name and rule["id"] == rule_id and len(rule["text"]) > 50
        assert {"title": rule["title"], "section": rule["section"]} == {
            k: listed[rule_id][k] for k in ("title", "section")}
    assert client.get("/v1/rulesets/bluffaneer/rules/F17").get_json()["title"] == "Claims"
    assert client.get("/v1/rulesets/bang/rules/R23").get_json()["title"] == "BANG!"


def test_an_unknown_ruleset_or_rule_is_404_and_says_where_the_ids_are(client: Any) -> None:
    for path in ("/v1/rulesets/chess/rules", "/v1/rulesets/chess/rules/R1"):
        r = client.get(path)
        assert r.status_code == 404 and r.get_json()["code"] == "unknown_ruleset", path
    for name, wrong in (("bang", "R999"), ("bang", "FO12"), ("bluffaneer", "f17"), ("bang-dice", "x")):
        r = client.get(f"/v1/rulesets/{name}/rules/{wrong}")
        assert r.status_code == 404 and r.get_json()["code"] == "unknown_rule", (name, wrong)
        assert f"GET /v1/rulesets/{name}/rules" in r.get_json()["detail"]


def test_a_plug_in_without_texts_lists_no_rules(client: Any) -> None:
    r = client.get("/v1/rulesets/nim/rules")  # the throwaway Nim of tests/plugins
    assert r.status_code == 200 and r.get_json() == {"ruleset": "nim", "rules": []}
    assert client.get("/v1/rulesets/nim/rules/N1").get_json()["code"] == "unknown_rule"


def test_the_rule_a_refusal_names_can_be_looked_up(client: Any) -> None:
    refused = [
        client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 7}),
        client.post("/v1/games", json={"ruleset": "bang", "players": 8}),
        client.post("/v1/games", json={"ruleset": "bang-dice", "players": 9}),
        client.post("/v1/games", json={"ruleset": "bang-faceoff", "players": 3}),
    ]
    game = create(client, setup={"turn": 0, "dice": ["sword", "sword"], "seats": [{}, {}, {}, {}]})
    refused.append(move(client, game, 0, {"type": "steal", "target": -1}))
    refused.append(move(client, game, 1, {"type": "roll"}))
    seen = set()
    for r in refused:
        problem = r.get_json()
        assert r.status_code >= 400 and problem.get("rule"), problem
        ruleset = {"R": "bang", "D": "bang-dice", "FO": "bang-faceoff", "F": "bluffaneer"}[
            problem["rule"].rstrip("0123456789")]
        text = client.get(f"/v1/rulesets/{ruleset}/rules/{problem['rule']}")
        assert text.status_code == 200, problem
        seen.add(problem["rule"])
    assert len(seen) >= 4
