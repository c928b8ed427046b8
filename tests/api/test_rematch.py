"""Rematch and series (issue 40 item 4): ``POST /v1/games/{id}/rematch`` on a
finished game deals the next one for the same table — the same bots, each
person's seat kept for them, every seat rotated one place — once however
often it is asked; a person's old seat token takes their new seat (its token
shown that once), nobody else's; a series keeps a running score and links
its games; the rematch's log audits clean."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from referee.audit import audit_log
from referee.engine.platform import RESIGN
from tests.api.helpers import auth, create, ndjson, play_to_end, view

RULESETS = [("bang", 4), ("bang-faceoff", 2), ("bang-dice", 4), ("bluffaneer", 3)]


def _resign_first(seat: int, moves: list[dict[str, Any]], step: int) -> dict[str, Any]:
    """Ends a game soon: a resignation where the rules offer one, else the first legal move."""
    return next((m for m in moves if m.get("type") == RESIGN), moves[0])


def _finished(client: Any, clock: Any, service: Any, ruleset: str, players: int, **body: Any) -> dict[str, Any]:
    seats = body.pop("seats", [{"name": f"p{i}"} for i in range(players)])
    game = create(client, ruleset=ruleset, seats=seats, **body)
    assert play_to_end(client, game, clock, service, pick=_resign_first)["status"] == "finished"
    return game


def _ask(client: Any, game: dict[str, Any], token: str | None) -> Any:
    return client.post(f"/v1/games/{game['id']}/rematch", headers=auth(token) if token else {})


@pytest.mark.parametrize(("ruleset", "players"), RULESETS)
def test_a_rematch_of_each_ruleset_rotates_the_seats(client: Any, clock: Any, service: Any, ruleset: str,
                                                     players: int, tmp_path: Path) -> None:
    """Issue 40 item 4 ("a rematch of each ruleset rotates seats"): each person takes the seat on their right."""
    game = _finished(client, clock, service, ruleset, players)
    first = _ask(client, game, game["owner_token"])
    assert first.status_code == 201, first.get_json()
    following = first.get_json()
    assert following["rematch_of"] == game["id"] and "token" not in following
    assert [s["from_seat"] for s in following["seats"]] == [(s + 1) % players for s in range(players)]
    assert [s["name"] for s in following["seats"]] == [f"p{(s + 1) % players}" for s in range(players)]
    assert all(s["open"] for s in following["seats"])  # kept for their people, who take them
    if ruleset == "bluffaneer":  # F8: the seat that rolled first now seats the next person clockwise
        dealt_at = service.state_at(game["id"], None)[2][0]  # the version after the deal
        first_roller = service.state_at(game["id"], dealt_at)[1].turn
        assert service.load(following["id"]).header["options"]["first_seat"] == first_roller
    tokens: dict[int, str] = {}
    for old in range(players):
        taken = _ask(client, game, game["seats"][old]["token"])
        assert taken.status_code == 200 and taken.get_json()["id"] == following["id"]
        assert taken.get_json()["seat"] == (old - 1) % players and taken.get_json()["token"]
        tokens[taken.get_json()["seat"]] = taken.get_json()["token"]
    nxt = {"id": following["id"], "seats": [{"token": tokens[s]} for s in range(players)]}
    assert view(client, nxt, 0)["seat"] == 0 and view(client, nxt)["rematch_of"] == game["id"]
    assert view(client, game)["next_game"] == following["id"]
    assert play_to_end(client, nxt, clock, service, pick=_resign_first)["status"] == "finished"
    lines = ndjson(client.get(f"/v1/games/{following['id']}/log").get_data(as_text=True))
    assert lines[0]["header"]["rematch"] == {"of": game["id"], "seats_from": following_seats(players)}
    report = audit_log(lines[0]["header"], lines[0]["hash"], lines[1:], keys=service.keyring.public())
    assert report["ok"], report["divergence"]
    assert _browser_verifies(client, following["id"], tmp_path)


def _browser_verifies(client: Any, game_id: str, folder: Path) -> bool:
    """The page's verifier (referee/web/verify.js, run by node as tests/verify_node.cjs runs it) on the log."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: verify.js was not run on the rematch's log")
    (folder / "log.ndjson").write_bytes(client.get(f"/v1/games/{game_id}/log").get_data())
    (folder / "keys.json").write_bytes(client.get("/v1/keys").get_data())
    (folder / "cases.json").write_text(json.dumps([{"name": game_id, "log": str(folder / "log.ndjson"),
                                                    "keys": str(folder / "keys.json")}]))
    harness = Path(__file__).resolve().parents[1] / "verify_node.cjs"
    done = subprocess.run([node, str(harness), str(folder / "cases.json")], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)[0]
    assert verdict["ok"] and verdict["checked"], verdict
    return True


