"""Seats to claim (issue 24, item 4): a game created with open seats is found
through ``GET /v1/games?open_seats=true``, its seats claimed by separate
clients (each claim once, its token to the claimant only, recorded in the
log), nothing moves until every seat is taken; the creator reissues a lost
token (the old one stops at once, recorded); the log audits clean, and a log
that moves before a claim, claims twice or reissues a bot's token does not."""
from __future__ import annotations

import copy
from typing import Any

from referee.audit import audit_log
from referee.engine.platform import RESIGN, playing_moves
from tests.api.helpers import auth, create, move, ndjson, play_to_end, view
from tests.forge import rechain


def _open_game(client: Any) -> dict[str, Any]:
    return create(client, ruleset="bluffaneer", seats=[{"name": "host"}, {"open": True}, {"open": True}],
                  seed="open-seats")


def test_a_game_with_open_seats_is_found_claimed_played_and_audited(client: Any, clock: Any, service: Any) -> None:
    game = _open_game(client)
    assert [s["token"] is None for s in game["seats"]] == [False, True, True] and game["owner_token"]
    assert [g["id"] for g in client.get("/v1/games?open_seats=true").get_json()["games"]] == [game["id"]]
    host = game["seats"][0]["token"]
    first = view(client, game, 0)
    refused = move(client, game, 0, first["legal_moves"][0]) if first["legal_moves"] else None
    if refused is not None:
        assert refused.status_code == 409 and refused.get_json()["code"] == "seats_open"
    ann = client.post(f"/v1/games/{game['id']}/seats/1/claim", json={"name": "ann"})
    assert ann.status_code == 201 and ann.get_json()["name"] == "ann"
    again = client.post(f"/v1/games/{game['id']}/seats/1/claim", json={"name": "eve"})
    assert again.status_code == 409 and again.get_json()["code"] == "seat_taken"
    assert client.post(f"/v1/games/{game['id']}/seats/0/claim", json={"name": "eve"}).get_json()["code"] == \
        "seat_not_open"
    listed = client.get("/v1/games?open_seats=true").get_json()["games"]
    assert listed[0]["open_seats"] == [2] and listed[0]["seats"][1]["name"] == "ann"
    bob = client.post(f"/v1/games/{game['id']}/seats/2/claim", json={"name": "bob"}).get_json()
    assert client.get("/v1/games?open_seats=true").get_json()["games"] == []
    seated = view(client, game)
    assert [s["name"] for s in seated["seats"]] == ["host", "ann", "bob"]
    assert [s.get("open") for s in seated["seats"]] == [None, False, False]
    game["seats"][1]["token"], game["seats"][2]["token"] = ann.get_json()["token"], bob["token"]
    assert view(client, game, 1)["seat"] == 1 and host  # the claimant's token is its seat's
    end = play_to_end(client, game, clock, service)
    assert end["status"] == "finished"
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    claims = [e for e in lines[1:] if e["type"] == "seat_claimed"]
    assert [c["data"] for c in claims] == [{"seat": 1, "name": "ann"}, {"seat": 2, "name": "bob"}]
    report = audit_log(lines[0]["header"], lines[0]["hash"], lines[1:], keys=service.keyring.public())
    assert report["ok"] and report["signed"], report["divergence"]
    # forged: a move before the last claim; a claim of a seat claimed already; of a seat not open
    events = lines[1:]
    second = events.index(claims[1])
    first_move = next(i for i, e in enumerate(events) if e["type"] == "move")
    early = copy.deepcopy(events)
    early[second], early[first_move] = early[first_move], early[second]
    for e in early:
        e["seq"] = early.index(e) + 1
    report = audit_log(lines[0]["header"], lines[0]["hash"], rechain(lines[0]["hash"], early))
    assert not report["ok"]
    twice = copy.deepcopy(events)
    twice[second]["data"]["seat"] = 1
    report = audit_log(lines[0]["header"], lines[0]["hash"], rechain(lines[0]["hash"], twice))
    assert report["divergence"]["check"] == "replay" and report["divergence"]["seq"] == events[second]["seq"]
    assert report["divergence"]["field"] == "data.seat"


