"""A click is not lost to a view that arrives while the button is held down:
the page holds its redraw until the press is released and its click has run.
(Before, the redraw replaced the pressed button, the release landed on a new
one, and the browser sent no click: the move the person chose was never made.)"""
from __future__ import annotations

import json

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Seat, Watched
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_a_move_button_held_down_while_a_chat_line_arrives_still_makes_its_move(
        live: Live, watched: Watched) -> None:
    made = requests.post(f"{live.url}/v1/games", timeout=30, json={
        "ruleset": "bang", "seed": "press", "seats": [{"name": n} for n in ("ann", "bob", "cid", "dee")]})
    assert made.status_code == 201, made.text
    game = made.json()
    acting = requests.get(f"{live.url}/v1/games/{game['id']}", timeout=30).json()["to_act"][0]
    other = next(s for s in game["seats"] if s["seat"] != acting)
    seat = Seat(live, watched, game["id"], game["seats"][acting]["token"])
    seat.open()
    view, _ = seat.my_turn() or (None, None)
    assert view is not None, "the seat that acts first has no turn on the page"
    page = watched.page
    # a button of the prompt that is a whole move (a click sends it), resigning aside
    button = page.locator("#moves [data-move]:not([disabled])").filter(
        has_not=page.locator(".resign")).first
    move = json.loads(button.get_attribute("data-move") or "{}")
    assert move and move["type"] != "resign", move
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("([x, y]) => { window.__pressed = document.elementFromPoint(x, y); }",  # what is held
                  [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    said = requests.post(f"{live.url}/v1/games/{game['id']}/chat", json={"text": "hurry up"}, timeout=30,
                         headers={"Authorization": f"Bearer {other['token']}"})
    assert said.status_code == 201, said.text
    # the page has the chat's view (the redraw it brings is what the press holds back)
    page.wait_for_function("v => JSON.parse(document.getElementById('shown-view').textContent).version > v",
                           arg=view["version"], timeout=PATIENCE_S * 1000, polling=100)
    assert page.evaluate("() => document.contains(window.__pressed)"), "the redraw replaced the button held down"
    page.mouse.up()
    seat.after(view["version"] + 1)  # the chat's version, then the move's
    events = requests.get(f"{live.url}/v1/games/{game['id']}/events", timeout=30,
                          params={"after": view["version"]}).json()["events"]
    moved = [e for e in events if e["type"] == "move"]
    assert moved and moved[0]["actor"] == acting and moved[0]["data"]["move"] == move, events
    assert (page.locator("#refusal").text_content() or "") == ""
    # and the table shows the view the press held back, and after it the move's
    seat.settled()
