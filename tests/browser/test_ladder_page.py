"""Issue 42 item 2: the ladder page (``/watch/ladder.html``) in a real
Chromium over real processes. A registered webhook bot (which answers
nonsense at some turns) and the built-in bots play real rated games; the
worker records them; the page, reached from the games' page, ranks the bots
as ``GET /v1/ladder/{key}`` does, marks the provisional one, shows each
one's form as W/L chips and its health in words; a bot's profile draws its
rating after each game, lists its games linking to their pages, and one of
those links opens the game's replay. No console errors, no serious axe
violation."""
from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from referee.engine.platform import playing_moves
from tests.browser.conftest import PATIENCE_S, Watched, serious_axe
from tests.e2e.conftest import Live, live_stack
from tests.webhook_bot import WebhookBot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

GAMES = 3
#: where the page's screenshots go, when asked (e.g. REFEREE_SCREENSHOTS=shots)
SHOTS = os.environ.get("REFEREE_SCREENSHOTS")


@pytest.fixture(scope="module")
def stack() -> Iterator[Live]:
    with live_stack(REFEREE_BOT_ALLOW_PRIVATE="1") as s:
        yield s


class Sloppy(WebhookBot):
    """Plays its last playing move, but answers nonsense at every fifth turn (its default is played)."""

    def __init__(self) -> None:
        super().__init__("first")
        self.turns: dict[tuple[str, int, int], int] = {}
        self.lock = threading.Lock()
        self.script = self.answer

    def answer(self, payload: dict[str, Any]) -> bytes:
        with self.lock:
            n = self.turns.setdefault((payload["game"], payload["version"], payload["seat"]), len(self.turns) + 1)
        if n % 5 == 0:
            return json.dumps({"move": {"type": "fly"}}).encode()
        return json.dumps({"move": list(playing_moves(payload["legal_moves"]))[-1]}).encode()


