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
