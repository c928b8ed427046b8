"""Issue 40 items 1 and 7, in a real Chromium over real processes: the table
page shows each person's seat's presence — a filled dot and "here" while
its client is connected (the page's own open feed keeps its seat so), a
hollow one and "away" once it is gone, who plays it while it is taken over,
and the seat back when its person returns. The stack runs with a 2 s
presence window; every wait polls with generous patience."""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Watched
from tests.e2e.conftest import Live, live_stack


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """The e2e stack with a presence window of 2 s (a seat away is seen away soon)."""
    with live_stack(REFEREE_PRESENCE_WINDOW_S="2") as stack:
        yield stack


def _seat(page: Any, seat: int, inner: str) -> Any:
    return page.wait_for_selector(f"#seats .seat[data-seat='{seat}'] {inner}", timeout=PATIENCE_S * 1000)


def test_the_table_shows_presence_dots_a_seat_taken_over_and_back(live: Live, watched: Watched) -> None:
    r = requests.post(f"{live.url}/v1/games", json={
        "ruleset": "bluffaneer", "seats": [{"name": "ann"}, {"name": "bob"}, {"name": "rob", "bot": "random"}],
        "options": {"away_grace_s": 1, "away_bot": "random"}}, timeout=30)
    assert r.status_code == 201, r.text
    game, ann, bob = r.json()["id"], r.json()["seats"][0]["token"], r.json()["seats"][1]["token"]
    page = watched.page
    page.goto(f"{live.url}/watch/{game}#token={ann}")
    here = _seat(page, 0, ".presence[data-connected='true']")
    assert "here" in here.text_content()
    assert page.query_selector("#seats .seat[data-seat='2'] .presence") is None  # a bot's seat: no dot
    bobs = {"Authorization": f"Bearer {bob}"}
    assert requests.get(f"{live.url}/v1/games/{game}", headers=bobs, timeout=30).status_code == 200  # bob seen once
    away = _seat(page, 1, ".presence[data-connected='false']")  # then gone: the page's refresh shows it
    assert "away" in away.text_content()
    taken = _seat(page, 1, ".played-by[data-played-by='random']")
    assert "played by the random bot" in taken.text_content()
    assert page.query_selector("#seats .seat[data-seat='0'] .played-by") is None  # ann's open page keeps her here
    back = ("() => { const s = document.querySelector(\"#seats .seat[data-seat='1']\");"
            " return Boolean(s && !s.querySelector('.played-by')"
            " && s.querySelector(\".presence[data-connected='true']\")); }")
    deadline = time.monotonic() + PATIENCE_S
    while not page.evaluate(back):  # bob is back, and stays (his client asks for his view now and then)
        assert time.monotonic() < deadline, "the page never showed bob back"
        assert requests.get(f"{live.url}/v1/games/{game}", headers=bobs, timeout=30).status_code == 200
        page.wait_for_timeout(500)
