"""Issue 41 item 4 in a real Chromium: the watch page checks a finished
game's inclusion in the transparency log (its signed final head is the leaf
the proof puts in the referee's signed checkpoint), and says a game whose
logged head was rewritten is not included; a game Redis has forgotten (its
keys gone once its archive write was confirmed) is opened from the archive,
its log verifies and its inclusion is checked all the same. No console errors."""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests

from referee.store.redis_store import EventStore
from tests.browser.conftest import Watched, screenshot
from tests.browser.test_watch import TIMEOUT_S, bot_game, finished_log, verdict
from tests.e2e.conftest import Live, live_stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def _included(w: Watched, expected: str) -> str:
    w.page.locator(f"#inclusion[data-included={expected}]").wait_for(timeout=TIMEOUT_S * 1000)
    return str(w.page.locator("#inclusion").text_content())


def test_the_page_checks_a_finished_games_inclusion_and_catches_a_rewritten_head(live: Live,
                                                                                   watched: Watched) -> None:
    game = bot_game(live, "bang-faceoff")
    finished_log(live, game)
    watched.page.goto(f"{live.url}/watch/{game}")
    assert verdict(watched, "true") == ("", "")
    shown = _included(watched, "true")
    assert "signed tree of" in shown and "leaf" in shown

    # the log's entry for the game rewritten (another head), the tree rebuilt around it
    store = EventStore(redis.Redis.from_url(live.redis_url)).transparency
    games = [g.decode() for g, _ in sorted(store.redis.hgetall("tlog:{tlog}:games").items(),
                                           key=lambda item: int(item[1]))]
    leaves = store.leaves()
    at = games.index(game)
    forged = json.loads(leaves[at])
    forged["head"] = "0" * 64
    leaves[at] = json.dumps(forged, sort_keys=True, separators=(",", ":")).encode()
    store.rebuild(list(zip(games, leaves, strict=True)))
    watched.page.reload()
    assert verdict(watched, "true") == ("", "")  # the log itself still holds
    assert "rewritten" in _included(watched, "false")


@pytest.fixture
def archived_live(tmp_path: Path) -> Iterator[Live]:
    """``live`` keeping an archive (docs/archive.md) in a SQLite file of its own."""
    with live_stack(REFEREE_ARCHIVE_URL=f"sqlite:///{tmp_path}/archive.sqlite3") as stack:
        yield stack


def _forgotten(stack: Live, game: str) -> None:
    """Wait for the game's archive write to be confirmed, then delete its keys,
    as their expiry does (``REFEREE_RETENTION_ARCHIVED_S`` after the confirmation)."""
    client = redis.Redis.from_url(stack.redis_url)
    deadline = time.monotonic() + TIMEOUT_S
    while not client.hexists(f"game:{{{game}}}:meta", "archived"):
        assert time.monotonic() < deadline, f"game {game}'s archive write was not confirmed in {TIMEOUT_S} s"
        time.sleep(0.2)
    keys = list(client.scan_iter(match=f"game:{{{game}}}*"))
    assert keys and client.delete(*keys) == len(keys)
    assert not list(client.scan_iter(match=f"game:{{{game}}}*"))


def test_a_game_redis_forgot_is_opened_from_the_archive_and_verified_with_its_inclusion(
        archived_live: Live, watched: Watched) -> None:
    """Issue 41's "done when": a game expired from Redis is served from the
    archive to the page, whose log verifies and whose inclusion in the
    transparency log is checked in the browser (referee/web/tlog.js)."""
    game = bot_game(archived_live, "bang-faceoff")
    log = finished_log(archived_live, game)
    _forgotten(archived_live, game)
    watched.page.goto(f"{archived_live.url}/watch/{game}")
    assert verdict(watched, "true") == ("", "")
    shown = _included(watched, "true")
    assert "signed tree of" in shown and "leaf 0" in shown, shown
    screenshot(watched.page, "watch-archived", "spectator", "end")
    client = redis.Redis.from_url(archived_live.redis_url)
    assert client.hexists(f"game:{{{game}}}:meta", "archived")  # it came back from the archive
    assert requests.get(f"{archived_live.url}/v1/games/{game}/log", timeout=30).content == log
    assert watched.unexpected() == []
