"""Spectator tiers against real processes (issue 40 item 6 and its "Done
when": the leak attacks — spectator, delayed views, every seat — find
nothing): a BANG! game with ``spectator_delay`` and ``spectator_omniscient``
played over real HTTP by its seats, while an anonymous client asks for
everything a spectator can (the view, event pages, a live stream, replay,
the games list, the broadcast) and each answer is checked against the game
folded here from the admin's log up to the delayed version."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from referee.client import RefereeClient
from referee.engine import record
from referee.engine.platform import PLATFORM_EVENTS, playing_moves
from referee.engine.protocol import Event, fold, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e

DELAY, PLAYERS, ADMIN = 50, 5, "e2e-admin"


Json = dict[str, Any]


def _at(client: RefereeClient, game_id: str) -> tuple[list[Json], int, int]:
    """The admin's log (envelopes), the head's version and the delayed version, computed here."""
    envs = [e.raw for e in client.games.log(game_id, token=ADMIN).events]
    late = max((v for v in record.shown_versions([e["type"] for e in envs]) if v <= len(envs) - DELAY), default=0)
    return envs, len(envs), late


def _hides(text: str, hidden: set[str], what: str) -> None:
    leaked = sorted(h for h in hidden if f'"{h}"' in text)
    assert not leaked, f"{what} leaks {leaked}"


def _stream_across(http: httpx.Client, client: RefereeClient, game_id: str, after: int,
                   move: Callable[[], None]) -> tuple[list[int], int]:
    """The seqs a spectator's live stream from ``after`` sends while ``move``
    is made, and the delayed version after it: read until a keepalive comes
    after the stream reached that version (it then waits for the head again:
    an event past the delay would have come before it), or a second one."""
    seqs: list[int] = []
    with http.stream("GET", f"/v1/games/{game_id}/events/stream", params={"after": after}) as response:
        assert response.status_code == 200
        lines = response.iter_lines()
        assert next(lines).startswith("retry:")
        move()
        upto, keepalives = _at(client, game_id)[2], 0
        for line in lines:
            if line.startswith("id: "):
                seqs.append(int(line[4:]))
            elif line.startswith(": keepalive"):
                keepalives += 1
                if (seqs and seqs[-1] >= upto) or keepalives == 2:
                    break
    return seqs, upto


def _check_spectator(http: httpx.Client, game_id: str, envs: list[Json], late: int) -> None:
    rs = registry.get("bang")
    state = fold(rs, record.ruleset_events(envs[:late])) if late else None
    hidden = rs.hidden(state, None) if late else set()
    view = http.get(f"/v1/games/{game_id}").json()
    assert view["version"] == late and view["turn_deadline"] is None
    expected = json.loads(json.dumps(seat_view(rs, state, None, active=True))) if late else {"state": {}}
    assert {k: view[k] for k in expected} == expected
    page = http.get(f"/v1/games/{game_id}/events", params={"after": 0}).json()
    assert page["version"] == late and [e["seq"] for e in page["events"]] == list(range(1, late + 1))
    replay = http.get(f"/v1/games/{game_id}/replay")
    assert replay.status_code == 200 and replay.json()["latest_version"] == late
    assert http.get(f"/v1/games/{game_id}/replay", params={"version": len(envs)}).status_code == 422
    listed = [g for g in http.get("/v1/games", params={"status": "active"}).json()["games"] if g["id"] == game_id]
    assert [g["version"] for g in listed] == [late]
    broadcast = http.get(f"/v1/games/{game_id}/broadcast").json()
    assert broadcast["version"] == late
    assert broadcast["views"] == ([json.loads(json.dumps(rs.view(state, s))) for s in range(PLAYERS)] if late else [])
    for what, text in (("view", json.dumps(view)), ("replay", json.dumps(replay.json()))):
        _hides(text, hidden, f"the spectator's {what} at {late}")
    shown_state = None  # each event against what was hidden right after it (a card shown, then shuffled back)
    for env, event in zip(envs, page["events"]):
        if env["type"] not in PLATFORM_EVENTS:
            shown_state = rs.evolve(shown_state, Event(env["type"], env["data"]))
        if shown_state is not None:
            _hides(json.dumps(event), rs.hidden(shown_state, None), f"the spectator's event {event['seq']}")


def test_e2e_a_delayed_broadcast_game_shows_spectators_nothing_newer_than_the_delay(live: Live) -> None:
    """Issue 40 item 6: while the game runs every spectator answer stops at
    the delayed version (the stream too, though it stays open across moves),
    the broadcast shows every hand only there, each seat's view is live and
    shows no other hand, a seat's token never gets the broadcast; the
    finished game is public whole and audits clean."""
    client = live.client
    game = client.games.create("bang", players=PLAYERS,
                               options={"spectator_delay": DELAY, "spectator_omniscient": True})
    tokens, pick, rs = game.tokens, Rng(b"e2e-late"), registry.get("bang")
    with httpx.Client(base_url=live.url, timeout=30) as http:
        for step in range(5000):
            envs, head, late = _at(client, game.id)
            live_state = fold(rs, record.ruleset_events(envs))
            if rs.result(live_state) is not None:
                break
            if step < 60 or step % 10 == 0:
                _check_spectator(http, game.id, envs, late)
            for seat in range(PLAYERS):
                as_seat = {"Authorization": f"Bearer {tokens[seat]}"}
                mine = http.get(f"/v1/games/{game.id}", headers=as_seat).json()
                assert mine["version"] == head
                _hides(json.dumps(mine), rs.hidden(live_state, seat), f"seat {seat}'s view")
                refused = http.get(f"/v1/games/{game.id}/broadcast", headers=as_seat)
                assert refused.status_code == 403 and refused.json()["code"] == "broadcast_not_for_seats"
            seat = sorted(rs.to_act(live_state))[0]
            mine_view = client.games.view(game.id, token=tokens[seat])
            chosen = pick.choice(list(playing_moves(mine_view.legal_moves)))

            def play(seat: int = seat, chosen: Json = chosen, version: int = mine_view.version) -> None:
                client.games.move(game.id, chosen, token=tokens[seat], expected_version=version)
            if step == 70:  # a stream open across a move sends no event past the new delayed version
                streamed, upto = _stream_across(http, client, game.id, late, play)
                assert streamed == list(range(late + 1, upto + 1))
            else:
                play()
        final = http.get(f"/v1/games/{game.id}").json()
        assert final["status"] == "finished" and final["version"] == len(client.games.log(game.id).events)
        assert len(http.get(f"/v1/games/{game.id}/broadcast").json()["views"]) == PLAYERS
    assert client.games.audit(game.id).ok
