"""Issue 38: a whole Bluffaneer game played from a seat of the table page by
clicking only, against three built-in bots, to its end: the roll, the claim
or pass, the accept or challenge and the player to rob are buttons of the
prompt; what the page shows (coins, one's own card, the dice, the box, the
prompt) held to the seat's view at several moments and at the end."""
from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser.conftest import Seat, Watched, person_game
from tests.browser.seat_play import Json, click_any_move, play_to_the_end
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: the longest claim window (F18): the person's click never races the window's deadline
WINDOW_MS = 60_000


def click(page: Any, view: Json, rng: random.Random) -> None:
    click_any_move(page, rng)


def check(page: Any, view: Json) -> None:
    """Each seat's coins and card (one's own face up, the others' face down), the dice and the box."""
    st = view["state"]
    for s in st["seats"]:
        seat = page.locator(f"#seats [data-seat='{s['seat']}']")
        assert seat.locator(".tokens-coin").get_attribute("data-count") == str(s["coins"])
        if s["card"] is not None:
            assert seat.locator(".pair-card[data-card]").get_attribute("data-card") == s["card"]["id"]
        else:
            assert seat.locator(".pair-card.back").count() == 1
    faces = page.eval_on_selector_all("#centre .pirate-die", "ds => ds.map(d => [...d.classList].find(c => "
                                      "c.startsWith('face-')).slice(5))")
    assert faces == (st["dice"] or [])
    assert page.locator("#centre .map-box .tokens").get_attribute("data-count") == str(st["box"])


def test_a_bluffaneer_game_is_played_to_its_end_by_clicking(live: Live, watched: Watched) -> None:
    game, token = person_game(live, "bluffaneer", 3, options={"claim_window_ms": WINDOW_MS})
    final = play_to_the_end(Seat(live, watched, game, token), "bluffaneer", click, check, "decision")
    assert final["result"]["seats"][0]["outcome"] in ("win", "loss")