def _get(stack: Live, path: str) -> Any:
    r = requests.get(stack.url + path, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


def _health(h: dict[str, Any]) -> str:
    """The health's words, as a person reads them (the page's own sentence)."""
    def count(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"
    failed = [w for w in (count(h["timeouts"], "timeout", "timeouts") if h["timeouts"] else None,
                          count(h["invalid"], "invalid answer", "invalid answers") if h["invalid"] else None) if w]
    words = (", ".join(failed) if failed else "no timeouts or invalid answers") + " in " + \
        count(h["moves"] + h["timeouts"] + h["invalid"], "move", "moves")
    if h["median_ms"] is None:
        return words
    return words + ("; median under 1 ms" if h["median_ms"] < 1 else f"; median {h['median_ms']} ms")


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def _rated_games(stack: Live, bot: str) -> list[str]:
    games = []
    for _ in range(GAMES):
        r = requests.post(stack.url + "/v1/games", timeout=30, json={
            "ruleset": "bluffaneer", "seats": [{"bot": bot}, {"bot": "heuristic"}, {"bot": "random"}],
            "options": {"rated": True}})
        assert r.status_code == 201, r.text
        games.append(str(r.json()["id"]))
    r = requests.post(stack.url + "/v1/games", timeout=30, json={  # a ladder with roles: BANG!'s
        "ruleset": "bang", "seats": [{"bot": "heuristic"}] + [{"bot": "random"}] * 3, "options": {"rated": True}})
    assert r.status_code == 201, r.text
    bang = str(r.json()["id"])
    deadline = time.monotonic() + PATIENCE_S * 2
    while {g["id"] for g in _get(stack, f"/v1/bots/{bot}/profile")["games"]} != set(games) or \
            bang not in {g["id"] for g in _get(stack, "/v1/bots/heuristic/profile")["games"]}:
        assert time.monotonic() < deadline, "the rated games were never recorded"
        time.sleep(0.2)
    return games


def test_the_ladder_ranks_real_bots_and_a_profile_shows_their_games(stack: Live, watched: Watched) -> None:
    with Sloppy() as hook:
        r = requests.post(stack.url + "/v1/bots", timeout=30, json={
            "name": "Sloppy", "url": hook.url, "rulesets": ["bluffaneer"], "seating": "public"})
        assert r.status_code == 201, r.text
        hook.secret, bot = r.json()["secret"], r.json()["id"]
        games = _rated_games(stack, bot)
    table = _get(stack, "/v1/ladder/bluffaneer")
    assert [row["bot"]["id"] for row in table["items"]] != [], table
    page = watched.page

    # from the games' page to the ladder
    page.goto(f"{stack.url}/watch/")
    page.locator("#games li").first.wait_for(timeout=PATIENCE_S * 1000)
    _shot(page, "index.png")
    page.get_by_role("link", name="The bot ladder").click()
    page.locator("body[data-loaded=true]").wait_for(timeout=PATIENCE_S * 1000)
    keys = [ladder["key"] for ladder in _get(stack, "/v1/ladder")["ladders"]]
    assert page.locator("#tabs [role=tab]").evaluate_all("tabs => tabs.map(t => t.dataset.key)") == keys
    assert set(keys) == {"bang", "bluffaneer"}
    assert page.locator(f"#tabs [role=tab][data-key='{keys[0]}']").get_attribute("aria-selected") == "true"
    tab = page.locator("#tabs [role=tab][data-key=bluffaneer]")
    tab.click()
    page.locator("#board[data-key=bluffaneer] tbody tr").first.wait_for(timeout=PATIENCE_S * 1000)
    assert "Bluffaneer" in (tab.text_content() or "")
    rows = page.locator("#board tbody tr")
    assert rows.count() == len(table["items"]) == 3
    for i, item in enumerate(table["items"]):
        row = rows.nth(i)
        assert row.get_attribute("data-bot") == item["bot"]["id"]
        assert row.locator("td.rank").text_content() == str(item["rank"])
        assert row.locator(".bot-link").text_content() == item["bot"]["name"]
        assert row.locator(".rating strong").text_content() == f"{item['rating']['ordinal']:.1f}"
        assert (row.locator(".badge.provisional").count() == 1) == item["provisional"]
        assert row.locator(".chip").all_text_contents() == item["form"]
        assert row.locator("td.health").text_content() == _health(item["health"])
    sloppy = next(item for item in table["items"] if item["bot"]["id"] == bot)
    assert sloppy["provisional"] and sloppy["health"]["invalid"] > 0
    assert "invalid answer" in (page.locator(f"#board tr[data-bot='{bot}'] td.health").text_content() or "")
    assert serious_axe(page) == []
    _shot(page, "ladder.png")

    # BANG!'s tab: its own table, with the wins of each role
    page.locator("#tabs [role=tab][data-key=bang]").click()
    page.locator("#tabs [role=tab][data-key=bang][aria-selected=true]").wait_for(timeout=PATIENCE_S * 1000)
    page.locator("#board[data-key=bang] tbody tr").first.wait_for(timeout=PATIENCE_S * 1000)
    bang_table = _get(stack, "/v1/ladder/bang")
    assert page.locator("#board tbody tr").evaluate_all("trs => trs.map(tr => tr.dataset.bot)") == \
        [item["bot"]["id"] for item in bang_table["items"]]
    roles = next(item for item in bang_table["items"] if item["bot"]["id"] == "heuristic")["roles"]
    shown = page.locator("#board tr[data-bot=heuristic] .roles-cell").text_content() or ""
    assert all(f"{role.replace('_', ' ')} {v['wins']}/{v['games']}" in shown for role, v in roles.items()), shown
    assert serious_axe(page) == []
    _shot(page, "ladder-bang.png")
    page.locator("#tabs [role=tab][data-key=bluffaneer]").click()
    page.locator("#board[data-key=bluffaneer] tbody tr").first.wait_for(timeout=PATIENCE_S * 1000)

    # the bot's profile: its rating after each game, its health, its games linking to their pages
    page.locator(f"#board tr[data-bot='{bot}'] .bot-link").click()
    page.locator("#profile:not([hidden]) #profile-name").wait_for(timeout=PATIENCE_S * 1000)
    page.locator("body[data-loaded=true]").wait_for(timeout=PATIENCE_S * 1000)
    profile = _get(stack, f"/v1/bots/{bot}/profile")
    standing = profile["ladders"]["bluffaneer"]
    assert page.locator("#profile-name").text_content() == f"Sloppy ({bot})"
    part = page.locator("#profile-ladders [data-ladder=bluffaneer]")
    assert part.locator("circle.dot").count() == len(standing["history"]) == GAMES
    assert part.locator("circle.dot.won").count() == sum(1 for h in standing["history"] if h["won"])
    assert part.locator(".health").text_content() == f"Health: {_health(standing['health'])}."
    links = page.locator("#profile-games tbody tr a")
    assert sorted(links.nth(i).get_attribute("href") or "" for i in range(links.count())) == \
        sorted(f"/watch/{g}" for g in games)
    assert serious_axe(page) == []
    _shot(page, "profile.png")

    # back to the ladder, then a game's page from the profile
    page.locator("#profile-back").click()
    page.locator("#board:not([hidden]) tbody tr").first.wait_for(timeout=PATIENCE_S * 1000)
    page.go_back()
    page.locator("#profile:not([hidden]) #profile-games tbody tr").first.wait_for(timeout=PATIENCE_S * 1000)
    page.locator(f"#profile-games tr[data-game='{games[0]}'] a").click()
    page.locator("body[data-verified=true] #verdict").wait_for(timeout=PATIENCE_S * 1000)
    assert games[0] in (page.locator("#title").text_content() or "")