def following_seats(players: int) -> list[int]:
    return [(s + 1) % players for s in range(players)]


def test_asking_twice_gives_the_same_game_and_a_seat_token_only_once(client: Any, clock: Any, service: Any) -> None:
    """Idempotent: the owner's and the seats' asks all answer with the one next game; a seat's token once."""
    game = _finished(client, clock, service, "bluffaneer", 3, seats=[{"name": "ann"}, {"name": "bob"},
                                                                     {"name": "cat", "bot": "random"}],
                     options={"first_seat": 0})  # ann rolls first, and resigns: the bot never moves
    ann = _ask(client, game, game["seats"][0]["token"])
    assert ann.status_code == 201 and ann.get_json()["seat"] == 2 and ann.get_json()["token"]
    again = _ask(client, game, game["seats"][0]["token"])
    assert again.status_code == 200 and again.get_json()["id"] == ann.get_json()["id"]
    assert again.get_json()["token"] is None
    owner = _ask(client, game, game["owner_token"])
    assert owner.status_code == 200 and owner.get_json()["id"] == ann.get_json()["id"]
    seats = owner.get_json()["seats"]
    assert seats[1] == {"seat": 1, "name": "cat", "bot": "random", "from_seat": 2}
    assert seats[2]["open"] is False and seats[0]["open"] is True  # ann's taken, bob's still kept for him
    # Bluffaneer F8: the same first_seat, so the first roller is the next person clockwise (bob, now at seat 0)
    assert service.load(ann.get_json()["id"]).header["options"]["first_seat"] == 0


def test_nobody_else_gets_a_seat_token(client: Any, clock: Any, service: Any) -> None:
    """A spectator, a stranger's token, a bot seat's: refused; a kept seat is not claimed by a stranger."""
    game = _finished(client, clock, service, "bang-faceoff", 2)
    assert _ask(client, game, None).status_code == 401
    assert _ask(client, game, "not-a-token").get_json()["code"] == "bad_token"
    following = _ask(client, game, game["owner_token"]).get_json()
    lobby = client.get("/v1/games?open_seats=true").get_json()["games"]
    assert following["id"] not in [g["id"] for g in lobby]  # kept seats are nobody else's to claim
    stolen = client.post(f"/v1/games/{following['id']}/seats/0/claim", json={"name": "eve"})
    assert stolen.status_code == 403 and stolen.get_json()["code"] == "seat_kept"
    assert "token" not in client.get(f"/v1/games/{game['id']}").get_json()
    other = create(client, ruleset="bang-faceoff", players=2)
    assert _ask(client, game, other["seats"][0]["token"]).get_json()["code"] == "bad_token"
    assert _ask(client, game, other["owner_token"]).get_json()["code"] == "bad_token"
    # the creator cannot reissue a kept seat its player took: it is the player's
    taken = _ask(client, game, game["seats"][1]["token"]).get_json()
    reissue = client.post(f"/v1/games/{following['id']}/seats/{taken['seat']}/token",
                          headers=auth(game["owner_token"]))
    assert reissue.status_code == 403 and reissue.get_json()["code"] == "seat_belongs_to_claimant"


def test_a_game_still_on_has_no_rematch(client: Any) -> None:
    game = create(client, ruleset="bang-faceoff", players=2)
    refused = _ask(client, game, game["owner_token"])
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_not_finished"
    assert "next_game" not in view(client, game)
    assert client.post("/v1/games/nope/rematch", headers=auth("x")).status_code == 404


