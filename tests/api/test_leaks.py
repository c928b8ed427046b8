"""Hidden information over the API (DESIGN.md, Hidden information): play
whole games with random legal moves and scan every response each seat (and a
spectator) receives — views, event pages, move responses — for the ids the
rules hide from it at that moment."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from referee.games import registry
from tests.api.helpers import auth, create

#: every registered ruleset at its smallest, a middle and its largest table
CASES = [(name, n, f"leak-{name}-{n}") for name in registry.names()
         for n in sorted({registry.get(name).min_players, registry.get(name).max_players,
                          (registry.get(name).min_players + registry.get(name).max_players + 1) // 2})]


def _scan(body: Any, hidden: set[str], who: Any, what: str) -> None:
    text = json.dumps(body)
    leaked = sorted(h for h in hidden if f'"{h}"' in text)
    assert not leaked, f"{what} to seat {who} leaks {leaked}"


class States:
    """The state right after each seq, folded once from the game's stream."""

    def __init__(self, service: Any, game_id: str) -> None:
        self.service, self.game_id = service, game_id
        self.rs = service.load(game_id).ruleset
        self.after: dict[int, Any] = {}
        self.state: Any = None
        self.seq = 0

    def at(self, seq: int) -> Any:
        if seq > self.seq:
            from referee.engine.platform import PLATFORM_EVENTS
            from referee.engine.protocol import Event
            for env in self.service.store.read(self.game_id, after=self.seq, upto=seq):
                if env["type"] not in PLATFORM_EVENTS:
                    self.state = self.rs.evolve(self.state, Event(env["type"], env["data"]))
                self.after[env["seq"]] = self.state
            self.seq = seq
        return self.after[seq]


def _scan_events(states: States, events: list[Any], who: Any, what: str) -> None:
    """Each event against what was hidden right after it (a card revealed and
    then shuffled back into the deck was public when it was shown)."""
    for event in events:
        _scan(event, states.rs.hidden(states.at(event["seq"]), who), who,
              f"{what} (event {event['seq']} {event['type']})")


@pytest.mark.random_play
@pytest.mark.parametrize("ruleset,players,seed", CASES)
def test_no_response_to_a_seat_contains_what_the_rules_hide_from_it(
        client: Any, service: Any, clock: Any, ruleset: str, players: int, seed: str) -> None:
    from workers.jobs import fire_timeout
    game = create(client, ruleset=ruleset, players=players, seed=seed,
                  options=registry.get(ruleset).options_for(players))
    rs = registry.get(ruleset)
    seats: list[int | None] = [*range(players), None]
    headers = {s: auth(game["seats"][s]["token"]) if s is not None else {} for s in seats}
    seen = {s: 0 for s in seats}
    states = States(service, game["id"])
    pick = Rng(seed.encode())
    for _step in range(3000):
        state = service.load(game["id"]).state
        for s in seats:
            hidden = rs.hidden(state, s)
            _scan(client.get(f"/v1/games/{game['id']}", headers=headers[s]).get_json(), hidden, s, "view")
            page = client.get(f"/v1/games/{game['id']}/events?after={seen[s]}", headers=headers[s]).get_json()
            if page["status"] == "active":  # once over, the whole log is public by design
                _scan_events(states, page["events"], s, "events")
            seen[s] = page["version"]
        spectator = client.get(f"/v1/games/{game['id']}").get_json()
        if spectator["status"] != "active":
            return
        if not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"])
            assert fire_timeout(game["id"], service) == "fired"
            continue
        seat = spectator["to_act"][pick.below(len(spectator["to_act"]))]
        moves = client.get(f"/v1/games/{game['id']}", headers=headers[seat]).get_json()["legal_moves"]
        r = client.post(f"/v1/games/{game['id']}/moves", json={"move": pick.choice(list(playing_moves(moves)))},
                        headers=headers[seat])
        assert r.status_code == 201, r.get_json()
        if r.get_json()["status"] == "active":
            _scan_events(states, r.get_json()["events"], seat, "move response")
        clock.advance(1)
    raise AssertionError("the game did not end")
