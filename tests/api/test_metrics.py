"""Metrics an operator of many processes needs (issue 21): moves, games
started and finished, bot calls, Redis errors, the queue's depth and the
open streams' slots, on ``/metrics``."""
from __future__ import annotations

import re
from typing import Any

import workers.jobs as jobs
from tests.api.helpers import create, play_to_end


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample (0 if absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))  # Prometheus sorts them
    pattern = re.escape(name) + (r"\{" + re.escape(want) + r"\}" if labels else "") + r" ([0-9.e+-]+)"
    found = re.search(r"^" + pattern + r"$", text, re.M)
    return float(found.group(1)) if found else 0.0


def test_moves_games_and_live_gauges_are_counted(app: Any, clock: Any, service: Any) -> None:
    client = app.test_client()
    before = client.get("/metrics").data.decode()
    game = create(client, "bluffaneer", 3)
    end = play_to_end(client, game, clock, service)
    after = client.get("/metrics").data.decode()
    moves = sample(after, "referee_moves_total", ruleset="bluffaneer", by="seat") - \
        sample(before, "referee_moves_total", ruleset="bluffaneer", by="seat")
    assert moves >= 1 and end["result"] is not None
    assert sample(after, "referee_games_started_total", ruleset="bluffaneer") - \
        sample(before, "referee_games_started_total", ruleset="bluffaneer") == 1
    assert sample(after, "referee_games_finished_total", ruleset="bluffaneer") - \
        sample(before, "referee_games_finished_total", ruleset="bluffaneer") == 1
    assert re.search(r"^referee_stream_slots 0\.0$", after, re.M)
    assert re.search(r"^referee_queue_depth [0-9.]+$", after, re.M)


def test_a_game_a_workers_bot_run_finishes_is_counted_finished_once(app: Any, clock: Any, service: Any) -> None:
    """A game of built-in bots ends inside a worker's run (``workers.jobs.play_bot_turn``: its moves
    appended in batches, no ``notify`` per move): it is counted finished once, like any other."""
    client = app.test_client()
    before = client.get("/metrics").data.decode()
    created = create(client, "bluffaneer", seats=[{"bot": "random"}] * 3)
    runs = 0
    for _ in range(500):
        game = service.load(created["id"])
        if game.status != "active":
            break
        awaited = sorted(game.ruleset.to_act(game.state, memo=game.memo))
        if awaited:
            assert jobs.play_bot_turn(game.id, awaited[0], game.version, service) in ("played", "stale")
            runs += 1
        else:  # a claim window nobody answers any more: its deadline
            clock.now = max(clock.now, game.ruleset.deadline(game.state))
            assert jobs.fire_timeout(game.id, service) == "fired"
        clock.advance(1)
    assert game.status != "active" and runs >= 1
    after = client.get("/metrics").data.decode()
    assert sample(after, "referee_games_finished_total", ruleset="bluffaneer") - \
        sample(before, "referee_games_finished_total", ruleset="bluffaneer") == 1
