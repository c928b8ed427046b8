"""A whole game played from one seat of the table page by clicking only
(issue 38): the person at seat 0 against built-in bots, each decision made
with the mouse on the page's own controls (no move ever sent by the test:
the API is only read, to hold the page to the seat's view). The per-ruleset
tests (``test_table_dice``, ``test_table_faceoff``, ``test_table_bluffaneer``)
give the clicks and the checks of what their table draws; this module keeps
the loop on ``conftest.Seat`` (the page and the seat's view, settled), the
mid-game and final checks, axe-core's and the screenshots
(``REFEREE_SCREENSHOTS``: ``<name>-{seat,spectator}-{mid,end}.png``)."""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from tests.browser.conftest import PATIENCE_S, Seat, Watched, prompt_buttons, screenshot, serious_axe, verified

#: a game's decisions at most (a whole game takes far fewer)
MOST_DECISIONS = 400
#: how many decisions are held whole to the seat's view, first (then every tenth, and the end)
CHECKED = 6

Json = dict[str, Any]
#: (page, the seat's view now, a seeded random) -> clicks one decision on the page
Clicker = Callable[[Any, Json, random.Random], None]
#: (page, the seat's view the page shows) -> asserts what the ruleset's table draws
Checker = Callable[[Any, Json], None]


def play_to_the_end(seat: Seat, name: str, click: Clicker, check: Checker, mid_kind: str,
                    hand: Callable[[Any], list[str]] | None = None, seed: int = 38) -> Json:
    """Plays the seat's every decision by clicking until the game is over,
    holding the page to the seat's view (``Seat.holds``: lives, own role,
    prompt, controls, ``hand``; and ``check``: the table's own things) at the
    first decisions, every tenth and the end. At the first prompt of
    ``mid_kind`` after the first few decisions, and at the end, the seat's page
    and a spectator's pass axe-core and are screenshot; neither logs an error
    and the seat's token never travels in a URL. The final view."""
    page = seat.page
    watcher = Watched(page.context.new_page())
    watcher.page.set_default_timeout(PATIENCE_S * 1000)
    spectator = Seat(seat.live, watcher, seat.game, None)
    spectator.open()
    seat.open()
    page.bring_to_front()  # a page in the background gets an animation frame a second: every click would wait for two
    rng = random.Random(seed)
    decisions, mid = 0, False
    while decisions < MOST_DECISIONS and (turn := seat.my_turn()) is not None:
        view = turn[0]
        if decisions < CHECKED or decisions % 10 == 0:
            seat.holds(check, hand)
        if not mid and decisions >= CHECKED and (view.get("pending") or {}).get("kind") == mid_kind:
            mid = True
            both_pages(seat, spectator, view["version"], name, "mid")
        click(page, view, rng)
        decisions += 1
        seat.after(view["version"])
    assert decisions < MOST_DECISIONS, f"the game did not end in {MOST_DECISIONS} decisions"
    assert decisions > 0, "the seat never had a decision to make"
    final = seat.holds(check, hand)
    assert final["status"] == "finished"
    assert page.locator("#result").is_visible()
    both_pages(seat, spectator, final["version"], name, "end")
    verified(page)
    assert not any(str(seat.token) in u for u in seat.watched.urls + watcher.urls), "a seat token travelled in a URL"
    assert watcher.errors == [], f"the spectator's page logged errors: {watcher.errors}"
    return final


def both_pages(seat: Seat, spectator: Seat, version: int, name: str, when: str) -> None:
    """The seat's page and the spectator's, both at ``version`` or later: no
    serious axe-core violation, and their screenshots."""
    for who, s in (("seat", seat), ("spectator", spectator)):
        s.page.wait_for_function("v => { const j = JSON.parse(document.getElementById('shown-view').textContent);"
                                 " return j !== null && j.version >= v; }", arg=version, polling=100)
        found = serious_axe(s.page)
        assert found == [], f"the {who}'s page, {when}: {found}"
        screenshot(s.page, name, who, when)


def offered_moves(page: Any) -> list[Json]:
    """The moves of the prompt's enabled buttons, in their order (read in one go, not a round trip a button)."""
    return [json.loads(raw or "{}") for raw in page.eval_on_selector_all(
        "#moves [data-move]:not([disabled])", "bs => bs.map(b => b.getAttribute('data-move'))")]


#: the indexes, among the page's enabled move buttons, of those that are no resignation (and of ``types``, if
#: any), once there is one; or ``{"moved": version}`` once the page draws another version than ``at`` with none;
#: else false
OFFERED_OR_MOVED_JS = """([at, types]) => {
  const view = JSON.parse(document.getElementById('shown-view').textContent);
  const picks = [...document.querySelectorAll('#moves [data-move]:not([disabled])')]
    .map((b, k) => [k, JSON.parse(b.getAttribute('data-move') || '{}')])
    .filter(([, m]) => m.type !== 'resign' && (!types.length || types.includes(m.type))).map(([k]) => k);
  if (picks.length) return picks;
  return view !== null && view.version !== at ? {moved: view.version} : false;
}"""


def click_any_move(page: Any, rng: random.Random, types: tuple[str, ...] = ()) -> None:
    """Clicks one of the prompt's move buttons (of ``types`` if given; never
    resigning), once the page offers one: the table may have moved between
    the test's look at the seat's turn and this click (the buttons disabled
    while the seat's last move is on its way, another seat answering the
    same claim window first). A page that draws another version with no
    such button first is left unclicked: that decision was overtaken, the
    caller's loop looks at the seat's turn again. A page that does neither
    within ``PATIENCE_S`` fails the test, with what it shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # here: without playwright, no browser test

    at = (json.loads(page.locator("#shown-view").text_content() or "null") or {}).get("version")
    try:
        found = page.wait_for_function(OFFERED_OR_MOVED_JS, arg=[at, list(types)], polling=100,
                                       timeout=PATIENCE_S * 1000).json_value()
    except PlaywrightTimeout:
        of = f" of {types}" if types else ""
        raise AssertionError(f"no move button{of} to click at version {at} within {PATIENCE_S} s, and no other "
                             f"version drawn; the prompt's buttons: {prompt_buttons(page)}") from None
    if isinstance(found, dict):
        return  # overtaken: another version drawn, offering no such move
    page.locator("#moves [data-move]:not([disabled])").nth(rng.choice(found)).click()
