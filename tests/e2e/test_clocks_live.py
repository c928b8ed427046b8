"""Issue 40 item 2, Done when: a clocked game where one seat runs out of its
bank ends in defaults as the clock says, against real `referee serve` and
`referee worker` processes and Redis. Seat 0 is a person who never moves; the
others are built-in bots. The banks are tiny so the seat runs out: nothing
here waits for a time, only for the game to change (long polls, generous
patience)."""
from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e


def test_e2e_a_seat_that_never_moves_runs_out_and_the_clock_defaults_it_to_the_end(live: Live) -> None:
    client = live.client
    game = client.games.create("bang-dice", seats=[{}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}],
                               options={"clock": {"bank_s": 1, "reaction_s": 1}})
    first = client.games.view(game.id, token=game.tokens[0])
    assert first.clock is not None and first.clock["bank_ms"] == 1000
    assert abs(first.clock["server_time"] - time.time() * 1000) < 60_000  # the server's own time, shown
    patience = time.monotonic() + 300
    view = first
    while view.active and time.monotonic() < patience:
        client.games.events(game.id, after=view.version, wait=10)
        view = client.games.view(game.id, token=game.tokens[0])
    assert view.status == "finished", "the clock did not play the silent seat's defaults to the end"
    assert view.clock is not None and view.clock["seats"][0]["bank_ms"] == 0
    log = client.games.log(game.id)
    mine = [e for e in log.events if e.type == "move" and e.actor == 0]
    assert mine and all((e.data or {}).get("by") == {"default": "turn_clock"} for e in mine)
    assert all("clock" in (e.data or {}) for e in log.events if e.type == "move")
    report = client.games.audit(game.id)
    assert report.ok, report
    assert "clock" in [check.name for check in report.checks]


def test_e2e_a_moves_answer_says_what_the_clock_charged_it(live: Live) -> None:
    """Issue 40 item 2: the receipt says when the move was received; the answer what the clock charged it.
    The bank (10 minutes) cannot run out during the test."""
    client = live.client
    game = client.games.create("bang-dice", players=3, options={"clock": {"bank_s": 600, "increment_s": 1}})
    spectator = client.games.view(game.id)
    seat = spectator.to_act[0]
    mine = client.games.view(game.id, token=game.tokens[seat])
    accepted = client.games.move(game.id, mine.legal_moves[0], token=game.tokens[seat])
    assert accepted.clock is not None and accepted.clock["used_ms"] is not None
    assert accepted.clock["bank_ms"] == 600_000 - accepted.clock["used_ms"] + 1_000
    started = (spectator.clock or {})["seats"][seat]["since"]
    assert accepted.receipt.at - started == accepted.clock["used_ms"]
