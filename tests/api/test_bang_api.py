"""BANG! through the API: creation, hidden roles and hands, rule refusals,
a whole game, R84 carry-over, and a tournament rotating roles."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from referee.engine.rng import Rng
from tests.api.helpers import auth, create, move, play_to_end, view


def _random_pick(seed: str) -> Any:
    rng = Rng(seed.encode())
    return lambda seat, moves, step: rng.choice(moves)


def test_r83_a_seat_sees_its_own_hand_and_role_and_only_the_sheriff_of_others(client: Any) -> None:
    game = create(client, ruleset="bang", players=5, seed="r83")
    me = view(client, game, 2)["state"]
    assert me["role"] in ("sheriff", "deputy", "outlaw", "renegade") and me["hand"]
    shown = [p["role"] for p in me["seats"] if p["seat"] != 2]
    assert shown.count("sheriff") + shown.count(None) == 4
    spectator = view(client, game)["state"]
    assert spectator["hand"] in (None, [])


def test_r18_style_refusals_name_the_rule(client: Any) -> None:
    game = create(client, ruleset="bang", players=4, seed="refuse")
    spectator = view(client, game)
    actor = spectator["to_act"][0]
    other = next(s for s in range(4) if s not in spectator["to_act"])
    r = move(client, game, other, {"type": "end_turn"})
    assert r.status_code == 403 and r.get_json()["rule"].startswith("R")
    r = move(client, game, actor, {"type": "play", "card": "NOT-A-CARD"})
    assert r.status_code in (400, 422)
    r = move(client, game, actor, {"type": "discard", "cards": []})  # off the published schema: malformed
    assert r.status_code == 400 and r.get_json()["rule"] == "R12"
    r = move(client, game, actor, {"type": "discard", "cards": ["BANG-AS"]})  # well-formed, not now
    assert r.status_code == 422 and r.get_json()["rule"].startswith("R")  # an awaited seat: never a 403


def test_a_five_player_game_to_the_end_with_a_clean_audit(client: Any, clock: Any, service: Any) -> None:
    game = create(client, ruleset="bang", players=5, seed="five")
    final = play_to_end(client, game, clock, service, pick=_random_pick("five"))
    result = final["result"]
    assert result["winners"] and len(result["seats"]) == 5
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report


def test_r84_carry_characters_from_a_finished_game(client: Any, clock: Any, service: Any) -> None:
    first = create(client, ruleset="bang", players=4, seed="r84")
    r = client.post("/v1/games", json={"ruleset": "bang", "players": 4,
                                       "options": {"carry_characters_from": first["id"]}})
    assert r.status_code == 422 and r.get_json()["rule"] == "R84"  # not over yet
    end = play_to_end(client, first, clock, service, pick=_random_pick("r84"))
    survivors = {p["seat"]: p["character"] for p in end["state"]["seats"] if p["alive"]}
    second = create(client, ruleset="bang", players=4, options={"carry_characters_from": first["id"]})
    players = view(client, second)["state"]["seats"]
    assert all(players[s]["character"] == c for s, c in survivors.items())


def test_bang_tournament_rotates_roles(client: Any, work: Any) -> None:
    r = client.post("/v1/tournaments", json={"ruleset": "bang", "games": 5, "parallel": 5,
                                             "entrants": ["heuristic", "random", "random", "random", "random"]})
    assert r.status_code == 201, r.get_json()
    work(max_rounds=5000)
    t = client.get(f"/v1/tournaments/{r.get_json()['id']}").get_json()
    assert t["status"] == "finished"
    sheriffs: Counter[str] = Counter()
    for g in t["games"]:
        log = client.get(f"/v1/games/{g['id']}/log").get_data(as_text=True)
        result = json.loads(log.strip().splitlines()[-1])["data"]["result"]
        names = [s["name"] for s in client.get(f"/v1/games/{g['id']}").get_json()["seats"]]
        sheriffs[next(names[s["seat"]] for s in result["seats"] if s["role"] == "sheriff")] += 1
    assert sorted(sheriffs.values()) == [1, 1, 1, 1, 1]  # each entrant is Sheriff once in 5 games
    heuristic = next(row for row in t["standings"] if row["name"] == "heuristic")
    assert heuristic["games"] == 5 and "sheriff" in heuristic["roles"]


def test_r43_a_timed_out_discard_is_drawn_from_the_generator_and_audited(
        client: Any, clock: Any, service: Any) -> None:
    import workers.jobs as jobs
    hand = ["BANG-AS", "MISSED-10C", "BEER-6H", "STAGECOACH-9S-1", "PANIC-JH", "SALOON-5H"]
    game = create(client, ruleset="bang", players=4, options={"turn_timeout_s": 60}, setup={
        "turn": 0, "phase": "play",
        "seats": [{"role": "sheriff", "character": "paul_regret", "life": 2, "hand": hand}, {}, {}, {}]})
    assert move(client, game, 0, {"type": "end_turn"}).status_code == 201
    seen = view(client, game, 0)
    assert seen["state"]["phase"] == "discard" and len(seen["legal_moves"]) == 6 + 1  # one card per move, and R85
    assert seen["pending"]["default"] is None and seen["pending"]["default_drawn"] is True
    for left in (6, 5, 4, 3):  # life 2: four cards go, each drawn by the clock
        now = view(client, game, 0)
        clock.advance(60_000)
        assert jobs.fire_turn_clock(game["id"], now["version"], svc=service) == "defaulted"
        log = client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True)
        record = [json.loads(line) for line in log.splitlines()[1:] if '"type":"move"' in line][-1]
        assert record["data"]["by"] == {"default": "turn_clock", "drawn_from": left}
        assert record["data"]["move"] in now["legal_moves"]
    assert view(client, game)["state"]["turn"] == 1
    clock.advance(1)
    play_to_end(client, game, clock, service, pick=_random_pick("r43"))
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]
    # a referee that swapped the drawn default and rebuilt the chain is still caught
    from referee.audit import audit_log
    from tests.forge import rechain
    lines = [json.loads(x) for x in client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True).splitlines()]
    head, events = lines[0], lines[1:]
    target = next(e for e in events if (e["data"].get("by") or {}).get("drawn_from") == 6)
    target["data"]["move"] = next(m for m in seen["legal_moves"] if m != target["data"]["move"])
    report = audit_log(head["header"], head["hash"], rechain(head["hash"], events))
    assert not report["ok"]
    assert next(c for c in report["checks"] if c["name"] == "hash_chain")["ok"]
    assert any(c["name"] == "randomness" and not c["ok"] for c in report["checks"])
    assert report["divergence"]["seq"] == target["seq"] and report["divergence"]["field"] == "data.move"


def test_r14_r17_a_seat_view_gives_distance_and_reach_to_every_other_seat(client: Any) -> None:
    seats = [{"character": "bart_cassidy", "in_play": ["SCOPE-AS"]},
             {"character": "black_jack", "in_play": ["MUSTANG-8H"]},
             {"character": "el_gringo", "in_play": []},
             {"character": "kit_carlson", "in_play": ["SCHOFIELD-KS"]}]
    game = create(client, ruleset="bang", players=4, seed="r15", setup={"seats": seats})
    me = view(client, game, 0)["state"]["distances"]
    # R15: Scope −1 (never below 1) against seat 1's Mustang +1; R16: the Colt .45 reaches 1
    assert me == {"reach": 1, "distance": [None, 1, 1, 1], "in_reach": [None, True, True, True]}
    two = view(client, game, 2)["state"]["distances"]
    assert two == {"reach": 1, "distance": [2, 2, None, 1], "in_reach": [False, False, None, True]}
    three = view(client, game, 3)["state"]["distances"]
    assert three["reach"] == 2 and three["distance"] == [1, 3, 1, None]  # R16: Schofield
    assert three["in_reach"] == [True, False, True, None]
    assert view(client, game)["state"]["distances"] is None  # a spectator sees from no seat
