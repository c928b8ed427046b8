"""Spectator tiers (issue 40 item 6): a game created with ``spectator_delay``
shows spectators the game N versions late — view, event pages, the stream,
replay, the games list — and, only when its creator opts in, a delayed
omniscient broadcast of every hand, never inside the delay and never to a
seated token. Attacked as tests/api/test_leaks.py attacks the views: play
whole random games and check every response a spectator can get against the
game replayed to the delayed version, computed here from the stream."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine import record
from referee.engine.platform import playing_moves
from referee.engine.protocol import seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.service import reading
from tests.api.helpers import auth, create
from tests.api.test_leaks import States, _scan, _scan_events

DELAY = 50  # the least a broadcast takes (referee.service.spectator_options.MIN_OMNISCIENT_DELAY)
#: the spectator's every response is checked at each of the first steps (into and out of the delay), then at
#: every SAMPLE-th (each check reads the whole stream a few times: every step would make the test quadratic)
EVERY_STEP, SAMPLE = 60, 10
#: after this many steps the seats resign as they are awaited (a random two-seat Face Off can go on for thousands)
RESIGN_AFTER = 400
#: every ruleset at its largest table, but the test plug-in's (a game of nim ends inside any broadcast's delay)
CASES = [(name, registry.get(name).max_players, f"late-{name}") for name in registry.names() if name != "nim"]


def _delayed_version(service: Any, game_id: str, delay: int) -> int:
    """The delayed version, computed from the stream alone: the newest
    version shown after a whole move that is at most the head minus ``delay``."""
    types = [e["type"] for e in service.store.read(game_id)]
    return max((v for v in record.shown_versions(types) if v <= len(types) - delay), default=0)


def _without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("turn_deadline", "version", "spectator_delay")}


class Spectator:
    """Every response a spectator (no token) can get of one game, checked
    against the game at the delayed version ``late``."""

    def __init__(self, client: Any, service: Any, game: dict[str, Any], states: States) -> None:
        self.client, self.service, self.game, self.states = client, service, game, states
        self.id = game["id"]
        self.seen = 0  # the last seq the spectator's event pages reached

    def expected(self, late: int) -> dict[str, Any]:
        rs = self.states.rs
        if late == 0:
            return {"seat": None, "to_act": [], "legal_moves": [], "pending": None, "deadline": None,
                    "result": None, "state": {}}
        return seat_view(rs, self.states.at(late), None, active=True)

    def check(self, late: int, players: int) -> None:
        hidden = self.states.rs.hidden(self.states.at(late), None) if late else set()
        got = self.client.get(f"/v1/games/{self.id}").get_json()
        assert got["version"] == late and got["status"] == "active" and got["turn_deadline"] is None
        assert got["spectator_delay"] == {"versions": DELAY, "omniscient": True}
        expected = self.expected(late)
        assert {k: got[k] for k in expected} == json.loads(json.dumps(expected)), f"view at {late}"
        _scan(got, hidden, None, "late view")
        self.check_events(late)
        self.check_replay(late, hidden)
        self.check_broadcast(late, players)
        listed = self.client.get("/v1/games?status=active").get_json()["games"]
        assert [g["version"] for g in listed if g["id"] == self.id] == [late]

    def check_events(self, late: int) -> None:
        page = self.client.get(f"/v1/games/{self.id}/events?after={self.seen}").get_json()
        assert page["version"] == late and all(e["seq"] <= late for e in page["events"])
        assert [e["seq"] for e in page["events"]] == list(range(self.seen + 1, late + 1))
        _scan_events(self.states, page["events"], None, "late events")
        beyond = self.client.get(f"/v1/games/{self.id}/events?after={late + 1}").get_json()
        assert beyond["events"] == [] and beyond["version"] == late
        streamed = [item for item in reading.stream(self.service, self.id, None, self.seen, max_s=0)
                    if item.startswith("id: ")]
        assert [int(item.split("\n")[0][4:]) for item in streamed] == [e["seq"] for e in page["events"]]
        self.seen = late

    def check_replay(self, late: int, hidden: set[str]) -> None:
        replay = self.client.get(f"/v1/games/{self.id}/replay")
        assert replay.status_code == 200
        body = replay.get_json()
        assert body["version"] == late and body["latest_version"] == late
        assert all(v <= late for v in body["shown_versions"])
        _scan(body, hidden, None, "late replay")
        head = self.service.load(self.id).version
        for version in {late + 1, head}:
            refused = self.client.get(f"/v1/games/{self.id}/replay?version={version}")
            assert refused.status_code == 422 and f"1..{head}" not in refused.get_json()["detail"]

    def check_broadcast(self, late: int, players: int) -> None:
        body = self.client.get(f"/v1/games/{self.id}/broadcast").get_json()
        assert body["version"] == late
        rs = self.states.rs
        expected = [rs.view(self.states.at(late), s) for s in range(players)] if late else []
        assert body["views"] == json.loads(json.dumps(expected))
        for seat in range(players):
            refused = self.client.get(f"/v1/games/{self.id}/broadcast",
                                      headers=auth(self.game["seats"][seat]["token"]))
            assert refused.status_code == 403 and refused.get_json()["code"] == "broadcast_not_for_seats"


@pytest.mark.random_play
@pytest.mark.parametrize("ruleset,players,seed", CASES)
def test_spectators_see_nothing_newer_than_the_delay_and_seats_see_their_own_view_live(
        client: Any, service: Any, clock: Any, ruleset: str, players: int, seed: str) -> None:
    """Issue 40 item 6: every spectator response stops at the delayed version
    (nothing of a newer one, no hand in the ordinary view), the broadcast
    shows every hand only at that version, and each seat's own view is live
    and leaks nothing the rules hide from it."""
    from workers.jobs import fire_timeout
    rs = registry.get(ruleset)
    game = create(client, ruleset=ruleset, players=players, seed=seed,
                  options={**rs.options_for(players), "spectator_delay": DELAY, "spectator_omniscient": True})
    headers = [auth(game["seats"][s]["token"]) for s in range(players)]
    states, pick = States(service, game["id"]), Rng(seed.encode())
    spectator = Spectator(client, service, game, states)
    lates = set()
    for _step in range(3000):
        live = service.load(game["id"])
        if live.status != "active":
            break
        late = _delayed_version(service, game["id"], DELAY)
        if _step < EVERY_STEP or _step % SAMPLE == 0:
            spectator.check(late, players)
            lates.add(late)
        for seat in range(players):
            mine = client.get(f"/v1/games/{game['id']}", headers=headers[seat]).get_json()
            assert mine["version"] == live.version and mine["spectator_delay"]["versions"] == DELAY
            _scan(mine, rs.hidden(live.state, seat), seat, "view")
        to_act = sorted(rs.to_act(live.state))
        if not to_act:
            clock.now = max(clock.now, rs.deadline(live.state) or clock.now)
            assert fire_timeout(game["id"], service) == "fired"
            continue
        seat = to_act[pick.below(len(to_act))]
        moves = client.get(f"/v1/games/{game['id']}", headers=headers[seat]).get_json()["legal_moves"]
        resigns = [m for m in moves if m.get("type") == "resign"]
        chosen = resigns[0] if _step >= RESIGN_AFTER and resigns else pick.choice(list(playing_moves(moves)))
        r = client.post(f"/v1/games/{game['id']}/moves", json={"move": chosen}, headers=headers[seat])
        assert r.status_code == 201, r.get_json()
        clock.advance(1)
    else:
        raise AssertionError("the game did not end")
    assert 0 in lates and len(lates) > 3, "the game never left the delay: nothing was attacked"
    final = client.get(f"/v1/games/{game['id']}").get_json()
    assert final["version"] == service.load(game["id"]).version and final["status"] != "active"
    assert client.get(f"/v1/games/{game['id']}/replay").get_json()["latest_version"] == final["version"]


@pytest.mark.parametrize("options,detail", [
    ({"spectator_delay": 0}, "from 1 to 100000"),
    ({"spectator_delay": 100_001}, "from 1 to 100000"),
    ({"spectator_delay": "5"}, "whole number"),
    ({"spectator_delay": True}, "whole number"),
    ({"spectator_delay": 2.5}, "whole number"),
    ({"spectator_omniscient": True}, "give spectator_delay"),
    ({"spectator_delay": 49, "spectator_omniscient": True}, "at least 50"),
    ({"spectator_delay": 50, "spectator_omniscient": "yes"}, "true or false"),
])
def test_spectator_options_out_of_bounds_are_refused(client: Any, options: dict[str, Any], detail: str) -> None:
    """Issue 40 item 6: the delay is 1..100000 versions, and a broadcast of every hand needs at least 50."""
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3, "options": options})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_options" and detail in r.get_json()["detail"]


def test_the_smallest_delays_are_taken(client: Any) -> None:
    late = create(client, players=3, options={"spectator_delay": 1})
    assert late["id"] and client.get(f"/v1/games/{late['id']}").get_json()["spectator_delay"] == {
        "versions": 1, "omniscient": False}
    create(client, players=3, options={"spectator_delay": 50, "spectator_omniscient": True})


def test_a_broadcast_is_only_where_the_creator_opted_in_and_never_to_a_seat(client: Any) -> None:
    """Issue 40 item 6: no broadcast without ``spectator_omniscient`` (403
    ``broadcast_not_offered``, a seat's token too), none to a seated token
    (403 ``broadcast_not_for_seats``), a wrong token 401; inside the delay,
    no hand at all."""
    for options in ({}, {"spectator_delay": 60}):
        game = create(client, players=3, options=options)
        for headers in ({}, auth(game["seats"][0]["token"])):
            r = client.get(f"/v1/games/{game['id']}/broadcast", headers=headers)
            assert r.status_code == 403 and r.get_json()["code"] == "broadcast_not_offered"
    game = create(client, players=3, options={"spectator_delay": 60, "spectator_omniscient": True})
    r = client.get(f"/v1/games/{game['id']}/broadcast", headers=auth(game["seats"][2]["token"]))
    assert r.status_code == 403 and r.get_json()["code"] == "broadcast_not_for_seats"
    assert client.get(f"/v1/games/{game['id']}/broadcast", headers=auth("not-a-token")).status_code == 401
    inside = client.get(f"/v1/games/{game['id']}/broadcast").get_json()
    assert inside["version"] == 0 and inside["views"] == [] and inside["state"] == {}
    assert client.get(f"/v1/games/{game['id']}/replay?version=1").status_code == 422


def test_a_game_without_a_delay_shows_no_delay_anywhere(client: Any) -> None:
    """The field is only in the views of a game created with the option (the recorded corpus stays as it was)."""
    game = create(client, players=3)
    assert "spectator_delay" not in client.get(f"/v1/games/{game['id']}").get_json()
    assert "spectator_delay" not in client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])
                                               ).get_json()
    listed = [g for g in client.get("/v1/games").get_json()["games"] if g["id"] == game["id"]]
    assert listed and "spectator_delay" not in listed[0]


def test_a_spectators_long_poll_inside_the_delay_gets_nothing_when_seats_move(client: Any) -> None:
    """A long-poll waits for the delayed version, not the head: moves inside the delay send a spectator nothing."""
    game = create(client, players=3, options={"spectator_delay": 100}, seed="long-poll")
    for _ in range(3):
        seat = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).get_json()["to_act"][0]
        moves = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][seat]["token"])).get_json()
        client.post(f"/v1/games/{game['id']}/moves", headers=auth(game["seats"][seat]["token"]),
                    json={"move": next(iter(playing_moves(moves["legal_moves"])))})
    page = client.get(f"/v1/games/{game['id']}/events?after=0&wait=1").get_json()
    assert page == {"id": game["id"], "version": 0, "status": "active", "events": []}
    assert client.get(f"/v1/games/{game['id']}/replay").get_json()["shown_versions"] == []


def test_a_spectator_reads_the_table_chat_only_as_late_as_the_game(client: Any, service: Any) -> None:
    """Issue 40 items 5 and 6: a spectator of a game shown late reads the chat up to the delayed version —
    what was said since, and the head's version its seqs would tell, are newer than it may see —, while the
    seats and the creator read it live."""
    game = create(client, players=3, options={"spectator_delay": 6}, seed="late-chat")
    seats = [auth(game["seats"][s]["token"]) for s in range(3)]
    said: list[int] = []
    held_back = False
    for step in range(12):
        posted = client.post(f"/v1/games/{game['id']}/chat", json={"text": f"say {step}"}, headers=seats[step % 3])
        assert posted.status_code == 201, posted.get_json()
        said.append(posted.get_json()["seq"])
        seat = client.get(f"/v1/games/{game['id']}", headers=seats[0]).get_json()["to_act"][0]
        moves = client.get(f"/v1/games/{game['id']}", headers=seats[seat]).get_json()["legal_moves"]
        assert client.post(f"/v1/games/{game['id']}/moves", headers=seats[seat],
                           json={"move": next(iter(playing_moves(moves)))}).status_code == 201
        head, late = service.load(game["id"]).version, _delayed_version(service, game["id"], 6)
        assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == late
        page = client.get(f"/v1/games/{game['id']}/chat").get_json()
        assert page["version"] == late and [m["seq"] for m in page["messages"]] == [s for s in said if s <= late]
        held_back = held_back or len(page["messages"]) < len(said) > 0 < len(page["messages"])
        assert client.get(f"/v1/games/{game['id']}/chat?after={late}").get_json()["messages"] == []
        for token in (seats[step % 3], auth(game["owner_token"])):
            live = client.get(f"/v1/games/{game['id']}/chat", headers=token).get_json()
            assert live["version"] == head and [m["seq"] for m in live["messages"]] == said
    assert held_back, "the test never saw a spectator shown a message while another was held back"


def test_a_spectators_post_at_a_game_shown_late_tells_not_how_far_it_is(client: Any, service: Any) -> None:
    """Issue 40 items 5 and 6, attacked: where spectators may talk (``chat: everyone``) at a game shown
    late, the answer to a spectator's post carries no ``seq`` (it would be the head's version + 1) and
    nothing else newer than the delayed version; the message is in the chain at once, and the spectator
    reads it, with its seq, once the game shown is that far. A seat's post keeps its seq."""
    game = create(client, players=3, options={"spectator_delay": 6, "chat": "everyone"}, seed="late-post")
    seats = [auth(game["seats"][s]["token"]) for s in range(3)]
    for _ in range(10):
        seat = client.get(f"/v1/games/{game['id']}", headers=seats[0]).get_json()["to_act"][0]
        moves = client.get(f"/v1/games/{game['id']}", headers=seats[seat]).get_json()["legal_moves"]
        assert client.post(f"/v1/games/{game['id']}/moves", headers=seats[seat],
                           json={"move": next(iter(playing_moves(moves)))}).status_code == 201
    head, late = service.load(game["id"]).version, _delayed_version(service, game["id"], 6)
    assert late < head
    posted = client.post(f"/v1/games/{game['id']}/chat", json={"text": "hello from the stands"})
    assert posted.status_code == 201, posted.get_json()
    body = posted.get_json()
    assert body["seq"] is None and body["seat"] is None and body["text"] == "hello from the stands", body
    assert str(head + 1) not in {str(v) for v in body.values()} and "version" not in body
    assert service.load(game["id"]).version == head + 1  # recorded, in the chain, at once
    spectator = client.get(f"/v1/games/{game['id']}/chat").get_json()
    assert spectator["version"] == _delayed_version(service, game["id"], 6) and spectator["messages"] == []
    live = client.get(f"/v1/games/{game['id']}/chat", headers=seats[0]).get_json()["messages"]
    assert [(m["seq"], m["seat"], m["text"]) for m in live] == [(head + 1, None, "hello from the stands")]
    by_seat = client.post(f"/v1/games/{game['id']}/chat", json={"text": "thanks"}, headers=seats[1]).get_json()
    assert by_seat["seq"] == head + 2 and by_seat["seat"] == 1


