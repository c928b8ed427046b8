"""Issue 25: the watch page (``/watch/{id}``) in a real Chromium. Every
ruleset's bot game is followed on the page to its end and verified there;
the replay slider shows exactly what ``/replay?version=N`` serves; an edited
log and a forged final signature are refused at the right seq; the page
verifies a log from ``file://`` with no server; a seat token in the fragment
shows that seat's view and never travels in a URL. No console errors.

``REFEREE_SCREENSHOTS=docs/screenshots`` (``make screenshots``) writes
``bang.png`` and ``faceoff.png`` from the live tests."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.browser.conftest import Watched, progressing, while_moving
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]

WEB = Path(__file__).resolve().parents[2] / "referee" / "web"
SHOTS = {"bang": "bang.png", "bang-faceoff": "faceoff.png"}
PLAYERS = {"bang": 4, "bang-dice": 4, "bang-faceoff": 2, "bluffaneer": 4}
TIMEOUT_S = 120


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def bot_game(live: Live, ruleset: str, start_in_s: int | None = None) -> str:
    """A game of built-in random bots at every seat; with ``start_in_s``, its
    seats stay open that long and then go to the bots (``start_timeout_s``):
    a page opened at once follows the whole game live. Its seed is fixed (the
    bots draw from it): the same game, of the same length, on every run (a
    random Face Off game runs from a few hundred events to many thousands)."""
    body: dict[str, Any] = {"ruleset": ruleset, "seed": f"watch-{ruleset}",
                            "seats": [{"name": f"bot{i}", "bot": "random"} for i in range(PLAYERS[ruleset])]}
    if start_in_s is not None:
        body["seats"] = [{"open": True} for _ in range(PLAYERS[ruleset])]
        body["options"] = {"start_timeout_s": start_in_s, "start_bot": "random"}
    r = requests.post(live.url + "/v1/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def finished_log(live: Live, game: str) -> bytes:
    """The game's log once it is over; fails only when the game stands still
    for ``TIMEOUT_S`` (a slow machine plays on, a stuck game fails)."""
    def step() -> tuple[bytes | None, int]:
        view = requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()
        if view["status"] != "finished":
            return None, view["version"]
        r = requests.get(f"{live.url}/v1/games/{game}/log", timeout=60)
        assert r.status_code == 200
        return r.content, view["version"]

    return while_moving(step, f"game {game} never finished", TIMEOUT_S, pause_s=0.5)


def final_version(live: Live, game: str) -> int:
    return int(requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()["version"])


def verdict(w: Watched, expected: str, file: str | None = None) -> tuple[str, str]:
    """The page's verdict once it is ``expected`` (of the log ``file`` picked, if given)."""
    mine = f"#verdict[data-file='{file}']" if file else "#verdict"
    progressing(w.page, f"body[data-verified={expected}] {mine}", "() => document.body.dataset.received")
    v = w.page.locator("#verdict")
    return str(v.get_attribute("data-failed-seq")), str(v.get_attribute("data-check"))


def shown_view(w: Watched) -> Any:
    return json.loads(w.page.locator("#shown-view").text_content() or "null")


def wait_shown(w: Watched, version: int) -> Any:
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        view = shown_view(w)
        if view is not None and view.get("version") == version:
            return view
        time.sleep(0.1)
    raise AssertionError(f"the page never showed version {version}")


def pick(w: Watched, *files: tuple[str, bytes]) -> None:
    w.page.set_input_files("#file", [{"name": n, "mimeType": "application/x-ndjson", "buffer": b} for n, b in files])


#: Face Off's board as the page draws it, read back square by square into the view's rows: a rock
#: ``#``, a figure its letter, a nugget ``N``, open ground ``.``
DRAWN_BOARD = """() => Array.from(document.querySelectorAll('[aria-label="The board"] tr'))
  .map((tr) => Array.from(tr.querySelectorAll("td[data-square]")).map((td) =>
    td.classList.contains("rock") ? "#" : td.querySelector(".figure") ? td.querySelector(".figure").textContent
      : td.classList.contains("nugget") ? "N" : ".").join(""))
  .filter((row) => row.length)"""

