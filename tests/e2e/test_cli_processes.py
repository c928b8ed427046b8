"""Issue 39, item 5, with real processes: ``referee … | head`` ends quietly,
a refused connection prints the URL tried, ``make run`` with its ports taken
says so and which to pick instead, and its terminal shows a line a request
and a bot job, none for idle polling."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from referee.ops.explain import no_redis
from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE, Live
from tests.processes import own_redis, stop

pytestmark = pytest.mark.e2e


def _until(ready: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    """Wait for a condition (generously: the machine may be busy), never for a time."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {timeout:g} s")
        time.sleep(0.1)


def _piped_to_head(argv: list[str], env: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """``argv | head -1``: its exit status, its standard error, what head printed."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = subprocess.Popen(["head", "-1"], stdin=proc.stdout, stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # head holds the pipe alone: when it exits, the pipe is closed early
    shown, _ = head.communicate(timeout=300)
    err = proc.stderr.read().decode()
    return proc.wait(timeout=300), err, shown


def test_e2e_a_tournament_piped_to_head_ends_quietly(live: Live) -> None:
    env = {**live.env, "REFEREE_URL": live.url}
    status, err, shown = _piped_to_head([REFEREE, "tournament", "--ruleset", "bluffaneer", "--games", "3",
                                         "--entrants", "random", "random", "heuristic", "--no-progress",
                                         "--poll", "0.2"], env)
    assert shown.startswith(b"tournament t_")
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    # 128 + 13, as a shell shows a process SIGPIPE ended (0 only if head were so slow that it all fit in the pipe)
    assert status in (141, 0)


def test_e2e_help_piped_to_head_ends_quietly() -> None:
    status, err, shown = _piped_to_head([REFEREE, "--help"])
    assert shown.startswith(b"usage: referee") and err == "" and status in (0, 141)


def test_e2e_an_audit_of_many_logs_piped_to_head_ends_quietly(tmp_path: Path) -> None:
    made = subprocess.run([REFEREE, "arena", "--ruleset", "bluffaneer", "--entrants", "random", "random",
                           "heuristic", "--games", "12", "--logs", str(tmp_path), "--quiet"],
                          capture_output=True, timeout=300)
    assert made.returncode == 0, made.stderr
    logs = sorted(str(p) for p in tmp_path.glob("*.ndjson"))
    status, err, shown = _piped_to_head([REFEREE, "audit", "--jobs", "2", *logs])
    assert shown.startswith(b"ok    ") and err == "" and status in (141, 0), err


def test_e2e_a_refused_connection_prints_the_url_it_tried(tmp_path: Path) -> None:
    nobody = f"http://127.0.0.1:{free_port()}"  # a port nothing listens on
    for argv in (["tournament", "--url", nobody, "--ruleset", "bang", "--games", "1", "--entrants", "random",
                  "random", "random"],
                 ["play", "--url", nobody, "--bot", "examples/mybot.py:choose", "--register", "mine",
                  "--ruleset", "bang"]):
        done = subprocess.run([REFEREE, *argv], capture_output=True, text=True, timeout=120,
                              cwd=Path(__file__).resolve().parents[2])
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert f"no referee answers at {nobody} (connection refused)" in done.stderr, done.stderr
    redis_url = f"redis://127.0.0.1:{free_port()}/0"
    refused = ConnectionRefusedError(111, "Connection refused")  # the one line, and nothing before it
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_SIGNING_KEY_FILE": str(tmp_path / "keys")}
    env.pop("RQ_REDIS_URL", None)
    worker = subprocess.run([REFEREE, "worker"], env=env, capture_output=True, text=True, timeout=120)
    assert worker.returncode == 1 and "Traceback" not in worker.stderr, worker.stderr
    assert worker.stderr.strip() == f"referee worker: {no_redis(redis_url, 'REDIS_URL', refused)}", worker.stderr
    # the commands that read the archive and the live ladders or log: the archive's URL, or Redis's
    archive = f"sqlite:///{tmp_path}/archive.sqlite3"
    for argv, said in ((["ratings", "recompute", "--archive", archive, "--check"],
                        f"no Redis answers at {redis_url} (REDIS_URL; connection refused)"),
                       (["transparency", "rebuild", "--url", archive, "--check"],
                        f"no Redis answers at {redis_url} (REDIS_URL; connection refused)")):
        done = subprocess.run([REFEREE, *argv], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr, done.stderr
        assert said in done.stderr, done.stderr
    database = f"postgresql+psycopg://postgres:hunter2@127.0.0.1:{free_port()}/postgres"
    shown = database.replace(":hunter2@", ":***@")
    for argv in (["ratings", "recompute", "--archive", database], ["archive", "export", "--url", database],
                 ["transparency", "rebuild", "--url", database]):
        done = subprocess.run([REFEREE, *argv], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr, done.stderr
        assert f"no archive answers at {shown} (" in done.stderr and "connection refused" in done.stderr, done.stderr
        assert "hunter2" not in done.stderr


def test_e2e_make_run_with_its_ports_taken_says_so_and_which_to_pick(tmp_path: Path) -> None:
    taken, other_redis = own_redis()  # what a first `make run` holds: a real Redis on the port
    try:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        done = subprocess.run([REFEREE, "run", "--redis-port", str(taken), "--port", str(taken),
                               "--dir", str(tmp_path / "redis")], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
    finally:
        stop(other_redis)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    redis_line, api_line = done.stderr.strip().splitlines()
    assert redis_line.startswith(f"referee run: port {taken} is taken") and "--redis-port " in redis_line
    assert api_line.startswith(f"referee run: port {taken} is taken") and "make run` (`referee run --port " in api_line
    assert not (tmp_path / "redis").exists()  # nothing was started


def test_e2e_the_terminal_of_run_shows_a_line_a_request_and_a_bot_job_and_none_for_idle_polls(tmp_path: Path) -> None:
    port, redis_port = free_port(), free_port()
    out = tmp_path / "terminal.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL", "REFEREE_ARCHIVE_URL")}
    env["REFEREE_RATE_LIMIT"] = "off"
    with open(out, "wb") as terminal:
        run = subprocess.Popen([REFEREE, "run", "--port", str(port), "--redis-port", str(redis_port), "--dir",
                                str(tmp_path / "redis"), "--workers", "1"], env=env, cwd=tmp_path, stdout=terminal,
                               stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        def healthy() -> bool:
            assert run.poll() is None, out.read_text(errors="replace")  # `referee run` gave up
            try:
                return httpx.get(f"{url}/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False
        _until(healthy, "healthy referee")
        made = httpx.post(f"{url}/v1/games", json={"ruleset": "bluffaneer", "seats": [
            {"bot": "random"}, {"bot": "random"}, {"bot": "heuristic"}]}, timeout=30)
        assert made.status_code == 201, made.text
        game = made.json()["id"]
        polled = httpx.get(f"{url}/v1/games/{game}/events", params={"after": 0, "wait": 1}, timeout=30)
        assert polled.status_code == 200
        _until(lambda: f"bot turn   game {game} seat " in out.read_text(errors="replace"), "bot job's line")
        _until(lambda: "POST   /v1/games 201" in out.read_text(errors="replace"), "request's line")
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=60)
    shown = out.read_text(errors="replace")
    [bot_line] = [line for line in shown.splitlines() if f"bot turn   game {game} seat " in line][:1]
    assert bot_line.endswith(" ms") or bot_line.endswith(" s"), bot_line
    assert "/health" not in shown and "/events" not in shown, shown  # idle polling: no line
    assert "Job OK" not in shown and "Listening on referee" not in shown, shown  # RQ's own lines are gone
    assert "referee: stopped" in shown
    assert f"export REFEREE_URL={url}\n" in shown  # the line the README says to paste in a second terminal
    # and the line for `referee ratings` & co.: the Redis and the archive it chose (docs/ladder.md's recompute)
    archive = f"sqlite:///{(tmp_path / 'var' / 'archive.sqlite3').resolve()}"
    assert f"export REDIS_URL=redis://127.0.0.1:{redis_port}/0 REFEREE_ARCHIVE_URL={archive}\n" in shown, shown


def test_e2e_serve_without_redis_says_so_once_and_starts(tmp_path: Path) -> None:
    """``referee serve`` with nothing at ``REDIS_URL``: one line naming the URL tried, then the API
    starts anyway (Redis may come up after it) and its requests answer 503 ``redis_unavailable``."""
    redis_url = f"redis://127.0.0.1:{free_port()}/0"
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_SIGNING_KEY_FILE": str(tmp_path / "keys")}
    serve = subprocess.Popen([REFEREE, "serve", "--port", str(port), "--workers", "1"], env=env,
                             stderr=subprocess.PIPE)
    try:
        assert serve.stderr is not None
        first = serve.stderr.readline().decode().strip()
        refused = ConnectionRefusedError(111, "Connection refused")
        assert first == (f"referee serve: {no_redis(redis_url, 'REDIS_URL', refused)}; the API starts anyway "
                         "and answers 503 redis_unavailable until it does"), first

        def answered() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/v1/games", timeout=5).status_code == 503
            except httpx.TransportError:
                return False
        _until(answered, "503 from the API without its Redis")
        body = httpx.get(f"http://127.0.0.1:{port}/v1/games", timeout=5).json()
        assert body["code"] == "redis_unavailable", body
    finally:
        stop(serve, quick=[serve])


def test_e2e_play_one_seat_of_one_game_says_each_move_it_sent(live: Live) -> None:
    """``referee play --game ID --token T`` (docs/write-a-bot.md): the 20-line bot plays one seat of a
    game to its end, a line a move it sent (a newcomer saw nothing until the result), then the result."""
    made = httpx.post(f"{live.url}/v1/games", json={"ruleset": "bluffaneer", "seats": [
        {"name": "mine"}, {"bot": "random"}, {"bot": "random"}]}, timeout=30)
    assert made.status_code == 201, made.text
    game = made.json()
    done = subprocess.run([REFEREE, "play", "--url", live.url, "--bot", "examples/mybot.py:choose",
                           "--game", game["id"], "--token", game["seats"][0]["token"]],
                          capture_output=True, text=True, timeout=600, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    sent = [line for line in lines if line.startswith("referee play: version ")]
    assert sent and all(re.fullmatch(r"referee play: version \d+: sent \{.*\}", line) for line in sent), lines
    versions = [int(line.split()[3].rstrip(":")) for line in sent]
    assert versions == sorted(set(versions)), versions  # each accepted move once, in order
    assert lines[-1].startswith(f"referee play: game {game['id']} is finished; result {{"), lines[-1]
    log = httpx.get(f"{live.url}/v1/games/{game['id']}/events", timeout=30).json()["events"]
    mine = [e for e in log if e["type"] == "move" and e["actor"] == 0 and "by" not in e["data"]]
    assert len(mine) == len(sent)  # every move seat 0 made is one it said it sent
