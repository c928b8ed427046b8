"""The JavaScript client in a real Chromium, loaded as the watch page loads
it (``/watch/client/index.js``, under the page's Content-Security-Policy),
against real processes: a game created and viewed, a refused move caught as
``MoveRefused`` with its rule, and a seat's live feed read over SSE with
its token in the Authorization header, never in a URL."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import Watched
from tests.e2e.conftest import Live

pytestmark = pytest.mark.browser

SCRIPT = """async () => {
  const { Referee, MoveRefused } = await import("/watch/client/index.js");
  const referee = new Referee();  // "": the page's own origin
  // seeded: its first turn is a roll (another deal may open with a character's decision)
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3, seed: "js-client" });
  const seat = (await referee.games.view(game.id)).to_act[0];
  const token = game.seats[seat].token;
  let refused = null;
  try { await referee.games.move(game.id, { type: "roll", saloon: "loudmouth" }, { token }); }
  catch (e) { refused = { moveRefused: e instanceof MoveRefused, status: e.status, rule: e.rule, code: e.code }; }
  const mine = await referee.games.view(game.id, { token });
  const accepted = await referee.games.move(game.id, mine.legal_moves[0], { token });
  const seqs = [];
  for await (const event of referee.games.stream(game.id, { token })) {
    seqs.push(event.seq);
    if (event.seq >= accepted.version) break;
  }
  return { id: game.id, token, refused, seqs, version: accepted.version };
}"""


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    """A page whose requests are recorded; it may log failed requests (a
    refused move is one), never a script error."""
    with browser.new_context() as context:
        recorded = Watched(context.new_page())
        yield recorded
    assert [e for e in recorded.errors if e.startswith("pageerror")] == []


def test_the_client_plays_and_streams_in_chromium_under_the_pages_csp(live: Live, watched: Watched) -> None:
    page: Any = watched.page
    response = page.goto(live.url + "/watch/client/index.js", timeout=120_000)
    assert response.status == 200 and "script-src 'self'" in response.headers["content-security-policy"]
    out = page.evaluate(SCRIPT)
    assert out["refused"] == {"moveRefused": True, "status": 422, "rule": "D52", "code": "no_saloon_die"}
    assert out["seqs"] == list(range(1, out["version"] + 1))
    streams = [i for i, url in enumerate(watched.urls) if url.split("?")[0].endswith(f"/{out['id']}/events/stream")]
    assert streams
    assert all(out["token"] not in url for url in watched.urls)
    assert all(watched.headers[i].get("authorization") == f"Bearer {out['token']}" for i in streams)
