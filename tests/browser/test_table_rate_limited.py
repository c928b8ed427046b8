"""Issue 38, tried as a new user would: under ``make run`` the referee limits
each caller's requests (``REFEREE_RATE_LIMIT``, 100 in 2 s by default),
which every other browser test turns off. A person opens the index, starts
a game with the form and follows the link to their seat at once: the page's
own files (some forty modules, asked for at once on each load) must not
count, or the seat's page comes back "the table's scripts did not load".
The stack here allows 40 requests a caller for the test's whole run: the
page's calls to the API fit in that, its files twice over would not."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import PATIENCE_S, Watched
from tests.e2e.conftest import Live, live_stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """The e2e stack with a rate limit on: 40 requests a caller per 40,000 s (no window ends during the test)."""
    with live_stack(REFEREE_RATE_LIMIT="0.001/40") as stack:
        yield stack


def test_the_index_the_form_and_the_seat_load_under_the_rate_limit(live: Live, watched: Watched) -> None:
    page = watched.page
    statuses: list[tuple[int, str]] = []
    page.on("response", lambda r: statuses.append((r.status, r.url)))
    page.goto(f"{live.url}/watch/")
    page.locator("#newgame-ruleset option[value='bang']").wait_for(state="attached", timeout=PATIENCE_S * 1000)
    page.get_by_role("button", name="Start the game").click()
    link = page.locator("#newgame-out a.seat-link")
    link.first.wait_for(timeout=PATIENCE_S * 1000)
    link.first.click()
    page.locator("#seats .seat").first.wait_for(timeout=PATIENCE_S * 1000)
    page.reload()  # and once more: a person reloads
    page.locator("#seats .seat").first.wait_for(timeout=PATIENCE_S * 1000)
    assert page.locator("#seats .seat").count() == 4
    assert "did not load" not in (page.locator("#subtitle").text_content() or "")
    watch_files = [u for _, u in statuses if "/watch/" in u]
    assert len(watch_files) > 80, f"the page's files were asked for {len(watch_files)} times: more than the limit"
    assert [(s, u) for s, u in statuses if s == 429] == []
