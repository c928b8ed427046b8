"""Issue 42 item 4: a game's page and its replay explain a loss. A move the
referee played for a registered bot (``by: {bot, default: cause}``) is marked
in the events list (an icon, a class, the cause in words and the default
played), on the replay slider's strip of marks, and counted in the summary
of the finished game: each bot's timeouts and invalid answers. A real
webhook bot on loopback answers nonsense, then too late, then not JSON, then
plays; the marks must sit exactly at the events the log records as defaults,
on a page that followed the game live (``by`` is public while it runs) and
on one opened after its end. No console errors."""
from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from referee.engine.platform import playing_moves
from tests.browser.conftest import PATIENCE_S, Watched, serious_axe
from tests.e2e.conftest import Live, live_stack
from tests.webhook_bot import WebhookBot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

#: a registered bot's answer is given this long before its default is played
BOT_TIMEOUT_S = 2
#: where the page's screenshots go, when asked (e.g. REFEREE_SCREENSHOTS=shots)
SHOTS = os.environ.get("REFEREE_SCREENSHOTS")


@pytest.fixture(scope="module")
def stack() -> Iterator[Live]:
    with live_stack(REFEREE_BOT_ALLOW_PRIVATE="1", REFEREE_BOT_TIMEOUT_S=str(BOT_TIMEOUT_S)) as s:
        yield s


class FailingBot(WebhookBot):
    """Its first turns fail, one way each: nonsense (``invalid_answer``), too late (``timeout``), not JSON
    (``not_json``); then it plays its last playing move, but for nonsense every eighth turn (a long game's
    events list keeps its last 300 lines: some defaults fall among them). A turn asked again (a job
    retried) is answered as it was the first time."""

    def __init__(self) -> None:
        super().__init__("first")
        self.turns: dict[tuple[int, int], int] = {}  # (version, seat) -> the how-manieth turn it is
        self.lock = threading.Lock()
        self.script = self.answer

    def answer(self, payload: dict[str, Any]) -> bytes:
        with self.lock:
            n = self.turns.setdefault((payload["version"], payload["seat"]), len(self.turns) + 1)
        if n == 1 or n % 8 == 0:
            return json.dumps({"move": {"type": "fly", "to": "moon"}}).encode()
        if n == 2:
            time.sleep(BOT_TIMEOUT_S * 2)  # the referee has played the default by then
        if n == 3:
            return b"<html>not json</html>"
        return json.dumps({"move": list(playing_moves(payload["legal_moves"]))[-1]}).encode()


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def _register(stack: Live, hook: WebhookBot) -> str:
    r = requests.post(stack.url + "/v1/bots", json={"name": "Floaty", "url": hook.url, "rulesets": ["bluffaneer"],
                                                     "seating": "public"}, timeout=30)
    assert r.status_code == 201, r.text
    hook.secret = r.json()["secret"]
    return str(r.json()["id"])


def _play_people(stack: Live, game: str, tokens: list[str]) -> None:
    """Ann and Bob (seats 1 and 2) play their first playing move at each of their turns, through the API, to
    the game's end; never while the bot (seat 0) is awaited too, so each turn it is asked is its own to
    answer (a move by another seat first would make its answer late for a version gone)."""
    deadline = time.monotonic() + PATIENCE_S * 2
    while time.monotonic() < deadline:
        moved = False
        for token in tokens:
            headers = {"Authorization": f"Bearer {token}"}
            view = requests.get(f"{stack.url}/v1/games/{game}", headers=headers, timeout=30).json()
            if view["status"] == "finished":
                return
            moves = list(playing_moves(view.get("legal_moves") or []))
            if moves and 0 not in (view.get("to_act") or []):
                requests.post(f"{stack.url}/v1/games/{game}/moves", headers=headers, timeout=30,
                              json={"move": moves[0], "expected_version": view["version"]})
                moved = True
        if not moved:
            time.sleep(0.05)
    raise AssertionError(f"game {game} did not finish")


def _defaults(stack: Live, game: str) -> dict[int, str]:
    """seq -> cause of every move the log records as a default the referee played."""
    log = [json.loads(line) for line in requests.get(f"{stack.url}/v1/games/{game}/log", timeout=60).text.splitlines()]
    return {e["seq"]: e["data"]["by"]["default"] for e in log[1:]
            if e["type"] == "move" and "default" in (e["data"].get("by") or {})}


