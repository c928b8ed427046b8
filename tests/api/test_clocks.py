"""Issue 40 item 2: a time bank per seat, an increment per move, a separate
budget for reaction prompts (docs/clocks.md). The service's clock is injected
(``tests.conftest.Clock``): nothing here races the wall clock."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from referee.audit import audit_lines, audit_log
from referee.client import View
from referee.engine.signature import PublicKeys
from referee.play.standings import format_table
from tests.api.helpers import create, move, ndjson, view
from tests.forge import rechain, with_one_editable
from workers.jobs import fire_timeout, fire_turn_clock

CLOCK = {"bank_s": 60, "increment_s": 2, "reaction_s": 5}
START = 1_800_000_000_000  # tests.conftest.Clock's first time


def _seat(body: dict[str, Any], seat: int) -> dict[str, Any]:
    entry: dict[str, Any] = body["clock"]["seats"][seat]
    return entry


def _log(client: FlaskClient, game: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log", headers={"Authorization": "Bearer admin-secret"})
                   .get_data(as_text=True))
    return lines[0], lines[1:]


def test_a_clocked_game_shows_every_seat_its_bank_and_the_servers_time(client: FlaskClient, clock: Any) -> None:
    """Issue 40 item 2: each seat's remaining time in every view, the server's time beside it."""
    game = create(client, "bang", players=4, seed="clocks", options={"clock": CLOCK})
    clock.advance(1234)
    for seat in (None, 0, 1, 2, 3):
        shown = view(client, game, seat)["clock"]
        assert shown["server_time"] == START + 1234
        assert (shown["bank_ms"], shown["increment_ms"], shown["reaction_ms"]) == (60_000, 2_000, 5_000)
        turn = view(client, game)["to_act"][0]
        assert _seat(view(client, game, seat), turn) == {
            "seat": turn, "bank_ms": 60_000, "running": True, "since": START, "reaction": False,
            "deadline": START + 60_000, "left_ms": 60_000 - 1234}
        assert all(not s["running"] for s in shown["seats"] if s["seat"] != turn)
    assert view(client, game)["turn_deadline"] == START + 60_000
    assert "clock" not in view(client, create(client, "bang", players=4, seed="unclocked"))


def test_a_move_is_charged_to_its_seats_bank_plus_the_increment(client: FlaskClient, clock: Any) -> None:
    """Issue 40 item 2: the bank runs while the seat is awaited; each move of its own adds the increment;
    the receipt says when the move was received."""
    game = create(client, "bang", players=4, seed="clocks", options={"clock": CLOCK})
    turn = view(client, game)["to_act"][0]
    clock.advance(3_000)
    legal = view(client, game, turn)["legal_moves"]
    response = move(client, game, turn, legal[0])
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["receipt"]["at"] == START + 3_000
    assert response.get_json()["clock"] == {"used_ms": 3_000, "bank_ms": 59_000}
    assert _seat(view(client, game), turn)["bank_ms"] == 60_000 - 3_000 + 2_000
    _, events = _log(client, game)
    record = [e for e in events if e["type"] == "move"][0]["data"]["clock"]
    assert record["used"] == 3_000 and record["banks"][turn] == 59_000


def test_a_move_after_its_seats_deadline_is_refused_and_the_clock_plays_the_default(
        client: FlaskClient, clock: Any, service: Any) -> None:
    """Issue 40 item 2: running out plays the default (as the turn timeout does); the bank is then 0 for good,
    so the seat's next turn is defaulted at once."""
    game = create(client, "bang", players=4, seed="clocks", options={"clock": {"bank_s": 10}})
    spectator = view(client, game)
    turn, version = spectator["to_act"][0], spectator["version"]
    assert fire_turn_clock(game["id"], version, service) == "early"
    clock.now = spectator["turn_deadline"]
    legal = view(client, game, turn)["legal_moves"]
    refused = move(client, game, turn, legal[0])
    assert refused.status_code == 422 and refused.get_json()["code"] == "out_of_time", refused.get_json()
    assert fire_turn_clock(game["id"], version, service) == "defaulted"
    assert _seat(view(client, game), turn)["bank_ms"] == 0
    _, events = _log(client, game)
    assert [e for e in events if e["type"] == "move"][-1]["data"]["by"] == {"default": "turn_clock"}