def test_a_best_of_three_series_keeps_score_and_ends(client: Any, clock: Any, service: Any) -> None:
    """A series links its games and keeps a running score; a rematch after it is decided is refused."""
    game = _finished(client, clock, service, "bang-faceoff", 2, options={"series": {"best_of": 3}})
    assert view(client, game)["series"] == {"id": game["id"], "best_of": 3, "game": 1, "players": [0, 1]}
    games = [game]
    while True:
        asked = _ask(client, games[-1], games[-1]["owner_token"])
        if asked.status_code == 409:
            assert asked.get_json()["code"] == "series_over"
            break
        following = asked.get_json()
        tokens = {}
        for seat in games[-1]["seats"]:
            taken = _ask(client, games[-1], seat["token"]).get_json()
            tokens[taken["seat"]] = taken["token"]
        nxt = {"id": following["id"], "owner_token": game["owner_token"],
               "seats": [{"token": tokens[s]} for s in range(2)]}
        assert play_to_end(client, nxt, clock, service, pick=_resign_first)["status"] == "finished"
        games.append(nxt)
    series = client.get(f"/v1/series/{game['id']}").get_json()
    assert series["status"] == "finished" and series["format"] == {"best_of": 3}
    assert [g["id"] for g in series["games"]] == [g["id"] for g in games]
    assert [g["game"] for g in series["games"]] == list(range(1, len(games) + 1))
    assert max(p["wins"] for p in series["players"]) == 2 and 2 <= len(games) <= 3
    assert sum(p["wins"] for p in series["players"]) == len(games)
    assert series["games"][1]["players"] == [1, 0]  # the seats swapped: series player 1 sits at seat 0


def test_a_series_option_is_checked(client: Any) -> None:
    for bad in ({"best_of": 0}, {"games": 16}, {"best_of": 3, "games": 3}, {"first": 2}, 3, {"games": True}):
        refused = client.post("/v1/games", json={"ruleset": "bang-faceoff", "players": 2,
                                                 "options": {"series": bad}})
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_options", bad
    assert client.get("/v1/series/nope").get_json()["code"] == "no_such_series"
    plain = create(client, ruleset="bang-faceoff", players=2)
    assert client.get(f"/v1/series/{plain['id']}").status_code == 404


def test_two_asks_at_once_deal_one_game(client: Any, clock: Any, service: Any) -> None:
    """Idempotent under a race: the owner and a seat ask at the same moment; one game is dealt, both get it."""
    from concurrent.futures import ThreadPoolExecutor
    game = _finished(client, clock, service, "bluffaneer", 3)
    tokens = [game["owner_token"], game["seats"][0]["token"], game["seats"][1]["token"], game["owner_token"]]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda token: service.rematch(game["id"], token, f"race{token[:4]}"), tokens))
    assert len({body["id"] for body, _ in answers}) == 1 and sum(created for _, created in answers) == 1
    assert answers[1][0]["token"] and answers[2][0]["token"] and answers[1][0]["seat"] != answers[2][0]["seat"]
    assert view(client, game)["next_game"] == answers[0][0]["id"]


def test_seats_given_to_the_start_bot_stay_that_bots_and_a_table_of_bots_needs_no_start_deadline(
        client: Any, clock: Any, service: Any, work: Any) -> None:
    """Every open seat went to the start bot: the rematch seats that bot there, with no start deadline (no
    seat is open), and plays at once."""
    game = create(client, ruleset="bang-faceoff", seats=[{"open": True}, {"open": True}],
                  options={"start_timeout_s": 30, "start_bot": "random"})
    clock.advance(30_000)
    assert service.give_open_seats(game["id"]) == [0, 1]
    work()
    assert view(client, game)["status"] == "finished"
    following = _ask(client, game, game["owner_token"]).get_json()
    assert [s["bot"] for s in following["seats"]] == ["random", "random"]
    header = service.load(following["id"]).header
    assert "start_timeout_s" not in header and header["seats"][0]["bot"] == "random"
    work()
    assert view(client, {"id": following["id"]})["status"] == "finished"


def test_a_rematch_the_rules_or_the_bots_refuse_links_nothing(client: Any, clock: Any, service: Any) -> None:
    """A registered bot deleted since: the rematch is refused (422 unknown_bot) and the game links no next game."""
    bot = client.post("/v1/bots", json={"name": "out", "rulesets": ["bluffaneer"], "seating": "public"}).get_json()
    game = _finished(client, clock, service, "bluffaneer", 3,
                     seats=[{"name": "ann"}, {"name": "bob"}, {"name": "out", "bot": bot["id"]}],
                     options={"first_seat": 0})
    assert client.delete(f"/v1/bots/{bot['id']}", headers=auth(bot["secret"])).status_code == 200
    refused = _ask(client, game, game["owner_token"])
    assert refused.status_code == 422 and refused.get_json()["code"] == "unknown_bot"
    assert "next_game" not in view(client, game)


