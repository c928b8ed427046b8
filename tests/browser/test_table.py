"""Issue 38: the table in a real Chromium, played like a person. A BANG!
game is started from the page's "new game" form (one person, three built-in
bots) and played to its end by clicking only (and once by the keyboard):
the test reads the API (GET) to know when the page has caught up and to
check that the page shows what the seat's view holds (hand, lives, role,
prompt), never to move. On the way: resigning asks to confirm, the page
reads as one column at phone width, axe-core finds no serious violation,
no request leaves the referee's origin, and the finished game is still
verified on the page. No console errors, on the seat's page and on a
spectator's.

``REFEREE_SCREENSHOTS=docs/screenshots`` (``make screenshots``) writes
``bang-{seat,spectator}-{mid,end}.png``."""
from __future__ import annotations

import random
import time
from typing import Any

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Seat, Watched, screenshot, serious_axe, verified
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: what a control of the seat's own is, on the BANG! table: a card of the hand, a target, a prompt button
CONTROLS = "#targets button.target, #hand button.card:not([disabled]), #moves .move-list button:not([disabled])"
#: the element the keyboard is on, as "targets", "hand", "moves" or ""
FOCUS_JS = """() => { const a = document.activeElement; if (!a || a.tagName !== 'BUTTON') return '';
  if (a.closest('#targets')) return a.classList.contains('target') ? 'targets' : '';
  if (a.closest('#hand')) return 'hand'; if (a.closest('#moves .move-list')) return 'moves'; return ''; }"""


def hand(view: Any) -> list[str]:
    return list(view["state"]["hand"])


def start_from_the_form(live: Live, w: Watched) -> tuple[str, str]:
    """The index page's form: BANG!, ann (a person) and three random bots;
    the link it gives ann carries her token in the fragment only."""
    page = w.page
    page.goto(f"{live.url}/watch/")
    page.select_option("#newgame-ruleset", "bang-faceoff")  # two seats, no more and no fewer: nothing to add or remove
    assert page.locator("#newgame-seats .seat-row").count() == 2
    assert not page.get_by_role("button", name="Add a seat").is_visible()
    assert not page.get_by_role("button", name="Remove this seat").first.is_visible()
    page.select_option("#newgame-ruleset", "bang")
    rows = page.locator("#newgame-seats .seat-row")
    assert rows.count() == 4
    rows.nth(0).locator("input.seat-name-input").fill("ann")
    for bot in ("heuristic", "random"):  # a seat's untyped name follows its kind
        rows.nth(1).locator("select.seat-who").select_option(bot)
        assert rows.nth(1).locator("input.seat-name-input").input_value() == f"{bot} bot 2"
    assert [rows.nth(k).locator("select.seat-who").input_value() for k in range(4)] == [
        "person", "random", "random", "random"]
    page.get_by_role("button", name="Start the game").click()
    links = page.locator("#newgame-out a.seat-link")
    links.first.wait_for(timeout=PATIENCE_S * 1000)
    assert links.count() == 1 and links.first.text_content() == "Play as ann"
    href = links.first.get_attribute("href") or ""
    assert href.startswith("/watch/") and "?" not in href and "#token=" in href, href
    page.locator(f"#games a[href='{href.split('#')[0]}']").wait_for(timeout=PATIENCE_S * 1000)  # listed, no reload
    game, token = href[len("/watch/"):].split("#token=")
    links.first.click()
    return game, token


def wait_moved_or_targets(seat: Seat, version: int) -> bool:
    """After a click: True once target buttons show (the card asks for its
    target), False once the page shows a later version (the move was made)."""
    seat.page.wait_for_function(
        "v => document.querySelector('#targets button.target') !== null ||"
        " JSON.parse(document.getElementById('shown-view').textContent).version > v",
        arg=version, timeout=PATIENCE_S * 1000)
    return seat.page.locator("#targets button.target").count() > 0


def click_a_move(seat: Seat, version: int, rng: random.Random) -> None:
    """One move by the mouse: a card of the hand or a prompt button, chosen at
    random; a card that needs a target is followed by a click on one."""
    choices = seat.page.locator(CONTROLS)
    n = choices.count()
    assert n > 0
    choices.nth(rng.randrange(n)).click()
    if wait_moved_or_targets(seat, version):
        targets = seat.page.locator("#targets button.target")
        targets.nth(rng.randrange(targets.count())).click()
        seat.after(version)