def _run_out(client: FlaskClient, clock: Any, service: Any) -> tuple[dict[str, Any], int]:
    """A finished clocked game of The Dice Game whose seat 0 never moves: its bank runs out, then each of its
    waits is defaulted at its deadline; the others move 100 ms after they are asked. The game, and how many
    defaults the clock played."""
    game = create(client, "bang-dice", players=4, seed="runs-out", options={"clock": {"bank_s": 5, "reaction_s": 1}})
    defaults = 0
    for step in range(3000):
        spectator = view(client, game)
        if spectator["status"] != "active":
            return game, defaults
        due, seats = spectator["turn_deadline"], spectator["to_act"]
        if 0 in seats or not seats:
            clock.now = max(clock.now, due or spectator["deadline"] or clock.now)
            if due is not None and fire_turn_clock(game["id"], spectator["version"], service) == "defaulted":
                defaults += 1
            else:
                assert fire_timeout(game["id"], service) == "fired"
            continue
        seat = seats[step % len(seats)]
        clock.advance(100)
        legal = [m for m in view(client, game, seat)["legal_moves"] if m["type"] != "resign"]
        response = move(client, game, seat, legal[step % len(legal)])
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")


def test_a_seat_that_runs_out_of_its_bank_is_defaulted_to_the_end_and_the_game_audits_clean(
        client: FlaskClient, clock: Any, service: Any) -> None:
    """Issue 40, Done when: a clocked game where one seat runs out of its bank ends in defaults as the clock
    says; the audit re-derives every clock record and finds each default at or after its deadline."""
    game, defaults = _run_out(client, clock, service)
    assert defaults > 1 and _seat(view(client, game), 0)["bank_ms"] == 0
    head, events = _log(client, game)
    moves = [e for e in events if e["type"] == "move"]
    assert all(e["data"].get("by") == {"default": "turn_clock"} for e in moves if e["actor"] == 0)
    report = audit_log(head["header"], head["hash"], events)
    assert report["ok"], report["divergence"]
    assert [c for c in report["checks"] if c["name"] == "clock"][0]["ok"]


def test_the_audit_refuses_a_clock_record_that_does_not_add_up(client: FlaskClient, clock: Any,
                                                                service: Any) -> None:
    """Issue 40 item 2: the audit checks the recorded times against the clock's rules: a bank edited, or a
    seat's own move dated after its deadline, is a ``clock`` divergence at that move."""
    game, _ = _run_out(client, clock, service)
    head, events = _log(client, game)
    index = [i for i, e in enumerate(events) if e["type"] == "move" and e["actor"] != 0][1]
    forged = with_one_editable(events, index)
    forged[index]["data"]["clock"]["banks"][1] += 1_000
    report = audit_log(head["header"], head["hash"], rechain(head["hash"], forged))
    assert report["divergence"]["check"] == "clock" and report["divergence"]["seq"] == events[index]["seq"]
    late = [dict(env) for env in events]
    for env in late[index:]:
        env["at"] += 60_000
    report = audit_log(head["header"], head["hash"], rechain(head["hash"], late))
    assert report["divergence"]["check"] == "clock" and report["divergence"]["field"] == "at"
    assert report["divergence"]["seq"] == events[index]["seq"]


