"""`referee tournament` as a person uses it (issue 23, item 5): it finds the
referee `make run` started (PORT), says what is wrong in one line, cancels
the tournament on Ctrl+C (and says so), and prints standings that say what
they are ranked by, with their counts."""
from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import REFEREE
from tests.e2e.test_http_bots import Stack, _wait

pytestmark = pytest.mark.e2e


def _env(stack: Stack) -> dict[str, str]:
    env = {k: v for k, v in stack.env.items() if k != "REFEREE_URL"}
    env["PORT"] = stack.url.rsplit(":", 1)[1]  # as `PORT=… make run` leaves it: no --url, no REFEREE_URL
    return env


def test_e2e_the_tournament_cli_finds_the_referee_by_port_and_ranks_with_counts(worker_stack: Stack) -> None:
    stack = worker_stack
    done = subprocess.run([REFEREE, "tournament", "--ruleset", "bluffaneer", "--games", "3", "--entrants",
                           "heuristic", "random", "random", "--audit"], env=_env(stack), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "audit: 3/3 games clean" in done.stdout
    assert "ranked by the OpenSkill (Plackett-Luce) ordinal, mu - 3*sigma" in done.stdout
    assert "per role: win% (wins/games)" in done.stdout and "heuristic" in done.stdout


def test_e2e_the_tournament_cli_errors_are_one_line(worker_stack: Stack) -> None:
    stack = worker_stack
    unknown = subprocess.run([REFEREE, "tournament", "--ruleset", "bluffaneer", "--games", "2", "--entrants",
                              "bot_nobody", "random", "random"], env=_env(stack), capture_output=True, text=True,
                             timeout=120)
    assert unknown.returncode == 1 and "Traceback" not in unknown.stderr
    assert unknown.stderr.startswith("referee tournament: ") and len(unknown.stderr.strip().splitlines()) == 1
    nobody = subprocess.run([REFEREE, "tournament", "--url", "http://127.0.0.1:1", "--ruleset", "bluffaneer",
                             "--games", "2", "--entrants", "random", "random", "random"], capture_output=True,
                            text=True, timeout=120)
    assert nobody.returncode == 1 and "no referee answers at http://127.0.0.1:1" in nobody.stderr
    assert "Traceback" not in nobody.stderr


def test_e2e_mistakes_name_the_option_what_was_given_and_what_is_accepted(worker_stack: Stack) -> None:
    """``--entrants random heuristic`` for 3-player games, ``referee play --ruleset bangg``, and
    ``--register`` without a ruleset: the option, the value and what the referee accepts."""
    cwd = Path(__file__).resolve().parents[2]
    for argv, said in (
            (["tournament", "--ruleset", "bluffaneer", "--games", "2", "--entrants", "random", "heuristic"],
             "referee tournament: --entrants random heuristic: 3-player games need at least 3 entrants "
             "(accepted: the built-in bots random and heuristic"),
            (["play", "--bot", "examples/mybot.py:choose", "--register", "mine", "--ruleset", "bangg"],
             "referee play: --ruleset bangg: no ruleset 'bangg' (accepted: bang, bang-dice, bang-faceoff, "
             "bluffaneer; --ruleset again for each ruleset it plays)"),
            (["play", "--bot", "examples/mybot.py:choose", "--register", "mine"],
             "referee play: --ruleset (not given): length must be between 1 and 8 (accepted: bang, ")):
        done = subprocess.run([REFEREE, *argv], env=_env(worker_stack), cwd=cwd, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 1 and done.stderr.startswith(said), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_e2e_ctrl_c_cancels_the_tournament_and_says_so(worker_stack: Stack) -> None:
    stack = worker_stack
    proc = subprocess.Popen([REFEREE, "tournament", "--ruleset", "bang", "--games", "400", "--players", "7",
                             "--entrants", *["heuristic"] * 7, "--poll", "0.2"], env=_env(stack),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # "tournament t_…: 400 bang games, …" once it exists
    tid = first.split()[1].rstrip(":")
    assert tid.startswith("t_"), first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and f"asked the referee to cancel {tid}" in err, err
    status = httpx.get(f"{stack.url}/v1/tournaments/{tid}").json()
    assert status["status"] == "cancelled"
    _wait(lambda: httpx.get(f"{stack.url}/v1/tournaments/{tid}").json()["games_finished"]
          == httpx.get(f"{stack.url}/v1/tournaments/{tid}").json()["games_launched"], 120,
          "the games being played to finish")
