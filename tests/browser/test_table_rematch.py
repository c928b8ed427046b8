"""Issue 40 item 4 (the page's rematch button): a finished game's seat page
offers "Play again"; the click deals the next game and takes the person to
the seat the next game kept for them (seats rotated: Face Off's two swap),
its token in the fragment only; the finished game's spectator page then
links the next game, and a series' game says its place in the series."""
from __future__ import annotations

import time
from typing import Any
from urllib.parse import unquote

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Watched, person_game, serious_axe
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def _resign(live: Live, game: str, token: str) -> None:
    """The person resigns as soon as the rules let them (the bot may move first)."""
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + PATIENCE_S
    while True:
        view = requests.get(f"{live.url}/v1/games/{game}", headers=headers, timeout=30).json()
        if view["status"] != "active":
            return
        if any(m.get("type") == "resign" for m in view["legal_moves"]):
            r = requests.post(f"{live.url}/v1/games/{game}/moves", json={"move": {"type": "resign"}},
                              headers=headers, timeout=30)
            assert r.status_code in (201, 409), r.text  # 409: the bot moved first; the next pass resigns
            continue
        assert time.monotonic() < deadline, "the person never got to resign"
        time.sleep(0.1)


def test_play_again_takes_the_person_to_their_seat_in_the_next_game(live: Live, watched: Watched) -> None:
    game, token = person_game(live, "bang-faceoff", bots=1, options={"series": {"best_of": 3}})
    _resign(live, game, token)
    page: Any = watched.page
    page.goto(f"{live.url}/watch/{game}#token={token}")
    assert page.locator("#rematch .series-place").text_content() == "Game 1 of a best of 3 series."
    assert serious_axe(page) == []
    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(lambda url: f"/watch/{game}" not in url and "#token=" in url, timeout=PATIENCE_S * 1000)
    following = page.url.split("/watch/")[1].split("#")[0]
    new_token = unquote(page.url.split("#token=")[1])
    mine = requests.get(f"{live.url}/v1/games/{following}", headers={"Authorization": f"Bearer {new_token}"},
                        timeout=30).json()
    assert mine["seat"] == 1 and mine["rematch_of"] == game  # ann had seat 0: the seats swapped
    assert mine["seats"][1]["name"] == "ann" and mine["seats"][0]["bot"] == "random"
    page.locator("#subtitle", has_text="seen by seat 1 (ann)").wait_for()
    assert page.locator("#rematch .series-place").text_content() == "Game 2 of a best of 3 series."
    spectator = watched.page.context.new_page()
    spectator.goto(f"{live.url}/watch/{game}")
    link = spectator.get_by_role("link", name="Watch the next game")
    assert link.get_attribute("href") == f"/watch/{following}"
    assert spectator.locator("#rematch-button").count() == 0  # a spectator has no seat to take
    assert token not in page.url and new_token not in spectator.content()