def test_the_clock_option_is_checked(client: FlaskClient) -> None:
    """Issue 40 item 2: a bank of 1 s to a day, an increment up to an hour, a reaction budget within the bank;
    not with turn_timeout_s."""
    for bad in ({"bank_s": 0}, {"bank_s": 86_401}, {"increment_s": 1}, {"bank_s": 10, "reaction_s": 11},
                {"bank_s": 10, "increment_s": -1}, {"bank_s": True}, {"bank_s": 10, "extra": 1}, [10], "10",
                {"bank_s": "10"}, {"bank_s": None}, {"bank_s": [10]}, {"bank_s": 10, "reaction_s": None}):
        response = client.post("/v1/games", json={"ruleset": "bang", "players": 4, "options": {"clock": bad}})
        assert response.status_code == 422 and response.get_json()["code"] == "invalid_options", bad
    both = client.post("/v1/games", json={"ruleset": "bang", "players": 4,
                                          "options": {"clock": {"bank_s": 10}, "turn_timeout_s": 30}})
    assert both.status_code == 422 and "not both" in both.get_json()["detail"]


def test_a_clocked_tournament_shows_each_bots_latency_per_move_in_its_standings(
        client: FlaskClient, clock: Any, service: Any, work: Any) -> None:
    """Issue 40 item 2: for bot tournaments, each bot's latency per move is recorded and shown in the standings
    (the time the clock charged each of its moves). The service's clock ticks 3 ms a reading here, so moves take
    time; an unclocked tournament's standings show each move's time as the chain records it."""
    def ticking() -> int:
        clock.advance(3)
        return int(clock.now)
    service.clock = ticking
    entrants = ["random", "random", "random", {"bot": "random", "name": "r4"}]
    body = {"ruleset": "bang-dice", "entrants": entrants, "games": 2, "options": {"clock": {"bank_s": 3600}}}
    tid = client.post("/v1/tournaments", json=body).get_json()["id"]
    work(max_rounds=3000)
    shown = client.get(f"/v1/tournaments/{tid}").get_json()
    assert shown["status"] == "finished", shown["status"]
    for row in shown["standings"]:
        latency = row["latency"]
        assert latency["moves"] > 0 and latency["timeouts"] == 0
        assert 0 < latency["mean_ms"] <= latency["max_ms"] and latency["total_ms"] >= latency["max_ms"]
    assert "ms mean" in format_table(shown["standings"])
    plain = client.post("/v1/tournaments", json={**body, "options": {}}).get_json()["id"]
    work(max_rounds=3000)
    for row in client.get(f"/v1/tournaments/{plain}").get_json()["standings"]:  # timed by the chain alone
        latency = row["latency"]
        assert latency["moves"] > 0 and latency["timeouts"] == 0 and 0 < latency["mean_ms"] <= latency["max_ms"]


def test_a_replay_shows_the_clock_as_it_was_at_that_version(client: FlaskClient, clock: Any) -> None:
    """Issue 40 item 2: every view of a clocked game, a replay's too, shows the banks as they were then."""
    game = create(client, "bang", players=4, seed="clocks", options={"clock": CLOCK})
    first = view(client, game)
    turn = first["to_act"][0]
    clock.advance(3_000)
    assert move(client, game, turn, view(client, game, turn)["legal_moves"][0]).status_code == 201
    then = client.get(f"/v1/games/{game['id']}/replay?version={first['version']}").get_json()
    assert _seat(then, turn)["bank_ms"] == 60_000 and _seat(then, turn)["since"] == START
    now = client.get(f"/v1/games/{game['id']}/replay").get_json()
    assert _seat(now, turn)["bank_ms"] == 59_000