@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
def test_a_bot_game_followed_live_to_its_end_is_verified(live: Live, watched: Watched, ruleset: str) -> None:
    game = bot_game(live, ruleset, start_in_s=5)
    page = watched.page
    page.goto(f"{live.url}/watch/{game}")
    assert verdict(watched, "true") == ("", "")
    # every event came through the stream, each link checked as it came
    assert page.locator("body").get_attribute("data-received") == str(final_version(live, game))
    items = page.locator("#events li")
    count = items.count()
    assert count > 0
    first, last = int(items.first.get_attribute("data-seq") or 0), int(items.last.get_attribute("data-seq") or 0)
    assert (first, last) == (last - count + 1, final_version(live, game)), \
        "the events shown are not the last ones, once each"
    assert page.locator("#seats .seat").count() == PLAYERS[ruleset]
    assert page.locator("#result").is_visible()
    final = requests.get(f"{live.url}/v1/games/{game}/replay", timeout=30).json()
    assert shown_view(watched) == final
    for seat in final["seats"]:  # the players' names, from the view's top-level seats, on their seats
        assert page.locator(f"#seats .seat[data-seat='{seat['seat']}'] .seat-name").text_content() == (
            seat.get("name") or f"seat {seat['seat']}")
    if ruleset == "bang-faceoff":
        assert page.locator("#board-wrap").is_hidden(), "the board is drawn once, as a grid"
        assert page.evaluate(DRAWN_BOARD) == final["state"]["board"]
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots and ruleset in SHOTS:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / SHOTS[ruleset]), full_page=True)


