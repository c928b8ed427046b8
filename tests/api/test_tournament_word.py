"""Tournaments keep their word (issue 36, item 9): every option is checked
at creation as a game's are, entrants' names are unique so each has its own
row and rating, a tournament whose game cannot be dealt stops and reveals its
seed, and a seeded tournament of built-in bots replays identically however
fast its workers answer (Bluffaneer's claim race, F18/F19)."""
from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from referee.play.tournaments import CLAIM_LAPSE_MS, Tournaments
from tests.api.helpers import auth


def create(client: Any, entrants: list[Any] | None = None, headers: dict[str, str] | None = None,
           **body: Any) -> Any:
    return client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, **body,
                                                 "entrants": entrants or ["random", "random", "heuristic"]},
                       headers=headers or {})


# -- options ----------------------------------------------------------------------
@pytest.mark.parametrize("options", [
    {"turn_timeout_s": 0}, {"turn_timeout_s": -5}, {"turn_timeout_s": 1e9}, {"turn_timeout_s": "abc"},
    {"turn_timeout_s": True}, {"turn_timeout_s": 0.999}, {"turn_timeout_s": 86_400.5}, {"turn_timeout_s": [30]},
    {"claim_window_ms": 999}, {"claim_window_ms": "5000"}, {"first_seat": 3}, {"no_such_option": 1},
    {"start_timeout_s": 60}, {"start_bot": "random"}, {"next_game_of": "g_nothing"},
])
def test_every_option_is_checked_at_creation_as_a_games_are(client: Any, options: dict[str, Any]) -> None:
    # Regression: turn_timeout_s 0, -5, 1e9 or "abc" was accepted with 201; the tournament never played a
    # game and stayed running forever, holding one of its caller's slots.
    r = create(client, options=options)
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_options", (options, r.get_json())
    game = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3, "options": options})
    assert game.status_code == 422 and game.get_json()["code"] == "invalid_options"  # the same verdict
    assert client.get("/v1/tournaments").get_json()["tournaments"] == []  # nothing stored, no slot taken


@pytest.mark.parametrize("options", [{"turn_timeout_s": 1}, {"turn_timeout_s": 86_400}, {"turn_timeout_s": 2.5},
                                     {"claim_window_ms": 1000, "first_seat": 2, "turn_timeout_s": None}])
def test_options_at_their_limits_are_kept(client: Any, options: dict[str, Any]) -> None:
    r = create(client, headers=auth("admin-secret"), options=options)
    assert r.status_code == 201 and r.get_json()["options"] == options


# -- names ------------------------------------------------------------------------
def test_entrants_names_are_unique_so_each_has_its_own_row_and_rating(client: Any, work: Any) -> None:
    # Regression: "random", "random" and a heuristic named "random#2" became random, random#2, random#2: two
    # entrants shared a row, and no game moved a rating (one name held two seats).
    entrants = ["random", "random", {"bot": "heuristic", "name": "random#2"}]
    created = create(client, entrants, games=3).get_json()
    assert [e["name"] for e in created["entrants"]] == ["random", "random#3", "random#2"]
    work(max_rounds=3000)
    t = client.get(f"/v1/tournaments/{created['id']}").get_json()
    assert t["status"] == "finished"
    assert sorted(row["name"] for row in t["standings"]) == ["random", "random#2", "random#3"]
    assert all(row["games"] == 3 and row["rating"]["sigma"] < 25 / 3 for row in t["standings"])  # all rated


@pytest.mark.parametrize("entrants", [
    [{"bot": "random", "name": "x"}, {"bot": "heuristic", "name": "x"}, "random"],
    ["random", {"bot": "random", "name": "heuristic"}, {"bot": "heuristic", "name": "heuristic"}],
])
def test_two_entrants_given_one_name_are_refused(client: Any, entrants: list[Any]) -> None:
    r = create(client, entrants)
    assert r.status_code == 422 and r.get_json()["code"] == "duplicate_entrant_name"


def test_a_name_not_given_gives_way_to_one_given(client: Any) -> None:
    entrants = ["random", {"bot": "heuristic", "name": "random"}, "random"]
    names = [e["name"] for e in create(client, entrants).get_json()["entrants"]]
    assert names == ["random#2", "random", "random#3"]