def test_the_creator_reissues_a_lost_token_and_the_old_one_stops(client: Any, clock: Any) -> None:
    game = create(client, ruleset="bluffaneer", seats=[{"name": "a"}, {"name": "b"}, {"bot": "random"}])
    old = game["seats"][1]["token"]
    assert client.post(f"/v1/games/{game['id']}/seats/1/token").status_code == 401
    assert client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(old)).get_json()["code"] == "bad_token"
    new = client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(game["owner_token"]))
    assert new.status_code == 200 and new.get_json()["seat"] == 1
    assert client.get(f"/v1/games/{game['id']}", headers=auth(old)).status_code == 401
    assert client.get(f"/v1/games/{game['id']}", headers=auth(new.get_json()["token"])).get_json()["seat"] == 1
    bot_seat = client.post(f"/v1/games/{game['id']}/seats/2/token", headers=auth(game["owner_token"]))
    assert bot_seat.status_code == 409 and bot_seat.get_json()["code"] == "no_token_to_reissue"
    assert client.post(f"/v1/games/{game['id']}/seats/9/token", headers=auth(game["owner_token"])
                       ).status_code == 404
    log = ndjson(client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))
    assert [e["data"] for e in log[1:] if e["type"] == "seat_token_reissued"] == [{"seat": 1}]
    shown = client.get(f"/v1/games/{game['id']}/replay").get_json()["shown_versions"]
    assert log[-1]["seq"] in shown and log[-1]["seq"] - 1 in shown  # before the reissue, and after it


def test_a_bot_game_with_an_open_seat_waits_for_it(client: Any, work: Any) -> None:
    game = create(client, ruleset="bluffaneer", seats=[{"open": True}, {"bot": "random"}, {"bot": "random"}],
                  setup={"turn": 1})
    before = view(client, game)["version"]
    work()
    assert view(client, game)["version"] == before  # the bots wait for the table to fill
    claimed = client.post(f"/v1/games/{game['id']}/seats/0/claim", json={"name": "me"})
    assert claimed.status_code == 201
    work()
    assert view(client, game)["version"] > before + 1  # the bots played on


# -- the start deadline: seats nobody claimed go to a built-in bot ----------------
def _given_game(client: Any) -> dict[str, Any]:
    return create(client, ruleset="bang-faceoff", seats=[{"name": "host"}, {"open": True}],
                  options={"start_timeout_s": 30, "start_bot": "random"}, seed="start-deadline")


#: the bot's turns before the host gives the game up: the seat given is played, by the bot, and the game ends
BOT_TURNS = 4


