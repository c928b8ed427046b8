"""Issue 40's options at the new-game form (a new user's trial of issue 40:
the form had no clock, no chat and no spectator choice), in a real Chromium
over real processes. A person picks a clock, who may talk, a spectator delay,
who plays a seat that leaves and a series in words, starts the game, and the
game is created with exactly those options (docs/clocks.md, chat.md,
spectators.md, presence.md, rematch.md); their seat shows its clock in m:ss.
A form left as it is sends none of them."""
from __future__ import annotations

import re
from typing import Any

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Watched
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def _pick(page: Any, label: str, words: str) -> None:
    page.get_by_label(label, exact=True).select_option(label=words)


def _posted(page: Any) -> list[Any]:
    """The bodies the page posts to create a game."""
    bodies: list[Any] = []
    page.on("request", lambda r: bodies.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/v1/games") else None)
    return bodies


def _started(page: Any) -> tuple[str, str]:
    page.get_by_role("button", name="Start the game").click()
    link = page.locator("#newgame-out a.seat-link").first
    link.wait_for(timeout=PATIENCE_S * 1000)
    game, token = (link.get_attribute("href") or "")[len("/watch/"):].split("#token=")
    return game, token


def test_the_form_offers_a_clock_chat_spectators_leaving_and_a_series_in_words(live: Live, watched: Watched) -> None:
    page = watched.page
    bodies = _posted(page)
    page.goto(f"{live.url}/watch/")
    page.select_option("#newgame-ruleset", "bang")
    _pick(page, "Clock", "5:00 a seat, +5 s a move")
    _pick(page, "Table chat", "players and spectators may talk")
    _pick(page, "Spectators see", "the game 50 steps late, with every hand (a broadcast)")
    _pick(page, "A person who leaves", "when away a while: a built-in bot (heuristic) plays for them")
    _pick(page, "Play", "a best of 3 series")
    page.select_option("#newgame-ruleset", "bluffaneer")  # another game keeps the table's choices
    page.select_option("#newgame-ruleset", "bang")
    page.locator("#newgame-seats .seat-row").nth(0).locator("input.seat-name-input").fill("ann")
    game, token = _started(page)
    view = requests.get(f"{live.url}/v1/games/{game}", headers={"Authorization": f"Bearer {token}"},
                        timeout=30).json()
    assert view["clock"]["bank_ms"] == 300_000 and view["clock"]["increment_ms"] == 5_000
    assert view["spectator_delay"] == {"versions": 50, "omniscient": True}
    assert view["series"]["best_of"] == 3
    said = requests.post(f"{live.url}/v1/games/{game}/chat", json={"text": "hi from a spectator"}, timeout=30)
    assert said.status_code == 201, said.text  # chat: everyone
    assert bodies[0]["options"] == {"clock": {"bank_s": 300, "increment_s": 5}, "chat": "everyone",
                                    "spectator_delay": 50, "spectator_omniscient": True, "away_bot": "heuristic",
                                    "series": {"best_of": 3}}, bodies
    page.goto(f"{live.url}/watch/{game}#token={token}")
    clock = page.locator("[data-seat='0'] [data-seat-clock='0']")
    clock.wait_for(timeout=PATIENCE_S * 1000)
    assert re.fullmatch(r"\d+:\d\d (left|to answer|on the clock)", clock.text_content() or ""), clock.text_content()


def test_a_form_left_as_it_is_sends_no_table_option(live: Live, watched: Watched) -> None:
    page = watched.page
    bodies = _posted(page)
    page.goto(f"{live.url}/watch/")
    page.select_option("#newgame-ruleset", "bang")
    _started(page)
    assert len(bodies) == 1 and "options" not in bodies[0], bodies