def test_a_claimant_keeps_the_seat_they_claimed(client: Any, clock: Any, service: Any) -> None:
    """Issue 40 item 4: an open seat's claimant takes their seat in the rematch with their claim's token; the
    creator never gets it, nor reissues it."""
    game = create(client, ruleset="bluffaneer", seats=[{"name": "host"}, {"open": True}, {"open": True}],
                  options={"first_seat": 0})
    ann = client.post(f"/v1/games/{game['id']}/seats/1/claim", json={"name": "ann"}).get_json()
    bob = client.post(f"/v1/games/{game['id']}/seats/2/claim", json={"name": "bob"}).get_json()
    game["seats"][1]["token"], game["seats"][2]["token"] = ann["token"], bob["token"]
    assert play_to_end(client, game, clock, service, pick=_resign_first)["status"] == "finished"
    owner = _ask(client, game, game["owner_token"]).get_json()
    assert [s["name"] for s in owner["seats"]] == ["ann", "bob", "host"] and "token" not in owner
    for seat in range(3):
        refused = client.post(f"/v1/games/{owner['id']}/seats/{seat}/claim", json={"name": "host"})
        assert refused.get_json()["code"] == "seat_kept"
    taken = _ask(client, game, ann["token"]).get_json()
    assert (taken["id"], taken["seat"]) == (owner["id"], 0) and taken["token"]
    assert client.get(f"/v1/games/{owner['id']}", headers=auth(taken["token"])).get_json()["seat"] == 0
    reissue = client.post(f"/v1/games/{owner['id']}/seats/0/token", headers=auth(game["owner_token"]))
    assert reissue.get_json()["code"] == "seat_belongs_to_claimant"


def test_a_tournament_has_no_series(client: Any) -> None:
    """A tournament deals its own games: the series option is refused for them, at the tournament's creation."""
    refused = client.post("/v1/tournaments", json={"ruleset": "bang-faceoff", "entrants": ["random", "random"],
                                                   "games": 1, "players": 2, "options": {"series": {"games": 2}}})
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_options"


def test_a_tournament_game_has_no_rematch(client: Any, service: Any, work: Any) -> None:
    game = service.create_game("bang-faceoff", seats=[{"bot": "random"}, {"bot": "random"}], tournament="t_x")
    work()
    assert view(client, game)["status"] == "finished"
    refused = _ask(client, game, game["owner_token"])
    assert refused.status_code == 409 and refused.get_json()["code"] == "tournament_game"


@pytest.mark.parametrize("table", [
    {"clock": {"bank_s": 300, "increment_s": 5}, "chat": "everyone", "spectator_delay": 50,
     "spectator_omniscient": True, "away_grace_s": None, "away_bot": "heuristic"},
    {"turn_timeout_s": 90, "chat": "off", "away_grace_s": 30},
])
def test_play_again_keeps_the_clock_the_chat_the_spectators_and_the_takeover(
        client: Any, service: Any, table: dict[str, Any]) -> None:
    """Issue 40 items 1, 2, 5, 6 with item 4 (found by a new user's trial: "Play again" of a clocked game
    dealt one with no clock): the rematch is the same table, so it has the options its table was made with."""
    game = create(client, ruleset="bang-faceoff", seats=[{"name": "ann"}, {"name": "bob"}], options=table)
    first = view(client, game, 0)["to_act"][0]  # a seat's view is live, whatever the spectators' delay
    resigned = client.post(f"/v1/games/{game['id']}/moves", json={"move": {"type": RESIGN}},
                           headers=auth(game["seats"][first]["token"]))
    assert resigned.status_code == 201, resigned.get_json()
    following = _ask(client, game, game["seats"][0]["token"]).get_json()
    header = service.load(following["id"]).header
    expected = {**table, **({"clock": {**table["clock"], "reaction_s": 15}} if "clock" in table else {})}
    assert {name: header.get(name, "absent") for name in expected} == expected
    seen = client.get(f"/v1/games/{following['id']}", headers=auth(following["token"])).get_json()
    assert ("clock" in seen) == ("clock" in table)
