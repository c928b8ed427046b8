"""The contract says what is enforced (issue 9): the options and move schemas
in openapi.yaml are generated from the rulesets' code and checked here, every
ruleset is described at GET /v1/rulesets/{name}, and a move that breaks its
published schema is refused as malformed, naming the move's rule."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from referee.games import registry
from referee.http import contract
from tests.api.helpers import create, move


def test_the_committed_contract_is_the_one_the_code_generates() -> None:
    committed = contract.FILE.read_text()
    assert contract.render(committed, contract.built_in()) == committed, "run `referee contract --write`"
    # exactly the rulesets pyproject.toml declares (never an installed plugin's)
    declared = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert contract.built_in() == sorted(declared["project"]["entry-points"]["referee.rulesets"])


def test_every_installed_ruleset_is_described_and_in_the_served_contract(client: Any) -> None:
    served = contract.read_yaml(client.get("/openapi.yaml").get_data(as_text=True))["components"]["schemas"]
    for name in registry.names():  # the throwaway Nim of tests/plugins among them
        rs = registry.get(name)
        body = client.get(f"/v1/rulesets/{name}").get_json()
        assert body["moves"] == rs.move_schemas and body["options"] == rs.options_schema
        camel = contract._camel(name)
        assert served[f"{camel}Move"]["oneOf"] == [rs.move_schemas[k] for k in sorted(rs.move_schemas)]
    assert "nim" in registry.names()
    r = client.get("/v1/rulesets/chess")
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_ruleset"


def test_f12_a_move_off_its_published_schema_is_malformed_and_names_its_rule(client: Any) -> None:
    game = create(client, setup={"turn": 0, "dice": ["sword", "sword"], "seats": [{}, {}, {}, {}]})
    r = move(client, game, 0, {"type": "steal", "target": -1})
    assert r.status_code == 400 and r.get_json()["code"] == "malformed_move" and r.get_json()["rule"] == "F12"
    r = move(client, game, 0, {"type": "roll", "extra": 1})
    assert r.status_code == 400 and r.get_json()["rule"] == "F9"


def test_r11_a_bang_card_that_does_not_exist_is_malformed(client: Any) -> None:
    game = create(client, ruleset="bang", players=4, seed="schema")
    r = move(client, game, 0, {"type": "play", "card": "BANG-1Z"})
    assert r.status_code == 400 and r.get_json()["code"] == "malformed_move" and r.get_json()["rule"] == "R11"


def test_n1_options_off_the_published_schema_name_the_option_and_the_rule(client: Any) -> None:
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 4, "options": {"claim_window_ms": 5}})
    assert r.status_code == 422 and r.get_json()["rule"] == "F18" and "claim_window_ms" in r.get_json()["detail"]
    r = client.post("/v1/games", json={"ruleset": "nim", "players": 2, "options": {"piles": [0]}})
    assert r.status_code == 422 and r.get_json()["rule"] == "N1"


def test_r1_a_setup_off_its_published_schema_names_the_field_and_the_rule(client: Any) -> None:
    r = client.post("/v1/games", json={"ruleset": "bang", "players": 4, "setup": {"deck_exact": "yes"}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_setup" and r.get_json()["rule"] == "R1"
    assert "setup.deck_exact" in r.get_json()["detail"]
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 4, "setup": {"phase": "play"}})
    assert r.status_code == 422 and "phase" in r.get_json()["detail"]
    r = client.post("/v1/games", json={"ruleset": "bang", "players": 4,
                                       "setup": {"seats": [{"character": "nobody"}, {}, {}, {}]}})
    assert r.status_code == 422 and "seats.0.character" in r.get_json()["detail"]