def test_a_stale_copy_of_a_game_is_shown_late_from_its_own_head(client: Any, service: Any) -> None:
    """``LateGames`` folds on from the delayed state it holds; a copy of the
    game older than the one it last saw (another process's cache) is folded
    again from the start, to its own delayed version, never a newer one."""
    game = create(client, players=3, options={"spectator_delay": 1}, seed="stale-copy")
    older = None
    for step in range(12):
        if step == 6:
            older = service.load(game["id"])
        seat = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).get_json()["to_act"][0]
        moves = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][seat]["token"])).get_json()
        client.post(f"/v1/games/{game['id']}/moves", headers=auth(game["seats"][seat]["token"]),
                    json={"move": next(iter(playing_moves(moves["legal_moves"])))})
        late = service.late.delayed(service.load(game["id"]))
        assert late.version == _delayed_version(service, game["id"], 1) > 0
    assert older is not None
    types = [e["type"] for e in service.store.read(game["id"], upto=older.version)]
    expected = max(v for v in record.shown_versions(types) if v <= older.version - 1)
    again = service.late.delayed(older)
    assert again.version == expected and again.game.state == States(service, game["id"]).at(expected)


def test_a_tournaments_games_are_shown_as_late_as_its_options_say(client: Any, service: Any, work: Any) -> None:
    """The spectator options pass through a tournament to every game it deals
    (beside the ruleset's, which the tournament checks alone to see the deal of
    a ruleset with public roles, as BANG!'s Sheriff)."""
    r = client.post("/v1/tournaments", json={"ruleset": "bang", "entrants": ["random"] * 4, "players": 4,
                                             "games": 1, "options": {"spectator_delay": 50,
                                                                     "spectator_omniscient": True}})
    assert r.status_code == 201, r.get_json()
    work(max_rounds=3000)
    games = [g for g in client.get("/v1/games").get_json()["games"] if g.get("tournament") == r.get_json()["id"]]
    assert [g["spectator_delay"] for g in games] == [50]
    assert service.load(games[0]["id"]).header["spectator_omniscient"] is True