# -- a game that cannot be dealt ----------------------------------------------------
def test_a_tournament_whose_game_is_refused_stops_frees_its_slot_and_reveals_its_seed(
        client: Any, service: Any, redis_client: Any, work: Any) -> None:
    # Regression: such a tournament (options stored before they were checked at creation) stayed running
    # forever, held its caller's slot, and never revealed its seed, even when cancelled.
    created = create(client, games=4).get_json()
    tid = created["id"]
    key = f"tournament:{{{tid}}}"
    spec = json.loads(redis_client.hget(key, "spec"))
    redis_client.hset(key, "spec", json.dumps({**spec, "options": {"turn_timeout_s": 0}}))

    def held() -> bool:
        return any(redis_client.zscore(k, tid) is not None for k in redis_client.keys("tournaments:quota:*"))
    assert held()
    work(max_rounds=200)
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["status"] == "cancelled" and t["games"] == [] and t["games_finished"] == 0
    assert t["stopped"]["code"] == "invalid_options" and "turn_timeout_s" in t["stopped"]["detail"]
    assert t["seed"] is not None and t["seed_commitment"] == _sha256(t["seed"])
    assert not held(), "the caller's slot is free"
    assert client.delete(f"/v1/tournaments/{tid}", headers=auth(created["cancel_token"])).status_code == 200
    # a retried start job launches nothing
    assert Tournaments(service, service.store.tournaments).start(tid) == "launched 0"


def test_a_cancelled_tournament_with_a_claim_never_dealt_reveals_its_seed_once_it_lapsed(
        client: Any, service: Any, redis_client: Any) -> None:
    # Regression: a tournament whose claimed game was never dealt (its worker died, or, before games refused
    # were counted, its options were refused) never revealed its seed, even cancelled.
    created = create(client, games=4).get_json()
    tid, key = created["id"], f"tournament:{{{created['id']}}}"
    redis_client.hset(key, "next", 1)  # game 0 claimed; no game dealt (yet, or ever)
    t = client.delete(f"/v1/tournaments/{tid}", headers=auth(created["cancel_token"])).get_json()
    assert t["status"] == "cancelled" and t["games_launched"] == 1 and t["seed"] is None  # it may be being dealt
    closed_at = int(redis_client.hget(key, "closed_at"))
    assert closed_at == service.clock()
    redis_client.hset(key, "closed_at", closed_at - CLAIM_LAPSE_MS + 1)
    assert client.get(f"/v1/tournaments/{tid}").get_json()["seed"] is None  # a millisecond before it lapses
    redis_client.hset(key, "closed_at", closed_at - CLAIM_LAPSE_MS)
    t = client.get(f"/v1/tournaments/{tid}").get_json()
    assert t["seed"] is not None and t["seed_commitment"] == _sha256(t["seed"])
    redis_client.hdel(key, "closed_at")  # cancelled by a referee from before closed_at was kept: long ago
    assert client.get(f"/v1/tournaments/{tid}").get_json()["seed"] == t["seed"]


def _sha256(text: str) -> str:
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()


# -- seeded tournaments replay ------------------------------------------------------
def _played(client: Any, service: Any, work: Any, clock: Any) -> tuple[list[Any], list[Any]]:
    """Run a seeded 4-game Bluffaneer tournament of built-in bots with the
    service's clock ``clock``: each game's moves (seat, move, in order) and
    the standings (but each bot's latency, which the clock times)."""
    service.clock = clock
    created = create(client, ["heuristic", "random", "heuristic", "random"], headers=auth("admin-secret"),
                     games=4, players=4, parallel=2, seed="the same seed").get_json()
    work(max_rounds=5000)
    t = client.get(f"/v1/tournaments/{created['id']}").get_json()
    assert t["status"] == "finished" and t["games_finished"] == 4
    moves = []
    for game in t["games"]:
        log = [json.loads(line) for line in client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True)
               .splitlines()[1:]]
        moves.append([(e["actor"], e["data"]["move"], e["data"]["by"]) for e in log if "move" in e["data"]])
        assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"] is True
    # each bot's latency is the clock's to say (issue 40 item 2): the same games, timed apart
    return moves, [{k: v for k, v in row.items() if k != "latency"} for row in t["standings"]]


def test_two_seeded_tournaments_of_built_in_bots_play_the_same_games(client: Any, service: Any,
                                                                      work: Any, monkeypatch: Any) -> None:
    # Regression (F19): the receipt time's millisecond decided who won a claim: the bots' claims in one
    # millisecond tied and a seeded flip chose; one millisecond apart, the first seat asked won. So two
    # runs of one seeded tournament gave different games and standings, as fast or slow as the worker was.
    start = service.clock()
    fast, slow = itertools.count(start), itertools.count(start * 1000)
    monkeypatch.setattr(service, "clock", service.clock)
    first = _played(client, service, work, lambda: start)  # every move in the same millisecond
    second = _played(client, service, work, lambda: next(fast))  # each read of the clock 1 ms later
    third = _played(client, service, work, lambda: next(slow) // 1000)  # a millisecond every 1000 reads
    assert sum(len(game) for game in first[0]) > 40
    assert first == second == third
