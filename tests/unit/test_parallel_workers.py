"""What lets ``make test`` run on every core (pytest-xdist, one worker
process a core): each worker's Redis is its own, even when two workers
draw the same free port at once, so no worker flushes another's keys."""
from __future__ import annotations

import redis

from referee.store import redis_server
from tests import processes


def test_a_drawn_port_another_server_already_answers_on_is_not_taken_for_ones_own(
        monkeypatch, redis_port: int) -> None:
    # the session's server stands for another worker's, started on the same draw a moment earlier
    draws = iter([redis_port])
    monkeypatch.setattr(processes, "free_port", lambda: next(draws, None) or redis_server.free_port())
    port, proc = processes.own_redis()
    try:
        assert port != redis_port
        with redis.Redis(port=port) as mine:
            assert mine.info("server")["process_id"] == proc.pid
    finally:
        processes.stop(proc)
    assert next(draws, None) is None, "the taken port was drawn first"