def test_at_the_start_deadline_an_unclaimed_seat_goes_to_the_start_bot_recorded_and_audited(
        client: Any, clock: Any, service: Any, work: Any) -> None:
    import workers.jobs as jobs
    created = clock.now
    game = _given_game(client)
    host = game["seats"][0]["token"]
    assert jobs.give_open_seats(game["id"], svc=service) == "early"  # 30 s to claim it
    assert service.change_of(service.load(game["id"])).start_deadline == created + 30_000
    clock.advance(30_000)
    assert jobs.give_open_seats(game["id"], svc=service) == "given [1]"
    assert jobs.give_open_seats(game["id"], svc=service) == "stale"  # once
    seated = view(client, game)
    assert seated["seats"][1]["bot"] == "random" and seated["seats"][1]["open"] is False
    assert client.post(f"/v1/games/{game['id']}/seats/1/claim", json={"name": "late"}).get_json()["code"] == \
        "seat_taken"
    reissued = client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(game["owner_token"]))
    assert reissued.status_code == 409 and reissued.get_json()["code"] == "no_token_to_reissue"
    listed = client.get("/v1/games?ruleset=bang-faceoff").get_json()["games"]
    assert listed[0]["seats"][1]["bot"] == "random" and listed[0]["open_seats"] == []
    bot_turns = 0
    for _ in range(3000):  # the host plays, the worker plays the bot's seat; then the host resigns (FO58)
        spectator = view(client, game)
        if spectator["status"] != "active":
            break
        if 0 in spectator["to_act"]:
            mine = view(client, game, 0)
            chosen = {"type": RESIGN} if bot_turns >= BOT_TURNS else list(playing_moves(mine["legal_moves"]))[-1]
            assert move(client, game, 0, chosen).status_code == 201
        else:
            work()
            bot_turns += 1
    assert view(client, game)["status"] == "finished" and host
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    given = [e for e in lines[1:] if e["type"] == "seat_given_to_bot"]
    assert [(g["data"], g["actor"]) for g in given] == [({"seat": 1, "bot": "random"}, None)]
    bot_moves = [e for e in lines[1:] if e["type"] == "move" and e["actor"] == 1]
    assert bot_moves and all(e["data"]["by"] == {"bot": "random"} for e in bot_moves)
    header = lines[0]["header"]
    assert (header["start_timeout_s"], header["start_bot"]) == (30, "random")
    report = audit_log(header, lines[0]["hash"], lines[1:], keys=service.keyring.public())
    assert report["ok"] and report["signed"], report["divergence"]
    events = lines[1:]
    at = events.index(given[0])
    for forge, field in ((lambda e: e.update(at=e["at"] - 1), "at"),  # before the deadline
                         (lambda e: e["data"].update(bot="heuristic"), "data.bot")):  # another bot
        forged = copy.deepcopy(events)
        forge(forged[at])
        report = audit_log(header, lines[0]["hash"], rechain(lines[0]["hash"], forged))
        assert (report["divergence"]["check"], report["divergence"]["seq"], report["divergence"]["field"]) == \
            ("bots", given[0]["seq"], field)
    unlabelled = copy.deepcopy(events)  # the bot's seat moving as a person's: refused
    unlabelled[events.index(bot_moves[0])]["data"].pop("by")
    report = audit_log(header, lines[0]["hash"], rechain(lines[0]["hash"], unlabelled))
    assert report["divergence"]["check"] == "bots" and report["divergence"]["seq"] == bot_moves[0]["seq"]


def test_a_claimed_table_starts_before_the_deadline_and_the_deadline_then_gives_nothing(
        client: Any, clock: Any, service: Any) -> None:
    import workers.jobs as jobs
    game = _given_game(client)
    assert client.post(f"/v1/games/{game['id']}/seats/1/claim", json={"name": "ann"}).status_code == 201
    clock.advance(60_000)
    assert jobs.give_open_seats(game["id"], svc=service) == "stale"
    assert service.change_of(service.load(game["id"])).start_deadline is None


def test_start_options_are_checked_at_creation(client: Any) -> None:
    def made(seats: list[dict[str, Any]], options: dict[str, Any]) -> Any:
        return client.post("/v1/games", json={"ruleset": "bang-faceoff", "seats": seats, "options": options})
    cases: tuple[tuple[list[dict[str, Any]], dict[str, Any], str], ...] = (
            ([{}, {}], {"start_timeout_s": 30}, "for a game with open seats"),
            ([{}, {"open": True}], {"start_bot": "random"}, "give start_timeout_s too"),
            ([{}, {"open": True}], {"start_timeout_s": 0}, "start_timeout_s is a number of seconds from 1 to"),
            ([{}, {"open": True}], {"start_timeout_s": 30, "start_bot": "my-webhook"}, "is a built-in bot"))
    for seats, options, why in cases:
        refused = made(seats, options)
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_options", refused.get_json()
        assert why in refused.get_json()["detail"]
    assert made([{}, {"open": True}], {"start_timeout_s": 30}).status_code == 201  # start_bot: random
