"""A whole game played from one seat of the table page by clicking only
(issue 38): the person at seat 0 against built-in bots, each decision made
with the mouse on the page's own controls (no move ever sent by the test:
the API is only read, to hold the page to the seat's view). The per-ruleset
tests (``test_table_dice``, ``test_table_faceoff``, ``test_table_bluffaneer``)
give the clicks and the checks of what their table draws; this module keeps
the loop, the waits, the comparisons every table shares and the screenshots.

``REFEREE_SCREENSHOTS=docs/screenshots`` writes ``<name>-{seat,spectator}-{mid,end}.png``."""
from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from tests.browser.conftest import Watched
from tests.e2e.conftest import Live
from tests.e2e.test_worker_shutdown import wait_for

TIMEOUT_S = 120
#: a game's decisions at most (a whole game takes far fewer)
MOST_DECISIONS = 400
#: how many decisions are compared whole with the seat's view (and the last page)
CHECKED = 6

Json = dict[str, Any]
#: (page, the seat's view now, a seeded random) -> clicks one decision on the page
Clicker = Callable[[Any, Json, random.Random], None]
#: (page, the seat's view the page shows) -> asserts what the ruleset's table draws
Checker = Callable[[Any, Json], None]


def new_game(live: Live, ruleset: str, bots: int, options: Json | None = None) -> tuple[str, str]:
    """A table with a person at seat 0 and built-in random bots at the others: its id and seat 0's token."""
    body: Json = {"ruleset": ruleset, "seats": [{"name": "ann"}] + [{"name": f"bot{i}", "bot": "random"}
                                                                   for i in range(1, bots + 1)]}
    if options:
        body["options"] = options
    r = requests.post(live.url + "/v1/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    return str(created["id"]), str(created["seats"][0]["token"])


def seat_view(live: Live, game: str, token: str) -> Json:
    r = requests.get(f"{live.url}/v1/games/{game}", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def shown(page: Any) -> Json | None:
    """The view the page drew last (its ``#shown-view``)."""
    out: Json | None = json.loads(page.locator("#shown-view").text_content() or "null")
    return out


def version_shown(page: Any) -> int:
    return int((shown(page) or {}).get("version", -1))


def my_moves(page: Any) -> list[Json]:
    """The moves the page's controls send, read from their buttons (resigning left out)."""
    raw = page.eval_on_selector_all("#moves [data-move]", "bs => bs.filter(b => !b.disabled).map(b => b.dataset.move)")
    return [m for m in (json.loads(x) for x in raw) if m.get("type") != "resign"]


def over(page: Any) -> bool:
    return bool(page.locator("#result").is_visible())


def my_turn(page: Any) -> bool:
    """The page shows a view in which the seat has a move to make (a path's
    squares or a die may be its first controls: no move button yet)."""
    view = shown(page) or {}
    return any(m.get("type") != "resign" for m in view.get("legal_moves") or []) and \
        page.locator("#moves button:not([disabled])").count() > 0


def check_common(page: Any, view: Json) -> None:
    """What every table shows of the seat's view: the prompt, its awaited
    seats, and every move button a legal move of the view."""
    pending = view.get("pending")
    box = page.locator("#pending")
    if pending:
        assert box.get_attribute("data-kind") == str(pending["kind"])
        assert json.loads(box.get_attribute("data-awaiting") or "null") == pending.get("awaiting", [])
    else:
        assert box.count() == 0
    legal = view["legal_moves"]
    for move in my_moves(page):
        assert move in legal, f"the page offers {move}, not a legal move of {legal}"


def screenshot(page: Any, name: str) -> None:
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=True)


def spectator_shot(browser: Any, live: Live, game: str, name: str, version: int) -> None:
    """The same game as a spectator sees it (no token), once it shows ``version`` or later."""
    if not os.environ.get("REFEREE_SCREENSHOTS"):
        return
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{live.url}/watch/{game}")
        wait_for(f"version {version}", lambda: version_shown(page) >= version, TIMEOUT_S)
        screenshot(page, name)
    finally:
        context.close()


def play_to_the_end(watched: Watched, browser: Any, live: Live, game: str, token: str, name: str,
                    click: Clicker, check: Checker, mid_kind: str, seed: int = 38) -> Json:
    """Plays seat 0's every decision by clicking until the game is over,
    holding the page to the seat's view at several moments; the final view.
    The mid-game screenshots show the first prompt of ``mid_kind`` after the
    first few decisions (the one that shows the table's own controls best)."""
    page = watched.page
    page.goto(f"{live.url}/watch/{game}#token={token}")
    rng = random.Random(seed)
    decisions = 0
    shot = False
    while decisions < MOST_DECISIONS:
        wait_for("a decision or the end", lambda: over(page) or my_turn(page), TIMEOUT_S)
        if over(page):
            break
        view = seat_view(live, game, token)
        if view["status"] == "finished" or not view["legal_moves"] or not shows(page, view["version"], 15):
            continue  # the page and the table are a step apart (a claim window's timeout): look again
        if decisions < CHECKED or decisions % 10 == 0:
            check_common(page, view)
            check(page, view)
        if not shot and decisions >= CHECKED and (view["pending"] or {}).get("kind") == mid_kind:
            shot = True
            screenshot(page, f"{name}-seat-mid")
            spectator_shot(browser, live, game, f"{name}-spectator-mid", view["version"])
        click(page, view, rng)
        decisions += 1
        moved_on(page, view["version"])
    assert over(page), f"the game did not end in {MOST_DECISIONS} decisions"
    final = seat_view(live, game, token)
    assert final["status"] == "finished"
    assert shows(page, final["version"], TIMEOUT_S), "the page never showed the final version"
    assert decisions > 0, "the seat never had a decision to make"
    check_common(page, final)
    check(page, final)
    screenshot(page, f"{name}-seat-end")
    spectator_shot(browser, live, game, f"{name}-spectator-end", final["version"])
    return final


def shows(page: Any, version: int, timeout_s: float) -> bool:
    """Whether the page comes to show ``version`` within ``timeout_s``."""
    try:
        wait_for(f"version {version}", lambda: version_shown(page) == version, timeout_s)
    except AssertionError:
        return False
    return True


def moved_on(page: Any, version: int) -> None:
    """Waits until the page shows a later version than ``version``, the end, or a refusal."""
    wait_for("the table moving on", lambda: over(page) or version_shown(page) != version
             or page.locator("#refusal:not([hidden])").count() > 0, TIMEOUT_S)


def click_any_move(page: Any, rng: random.Random) -> None:
    """Clicks one of the move buttons of the prompt (never resigning)."""
    buttons = page.locator("#moves [data-move]:not([disabled])")
    picks = [k for k in range(buttons.count()) if json.loads(buttons.nth(k).get_attribute("data-move") or "{}")
             .get("type") != "resign"]
    assert picks, "no move button to click"
    buttons.nth(rng.choice(picks)).click()