def key_a_move(seat: Seat, version: int) -> None:
    """One move by the keyboard only: Tab to the first control of the seat's
    own, Enter; for a card that asks for its target, Tab on to one, Enter."""
    page = seat.page
    page.locator("h1").click()  # start from the top of the page
    wanted: tuple[str, ...] = ("hand", "moves", "targets")
    for _ in range(400):
        page.keyboard.press("Tab")
        where = page.evaluate(FOCUS_JS)
        if where in wanted:
            page.keyboard.press("Enter")
            if where == "targets" or not wait_moved_or_targets(seat, version):
                seat.after(version)
                return
            wanted = ("targets",)  # the card asks for its target: Tab on to one
    raise AssertionError("no control of the seat's was reached by Tab")


def phone_width(page: Any) -> None:
    """At 390 px: one column (every seat as wide as the table, one under
    another) and nothing wider than the screen."""
    page.set_viewport_size({"width": 390, "height": 800})
    try:
        page.wait_for_function("() => document.documentElement.scrollWidth <= 390", timeout=PATIENCE_S * 1000)
        boxes = [b for b in (s.bounding_box() for s in page.locator("#seats .seat").all()) if b is not None]
        assert len(boxes) == 4
        assert len({round(b["x"]) for b in boxes}) == 1, boxes
        assert all(b["width"] <= 390 for b in boxes)
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def resign_asks_first(seat: Seat, version: int) -> None:
    """"Resign…" opens a confirmation; "No, keep playing" closes it, and no move was made."""
    page = seat.page
    page.get_by_role("button", name="Resign (asks to confirm)").click()
    assert page.get_by_role("button", name="Yes, resign").is_visible()
    page.get_by_role("button", name="No, keep playing").click()
    page.get_by_role("button", name="Resign (asks to confirm)").wait_for()
    assert seat.api_view()["version"] == version


def test_bang_started_from_the_form_and_played_to_the_end_by_clicking(live: Live, watched: Watched) -> None:
    page = watched.page
    game, token = start_from_the_form(live, watched)
    seat = Seat(live, watched, game, token)
    spectator = Watched(page.context.new_page())
    spectator.page.set_default_timeout(PATIENCE_S * 1000)
    spectator.page.goto(f"{live.url}/watch/{game}")
    page.bring_to_front()  # a page in the background gets an animation frame a second: every click would wait for two
    rng = random.Random(38)
    moves = checks = 0
    resigned_asked = False
    deadline = time.monotonic() + 15 * 60
    while (turn := seat.my_turn()) is not None:
        assert time.monotonic() < deadline, "the game did not end in 15 minutes"
        view, _ = turn
        if moves % 3 == 0:
            seat.agrees(hand)
            checks += 1
            said = page.locator("#pending").text_content() or ""  # a sentence in the plug-in's words, not data
            assert said.startswith("Waiting for you to ") and "to decide:" not in said, said
        if not resigned_asked and any(m["type"] == "resign" for m in view["legal_moves"]):
            resign_asks_first(seat, view["version"])
            resigned_asked = True
        if moves == 1:
            assert serious_axe(page) == []
        if moves == 2:
            phone_width(page)
        if moves == 4:
            screenshot(page, "bang", "seat", "mid")
            screenshot(spectator.page, "bang", "spectator", "mid")
            assert serious_axe(spectator.page) == []
        if moves == 3:
            key_a_move(seat, view["version"])
        else:
            click_a_move(seat, view["version"], rng)
        moves += 1
    assert moves >= 3 and checks >= 1 and resigned_asked, (moves, checks, resigned_asked)
    page.locator("#result").wait_for(timeout=PATIENCE_S * 1000)
    verified(page)
    final = requests.get(f"{live.url}/v1/games/{game}", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    assert final["status"] == "finished"
    mine = next(s for s in final["result"]["seats"] if s["seat"] == 0)
    said = {"win": "won", "loss": "lost", "draw": "drew"}.get(mine["outcome"], mine["outcome"])
    assert f"you {said}." in (page.locator("#result").text_content() or "")
    assert not any(token in u for u in watched.urls + spectator.urls), "a seat token travelled in a URL"
    assert all(u.startswith(live.url + "/") or u.startswith("data:") for u in watched.urls + spectator.urls), \
        "a request left the referee's origin"
    spectator.page.locator("#result").wait_for(timeout=PATIENCE_S * 1000)
    verified(spectator.page)
    screenshot(page, "bang", "seat", "end")
    screenshot(spectator.page, "bang", "spectator", "end")
    assert serious_axe(page) == []
    assert spectator.errors == [], spectator.errors
