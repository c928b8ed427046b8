"""Each bot's time per move in a tournament's standings comes from the
seats' timing the process that finished the game folded as it appended or
read the game's events (``referee.engine.timing``, ``Game.timing``), not
from reading the whole log again at the game's end: it must be exactly what
the log says (``seat_latencies`` over the log), whichever process folded
it, with chat, system timeouts and a clock in between."""
from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from referee.play.latency import seat_health, seat_latencies
from referee.service.loading import Loader
from tests.api.helpers import auth, create, health_by_hand, play_to_end

CLOCK = {"bank_s": 3600}


def _logged(service: Any, game_id: str, players: int) -> list[dict[str, Any]]:
    """The seats' timing as the whole log says it."""
    return seat_latencies(service.store.read(game_id), players)


def test_every_tournament_game_records_the_timing_its_log_says(client: FlaskClient, clock: Any, service: Any,
                                                                 work: Any) -> None:
    """Clocked (the clock's charge) and unclocked (the chain's times): the
    recorded latency of every game is its log's, and the worker that finished
    it had folded it (no read of the log was needed)."""
    def ticking() -> int:
        clock.advance(3)
        return int(clock.now)
    service.clock = ticking
    for options in ({"clock": CLOCK}, {}):
        body = {"ruleset": "bluffaneer", "entrants": ["random", "heuristic", "random", "heuristic"], "games": 3,
                "options": options}
        tid = client.post("/v1/tournaments", json=body).get_json()["id"]
        work(max_rounds=3000)
        shown = client.get(f"/v1/tournaments/{tid}").get_json()
        assert shown["status"] == "finished", shown["status"]
        results = service.store.tournaments.results(tid)
        assert len(results) == 3
        for game_id, entry in results.items():
            logged = _logged(service, game_id, 4)
            assert json.loads(entry)["latency"] == logged
            assert any(cell["moves"] for cell in logged)
            folded = service.cached(game_id).timing_known()
            assert folded is not None and list(folded.cells) == logged


def test_a_games_timing_is_its_logs_in_every_process_at_every_version(client: FlaskClient, clock: Any,
                                                                       service: Any) -> None:
    """Moves by people, chat between them (no wait begins or ends with it)
    and the system's timeouts of Bluffaneer's claim windows: after each step
    the service's game (folded as it appended) and a game loaded by a process
    that never held it (the whole log folded) hold the log's timing; so does
    a process whose copy fell behind (the events since folded onto it)."""
    game = create(client, "bluffaneer", players=3, seed="timing", options={"chat": "seats"})
    game_id = game["id"]
    behind = Loader(service.store)
    behind.load(game_id)

    def check(step: int) -> None:
        if step % 3 == 0 and step < 15:  # within the chat limit (5 messages in 10 s)
            said = client.post(f"/v1/games/{game_id}/chat", json={"text": f"step {step}"},
                               headers=auth(game["seats"][step % 3]["token"]))
            assert said.status_code == 201, said.get_json()
        logged = _logged(service, game_id, 3)
        health = health_by_hand(service.store.read(game_id), 3)  # the ladder's: a histogram of the moves' times
        assert seat_health(service.store.read(game_id), 3) == health, step
        for loaded in (service.load(game_id), Loader(service.store).load(game_id)):
            timing = loaded.timing_known()
            assert timing is not None and list(timing.cells) == logged, step
            assert timing.health() == health, step
        if step % 7 == 0:
            timing = behind.load(game_id).timing_known()
            assert timing is not None and list(timing.cells) == logged and timing.health() == health, step

    clock.advance(40)
    ended = play_to_end(client, game, clock, service, on_step=check)
    assert ended["status"] == "finished"
    assert sum(cell["moves"] for cell in _logged(service, game_id, 3)) > 0
