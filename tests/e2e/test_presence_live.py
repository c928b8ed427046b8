"""Issue 40, "Done when" (item 1), against real processes: a person's client
(a real process holding the seat's event stream open) killed mid-game is
shown away, its seat taken over after the grace window by the creator's
bot, and back on reconnect — the client resuming its feed from its last seq
(``Last-Event-ID``) and getting exactly what it missed — and the game audits
clean. ``referee serve`` and ``referee worker`` run with a 2 s presence
window; every wait polls with generous patience, nothing is timed."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.e2e.conftest import live_stack

PATIENCE_S = 180

#: a seat's client: follows the game's stream with its token, from ``Last-Event-ID`` (argv[4]) on, printing
#: each event's seq and type as it comes; reconnects when the server ends the stream (as an EventSource does)
CLIENT = r"""
import sys, requests
url, game, token, last = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
while True:
    headers = {"Authorization": "Bearer " + token, "Accept": "text/event-stream", "Last-Event-ID": last}
    with requests.get(f"{url}/v1/games/{game}/events/stream", headers=headers, stream=True, timeout=60) as r:
        r.raise_for_status()
        seq = None
        for line in r.iter_lines(decode_unicode=True):
            if line.startswith("id: "):
                seq = line[4:]
            elif line.startswith("event: ") and seq is not None:
                print(seq, line[7:], flush=True)
                last, seq = seq, None
            elif line.startswith("event: end"):
                sys.exit(0)
"""


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[str, dict[str, str]]]:
    with live_stack(REFEREE_PRESENCE_WINDOW_S="2") as live:
        yield live.url, live.env


class Client:
    """A seat's client process; what it printed, read from its file."""

    def __init__(self, url: str, game: str, token: str, last: int, out: Path) -> None:
        self.out = out
        self.handle = out.open("w")
        self.proc = subprocess.Popen([sys.executable, "-c", CLIENT, url, game, token, str(last)],
                                     stdout=self.handle, stderr=subprocess.DEVNULL)

    def seen(self) -> list[tuple[int, str]]:
        return [(int(seq), kind) for seq, kind in (line.split() for line in self.out.read_text().splitlines()
                                                   if len(line.split()) == 2)]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.handle.close()


def _until(what: str, check: Any) -> Any:
    deadline = time.monotonic() + PATIENCE_S
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)


def _view(url: str, game: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.get(f"{url}/v1/games/{game}", headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _play_bob(url: str, game: str, bob: str) -> dict[str, Any]:
    """Bob (a person the test plays) makes his move if he is awaited; the game as it is."""
    mine = _view(url, game, bob)
    moves = [m for m in mine["legal_moves"] if m["type"] != "resign"]
    if mine["status"] == "active" and moves:
        requests.post(f"{url}/v1/games/{game}/moves", json={"move": moves[0]},
                      headers={"Authorization": f"Bearer {bob}"}, timeout=30)
    return mine


def _events(url: str, game: str) -> list[dict[str, Any]]:
    r = requests.get(f"{url}/v1/games/{game}/events?after=0", timeout=30)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


@pytest.mark.parametrize("by", ["random", "default"])
def test_a_killed_client_is_shown_away_taken_over_back_on_reconnect_and_the_game_audits_clean(
        stack: tuple[str, dict[str, str]], tmp_path: Path, by: str) -> None:
    url, _ = stack
    r = requests.post(f"{url}/v1/games", json={
        "ruleset": "bluffaneer", "seats": [{"name": "ann"}, {"name": "bob"}, {"name": "rob", "bot": "random"}],
        "options": {"away_grace_s": 1, "away_bot": by}}, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    game, ann, bob = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    client = Client(url, game, ann, 0, tmp_path / "ann-1.txt")
    try:
        _until("ann's open feed shows her connected", lambda: _view(url, game)["seats"][0]["connected"])
        client.kill()  # mid-game: her client dies, her stream with it
        last = max((seq for seq, _ in client.seen()), default=0)
        _until("ann shown away", lambda: _view(url, game)["seats"][0]["connected"] is False)

        def taken_and_played() -> bool:
            _play_bob(url, game, bob)
            events = _events(url, game)
            taken = [e for e in events if e["type"] == "seat_taken_over"]
            return bool(taken) and any(e["type"] == "move" and e["actor"] == 0 and e["seq"] > taken[0]["seq"]
                                       for e in events)
        _until("ann's seat taken over and played for", taken_and_played)
        taken = next(e for e in _events(url, game) if e["type"] == "seat_taken_over")
        assert taken["data"] == {"seat": 0, "by": by} and taken["actor"] is None
        assert _view(url, game)["seats"][0]["played_by"] == by  # (bob, whom the test plays, waits now)
        client = Client(url, game, ann, last, tmp_path / "ann-2.txt")  # she reconnects, from her last seq
        _until("ann back", lambda: any(kind == "seat_returned" for _, kind in client.seen()))
        seen = client.seen()
        assert seen[0][0] == last + 1, (last, seen[:3])  # the feed resumes right after what she had
        assert [seq for seq, _ in seen] == list(range(last + 1, seen[-1][0] + 1))  # all she missed, once
        back = _view(url, game)["seats"][0]
        assert back["connected"] is True and "played_by" not in back
        for _ in range(10_000):  # to the end: ann's moves by the test now, bob's, the bot's
            if _play_bob(url, game, bob)["status"] != "active":
                break
            _play_bob(url, game, ann)
            time.sleep(0.01)
        assert _until("the game over", lambda: _view(url, game)["status"] == "finished")
        audit = requests.get(f"{url}/v1/games/{game}/audit", timeout=60).json()
        assert audit["ok"], audit
    finally:
        if client.proc.poll() is None:
            client.kill()
