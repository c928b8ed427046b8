"""A worker's run goes on into the games its tournament launches (issue 20):
the job that finishes a tournament game of built-in bots plays the next
game's turns itself, on what is left of its budget, instead of queueing a job
per game; what it does not play goes to the queue, and a game it holds is
watched from its launch, so a worker that dies holding it loses no turn."""
from __future__ import annotations

from typing import Any

import pytest
from rq import Queue

import workers.jobs as jobs
from referee.service.scheduling import QUEUE
from tests.api.test_tournaments_api import tournament


def _count_bot_jobs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game ids of every ``play_bot_turn`` job RQ runs from now on."""
    seen: list[str] = []
    real = jobs.play_bot_turn

    def counted(game_id: str, seat: int, version: int, svc: Any = None) -> str:
        seen.append(game_id)
        return real(game_id, seat, version, svc)
    monkeypatch.setattr(jobs, "play_bot_turn", counted)
    return seen


def _finished(client: Any, tid: str, games: int) -> list[str]:
    body = client.get(f"/v1/tournaments/{tid}").get_json()
    assert body["status"] == "finished" and body["games_finished"] == games
    ids = [g["id"] for g in body["games"]]
    for game_id in ids:  # every game played to its end and audited clean
        assert client.get(f"/v1/games/{game_id}").get_json()["status"] == "finished"
        report = client.get(f"/v1/games/{game_id}/audit").get_json()
        assert report["ok"] is True, report
    return ids


def test_a_job_that_finishes_a_tournament_game_plays_the_next_ones_itself(client: Any, work: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "RUN_MOVES", 10**6)
    monkeypatch.setattr(jobs, "RUN_S", 10.0**6)  # a budget no run spends: the count below is exact
    seen = _count_bot_jobs(monkeypatch)
    tid = tournament(client, games=3, parallel=1).get_json()["id"]
    work()
    ids = _finished(client, tid, 3)
    assert seen == [ids[0]]  # one bot job, for the first game: it played the other two on


def test_a_run_whose_budget_is_spent_queues_the_games_it_launched(client: Any, work: Any,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "RUN_MOVES", 1)  # every job plays one move
    seen = _count_bot_jobs(monkeypatch)
    tid = tournament(client, games=3, parallel=1).get_json()["id"]
    work(max_rounds=5000)
    ids = _finished(client, tid, 3)
    assert set(seen) == set(ids)  # each game's turns came from jobs of its own


def test_a_held_game_is_watched_at_its_launch_and_queued_when_its_run_fails(client: Any, service: Any,
                                                                           redis_client: Any, work: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    queue = Queue(QUEUE, connection=redis_client)
    queue.empty()
    held = jobs.Held(service)
    game = service.create_game("bluffaneer", seats=[{"bot": "random"}] * 3, held=True)
    held.add(game["id"])
    assert queue.count == 0  # no job queued for it: the job holding it plays it
    assert game["id"] in service.scheduler.overdue(service.clock() + 1)  # but the sweeper would find it

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the worker's Redis went away")
    with monkeypatch.context() as patch:
        patch.setattr(service, "decide_for_seat", fails)
        with pytest.raises(RuntimeError):
            held.play(jobs.Budget.of(10, 10.0))
    assert queue.count == 1 and held.changes == []  # the game it could not play went to the queue
    work()
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished"
