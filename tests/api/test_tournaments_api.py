"""Tournaments (issue 8, Found 9): caps without the admin token, cancelling,
and standings stored as games finish instead of recomputed on every GET."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rq import Queue

from referee.play.standings import standings
from referee.play.tournaments import Tournaments
from referee.service.scheduling import QUEUE
from tests.api.helpers import auth

ENTRANTS = ["random", "random", "random", {"bot": "random", "name": "r4"}]


def tournament(client: Any, headers: dict[str, str] | None = None, **body: Any) -> Any:
    return client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "entrants": ENTRANTS, **body},
                       headers=headers or {})


# -- caps -------------------------------------------------------------------------
def test_anonymous_tournaments_are_capped_and_the_admin_token_lifts_the_caps(client: Any, app: Any) -> None:
    # Regression: an anonymous {games: 10000, parallel: 64} was accepted (about 2 h of a worker).
    bodies: tuple[dict[str, Any], ...] = ({"games": 10_000, "parallel": 64}, {"games": 1001},
                                          {"games": 10, "parallel": 9})
    for body in bodies:
        r = tournament(client, **body)
        assert r.status_code == 403 and r.get_json()["code"] == "tournament_too_large", body
        assert r.get_json()["max_games"] == 1000 and r.get_json()["max_parallel"] == 8
    assert tournament(client, games=1000, parallel=8).status_code == 201
    assert tournament(client, headers=auth("not-the-admin"), games=1001).status_code == 403
    r = tournament(client, headers=auth("admin-secret"), games=10_000, parallel=64)
    assert r.status_code == 201 and r.get_json()["parallel"] == 64
    app.config.update(TOURNAMENT_MAX_GAMES=3, TOURNAMENT_MAX_PARALLEL=2)
    assert tournament(client, games=4, parallel=1).get_json()["code"] == "tournament_too_large"
    created = tournament(client, games=3)
    assert created.status_code == 201 and created.get_json()["parallel"] == 2  # the default within the cap


# -- cancelling ---------------------------------------------------------------------
def test_cancel_stops_new_games_and_lets_those_in_progress_finish(client: Any, service: Any, redis_client: Any,
                                                                  work: Any) -> None:
    # Regression: a tournament could not be cancelled (DELETE was 405).
    created = tournament(client, games=6, parallel=2).get_json()
    tid, cancel_token = created["id"], created["cancel_token"]
    assert "cancel_token" not in client.get(f"/v1/tournaments/{tid}").get_json()
    Queue(QUEUE, connection=redis_client).empty()
    assert Tournaments(service, service.store.tournaments).start(tid) == "launched 2"
    # a retried start job launches nothing more
    assert Tournaments(service, service.store.tournaments).start(tid) == "launched 0"

    r = client.delete(f"/v1/tournaments/{tid}")
    assert r.status_code == 401 and r.get_json()["code"] == "token_required"
    r = client.delete(f"/v1/tournaments/{tid}", headers=auth("guess"))
    assert r.status_code == 401 and r.get_json()["code"] == "bad_token"
    r = client.delete(f"/v1/tournaments/{tid}", headers=auth(cancel_token))
    assert r.status_code == 200
    t = r.get_json()
    assert t["status"] == "cancelled" and t["games_launched"] == 2 and t["seed"] is None  # 2 games still dealt from it
    assert client.delete(f"/v1/tournaments/{tid}", headers=auth(cancel_token)).status_code == 200

    work(max_rounds=2000)
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["status"] == "cancelled" and t["games_finished"] == 2 and len(t["games"]) == 2
    assert all(g["status"] == "finished" for g in t["games"])
    assert sum(row["games"] for row in t["standings"]) == 2 * t["players"]
    assert t["seed"] is not None  # no game it dealt is still being played


def test_the_admin_cancels_any_tournament_but_a_finished_one_is_over(client: Any, work: Any) -> None:
    first = tournament(client, games=2).get_json()["id"]
    r = client.delete(f"/v1/tournaments/{first}", headers=auth("admin-secret"))
    assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
    work(max_rounds=2000)
    assert client.get(f"/v1/tournaments/{first}").get_json()["games_launched"] == 0

    second = tournament(client, games=1).get_json()
    work(max_rounds=2000)
    r = client.delete(f"/v1/tournaments/{second['id']}", headers=auth(second["cancel_token"]))
    assert r.status_code == 409 and r.get_json()["code"] == "tournament_finished"
    assert client.delete("/v1/tournaments/t_missing", headers=auth("admin-secret")).status_code == 404


# -- standings --------------------------------------------------------------------
def test_get_reads_stored_standings_equal_to_a_full_recompute(client: Any, redis_client: Any, work: Any,
                                                              monkeypatch: Any) -> None:
    # Regression: each GET refolded every result through OpenSkill (1.5 s of CPU at 10,000 results).
    tid = tournament(client, games=9, parallel=4).get_json()["id"]
    work(max_rounds=3000)
    by_index = {int(k): v.decode() for k, v in redis_client.hgetall(f"tournament:{{{tid}}}:games").items()}
    results = [json.loads(redis_client.hget(f"tournament:{{{tid}}}:results", by_index[i])) for i in range(9)]
    names = ["random", "random#2", "random#3", "r4"]
    expected = standings(names, results)

    import openskill.models

    import referee.play.tournaments as tournaments

    def no_recompute(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("GET recomputed the standings")
    monkeypatch.setattr(tournaments, "standings", no_recompute)
    monkeypatch.setattr(openskill.models.PlackettLuce, "rate", no_recompute)
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["status"] == "finished" and t["games_finished"] == 9
    assert t["standings"] == expected
    assert any(row["rating"]["mu"] != 25.0 for row in t["standings"])


def test_standings_do_not_depend_on_the_order_games_finish_in() -> None:
    from referee.play.standings import Standings
    rng = random.Random(8)
    names = ["a", "b", "c"]
    results = []
    for i in range(12):
        seats = rng.sample(names, 3)
        winners = sorted(rng.sample(range(3), rng.choice([1, 2])))
        results.append({"game": f"g{i}", "custom": i == 5, "entrants": seats,
                        "result": {"winners": winners, "seats": [{"seat": s, "role": None} for s in range(3)]}})
    in_order = standings(names, results)
    order = list(range(12))
    rng.shuffle(order)
    table = Standings(names)
    for index in order:  # stored and reloaded between games, as the workers do
        table = Standings.loads(table.dumps())
        table.record(index, results[index])
    assert table.table() == in_order
    assert sum(row["games"] for row in in_order) == 36


@pytest.mark.parametrize("field", ["games", "parallel"])
def test_tournament_caps_are_documented(field: str) -> None:
    from tests.contract import spec
    body = spec()["paths"]["/v1/tournaments"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "without the admin token" in body["properties"][field]["description"]
