"""Issue 38: a whole BANG! The Dice Game played from a seat of the table
page by clicking only, against three built-in bots, to its end: the dice to
reroll picked by clicking them, every other answer a button of the prompt;
what the page shows (lives, arrows, roles, the dice, the prompt) held to the
seat's view at several moments and at the end."""
from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
import requests

from tests.browser.conftest import PATIENCE_S, Seat, Watched, person_game, verified
from tests.browser.seat_play import Json, click_any_move, play_to_the_end
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def click(page: Any, view: Json, rng: random.Random) -> None:
    """A reroll prompt: some dice clicked (each one's pick shown), then the
    reroll of exactly those dice, or stop; any other prompt: one of its buttons."""
    dice = page.locator("#centre button.die")
    if not dice.count():
        click_any_move(page, rng)
        return
    numbers = [int(dice.nth(k).get_attribute("data-die") or 0) for k in range(dice.count())]
    chosen = sorted(n for n in numbers if rng.random() < 0.5)
    for n in chosen:
        page.locator(f"#centre button.die[data-die='{n}']").click()
        page.locator(f"#centre button.die[data-die='{n}'][aria-pressed='true']").wait_for()
    buttons = page.locator("#moves [data-move]:not([disabled])")
    moves = [json.loads(buttons.nth(k).get_attribute("data-move") or "{}") for k in range(buttons.count())]
    if chosen:
        assert {"type": "reroll", "dice": chosen} in moves, f"picking dice {chosen} offers {moves}"
        assert {"type": "reroll", "dice": chosen} in view["legal_moves"]
        buttons.nth(moves.index({"type": "reroll", "dice": chosen})).click()
    else:
        assert not [m for m in moves if m["type"] == "reroll"], "a reroll offered with no die picked"
        buttons.nth(moves.index({"type": "stop"})).click()


def check(page: Any, view: Json) -> None:
    """Each seat's arrows and role as the view has them (a hidden role not
    shown), the dice and the arrow pile (lives: ``Seat.agrees``)."""
    st = view["state"]
    for s in st["seats"]:
        seat = page.locator(f"#seats [data-seat='{s['seat']}']")
        arrows = seat.locator(".tokens-arrow")
        assert (arrows.get_attribute("data-count") if arrows.count() else "0") == str(s["arrows"])
        role = s["role"] or (st["role"] if s["seat"] == st["you"] else None)
        if role:
            assert seat.locator("[data-role]").get_attribute("data-role") == role
        else:
            assert seat.locator("[data-role]").count() == 0, "a hidden role is shown"
    faces = page.eval_on_selector_all("#centre .die[data-face]", "ds => ds.map(d => d.dataset.face)")
    assert faces == [d["face"] for d in st["dice"]]
    assert page.locator("#centre .arrow-pile .tokens").get_attribute("data-count") == str(st["pile"])
    declared = (st.get("shots") or {}).get("declared") or []
    fired = page.locator("#centre .shots-fired")
    if declared:  # each target named once, with how many shots: "ann twice", not "ann and ann"
        times: dict[int, int] = {}
        for d in declared:
            times[d["target"]] = times.get(d["target"], 0) + (2 if d.get("double") else 1)
        text = fired.text_content() or ""
        names = {s["seat"]: s["name"] for s in view["seats"]}
        for target, n in times.items():
            assert text.count(names[target]) == 1 and (" twice" in text) >= (n == 2), (text, times)
    else:
        assert fired.count() == 0


def test_a_dice_game_is_played_to_its_end_by_clicking(live: Live, watched: Watched) -> None:
    game, token = person_game(live, "bang-dice", 3, options={"expansion": True})
    final = play_to_the_end(Seat(live, watched, game, token), "dice", click, check, "reroll")
    assert final["result"]["seats"][0]["outcome"] in ("win", "loss")
    names = {s["seat"]: s["name"] for s in final["seats"]}
    # one name a line: "random 3: gained 1 life", not "random 3: random 3 gained 1 life"
    for line in watched.page.locator("#events li").all_text_contents():
        actor, colon, rest = line.partition(": ")
        assert not (colon and actor in names.values() and rest.startswith(actor + " ")), line
    # the end in words, its winners by name: not "the game ended: sheriff wins; winners bot 2"
    winners = [names[s["seat"]] for s in final["result"]["seats"] if s["outcome"] == "win"]
    ended = watched.page.locator("#events li[data-type='game_ended']").text_content() or ""
    assert ended.startswith("the game ended: ") and "_" not in ended and "winners" not in ended, ended
    said = " wins" if len(winners) == 1 else " win"
    assert ended.endswith(said) and all(w in ended for w in winners), (ended, winners)


def twice_shot(live: Live, game: str) -> tuple[Json, int] | None:
    """In a finished game: the first shot that hit a player a second time in one turn (two shots, not a
    double), and a version the replay shows before that turn ends (both shots still on the tray), or None."""
    deadline = time.monotonic() + PATIENCE_S
    while requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.3)
    log: list[Json] = []
    while page_of := requests.get(f"{live.url}/v1/games/{game}/events?after={len(log)}", timeout=30).json()["events"]:
        log += page_of
    shown = requests.get(f"{live.url}/v1/games/{game}/replay", timeout=30).json()["shown_versions"]
    candidates: list[tuple[Json, int]] = []  # (the second shot, the next turn's first seq)
    second: Json | None = None
    shot: list[int] = []
    for ev in log:
        if ev["type"] == "turn_started":
            if second is not None:
                candidates.append((second, ev["seq"]))
            second, shot = None, []
        elif ev["type"] == "shot_declared" and not ev["data"].get("double"):
            shot.append(ev["data"]["target"])
            if second is None and shot.count(ev["data"]["target"]) == 2:
                second = ev
    return next(((ev, v) for ev, end in candidates for v in shown if ev["seq"] <= v < end), None)


def test_shots_at_one_target_are_counted_not_repeated(live: Live, watched: Watched) -> None:
    """The tray's "Shots fired this turn" names each target once with its count ("random 2 twice"), not
    "random 2 and random 2": a bots' game (the first of up to 20 that has one) replayed to a turn that
    shot one player twice."""
    seats = [{"name": f"random {i}", "bot": "random"} for i in range(1, 6)]
    found = None
    for _ in range(20):
        r = requests.post(f"{live.url}/v1/games", json={"ruleset": "bang-dice", "seats": seats}, timeout=30)
        assert r.status_code == 201, r.text
        game = r.json()["id"]
        if (found := twice_shot(live, game)) is not None:
            break
    assert found is not None, "no game of 20 shot one player twice in a turn"
    twice, version = found
    page = watched.page
    page.goto(f"{live.url}/watch/{game}")
    verified(page)
    shown = requests.get(f"{live.url}/v1/games/{game}/replay", timeout=30).json()["shown_versions"]
    page.evaluate("i => { const s = document.getElementById('slider'); s.value = String(i);"
                  " s.dispatchEvent(new Event('input')); }", shown.index(version))
    page.wait_for_function("v => JSON.parse(document.getElementById('shown-view').textContent).version === v",
                           arg=version, timeout=PATIENCE_S * 1000)
    name = seats[twice["data"]["target"]]["name"]
    text = page.locator("#centre .dice-note", has_text="Shots fired this turn").text_content() or ""
    assert f"{name} twice" in text and text.count(name) == 1, text
