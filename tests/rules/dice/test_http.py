"""BANG! The Dice Game over HTTP (issue 11's done-when): a 5-player game with
``expansion: true`` played to the end by the README's loop and audited; the
turn clock applies D73's defaults; refusals are 4xx problems naming the rule."""
from __future__ import annotations

import json
from typing import Any

from tests.api.helpers import auth, create, move, play_to_end, view


def test_D1_D73_a_five_player_expansion_game_over_http_plays_to_the_end_and_audits(
        client: Any, clock: Any, service: Any) -> None:
    game = create(client, ruleset="bang-dice", players=5, seed="http-dice", options={"expansion": True})
    first = view(client, game, 0)
    assert first["state"]["modules"] == {"saloon_dice": True, "chief_arrow": True, "ghost": True}
    end = play_to_end(client, game, clock, service)  # each awaited seat's first legal move, as the README loop
    assert end["status"] == "finished" and end["result"]["winners"]
    assert all(seat["role"] for seat in end["state"]["seats"])  # D74: every role public at the end
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report["divergence"]


def test_D73_the_turn_clock_applies_the_rule_default(client: Any, clock: Any, service: Any) -> None:
    import workers.jobs as jobs
    game = create(client, ruleset="bang-dice", players=4, seed="clock-dice",
                  options={"turn_timeout_s": 30}, setup={"turn": 0, "characters": [
                      "jesse_jones", "rose_doolan", "lucky_duke", "black_jack"],
                      "roles": ["sheriff", "renegade", "outlaw", "outlaw"]})
    now = view(client, game, 0)
    assert now["pending"]["default"] == [{"seat": 0, "move": {"type": "roll", "saloon": None}}]
    assert "moves" not in now["pending"] and now["legal_moves"][-1] == {"type": "resign"}
    clock.advance(30_000)
    assert jobs.fire_turn_clock(game["id"], now["version"], svc=service) == "defaulted"
    log = client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True)
    record = [json.loads(line) for line in log.splitlines()[1:] if '"type":"move"' in line][-1]
    assert record["data"]["move"] == {"type": "roll", "saloon": None}


def test_D16_D73_an_illegal_move_is_a_422_naming_the_rule(client: Any) -> None:
    game = create(client, ruleset="bang-dice", players=4, seed="refuse-dice", setup={
        "roles": ["sheriff", "renegade", "outlaw", "outlaw"],
        "characters": ["jesse_jones", "rose_doolan", "lucky_duke", "kit_carlson"],
        "queue": ["dynamite", "beer", "beer", "beer", "beer"]})
    assert move(client, game, 0, {"type": "roll", "saloon": None}).status_code == 201
    refused = move(client, game, 0, {"type": "reroll", "dice": [1]})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "D16"
    wrong = move(client, game, 1, {"type": "stop"})
    assert wrong.status_code == 403 and wrong.get_json()["rule"] == "D73"
    bad = move(client, game, 0, {"type": "reroll", "dice": "all"})
    assert bad.status_code == 400
    bad_setup = client.post("/v1/games", json={"ruleset": "bang-dice", "players": 3, "options": {"ghost": True}})
    assert bad_setup.status_code == 422 and bad_setup.get_json()["rule"] == "D71"
