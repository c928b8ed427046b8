"""The matchmaking pool over real HTTP with real worker processes (issue 42
item 3): two outbound bots (``referee play``) put in the Bluffaneer pool
play game after game with the built-in bots, matched by two workers with
nobody starting a game; one is taken out and its games end; a bot that
never answers is paused."""
from __future__ import annotations

import json
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e import test_outbound_bots as outbound
from tests.e2e.conftest import REFEREE
from tests.e2e.test_http_bots import Stack, _wait
from tests.e2e.test_outbound_bots import BOT, _register

pytestmark = pytest.mark.e2e
#: a referee and two workers, a late bot's default quick (3 s): the outbound bots' tests' stack
stack = outbound.stack
#: how long a wait may last: a ceiling, never a measure (the suite runs on every core at once, and a busy
#: machine has played a silent bot's game past four minutes); a wait ends as soon as the thing happens
PATIENCE_S = 900


def _pool(stack: Stack) -> dict[str, Any]:
    got = stack.client._call("GET", "/v1/ladder/bluffaneer/pool")
    return dict(got.json())


def _entry(stack: Stack, bot_id: str) -> dict[str, Any] | None:
    return next((e for e in _pool(stack)["entries"] if e["bot"]["id"] == bot_id), None)


def _finished(stack: Stack) -> list[dict[str, Any]]:
    """Every finished game's summary (all this stack's games are the pool's), page after page."""
    out: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = stack.client._call("GET", "/v1/games", params={"status": "finished", "limit": 100,
                                                               **({"cursor": cursor} if cursor else {})}).json()
        out += page["games"]
        cursor = page["next"]
        if cursor is None:
            return out


def _played(stack: Stack, bot_id: str) -> int:
    return sum(1 for g in _finished(stack) if any(seat["bot"] == bot_id for seat in g["seats"]))


def _log(stack: Stack, game_id: str) -> dict[str, Any]:
    """A finished game's header and its moves."""
    log = [json.loads(line) for line in httpx.get(f"{stack.url}/v1/games/{game_id}/log").text.splitlines()]
    return {"header": log[0]["header"], "moves": [e for e in log[1:] if e["type"] == "move"]}