def test_a_clocked_games_late_spectators_see_no_clock_and_its_seats_see_theirs_live(client: Any) -> None:
    """Issue 40 items 2 and 6 together: the banks run at the head, which a
    delayed spectator does not see; its view carries no ``clock`` and no turn
    deadline, inside the delay and past it, while each seat's view has the
    live clock."""
    game = create(client, players=3, seed="late-clock",
                  options={"spectator_delay": 2, "clock": {"bank_s": 3600}})
    for step in range(8):
        spectator = client.get(f"/v1/games/{game['id']}").get_json()
        assert "clock" not in spectator and spectator["turn_deadline"] is None, (step, spectator)
        assert spectator["spectator_delay"] == {"versions": 2, "omniscient": False}
        seat = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).get_json()
        assert seat["clock"]["bank_ms"] == 3_600_000 and "server_time" in seat["clock"]
        if seat["status"] != "active":
            break
        awaited = seat["to_act"][0]
        moves = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][awaited]["token"])).get_json()
        r = client.post(f"/v1/games/{game['id']}/moves", headers=auth(game["seats"][awaited]["token"]),
                        json={"move": next(iter(playing_moves(moves["legal_moves"])))})
        assert r.status_code == 201, r.get_json()
    assert spectator["version"] > 0, "the game never came out of the delay"


def test_a_late_spectator_sees_who_is_at_the_table_now(client: Any) -> None:
    """Issue 40 items 1 and 6 together: presence is public and live, like the
    seats' names (it tells nothing of the game), so the delayed spectator view
    shows each person's seat ``connected`` and ``since`` as every view does."""
    game = create(client, players=3, seed="late-presence", options={"spectator_delay": 5})
    assert client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][0]["token"])).status_code == 200
    seats = client.get(f"/v1/games/{game['id']}").get_json()["seats"]
    assert seats[0]["connected"] is True and isinstance(seats[0]["since"], int)
    assert seats[1]["connected"] is False and seats[1]["since"] is None