def test_the_replay_slider_shows_what_replay_serves(live: Live, watched: Watched) -> None:
    game = bot_game(live, "bang")
    finished_log(live, game)
    page = watched.page
    page.goto(f"{live.url}/watch/{game}")
    verdict(watched, "true")
    shown = requests.get(f"{live.url}/v1/games/{game}/replay", timeout=30).json()["shown_versions"]
    assert len(shown) > 4
    slider = page.locator("#slider")
    slider.focus()

    def check(index: int) -> None:
        version = shown[index]
        on_page = wait_shown(watched, version)
        served = requests.get(f"{live.url}/v1/games/{game}/replay", params={"version": version}, timeout=30).json()
        assert on_page == served
        assert slider.input_value() == str(index)
        # the events list in step: those after the version shown are hidden, the rest shown
        listed = page.evaluate("() => Array.from(document.querySelectorAll('#events li'))"
                               ".map(li => [Number(li.dataset.seq), li.hidden])")
        assert listed and all(hidden == (seq > version) for seq, hidden in listed), (version, listed[:5])

    page.keyboard.press("Home")
    check(0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check(2)
    page.keyboard.press("End")
    check(len(shown) - 1)
    page.keyboard.press("ArrowLeft")
    check(len(shown) - 2)
    page.locator("h1").click()  # the arrow keys step the replay with the slider not focused too
    page.keyboard.press("ArrowLeft")
    check(len(shown) - 3)


def _edit(log: bytes, seq: int, edit: Any) -> bytes:
    lines = log.decode().splitlines()
    event = json.loads(lines[seq])
    edit(event)
    lines[seq] = canonical(event)
    return ("\n".join(lines) + "\n").encode()


def test_an_edited_log_and_a_forged_signature_are_not_verified(live: Live, watched: Watched) -> None:
    game = bot_game(live, "bluffaneer")
    log = finished_log(live, game)
    last = len(log.decode().splitlines()) - 1
    page = watched.page
    page.goto(f"{live.url}/watch/{game}")
    assert verdict(watched, "true") == ("", "")

    def data_edit(event: Any) -> None:
        event["data"]["edited"] = 1
    pick(watched, ("edited.ndjson", _edit(log, 5, data_edit)))
    assert verdict(watched, "false", "edited.ndjson") == ("5", "commit")

    def at_edit(event: Any) -> None:
        event["at"] += 1
    pick(watched, ("at.ndjson", _edit(log, 7, at_edit)))
    assert verdict(watched, "false", "at.ndjson") == ("7", "hash")

    def forge(event: Any) -> None:
        sig = event["signature"]["sig"]
        event["signature"]["sig"] = ("B" if sig[0] != "B" else "C") + sig[1:]
    pick(watched, ("forged.ndjson", _edit(log, last, forge)))
    assert verdict(watched, "false", "forged.ndjson") == (str(last), "signature")

    pick(watched, ("real.ndjson", log))
    assert verdict(watched, "true", "real.ndjson") == ("", "")


def test_the_page_verifies_a_log_from_file_url(live: Live, watched: Watched) -> None:
    game = bot_game(live, "bang-dice")
    log = finished_log(live, game)
    keys = requests.get(f"{live.url}/v1/keys", timeout=30).content
    page = watched.page
    page.goto((WEB / "watch.html").as_uri())
    verdict(watched, "pending")
    pick(watched, ("game.ndjson", log))  # no keys: the chain holds, the signature is not checked
    assert verdict(watched, "false", "game.ndjson") == (str(len(log.splitlines()) - 1), "signature")
    assert "not checked" in (page.locator("#verify-detail").text_content() or "")
    pick(watched, ("signed.ndjson", log), ("keys.json", keys))
    assert verdict(watched, "true", "signed.ndjson") == ("", "")
    assert all(u.startswith("file://") or u.startswith("data:") for u in watched.urls), watched.urls


def test_a_seat_token_in_the_fragment_shows_that_seat(live: Live, watched: Watched) -> None:
    seats = [{"name": "ann"}] + [{"name": f"bot{i}", "bot": "random"} for i in range(1, 4)]
    created = requests.post(live.url + "/v1/games", json={"ruleset": "bluffaneer", "seats": seats}, timeout=30).json()
    token = created["seats"][0]["token"]
    game = created["id"]
    page = watched.page
    page.goto(f"{live.url}/watch/{game}#token={token}")
    deadline = time.monotonic() + TIMEOUT_S
    own = requests.get(f"{live.url}/v1/games/{game}", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    while time.monotonic() < deadline:
        view = shown_view(watched)
        own = requests.get(f"{live.url}/v1/games/{game}", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        if view is not None and view["version"] == own.json()["version"] and view.get("seat") == 0:
            break
        time.sleep(0.2)
    assert view == own.json()
    spectator = requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()
    assert view["state"] != spectator["state"] or view["legal_moves"] != spectator["legal_moves"]
    assert "seat 0 (ann)" in (page.locator("#subtitle").text_content() or "")
    if view["legal_moves"]:
        assert page.locator("#moves button").count() > 0
    assert watched.urls and not any(token in u for u in watched.urls), "a seat token travelled in a URL"
    assert any(h.get("authorization") == f"Bearer {token}" for h in watched.headers)


def test_the_index_lists_games_and_the_page_is_served_under_a_strict_csp(live: Live, watched: Watched) -> None:
    game = bot_game(live, "bluffaneer")
    r = requests.get(f"{live.url}/watch/{game}", timeout=30)
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
    html = r.text
    assert "<script>" not in html and "style=" not in html and 'name="viewport"' in html
    made = requests.post(f"{live.url}/v1/tournaments", timeout=30,
                         json={"ruleset": "bluffaneer", "games": 1, "entrants": ["random"] * 3}).json()
    deadline = time.monotonic() + TIMEOUT_S
    while not (arranged := requests.get(f"{live.url}/v1/games", params={"source": "tournament"}, timeout=30
                                        ).json()["games"]):
        assert time.monotonic() < deadline, f"tournament {made['id']} started no game"
        time.sleep(0.2)
    page = watched.page
    page.goto(f"{live.url}/watch")
    page.locator(f"#games a[href='/watch/{game}']").wait_for()
    # a busy tournament or pool starts a game every second or so: the index lists people's games only
    assert page.locator(f"#games a[href='/watch/{arranged[0]['id']}']").count() == 0
    page.set_viewport_size({"width": 390, "height": 800})  # a phone: one column
    box = page.locator("#verify").bounding_box()
    assert box is not None and box["width"] <= 390


def test_the_live_check_names_the_first_event_that_does_not_chain(live: Live, watched: Watched) -> None:
    """What the page checks while a game runs (``RefereeVerify.Received``, link
    by link, as ``referee.engine.verify_received`` does), on a finished game's
    events as the long-poll served them, once as served and once with one edited."""
    game = bot_game(live, "bluffaneer")
    finished_log(live, game)
    events = requests.get(f"{live.url}/v1/games/{game}/events", params={"after": 0}, timeout=30).json()["events"]
    texts = [canonical(e) for e in events]
    edited = [json.loads(t) for t in texts]
    edited[9]["data"]["edited"] = True  # seq 10: its data no longer opens its commit
    edited[19]["prev"] = "0" * 64  # seq 20 (never reached: the first problem is named)
    page = watched.page
    page.goto((WEB / "watch.html").as_uri())  # no CSP on file://: the test may call the page's functions
    script = ("async ts => { const r = new RefereeVerify.Received(); for (const t of ts) { const p = await r.add(t);"
              " if (p) return [p.seq, p.check]; } return [r.count, null]; }")
    assert page.evaluate(script, texts) == [len(events), None]
    assert page.evaluate(script, [canonical(e) for e in edited]) == [10, "commit"]
    assert page.evaluate(script, texts[:4] + texts[5:]) == [6, "prev"]


def test_a_seat_token_shows_that_seat_in_the_replay_of_a_finished_game(live: Live, watched: Watched) -> None:
    seats = [{"name": "ann"}] + [{"name": f"bot{i}", "bot": "random"} for i in range(1, 4)]
    created = requests.post(live.url + "/v1/games", json={"ruleset": "bluffaneer", "seats": seats}, timeout=30).json()
    token, game = created["seats"][0]["token"], created["id"]
    auth = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + TIMEOUT_S
    while True:  # ann resigns when she may, else plays her first legal move; the bots end the game
        assert time.monotonic() < deadline, "the game did not finish"
        view = requests.get(f"{live.url}/v1/games/{game}", headers=auth, timeout=30).json()
        if view["status"] == "finished":
            break
        moves = view["legal_moves"]
        if moves:
            move = next((m for m in moves if m.get("type") == "resign"), moves[0])
            requests.post(f"{live.url}/v1/games/{game}/moves", headers=auth, json={"move": move,
                          "expected_version": view["version"]}, timeout=30)
        else:
            time.sleep(0.2)
    page = watched.page
    page.goto(f"{live.url}/watch/{game}#token={token}")
    verdict(watched, "true")
    replay = requests.get(f"{live.url}/v1/games/{game}/replay", timeout=30).json()
    assert shown_view(watched) == replay
    assert "seen by seat 0 (ann)" in (page.locator("#subtitle").text_content() or "")
    assert not any(token in u for u in watched.urls)


def test_the_live_feed_resumes_after_a_drop_and_falls_back_to_the_long_poll(live: Live, watched: Watched) -> None:
    """The stream cut after its first events, then a connection refused: the
    page asks the stream again from the last seq it has (``after`` and
    ``Last-Event-ID``), falls back to the long-poll from there, and still ends
    with every event received once, chained, and the game verified."""
    game = bot_game(live, "bluffaneer", start_in_s=5)  # the page opens before the bots play
    calls: list[str] = []
    cut: list[int] = []

    def route(r: Any) -> None:
        calls.append(r.request.url)
        if len(calls) == 1:  # the first connection ends after the events so far (the deal), with no `end`
            events = requests.get(f"{live.url}/v1/games/{game}/events", params={"after": 0}, timeout=30).json()
            first = events["events"][:3]
            cut.append(first[-1]["seq"])
            r.fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                      body="".join(f"id: {e['seq']}\nevent: {e['type']}\ndata: {canonical(e)}\n\n" for e in first))
        elif len(calls) == 2:  # the next one is refused outright
            r.abort("connectionrefused")
        else:
            r.continue_()

    page = watched.page
    page.route("**/events/stream*", route)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/events?after=" in r.url else None)
    page.goto(f"{live.url}/watch/{game}")
    assert verdict(watched, "true") == ("", "")
    assert page.locator("body").get_attribute("data-received") == str(final_version(live, game))
    assert calls[0].endswith("after=0") and calls[1].endswith(f"after={cut[0]}"), calls
    second = next(h for u, h in zip(watched.urls, watched.headers) if u == calls[1])
    assert second.get("last-event-id") == str(cut[0])
    assert polls and polls[0].split("after=")[1].startswith(f"{cut[0]}&"), polls
    seqs = [int(x.get_attribute("data-seq") or 0) for x in page.locator("#events li").all()]
    assert seqs == sorted(set(seqs)) and seqs[-1] == final_version(live, game)  # each once, in order
    # the browser's own network error for the refused connection is not the page's
    watched.errors[:] = [e for e in watched.errors if "ERR_CONNECTION_REFUSED" not in e and "Failed to fetch" not in e]


def test_the_pending_deadline_counts_down_on_the_page(live: Live, watched: Watched) -> None:
    """A claim window (F18) open for 60 s: the page shows the prompt's
    deadline, the view's own, and counts it down each second."""
    seats = [{"name": n} for n in ("ann", "bob", "cy")]
    created = requests.post(live.url + "/v1/games", timeout=30, json={
        "ruleset": "bluffaneer", "seats": seats, "options": {"claim_window_ms": 60_000},
        "seed": "countdown", "setup": {"turn": 0, "dice": ["chest", "sword"]}}).json()  # a claim window opens
    game, token = created["id"], created["seats"][0]["token"]
    rolled = requests.post(f"{live.url}/v1/games/{game}/moves", json={"move": {"type": "roll"}}, timeout=30,
                           headers={"Authorization": f"Bearer {token}"})
    assert rolled.status_code == 201, rolled.text
    view = requests.get(f"{live.url}/v1/games/{game}", timeout=30).json()
    assert view["pending"]["deadline"] == view["deadline"] is not None
    page = watched.page
    page.goto(f"{live.url}/watch/{game}")
    countdown = page.locator(f"#countdown[data-deadline='{view['deadline']}']")
    countdown.wait_for(timeout=TIMEOUT_S * 1000)
    first = countdown.text_content() or ""
    assert first.startswith("in ") and first.endswith(" s") and 0 < int(first.split()[1]) <= 60, first
    page.wait_for_function("t => document.getElementById('countdown').textContent !== t", arg=first,
                           timeout=TIMEOUT_S * 1000)  # it ticks
    later = countdown.text_content() or ""
    assert later == "now" or int(later.split()[1]) < int(first.split()[1]), (first, later)


def test_a_seat_name_never_breaks_out_of_the_page_saved_and_reopened(live: Live, watched: Watched) -> None:
    """Issue 36 item 8: the view the page keeps in its ``<script
    type="application/json">`` escapes ``<``, ``>``, ``&`` and U+2028/2029, so
    the page as the browser saves it (its DOM written out) has no ``</script``
    inside that JSON, the JSON gives back the name, and the page reopened has
    no element made of the name."""
    name = "</script><img src=x onerror=alert(1)>&\u2028"
    seats = [{"name": name}] + [{"name": f"bot{i}", "bot": "random"} for i in range(1, 4)]
    created = requests.post(live.url + "/v1/games", json={"ruleset": "bluffaneer", "seats": seats}, timeout=30)
    assert created.status_code == 201, created.text
    page = watched.page
    page.goto(f"{live.url}/watch/{created.json()['id']}")
    page.locator("#seats .seat").first.wait_for()
    saved = page.content()
    start = saved.index('id="shown-view">') + len('id="shown-view">')
    inner = saved[start:saved.index("</script>", start)]
    assert not any(c in inner for c in "<>&\u2028\u2029"), inner[:300]
    assert json.loads(inner)["seats"][0]["name"] == name
    dialogs: list[str] = []

    def dialog(d: Any) -> None:  # an alert() the name would run
        dialogs.append(d.message)
        d.dismiss()
    reopened = page.context.new_page()
    reopened.on("dialog", dialog)
    reopened.set_content(saved)
    assert reopened.locator("img").count() == 0 and dialogs == []
    assert json.loads(reopened.locator("#shown-view").text_content() or "null")["seats"][0]["name"] == name
    reopened.close()
