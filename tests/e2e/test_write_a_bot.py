"""docs/write-a-bot.md (issue 23, item 6), end to end: the very
file `examples/mybot.py` plays a tournament over HTTP through `referee play`
with no URL registered, every game audited clean; then the same file plays
the arena in process where no Redis can be reached, its logs audited."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import REFEREE
from tests.e2e.test_http_bots import Stack

pytestmark = pytest.mark.e2e

BOT = Path(__file__).resolve().parents[2] / "examples" / "mybot.py"
NO_REDIS = "import sys\nfor m in ('redis', 'rq', 'valkey', 'flask'): sys.modules[m] = None\n"


def test_the_readme_bot_is_twenty_lines() -> None:
    assert len(BOT.read_text().splitlines()) <= 20


def test_e2e_the_readme_bot_plays_a_tournament_through_referee_play(worker_stack: Stack) -> None:
    stack = worker_stack
    env = {**stack.env, "PORT": stack.url.rsplit(":", 1)[1]}
    play = subprocess.Popen([REFEREE, "play", "--bot", f"{BOT}:choose", "--register", "mybot",
                             "--ruleset", "bluffaneer"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert play.stdout is not None
        registered = play.stdout.readline()  # "referee play: registered outbound bot bot_… (mybot); …"
        bot_id = registered.split("outbound bot ", 1)[1].split()[0]
        secret = registered.split("shown once: ", 1)[1].strip()
        done = subprocess.run([REFEREE, "tournament", "--ruleset", "bluffaneer", "--games", "8", "--entrants",
                               f"{bot_id}:{secret}", "heuristic", "random", "--audit"], env=env,
                              capture_output=True, text=True, timeout=600)
    finally:
        play.terminate()
        play.communicate(timeout=20)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "audit: 8/8 games clean" in done.stdout
    row = next(line for line in done.stdout.splitlines() if " mybot " in line)
    assert row.split()[5] == "8"  # games


def test_the_readme_bot_plays_the_arena_with_no_redis(tmp_path: Path) -> None:
    code = NO_REDIS + "from referee.ops.cli import main\nsys.exit(main(sys.argv[1:]))"
    logs = tmp_path / "logs"
    done = subprocess.run([sys.executable, "-c", code, "arena", "--ruleset", "bang", "--players", "5", "--games",
                           "20", "--entrants", f"{BOT}:choose", "heuristic", "random", "random", "random",
                           "--logs", str(logs), "--quiet"], capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "REDIS_URL": "redis://127.0.0.1:1/0"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert " mybot " in done.stdout and "bot failures: none" in done.stdout
    audited = subprocess.run([REFEREE, "audit", *map(str, sorted(logs.glob("*.ndjson")))], capture_output=True,
                             text=True, timeout=600)
    assert audited.returncode == 0 and "audit: 20/20 logs clean" in audited.stdout, audited.stdout