def _marked(page: Any) -> dict[int, str]:
    return {int(k): v for k, v in page.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#events li.ev-default'))"
        ".map(li => [li.dataset.seq, li.dataset.default]))").items()}


def _check_page(page: Any, defaults: dict[int, str]) -> None:
    """The events list (its last 300 lines), the replay's strip and the summary say exactly the log's defaults."""
    listed_from = int(page.locator("#events li").first.get_attribute("data-seq") or 0)
    assert _marked(page) == {seq: cause for seq, cause in defaults.items() if seq >= listed_from}
    for seq, cause in defaults.items():
        if seq < listed_from:
            continue
        li = page.locator(f"#events li[data-seq='{seq}']")
        text = li.text_content() or ""
        assert text.startswith(("◷ seat 0's bot (Floaty) ", "✗ seat 0's bot (Floaty) ")), text
        assert "the referee played its default" in text, text
        assert li.get_attribute("class") == ("ev-default ev-timeout" if cause == "timeout" else
                                             "ev-default ev-invalid"), (cause, li.get_attribute("class"))
    marks = page.locator("#replay-marks .replay-mark")
    assert marks.count() == len(defaults)
    assert sorted(int(marks.nth(i).get_attribute("data-seq") or 0) for i in range(marks.count())) == sorted(defaults)
    summary = page.locator("#answers li[data-seat='0']")
    timeouts = sum(1 for c in defaults.values() if c == "timeout")
    assert summary.get_attribute("data-timeouts") == str(timeouts)
    assert summary.get_attribute("data-invalid") == str(len(defaults) - timeouts)
    assert f"{timeouts} timeout" in (summary.text_content() or "")
    # a click on a mark takes the replay to that default: its line is shown, the ones after the version not
    first = max(defaults)
    assert first >= listed_from
    mark = page.locator(f"#replay-marks .replay-mark[data-seq='{first}']")
    version = int(mark.get_attribute("data-version") or 0)
    assert version >= first
    mark.click()
    page.wait_for_function("v => JSON.parse(document.getElementById('shown-view').textContent).version === v",
                           arg=version, timeout=PATIENCE_S * 1000)
    assert page.locator("#slider").input_value() == mark.get_attribute("data-index")
    listed = page.evaluate("() => Array.from(document.querySelectorAll('#events li'))"
                           ".map(li => [Number(li.dataset.seq), li.hidden])")
    assert all(hidden == (seq > version) for seq, hidden in listed)
    assert page.locator(f"#events li[data-seq='{first}']").is_visible()


def test_a_bots_timeouts_and_invalid_answers_are_marked_where_they_happened(stack: Live, watched: Watched) -> None:
    with FailingBot() as hook:
        bot = _register(stack, hook)
        r = requests.post(stack.url + "/v1/games", timeout=30, json={
            "ruleset": "bluffaneer", "seats": [{"bot": bot, "name": "Floaty"}, {"name": "ann"},
                                               {"name": "bob"}]})
        assert r.status_code == 201, r.text
        game, seats = r.json()["id"], r.json()["seats"]
        page = watched.page
        page.goto(f"{stack.url}/watch/{game}")  # a spectator, following the game while it runs
        page.locator("#events li").first.wait_for(timeout=PATIENCE_S * 1000)
        _play_people(stack, game, [seats[1]["token"], seats[2]["token"]])
        defaults = _defaults(stack, game)
    assert {"invalid_answer", "timeout", "not_json"} <= set(defaults.values()), defaults
    assert all(cause in ("invalid_answer", "timeout", "not_json") for cause in defaults.values()), defaults
    page.locator("body[data-verified=true] #verdict").wait_for(timeout=PATIENCE_S * 1000)
    _shot(page, "defaults-live.png")
    _check_page(page, defaults)
    assert serious_axe(page) == []

    # opened after the end: the events come from the verified log, the same marks at the same events
    page.goto(f"{stack.url}/watch/{game}")
    page.locator("body[data-verified=true] #verdict").wait_for(timeout=PATIENCE_S * 1000)
    page.locator("#replay-marks .replay-mark").first.wait_for(timeout=PATIENCE_S * 1000)
    _check_page(page, defaults)
    _shot(page, "defaults-replay.png")
