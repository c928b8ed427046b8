"""A whole Bluffaneer game over real HTTP against real `referee serve` and
`referee worker` processes: the worker closes claim windows at their
deadline, the log chains and the audit is clean."""
from __future__ import annotations

import time

import pytest

from referee.client import GameCreated, HttpProblem, NotFound, RefereeClient, VersionConflict, View
from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e


def _play(client: RefereeClient, game: GameCreated, *, let_windows_expire_every: int) -> tuple[View, int]:
    tokens = game.tokens
    expired = 0
    for step in range(3000):
        spectator = client.games.view(game.id)
        if not spectator.active:
            return spectator, expired
        pending = spectator.pending or {}
        if pending.get("kind") == "claim_window" and expired < 2 and step % let_windows_expire_every == 0:
            # nobody answers: the worker's timeout job must close the window
            deadline_wait = max(0.0, (spectator.deadline or 0) / 1000 - time.time()) + 5
            client.games.events(game.id, after=spectator.version, wait=min(30, deadline_wait))
            if client.games.view(game.id).version > spectator.version:
                expired += 1
                continue
        seat = spectator.to_act[step % len(spectator.to_act)] if spectator.to_act else None
        if seat is None:
            client.games.events(game.id, after=spectator.version, wait=5)
            continue
        mine = client.games.view(game.id, token=tokens[seat])
        if not mine.legal_moves:
            continue
        playing = [m for m in mine.legal_moves if m["type"] != "resign"]  # F34: this game is played to its end
        choice = playing[step % len(playing)]
        try:
            client.games.move(game.id, choice, token=tokens[seat], expected_version=mine.version,
                              idempotency_key=f"{game.id}:{mine.version}:{seat}")
        except HttpProblem as problem:  # the window may have closed meanwhile
            assert problem.status in (409, 422), problem.body
    raise AssertionError("the game did not end")


def test_e2e_four_player_game_to_the_end_with_worker_timeouts_and_clean_audit(live: Live) -> None:
    client = live.client
    game = client.games.create("bluffaneer", players=4, options={"claim_window_ms": 1000})
    final, expired = _play(client, game, let_windows_expire_every=3)
    assert final.status == "finished" and final.result is not None and final.result.winners
    assert expired >= 1, "no claim window was closed by the worker"
    log = client.games.log(game.id)
    assert log.header["id"] == game.id and log.events[-1].type == "seed_revealed"
    assert any(e.type == "move" and e.actor is None for e in log.events), "no timeout was recorded"
    report = client.games.audit(game.id)
    assert report.ok, report


def test_e2e_problem_responses_over_http(live: Live) -> None:
    client = live.client
    with pytest.raises(NotFound) as info:
        client.games.view("missing")
    assert info.value.status == 404 and info.value.code == "game_not_found"
    game = client.games.create("bluffaneer", players=3)
    with pytest.raises(VersionConflict) as conflict:
        client.games.move(game.id, {"type": "roll"}, token=game.tokens[0], expected_version=0)
    assert conflict.value.status == 409 and conflict.value.current_version == game.version


def test_e2e_sse_stream_delivers_live_events_and_resumes(live: Live) -> None:
    import threading

    import requests
    client = live.client
    game = client.create_game("bluffaneer", players=3, options={"first_seat": 0})
    token = game["seats"][1]["token"]
    got: list[str] = []

    def listen() -> None:
        with requests.get(f"{live.url}/v1/games/{game['id']}/events/stream", params={"token": token},
                          headers={"Last-Event-ID": "0"}, stream=True, timeout=20) as r:
            assert r.headers["Content-Type"].startswith("text/event-stream")
            for line in r.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    got.append(line[4:])
                if len(got) >= 3:
                    return

    t = threading.Thread(target=listen)
    t.start()
    client.move(game["id"], game["seats"][0]["token"], {"type": "roll"})  # arrives while listening
    t.join(timeout=20)
    assert got[:3] == ["1", "2", "3"]
    with requests.get(f"{live.url}/v1/games/{game['id']}/events/stream", params={"token": token},
                      headers={"Last-Event-ID": "2"}, stream=True, timeout=20) as r:
        first = next(line for line in r.iter_lines(decode_unicode=True) if line.startswith("id: "))
    assert first == "id: 3"


def test_e2e_many_long_polls_do_not_starve_other_requests(live: Live) -> None:
    import threading

    import requests
    game = live.client.create_game("bluffaneer", players=3)
    version = live.client.view(game["id"])["version"]
    done: list[int] = []

    def poll() -> None:
        requests.get(f"{live.url}/v1/games/{game['id']}/events", params={"after": version, "wait": 6}, timeout=30)
        done.append(1)

    polls = [threading.Thread(target=poll) for _ in range(24)]
    for t in polls:
        t.start()
    time.sleep(0.5)  # let every poll reach the server and block
    assert requests.get(f"{live.url}/health", timeout=30).json()["status"] == "ok"
    assert live.client.view(game["id"])["version"] == version
    assert not done, "a long-poll returned before its wait although nothing happened"
    for t in polls:
        t.join()
    assert len(done) == 24
