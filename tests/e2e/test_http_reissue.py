"""Issue 36, items 2 and 3, over real ``referee serve`` processes (two
gunicorn workers) and a real worker: a stream opened with a seat's token
ends at that seat's ``seat_token_reissued`` and shows nothing of the seat
after it while the game goes on (the bug's stream kept showing the seat's
hand: 25 private events in 6 s); the creator may not reissue a claimed seat."""
from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import requests

from referee.client import RefereeClient
from referee.client.errors import Forbidden, Unauthorized
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e

SEAT = 1


class Reader(threading.Thread):
    """Reads one SSE stream to its end: each event as ``(seq, type, envelope)``."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.events: list[tuple[int, str, Any]] = []
        self.opened = threading.Event()

    def run(self) -> None:
        # a stream the bug left open ends by itself after 60 s; never waits for data longer than that
        with requests.get(self.url, headers={"Authorization": f"Bearer {self.token}"}, stream=True,
                          timeout=(10, 90)) as response:
            assert response.status_code == 200, response.text
            fields: dict[str, str] = {}
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("retry:"):
                    self.opened.set()
                elif line and not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value
                elif not line and "id" in fields:
                    self.events.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
                    fields = {}


def _play(client: RefereeClient, game_id: str, tokens: list[str], moves: int, pick: Rng) -> set[str]:
    """``moves`` moves by the awaited seats; every card seen in ``SEAT``'s hand meanwhile."""
    hand: set[str] = set()
    for _ in range(moves):
        spectator = client.games.view(game_id)
        assert spectator.active
        seat = spectator.to_act[pick.below(len(spectator.to_act))]
        mine = client.games.view(game_id, token=tokens[seat])
        client.games.move(game_id, pick.choice(list(playing_moves(mine.legal_moves))), token=tokens[seat])
        hand |= set(client.games.view(game_id, token=tokens[SEAT]).state["hand"])
    return hand


def test_e2e_a_stream_of_a_reissued_token_ends_at_the_reissue_while_the_game_goes_on(live: Live) -> None:
    client: RefereeClient = live.client
    game = client.games.create("bang", players=4, seed="e2e-reissue")
    tokens = list(game.tokens)
    pick = Rng(b"e2e-reissue")
    reader = Reader(f"{live.url}/v1/games/{game.id}/events/stream?after={game.version}", tokens[SEAT])
    reader.start()
    assert reader.opened.wait(30)
    before = _play(client, game.id, tokens, 5, pick)
    assert game.owner_token is not None
    tokens[SEAT] = client.games.reissue(game.id, SEAT, owner_token=game.owner_token).token
    after = _play(client, game.id, tokens, 40, pick)  # the seat's new holder plays on
    reader.join(90)
    assert not reader.is_alive(), "the old token's stream is still open after the reissue"
    reissued = [seq for seq, type_, envelope in reader.events
                if type_ == "seat_token_reissued" and envelope["data"]["seat"] == SEAT]
    assert len(reissued) == 1 and reader.events[-1][0] == reissued[0], [e[:2] for e in reader.events]
    shown = json.dumps([data for _, _, data in reader.events])
    assert before and any(f'"{card}"' in shown for card in before)  # the seat saw its hand until then
    late = json.dumps([data for seq, _, data in reader.events if seq > reissued[0]])
    assert not [card for card in after if f'"{card}"' in late]
    refused = requests.get(f"{live.url}/v1/games/{game.id}/events?after=0",
                           headers={"Authorization": f"Bearer {reader.token}"}, timeout=10)
    assert refused.status_code == 401 and refused.json()["code"] == "bad_token"


def test_e2e_the_clients_stream_of_a_reissued_token_stops_at_the_reissue_with_bad_token(live: Live) -> None:
    """``games.stream`` reconnects when a stream ends: after the reissue its
    token is refused, so the iterator raises rather than read on."""
    client: RefereeClient = live.client
    game = client.games.create("bang", players=4, seed="e2e-reissue-client")
    tokens = list(game.tokens)
    pick = Rng(b"e2e-reissue-client")
    events = client.games.stream(game.id, token=tokens[SEAT], after=game.version)
    _play(client, game.id, tokens, 1, pick)
    seen = [next(events)]
    assert game.owner_token is not None
    tokens[SEAT] = client.games.reissue(game.id, SEAT, owner_token=game.owner_token).token
    _play(client, game.id, tokens, 10, pick)
    with pytest.raises(Unauthorized) as refused:
        seen.extend(events)
    assert refused.value.code == "bad_token"
    after = [e.type for e in seen if e.seq > seen[0].seq]
    assert after[-1] == "seat_token_reissued" and after.count("seat_token_reissued") == 1


def test_e2e_the_creator_may_not_reissue_a_claimed_seat(live: Live) -> None:
    client: RefereeClient = live.client
    game = client.games.create("bluffaneer", seats=[{"name": "host"}, {"open": True}, {"open": True}])
    ann = client.games.claim(game.id, 1, "ann")
    assert game.owner_token is not None
    with pytest.raises(Forbidden) as refused:
        client.games.reissue(game.id, 1, owner_token=game.owner_token)
    assert refused.value.code == "seat_belongs_to_claimant"
    assert client.games.view(game.id, token=ann.token).seat == 1
    fresh = client.games.reissue(game.id, 1, owner_token=ann.token)  # the claimant rotates its own token
    assert client.games.view(game.id, token=fresh.token).seat == 1
