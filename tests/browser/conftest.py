"""The watch page in a real Chromium (Playwright) over real processes: the
e2e suite's ``live`` stack (a throwaway Redis, ``referee serve``, ``referee
worker``). Debian's ``chromium`` drives the tests (no browser download):
without it, or without playwright, every test here is skipped, loudly.

The helpers below are shared by every ruleset's table test (issue 38):
``person_game`` seats a person among built-in bots, ``Seat`` follows what the
page shows against what the API serves that seat, ``serious_axe`` runs
axe-core in the page, ``screenshot`` writes docs/screenshots/ under
``make screenshots``."""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import requests

from tests.e2e.conftest import Live, live  # noqa: F401  (live: the fixture, real processes)

T = TypeVar("T")

CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install -y chromium; .ci/run does it as root)"
    return None


class Watched:
    """A page and everything it logged and asked for."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.urls: list[str] = []
        self.headers: list[dict[str, str]] = []
        #: moves the referee refused 409 because the table moved on first (another seat answered the same
        #: window): a race every table has, which the page answers with words; Chromium still logs each
        self.overtaken = 0
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("request", self._request)
        page.on("response", self._response)

    def _request(self, request: Any) -> None:
        self.urls.append(request.url)
        self.headers.append(dict(request.headers))

    def _response(self, response: Any) -> None:
        request = response.request
        if response.status == 409 and request.method == "POST" and request.url.endswith("/moves"):
            body = request.post_data_json or {}
            if isinstance(body, dict) and "expected_version" in body:
                self.overtaken += 1

    def unexpected(self) -> list[str]:
        """What the page logged, less one Chromium line per move overtaken by
        the table (the page's guard, ``expected_version``, working as meant)."""
        left, spare = [], self.overtaken
        for e in self.errors:
            if spare and e.startswith("console: Failed to load resource") and "409" in e:
                spare -= 1
                continue
            left.append(e)
        return left


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(120_000)
    w = Watched(page)
    try:
        yield w
    finally:
        context.close()
    assert w.unexpected() == [], f"the page logged errors: {w.unexpected()}"


# ---------- helpers for the table tests (issue 38) ----------

#: how long a game, a redraw or a bot's answer may take, generously (the suite runs on every core at once)
PATIENCE_S = 180
#: axe-core as tests/browser/package-lock.json pins it (`make test` runs `npm ci` there)
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


def person_game(stack: Live, ruleset: str, bots: int = 3, bot: str = "random",
                options: dict[str, Any] | None = None) -> tuple[str, str]:
    """A game with a person ("ann", seat 0) and ``bots`` built-in bots: (game id, ann's token).
    Its seed is fixed (the bots draw from it, the tests' clicks from their own
    seeded stream): a game played by clicking is the same game on every run."""
    seats: list[dict[str, Any]] = [{"name": "ann"}] + [{"name": f"{bot} {i}", "bot": bot} for i in range(1, bots + 1)]
    body: dict[str, Any] = {"ruleset": ruleset, "seats": seats, "seed": f"table-{ruleset}"}
    if options:
        body["options"] = options
    r = requests.post(stack.url + "/v1/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    return str(created["id"]), str(created["seats"][0]["token"])


def playable(view: Any) -> bool:
    """The seat has a move other than resigning (which the page keeps apart, behind a confirmation)."""
    return any(m.get("type") != "resign" for m in view.get("legal_moves") or [])


class Seat:
    """One seat's page and what the API serves that seat: the test reads the
    API (GET only: every move is made on the page by clicking)."""

    def __init__(self, stack: Live, watched: Watched, game: str, token: str | None) -> None:
        self.live, self.watched, self.page, self.game, self.token = stack, watched, watched.page, game, token

    def open(self) -> None:
        self.page.goto(f"{self.live.url}/watch/{self.game}" + (f"#token={self.token}" if self.token else ""))

    def api_view(self) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        r = requests.get(f"{self.live.url}/v1/games/{self.game}", headers=headers, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    def shown(self) -> dict[str, Any]:
        """What the page shows now, read in one go (one redraw can't fall in between)."""
        return dict(self.page.evaluate(SHOWN_JS))

    def settled(self) -> tuple[Any, dict[str, Any]]:
        """The seat's view once the page shows the version the API serves now
        (and has drawn it): (view, what the page shows)."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            view = self.api_view()
            shown = self.shown()
            if shown["version"] == view["version"] and shown["drawn"]:
                return view, shown
            assert time.monotonic() < deadline, f"the page never showed version {view['version']}: {shown}"
            time.sleep(0.1)

    def my_turn(self) -> tuple[Any, dict[str, Any]] | None:
        """The settled view when the seat has moves and the page offers them
        enabled, or None once the game is over; waits for either."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            view, shown = self.settled()
            if view["status"] != "active":
                return None
            if playable(view) and shown["controls"] > 0:
                return view, shown
            assert time.monotonic() < deadline, "the seat's turn never came"
            time.sleep(0.1)

    def after(self, version: int) -> None:
        """Waits for the page to show a version after ``version`` (a move was made)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout  # here: without playwright, no browser test

        try:
            self.page.wait_for_function("v => { const t = document.getElementById('shown-view').textContent;"
                                        " const j = JSON.parse(t); return j !== null && j.version > v; }",
                                        arg=version, timeout=PATIENCE_S * 1000, polling=100)
        except PlaywrightTimeout:  # which side stopped: the click sent nothing, or the page never drew the move
            view = self.api_view()
            offered = {"refusal": self.page.evaluate("() => (document.getElementById('refusal') || {}).textContent"),
                       "buttons": prompt_buttons(self.page)}
            raise AssertionError(f"the page stayed at version {version}: the API serves version {view['version']} "
                                 f"({view['status']}), the page shows {self.shown()}; its prompt: {offered}; "
                                 f"its errors: {self.watched.errors}") from None

    def agrees(self, hand: Callable[[Any], list[str]] | None = None) -> Any:
        """The page shows what the API serves this seat: every seat's life, the
        seat's own role, the prompt (its kind, whom it awaits), controls exactly
        when there are legal moves (resigning aside), and (``hand``: the view's hand) the seat's
        own cards in hand, in order."""
        view, shown = self.settled()
        state = view.get("state") or {}
        for fact in state.get("seats") or []:
            if isinstance(fact, dict) and isinstance(fact.get("life"), int):
                assert shown["lives"].get(str(fact["seat"])) == fact["life"], (fact, shown["lives"])
        me = view.get("seat")
        own_role = state.get("role") if isinstance(state, dict) else None
        if me is not None and own_role:
            assert shown["roles"].get(str(me)) == own_role, (own_role, shown["roles"])
        pending = view.get("pending")
        assert shown["pending"] == (None if pending is None else [pending["kind"], pending.get("awaiting") or []])
        assert (shown["controls"] > 0) == playable(view), (shown["controls"], view["legal_moves"])
        if hand is not None:
            assert shown["hand"] == hand(view), (shown["hand"], hand(view))
        return view

    def holds(self, check: Callable[[Any, Any], None], hand: Callable[[Any], list[str]] | None = None) -> Any:
        """``agrees``, then ``check(page, view)`` (the ruleset's table) on the
        view the page was seen to show: bots move on their own, so the page
        may draw a newer version while ``check`` reads it, item by item. A
        failed check counts only if the page still shows the version it was
        held to; else both are done again on the newer one. The view."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            view = self.agrees(hand)
            try:
                check(self.page, view)
                return view
            except AssertionError:
                if self.shown()["version"] == view["version"] or time.monotonic() > deadline:
                    raise


def prompt_buttons(page: Any) -> list[list[Any]]:
    """The prompt's buttons as the page shows them: [words, disabled] each (a failure's message)."""
    return list(page.evaluate("() => [...document.querySelectorAll('#moves button')]"
                              ".map(b => [b.textContent.trim(), b.disabled])"))


#: what the page shows, from the DOM in one synchronous read
SHOWN_JS = """() => {
  const view = JSON.parse(document.getElementById('shown-view').textContent);
  const lives = {}, roles = {};
  document.querySelectorAll('#seats .seat').forEach(s => {
    const pips = s.querySelector('.pips[data-life]');
    if (pips) lives[s.dataset.seat] = Number(pips.dataset.life);
    const role = s.querySelector('[data-role]');
    if (role) roles[s.dataset.seat] = role.dataset.role;
  });
  const p = document.getElementById('pending');
  return {
    version: view === null ? null : view.version,
    drawn: view !== null && document.getElementById('subtitle').textContent.includes(' version ' + view.version + ' ·'),
    lives, roles,
    pending: p ? [p.dataset.kind, JSON.parse(p.dataset.awaiting)] : null,
    controls: Array.from(document.querySelectorAll('#moves button:not([disabled])'))
      .filter(b => !b.closest('.resign')).length,
    hand: Array.from(document.querySelectorAll('#hand [data-card]')).map(c => c.dataset.card),
  };
}"""


def serious_axe(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, in
    words. axe is evaluated through the DevTools protocol, which the page's
    CSP does not govern: the product's CSP stays as strict as it is served."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed at {AXE}: `make test` installs it (cd tests/browser && npm ci)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
                          ".map(v => v.id + ': ' + v.help + ' @ ' + v.nodes.map(n => n.target.join(' ')).join(', '))")
    return list(found)


def screenshot(page: Any, name: str, who: str, when: str) -> None:
    """docs/screenshots/<name>-<who>-<when>.png (who: seat or spectator; when:
    mid or end) when REFEREE_SCREENSHOTS names the folder (`make screenshots`)."""
    folder = os.environ.get("REFEREE_SCREENSHOTS")
    if not folder:
        return
    assert who in ("seat", "spectator") and when in ("mid", "end"), (who, when)
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)  # no card's hover text left up over the table by the last click
    page.screenshot(path=str(Path(folder) / f"{name}-{who}-{when}.png"), full_page=True)


def while_moving(step: Callable[[], tuple[T | None, Any]], what: str, patience_s: float = PATIENCE_S,
                 pause_s: float = 0.0) -> T:
    """``step()``'s result once it gives one: ``step`` returns (the result or
    ``None``, what shows progress). Fails only when the progress stays the same
    for ``patience_s`` — a long game on a slow, busy machine is no failure, a
    page or a game that stopped is."""
    seen: Any = object()
    moved = time.monotonic()
    while True:
        result, progress = step()
        if result is not None:
            return result
        if progress != seen:
            seen, moved = progress, time.monotonic()
        assert time.monotonic() - moved < patience_s, f"{what}, and it stood at {seen!r} for {patience_s} s"
        time.sleep(pause_s)


def progressing(page: Any, selector: str, progress_js: str, patience_s: float = PATIENCE_S) -> None:
    """Waits for ``selector`` on ``page`` as long as what ``progress_js``
    reads (e.g. the events received) moves on (``while_moving``)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # here: without playwright, no browser test

    def step() -> tuple[bool | None, Any]:
        try:
            page.locator(selector).wait_for(timeout=2_000)
            return True, None
        except PlaywrightTimeout:
            return None, page.evaluate(progress_js)

    while_moving(step, f"{selector} never came on the page", patience_s)


def verified(page: Any) -> None:
    """Waits for the page's verdict on the finished game's whole log: verified."""
    progressing(page, "body[data-verified=true] #verdict",
                "() => [document.body.dataset.received, (document.getElementById('verdict') || {}).textContent]")

