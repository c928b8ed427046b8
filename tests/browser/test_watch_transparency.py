"""Issue 41 item 4 in a real Chromium: the watch page checks a finished
game's inclusion in the transparency log (its signed final head is the leaf
the proof puts in the referee's signed checkpoint), and says a game whose
logged head was rewritten is not included. No console errors."""
from __future__ import annotations

import json

import pytest
import redis

from referee.store.redis_store import EventStore
from tests.browser.conftest import Watched
from tests.browser.test_watch import TIMEOUT_S, bot_game, finished_log, verdict
from tests.e2e.conftest import Live

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
