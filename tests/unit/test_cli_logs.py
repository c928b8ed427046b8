"""Issue 39, item 5: the terminal of ``make run`` shows a readable line a
request (``referee serve --log-requests``) and a bot job (``referee worker
--log-jobs``), and nothing for idle polling."""
from __future__ import annotations

import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from gunicorn.config import Config  # type: ignore[import-untyped]

from referee.http.accesslog import RequestLines, is_idle, request_line, took
from referee.ops.joblog import first_move_of, job_line, move_text


@pytest.mark.parametrize(("method", "path", "query", "status"), [
    ("GET", "/health", "", 200), ("GET", "/metrics", "", 200),
    ("GET", "/v1/games/g1/events/stream", "token=x", 200), ("GET", "/v1/bots/b1/turns", "", 200),
    ("GET", "/v1/games/g1/events", "after=3&wait=25", 200)])
def test_idle_polling_is_left_out(method: str, path: str, query: str, status: int) -> None:
    assert is_idle(method, path, query, status)


@pytest.mark.parametrize(("method", "path", "query", "status"), [
    ("POST", "/v1/games", "", 201), ("GET", "/v1/games/g1/events", "after=3", 200),
    ("GET", "/v1/games/g1/events", "wait=0", 200), ("GET", "/health", "", 503),
    ("GET", "/v1/games/g1/events/stream", "", 404), ("POST", "/v1/bots/b1/turns/d1", "", 200)])
def test_what_is_done_and_every_error_is_shown(method: str, path: str, query: str, status: int) -> None:
    assert not is_idle(method, path, query, status)


def test_a_request_line_is_method_path_status_and_time() -> None:
    assert request_line("POST", "/v1/games", 201, 0.0123) == "POST   /v1/games 201  12 ms"
    assert took(2.46) == "2.5 s"


def _logged(tmp_path: Path, raw_uri: str, status: str, method: str = "GET") -> str:
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    log = RequestLines(cfg)
    path, _, query = raw_uri.partition("?")
    environ = {"REQUEST_METHOD": method, "RAW_URI": raw_uri, "PATH_INFO": path, "QUERY_STRING": query,
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1"}
    log.access(SimpleNamespace(status=status, headers=[], sent=2), SimpleNamespace(headers=[]), environ,
               datetime.timedelta(milliseconds=7))
    return (tmp_path / "access.log").read_text()


def test_the_request_lines_logger_writes_a_short_line_without_the_query_and_skips_idle_polls(tmp_path: Path) -> None:
    written = _logged(tmp_path, "/v1/games/g1/moves?token=s3cr3t", "409 CONFLICT", "POST")
    assert written.rstrip().endswith("POST   /v1/games/g1/moves 409  7 ms") and "s3cr3t" not in written
    assert _logged(tmp_path, "/v1/games/g1/events?wait=20&token=s3cr3t", "200 OK") == written  # no line added


def test_a_bot_turn_line_says_game_seat_move_and_time() -> None:
    move = {"type": "play", "card": "BANG-2C", "target": 1}
    line = job_line("workers.jobs.play_bot_turn", ("g1", 2, 6), "played", True, 0.175, move)
    assert line == "bot turn   game g1 seat 2  play card=BANG-2C target=1  175 ms"
    defaulted = job_line("workers.jobs.play_bot_turn", ("g1", 0, 9), "defaulted", True, 0.002, {"type": "pass"})
    assert defaulted.endswith("pass (defaulted)  2 ms")
    assert job_line("workers.jobs.play_bot_turn", ("g1", 0, 9), "stale", True, 0.001).endswith("stale  1 ms")
    assert job_line("workers.jobs.fire_timeout", ("g1",), None, False, 0.3).startswith(
        "deadline   game g1  failed")
    assert job_line("workers.jobs.tournament_game_finished", ("t_1", "g1"), "launched 1", True, 0.01) == \
        "tournament t_1 game g1  launched 1  10 ms"


def test_a_long_move_is_cut_and_lists_read_as_lists() -> None:
    text = move_text({"type": "discard", "cards": [f"CARD-{i}" for i in range(20)], "keep": True})
    assert text.startswith("discard cards=CARD-0,CARD-1") and text.endswith("…") and len(text) == 60
    assert move_text({"type": "pass", "ok": False}) == "pass ok=false"


def test_the_first_move_is_the_move_event_just_after_the_jobs_version() -> None:
    log: list[dict[str, Any]] = [
        {"seq": 6, "type": "awaiting", "data": {"to_act": [2]}},
        {"seq": 7, "type": "move", "data": {"move": {"type": "play", "card": "BANG-2C"}, "by": {"bot": "random"}}},
        {"seq": 8, "type": "card_played", "data": {"card": "BANG-2C"}}]

    def read(game_id: str, after: int, upto: int) -> list[dict[str, Any]]:  # the event store's read, over a list
        return [e for e in log if after < e["seq"] <= upto]
    first = first_move_of(read)
    assert first("g1", 6) == {"type": "play", "card": "BANG-2C"}
    assert first("g1", 7) is None  # the event after 7 is no move
