"""Refusals the platform makes for a ruleset carry the ruleset's rule ID, and
a move keeps the receipt time it was stamped with when it arrived (issue 9,
item 8)."""
from __future__ import annotations

from typing import Any

from referee.store.redis_store import AppendResult
from tests.api.helpers import create, move, play_to_end, view

SETUP = {"turn": 0, "dice": ["ship", "skull"], "seats": [{"card": ["chest", "sword"]}, {}, {}, {}]}


def test_f33_a_move_after_the_end_names_its_rule(client: Any, clock: Any, service: Any) -> None:
    game = create(client, players=3, seed="end-rule")
    play_to_end(client, game, clock, service)
    r = move(client, game, 0, {"type": "roll"})
    assert r.status_code == 410 and r.get_json()["code"] == "game_over" and r.get_json()["rule"] == "F33"


def test_r57_a_bang_move_after_the_end_names_its_rule(client: Any, clock: Any, service: Any) -> None:
    game = create(client, ruleset="bang", players=4, seed="end-rule-bang")
    play_to_end(client, game, clock, service)
    r = move(client, game, 0, {"type": "end_turn"})
    assert r.status_code == 410 and r.get_json()["rule"] == "R57"


def test_f1_and_r5_a_wrong_player_count_names_its_rule(client: Any) -> None:
    for ruleset, players, rule in (("bluffaneer", 7, "F1"), ("bluffaneer", 2, "F1"), ("bang", 8, "R5")):
        r = client.post("/v1/games", json={"ruleset": ruleset, "players": players})
        assert r.status_code == 422 and r.get_json()["code"] == "bad_player_count" and r.get_json()["rule"] == rule


def test_f18_a_claim_retried_after_a_conflict_keeps_its_receipt_time(
        client: Any, clock: Any, service: Any, monkeypatch: Any) -> None:
    """A claim that arrived before the deadline and lost an append race is
    decided again at its receipt time, not at the time of the retry."""
    game = create(client, setup=SETUP)
    assert move(client, game, 0, {"type": "roll"}).status_code == 201
    deadline = view(client, game)["deadline"]
    clock.now = deadline - 1  # the claim arrives just in time
    real = service.store.append_moves
    raced: list[int] = []

    def lose_the_first_race(game_id: str, expected: int, *args: Any, **kwargs: Any) -> AppendResult:
        if not raced:  # another process appended first; by the retry the deadline has passed
            raced.append(expected)
            clock.now = deadline + 50
            return AppendResult("conflict", version=expected)
        return real(game_id, expected, *args, **kwargs)

    monkeypatch.setattr(service.store, "append_moves", lose_the_first_race)
    r = move(client, game, 1, {"type": "claim"})
    assert raced and r.status_code == 201, r.get_json()
    claimed = next(e for e in r.get_json()["events"] if e["type"] == "move")
    assert claimed["at"] == deadline - 1


def test_f17_an_illegal_move_by_the_awaited_seat_is_a_422_and_its_rule_and_detail_agree(client: Any) -> None:
    """The roller, awaited to roll, claims (issue 36 item 8): the rules refuse
    the move, not the seat, so 422 as the README says (403 is for a seat the
    referee does not await), naming F17, the rule its detail cites."""
    game = create(client, setup=SETUP)
    assert view(client, game)["to_act"] == [0]
    for kind in ("claim", "pass"):
        r = move(client, game, 0, {"type": kind})
        body = r.get_json()
        assert r.status_code == 422 and body["code"] == f"roller_cannot_{kind}", body
        assert body["rule"] == "F17" and "(F17)" in body["detail"] and "F16" not in body["detail"], body
        assert body["type"].endswith("/illegal_move"), body
    # the seat the referee does not await is still a 403 that names the rule
    r = move(client, game, 1, {"type": "roll"})
    assert r.status_code == 403 and r.get_json()["rule"] == "F9"
    assert view(client, game)["version"] == game["version"]  # nothing was applied