def test_both_verifiers_verify_a_clocked_games_log(client: FlaskClient, clock: Any, service: Any,
                                                    tmp_path: Any) -> None:
    """Issue 40 (a feature's records are audited offline too): the browser's verifier (``referee/web/verify.js``,
    run by node as the watch page runs it) and the Python audit both verify a clocked game's signed log, and both
    refuse it once one move's clock record is edited."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("NODE IS NOT INSTALLED: verify.js was NOT run over a clocked log (install node 20+)")
    game, _ = _run_out(client, clock, service)
    text = client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True)
    keys = client.get("/v1/keys").get_json()
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if i and json.loads(line)["type"] == "move")
    edited = json.loads(lines[index])
    edited["data"]["clock"]["banks"][1] += 1
    forged = "\n".join([*lines[:index], json.dumps(edited), *lines[index + 1:]])
    cases = []
    for name, body in (("clean", text), ("forged", forged)):
        (tmp_path / f"{name}.ndjson").write_text(body)
        cases.append({"name": name, "log": str(tmp_path / f"{name}.ndjson"), "keys": str(tmp_path / "keys.json")})
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    harness = Path(__file__).resolve().parents[1] / "verify_node.cjs"
    done = subprocess.run([node, str(harness), str(tmp_path / "cases.json")], capture_output=True, text=True,
                          timeout=600, check=True)
    verdicts = {r["name"]: r["ok"] for r in json.loads(done.stdout)}
    assert verdicts == {"clean": True, "forged": False}, done.stdout
    public = PublicKeys.from_jwks(keys)
    assert audit_lines(text.splitlines(), keys=public)["ok"]
    assert not audit_lines(forged.splitlines(), keys=public)["ok"]


def test_the_python_client_counts_a_seats_clock_down_from_the_servers_left_ms(client: FlaskClient,
                                                                               clock: Any) -> None:
    """Issue 40 items 2 and 7: ``View.clock_left`` counts down by the caller's own elapsed time."""
    game = create(client, "bang", players=4, seed="clocks", options={"clock": CLOCK})
    clock.advance(1_000)
    shown = View.from_json(view(client, game))
    turn = shown.to_act[0]
    assert shown.clock_left(turn) == 59_000 and shown.clock_left(turn, 500) == 58_500
    assert shown.clock_left(turn, 10**9) == 0
    assert shown.clock_left((turn + 1) % 4) == 60_000 and shown.clock_left(9) is None
    assert View.from_json(view(client, create(client, "bang", players=4))).clock_left(0) is None


def test_a_move_one_ms_before_the_deadline_is_in_time_and_leaves_one_ms_plus_the_increment(
        client: FlaskClient, clock: Any, service: Any) -> None:
    """Issue 40 item 2, at the edge: in time while before the deadline; the clock's job before it is early and
    plays nothing; after a move, the job of the old version is stale."""
    game = create(client, "bang", players=4, seed="clocks", options={"clock": CLOCK})
    spectator = view(client, game)
    turn, version = spectator["to_act"][0], spectator["version"]
    clock.now = spectator["turn_deadline"] - 1
    assert fire_turn_clock(game["id"], version, service) == "early"
    legal = view(client, game, turn)["legal_moves"]
    assert move(client, game, turn, legal[0]).status_code == 201
    assert _seat(view(client, game), turn)["bank_ms"] == 1 + 2_000
    clock.now += 10**6
    assert fire_turn_clock(game["id"], version, service) == "stale"


def test_a_clocked_game_with_open_seats_starts_its_clocks_when_the_last_seat_is_claimed(
        client: FlaskClient, clock: Any) -> None:
    """Issue 40 item 2 with issue 24's open seats: no clock runs while a seat is open (and no turn_timeout_s is
    added for it: the game has a clock); the first wait begins at the claim that fills the table."""
    game = create(client, "bang", seats=[{}, {"open": True}, {}, {}], seed="clocks", options={"clock": CLOCK})
    waiting = view(client, game)
    assert waiting["turn_deadline"] is None and not any(s["running"] for s in waiting["clock"]["seats"])
    clock.advance(90_000)  # longer than the bank: nothing is charged while the table waits
    claimed = client.post(f"/v1/games/{game['id']}/seats/1/claim", json={"name": "ann"})
    assert claimed.status_code == 201, claimed.get_json()
    started = view(client, game)
    turn = started["to_act"][0]
    assert _seat(started, turn)["since"] == START + 90_000 and _seat(started, turn)["bank_ms"] == 60_000
    assert "turn_timeout_s" not in _log(client, game)[0]["header"]
