"""A new user plays Face Off to the end over HTTP, seeing the board and distances (issue 12, done-when)."""
from __future__ import annotations

from typing import Any

from referee.bots.heuristic.faceoff import choose
from referee.engine.rng import Rng
from tests.api.helpers import create, play_to_end, view


def test_FO57_a_game_over_http_shows_the_board_and_distances_and_ends(client: Any, clock: Any,
                                                                     service: Any) -> None:
    game = create(client, ruleset="bang-faceoff", players=2, seed="http-faceoff", options={"map": "faceoff_1"})
    first = view(client, game, 0)
    state = first["state"]
    assert state["board"][3][7] == "S" and state["board"][5][7] == "R" and state["board"][7][7] == "B"
    assert state["distances"] == [[0, 6, 2], [6, 0, 4], [2, 4, 0]]
    assert len(state["hand"]) == state["characters"][state["my_char"]]["life"]
    assert view(client, game)["state"]["hand"] is None  # a spectator sees no hand
    rng = Rng(b"http-faceoff")

    def pick(seat: int, moves: list[Any], step: int) -> Any:
        return choose(view(client, game, seat), moves, rng)

    end = play_to_end(client, game, clock, service, pick=pick, max_steps=4000)
    assert end["status"] != "active" and end["result"]["winners"]


def test_FO54_a_bad_custom_map_is_a_422_naming_the_check(client: Any) -> None:
    bad = {"format": "bang-faceoff-map", "version": 1, "id": "x", "rows": ["S.B.R", "#####", ".....", ".....", "....."]}
    r = client.post("/v1/games", json={"ruleset": "bang-faceoff", "players": 2, "options": {"map": bad}})
    assert r.status_code == 422 and r.get_json()["code"] == "MAP_DISCONNECTED", r.get_json()
