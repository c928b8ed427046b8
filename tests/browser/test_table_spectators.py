"""The table page of a game whose spectators see it late (issue 40 item 6),
in real Chromium against real processes: a spectator's page shows the game
at the delayed version and says how late; inside the delay it says that
nothing is shown yet, and draws without an error; a seat's page shows its
own view live, with the same words about the spectators."""
from __future__ import annotations

from typing import Any

import pytest
import requests

from referee.engine.platform import playing_moves
from tests.browser.conftest import PATIENCE_S, Watched
from tests.browser.test_watch import wait_shown
from tests.e2e.conftest import Live

pytestmark = pytest.mark.browser

OPTIONS = {"spectator_delay": 50, "spectator_omniscient": True}
SAID = "Spectators see this game 50 versions late, and every hand as late on its broadcast"


def _people_game(live: Live) -> tuple[str, list[str]]:
    # seeded: the seats' first playing moves make the same game every run, one that lasts past 70 moves (an
    # unseeded deal could end inside the 60 moves the delay needs, a sheriff shot early)
    r = requests.post(live.url + "/v1/games", json={"ruleset": "bang", "players": 4, "options": OPTIONS,
                                                    "seed": "late-page-0"}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def _play(live: Live, game: str, tokens: list[str], moves: int) -> None:
    """``moves`` moves by the seats, each the first playing move of a seat awaited (read from seat 0's view)."""
    for _ in range(moves):
        seat = requests.get(f"{live.url}/v1/games/{game}", headers=_auth(tokens[0]), timeout=30).json()["to_act"][0]
        mine = requests.get(f"{live.url}/v1/games/{game}", headers=_auth(tokens[seat]), timeout=30).json()
        r = requests.post(f"{live.url}/v1/games/{game}/moves", headers=_auth(tokens[seat]), timeout=30,
                          json={"move": next(iter(playing_moves(mine["legal_moves"]))),
                                "expected_version": mine["version"]})
        assert r.status_code == 201, r.text


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _said(watched: Watched) -> str:
    note = watched.page.locator("#spectator-delay")
    note.wait_for(timeout=PATIENCE_S * 1000)
    return str(note.text_content())


def test_a_spectators_page_shows_the_game_late_and_says_so(live: Live, watched: Watched) -> None:
    """Inside the delay the page says nothing is shown yet (and draws no
    error); once the game is older than the delay it draws the spectator's
    view at the delayed version, the one the API serves, never the head."""
    game, tokens = _people_game(live)
    watched.page.goto(f"{live.url}/watch/{game}")
    assert _said(watched) == SAID + ": nothing of it is shown until it is 50 versions old."
    assert wait_shown(watched, 0)["state"] == {}
    _play(live, game, tokens, 60)
    served = requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()
    head = requests.get(f"{live.url}/v1/games/{game}", headers=_auth(tokens[0]), timeout=30).json()["version"]
    assert 0 < served["version"] <= head - 50
    shown = wait_shown(watched, served["version"])
    assert shown == served
    assert _said(watched) == SAID + "."
    assert watched.page.locator(".tabletop").is_visible() and watched.page.locator("#seats .seat").count() == 4


@pytest.mark.parametrize(("ruleset", "players"), [("bang", 4), ("bang-faceoff", 2), ("bang-dice", 3),
                                                  ("bluffaneer", 3)])
def test_inside_the_delay_a_spectators_page_draws_no_table_of_made_up_facts(
        live: Live, watched: Watched, ruleset: str, players: int) -> None:
    """A new user's trial of issue 40: inside the delay the view has no state, and each ruleset's table was
    drawn from nothing — "seat undefined is about to roll", Face Off's "undefined cards" on a map "A to @",
    Bluffaneer's "0 coins" and face-down cards. Now only the note is shown until the game is old enough."""
    r = requests.post(live.url + "/v1/games", json={"ruleset": ruleset, "players": players,
                                                    "options": {"spectator_delay": 8}}, timeout=30)
    assert r.status_code == 201, r.text
    watched.page.goto(f"{live.url}/watch/{r.json()['id']}")
    assert _said(watched).endswith(": nothing of it is shown until it is 8 versions old.")
    assert wait_shown(watched, 0)["state"] == {}
    table = watched.page.locator("#table")
    assert watched.page.locator("#seats-wrap > *").count() == 0 and watched.page.locator(".tabletop").is_hidden()
    assert "undefined" not in (table.inner_text() or "")


def test_a_seats_page_is_live_and_tells_the_seat_how_late_spectators_see_it(live: Live, watched: Watched) -> None:
    game, tokens = _people_game(live)
    _play(live, game, tokens, 5)
    watched.page.goto(f"{live.url}/watch/{game}#token={tokens[1]}")
    head: Any = requests.get(f"{live.url}/v1/games/{game}", headers=_auth(tokens[1]), timeout=30).json()
    assert wait_shown(watched, head["version"])["seat"] == 1
    assert _said(watched) == SAID + "."


def test_a_spectator_reads_the_chat_as_late_as_the_game_and_is_told_so_when_it_talks(
        live: Live, watched: Watched) -> None:
    """Issue 40 items 5 and 6: where spectators may talk, a spectator of a game shown late is told its message
    shows once the game is that much further on, and the page lists it then, not before."""
    r = requests.post(live.url + "/v1/games", json={"ruleset": "bang", "players": 4, "seed": "late-page-0",
                                                    "options": {"spectator_delay": 8, "chat": "everyone"}}, timeout=30)
    assert r.status_code == 201, r.text
    game, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    _play(live, game, tokens, 3)
    page = watched.page
    page.goto(f"{live.url}/watch/{game}")
    box = page.locator("#chat-text")
    box.wait_for(timeout=PATIENCE_S * 1000)
    box.fill("hello from the rail")
    box.press("Enter")
    notice = page.locator("#chat-notice")
    page.wait_for_function("() => document.getElementById('chat-notice').textContent.startsWith('Sent.')",
                           timeout=PATIENCE_S * 1000)
    assert notice.text_content() == ("Sent. Spectators see this table 8 versions late: your message shows here "
                                     "once the game is that much further on.")
    said = requests.get(f"{live.url}/v1/games/{game}/chat", headers=_auth(tokens[0]), timeout=30).json()
    assert [m["text"] for m in said["messages"]] == ["hello from the rail"]
    assert page.locator("#chat-messages li").count() == 0 and page.locator("#chat-empty").is_visible()
    _play(live, game, tokens, 6)
    assert requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()["version"] >= said["messages"][0]["seq"]
    page.locator("#chat-messages li.chat-message").first.wait_for(timeout=PATIENCE_S * 1000)
    assert page.locator("#chat-messages li").first.text_content() == "a spectator: hello from the rail"