def test_e2e_pooled_bots_keep_playing_until_taken_out_and_a_silent_one_is_paused(stack: Stack,
                                                                                  tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(BOT)
    one, two, silent = (_register(stack, name=name) for name in ("one", "two", "silent"))
    players = [subprocess.Popen([REFEREE, "play", "--bot", f"{tmp_path / 'mybot.py'}:choose", "--url", stack.url,
                                 "--bot-id", bot["id"], "--secret", bot["secret"]], env=stack.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for bot in (one, two)]
    try:
        for bot in (one, two):
            put = httpx.put(f"{stack.url}/v1/ladder/bluffaneer/pool/{bot['id']}", json={"games_at_once": 2},
                            headers={"Authorization": f"Bearer {bot['secret']}"})
            assert put.status_code == 200, put.text
        # nobody creates a game: the workers keep dealing them, game after game
        _wait(lambda: min(_played(stack, one["id"]), _played(stack, two["id"])) >= 4, PATIENCE_S,
              "each pooled bot to finish four pool games")
        for game in (_log(stack, summary["id"]) for summary in _finished(stack)[:20]):
            header = game["header"]
            assert header["pool"] == "bluffaneer" and not header["custom"]
            for move in game["moves"]:  # the pooled bots answered every turn: no default
                assert "default" not in move["data"].get("by", {}), move
        # between two of its games a pool may have none being played: wait for one, never sample once
        _wait(lambda: _pool(stack)["stats"]["playing_games"] >= 1, PATIENCE_S, "a pool game being played")
        pool = _pool(stack)
        assert pool["stats"]["games_per_minute"] > 0
        assert {e["bot"]["id"] for e in pool["entries"]} >= {one["id"], two["id"], "random", "heuristic"}
        # taken out: its games being played finish, and it is dealt no more
        out = httpx.delete(f"{stack.url}/v1/ladder/bluffaneer/pool/{one['id']}",
                           headers={"Authorization": f"Bearer {one['secret']}"})
        assert out.status_code == 200 and _entry(stack, one["id"]) is None
        _wait(lambda: not any(one["id"] in g["seats"] for g in _booked(stack)), PATIENCE_S, "its games to end")
        before = _played(stack, two["id"])
        _wait(lambda: _played(stack, two["id"]) >= before + 2, PATIENCE_S, "the other to play on")
        assert not any(one["id"] in g["seats"] for g in _booked(stack))
        # a bot that never connects: each of its turns is a timeout, and it is paused
        put = httpx.put(f"{stack.url}/v1/ladder/bluffaneer/pool/{silent['id']}", json={"games_at_once": 1},
                        headers={"Authorization": f"Bearer {silent['secret']}"})
        assert put.status_code == 200
        _wait(lambda: (_entry(stack, silent["id"]) or {}).get("status") == "paused", PATIENCE_S,
              "the silent bot paused")
        why = str((_entry(stack, silent["id"]) or {})["paused_reason"])
        # the share of its turns, or (a seat whose timed-out turn ends its part in a game) a fault in each game
        assert "timeouts and invalid answers" in why or "timed out or answered invalidly" in why, why
    finally:
        for player in players:
            player.terminate()
            player.wait(timeout=20)


def _booked(stack: Stack) -> list[dict[str, Any]]:
    """The pool's games being played, from the seats of its active games."""
    games = httpx.get(f"{stack.url}/v1/games", params={"status": "active", "limit": 100}).json()["games"]
    return [{"id": g["id"], "seats": [s.get("bot") for s in g.get("seats", [])]} for g in games]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_e2e_referee_play_with_pool_goes_in_once_connected_and_leaves_on_ctrl_c(stack: Stack, tmp_path: Path,
                                                                                stop: signal.Signals) -> None:
    (tmp_path / "mybot.py").write_text(BOT)
    player = subprocess.Popen([REFEREE, "play", "--bot", f"{tmp_path / 'mybot.py'}:choose", "--url", stack.url,
                               "--register", "pooled", "--ruleset", "bluffaneer", "--pool", "bluffaneer",
                               "--games-at-once", "2"], env=stack.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        registered = player.stdout.readline() if player.stdout else ""
        bot_id = registered.split("outbound bot ")[1].split()[0]
        assert player.stdout and f"answers {bot_id}'s turns" in player.stdout.readline()
        assert player.stdout.readline().startswith("referee play: in the bluffaneer pool, 2 games at once")
        entry = _entry(stack, bot_id)
        assert entry is not None and entry["games_at_once"] == 2
        _wait(lambda: _played(stack, bot_id) >= 1, PATIENCE_S, "its first pool game")
    finally:
        player.send_signal(stop)  # Ctrl+C, or a process manager's stop
        out, err = player.communicate(timeout=60)
    assert player.returncode == 0, err
    assert "referee play: left the bluffaneer pool" in err and _entry(stack, bot_id) is None


def test_e2e_referee_play_with_a_pool_its_ruleset_is_not_says_so(stack: Stack, tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(BOT)
    bot = _register(stack, name="misplaced")  # a Bluffaneer bot
    done = subprocess.run([REFEREE, "play", "--bot", f"{tmp_path / 'mybot.py'}:choose", "--url", stack.url,
                           "--bot-id", bot["id"], "--secret", bot["secret"], "--pool", "bang"], env=stack.env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "bot_ruleset" in done.stderr, done.stderr


def test_e2e_the_javascript_outbound_bot_registers_goes_in_the_pool_and_leaves_on_ctrl_c(stack: Stack) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: examples/outbound_bot.mjs cannot run")
    player = subprocess.Popen([node, str(Path(__file__).resolve().parents[2] / "examples/outbound_bot.mjs"),
                               "--url", stack.url, "--register", "jsbot", "--ruleset", "bluffaneer",
                               "--pool", "bluffaneer", "--games-at-once", "1"], env=stack.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        registered = player.stdout.readline() if player.stdout else ""
        bot_id = registered.split("outbound bot ")[1].split()[0]
        assert player.stdout and player.stdout.readline().startswith("in the bluffaneer pool, 1 games at once")
        _wait(lambda: _played(stack, bot_id) >= 1, PATIENCE_S, "its first pool game")
        for game in (_log(stack, g["id"]) for g in _finished(stack)):  # it answered each turn itself, in time
            assert not [m for m in game["moves"] if m["data"].get("by", {}).get("bot") == bot_id
                        and "default" in m["data"]["by"]], game["moves"]
    finally:
        player.send_signal(signal.SIGINT)  # Ctrl+C
        out, err = player.communicate(timeout=60)
    assert player.returncode == 0, err
    assert "left the bluffaneer pool" in out and _entry(stack, bot_id) is None
