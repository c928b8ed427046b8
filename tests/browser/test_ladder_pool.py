"""Issue 42 items 3 and 6: the ladder page's pool section
(``/watch/ladder.html``) in a real Chromium over real processes. A webhook
bot that plays and a registered bot that never answers are put in the
Bluffaneer pool by their owner, with the built-in bots as its anchors; the
admin puts the built-in ``random`` in the BANG! The Dice Game pool. Once
their games are played (the silent bot paused), the page shows, for the
pool it fetched, each bot's status in words and the pool's stats, as a
person reads them; no console errors, no serious axe violation."""
from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Watched, serious_axe
from tests.e2e.conftest import Live, live_stack
from tests.webhook_bot import WebhookBot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: where the page's screenshots go, when asked (e.g. REFEREE_SCREENSHOTS=shots)
SHOTS = os.environ.get("REFEREE_SCREENSHOTS")
DEAD_URL = "http://127.0.0.1:9/turn"  # nothing listens: every turn is the bot's default


@pytest.fixture(scope="module")
def stack() -> Iterator[Live]:
    with live_stack(REFEREE_BOT_ALLOW_PRIVATE="1") as s:
        yield s


def _call(stack: Live, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.request(method, stack.url + path, json=body, headers=headers, timeout=30)
    assert r.ok, f"{method} {path}: {r.status_code} {r.text}"
    return r.json()


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def _count(n: float, one: str, many: str) -> str:
    return f"{n:g} {one if n == 1 else many}"


def _status(entry: dict[str, Any]) -> list[str]:
    """What a person must read of one entry's status (the page's sentence holds each)."""
    games = _count(entry["games_at_once"], "game", "games")
    playing = "playing no game now" if entry["playing"] == 0 else \
        f"playing {_count(entry['playing'], 'game', 'games')} now"
    if entry["status"] == "paused":
        return ["paused", entry["paused_reason"], "puts it in again"]
    if entry["bot"]["builtin"] and entry["since"] is None:
        return ["fixed anchor", playing, f"at most {games} at once"]
    head = ["put in by the admin"] if entry["bot"]["builtin"] else []
    if entry["status"] == "waiting":
        return [*head, "waiting for a table", playing, f"at most {games} at once"]
    return [*head, f"playing {games} now, all it may play at once"]


def _stats(stats: dict[str, Any]) -> list[str]:
    ms = stats["median_wait_ms"]
    words = [_count(stats["queue"], "bot waiting for a table", "bots waiting for a table"),
             _count(stats["playing_games"], "game being played", "games being played"),
             _count(round(stats["games_per_minute"], 1), "game started a minute", "games started a minute")]
    if ms > 0:
        words.append("median wait for a table " + (f"{ms} ms" if ms < 1000 else f"{ms / 1000:.1f} s"))
    return words


def _check_pool(page: Any, key: str) -> dict[str, Any]:
    """Open ``key``'s tab; the pool the page fetched, and its section drawn from it, checked."""
    with page.expect_response(lambda r: r.url.endswith(f"/v1/ladder/{key}/pool")) as shown:
        page.goto(page.url.split("#")[0] + f"#ladder={key}")
    pool: dict[str, Any] = shown.value.json()
    page.locator(f"#board[data-key='{key}']").wait_for(timeout=PATIENCE_S * 1000)
    page.locator("#pool:not([hidden]) #pool-entries li").first.wait_for(timeout=PATIENCE_S * 1000)
    items = page.locator("#pool-entries li")
    assert items.evaluate_all("lis => lis.map(li => li.dataset.bot)") == [e["bot"]["id"] for e in pool["entries"]]
    for i, entry in enumerate(pool["entries"]):
        text = items.nth(i).text_content() or ""
        assert text.startswith(entry["bot"]["name"]), text
        assert items.nth(i).get_attribute("data-status") == entry["status"]
        for words in _status(entry):
            assert words in text, (words, text)
    stats = page.locator("#pool-stats").text_content() or ""
    for words in _stats(pool["stats"]):
        assert words in stats, (words, stats)
    assert page.locator("#pool-about").text_content()
    return pool


def test_the_pool_section_says_each_bots_status_and_the_pools_stats(stack: Live, watched: Watched) -> None:
    with WebhookBot("first") as hook:
        steady = _call(stack, "POST", "/v1/bots", {"name": "Steady", "url": hook.url, "rulesets": ["bluffaneer"],
                                                   "seating": "public"})
        hook.secret = steady["secret"]
        silent = _call(stack, "POST", "/v1/bots", {"name": "Silent", "url": DEAD_URL, "rulesets": ["bluffaneer"]})
        _call(stack, "PUT", f"/v1/ladder/bluffaneer/pool/{steady['id']}", {"games_at_once": 2}, steady["secret"])
        _call(stack, "PUT", f"/v1/ladder/bluffaneer/pool/{silent['id']}", {"games_at_once": 1}, silent["secret"])
        _call(stack, "PUT", "/v1/ladder/bang-dice/pool/random", {"games_at_once": 1, "same_table": 3},
              stack.env["REFEREE_ADMIN_TOKEN"])
        deadline = time.monotonic() + PATIENCE_S * 4
        while True:  # games played: the silent bot paused, the steady one rated, the dice ladder begun
            pool = _call(stack, "GET", "/v1/ladder/bluffaneer/pool")
            ladders = {ladder["key"] for ladder in _call(stack, "GET", "/v1/ladder")["ladders"]}
            rated = {row["bot"]["id"]: row["games"] for row in _call(stack, "GET", "/v1/ladder/bluffaneer")["items"]} \
                if "bluffaneer" in ladders else {}
            statuses = {e["bot"]["id"]: e["status"] for e in pool["entries"]}
            if statuses[silent["id"]] == "paused" and rated.get(steady["id"], 0) >= 2 and "bang-dice" in ladders:
                break
            assert time.monotonic() < deadline, (statuses, rated, ladders)
            time.sleep(0.5)

        page = watched.page
        page.goto(f"{stack.url}/watch/ladder.html")
        page.locator("body[data-loaded=true]").wait_for(timeout=PATIENCE_S * 1000)
        pool = _check_pool(page, "bluffaneer")
        statuses = {e["bot"]["id"]: e["status"] for e in pool["entries"]}
        assert statuses[silent["id"]] == "paused" and statuses[steady["id"]] in ("waiting", "playing")
        assert [e["bot"]["id"] for e in pool["entries"] if e["bot"]["builtin"]] == ["random", "heuristic"]
        assert page.locator(f"#pool-entries li[data-bot='{silent['id']}'].paused").count() == 1
        assert serious_axe(page) == []
        _shot(page, "ladder-pool.png")

        dice = _check_pool(page, "bang-dice")
        assert [(e["bot"]["id"], e["bot"]["builtin"]) for e in dice["entries"]] == [("random", True)]
        assert serious_axe(page) == []
        _shot(page, "ladder-pool-dice.png")
    assert not watched.errors, watched.errors
