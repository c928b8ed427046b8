"""The conformance suite, clocks (issue 40 items 2 and 7): for every ruleset
the registry finds, a clocked game whose seat 0 never moves runs out of its
bank, is defaulted by the clock at each deadline (at once, once its bank is
empty) to the game's end, and audits clean, every move's clock re-derived. The
others move 50 ms after they are asked; the service's clock is injected."""
from __future__ import annotations

from typing import Any

import pytest

from referee.audit import audit_log
from referee.engine.rng import Rng
from referee.games import registry
from tests.api.helpers import create, move, ndjson, view
from workers.jobs import fire_timeout, fire_turn_clock


def _step(client: Any, clock: Any, service: Any, game: dict[str, Any], pick: Rng) -> str:
    """One step of the game: the clock's default of seat 0 when it is awaited, or of any seat whose time
    ran out while the clock was moved on (or the rules' timeout when nobody is awaited), else a random legal
    move of another awaited seat; what happened."""
    spectator = view(client, game)
    due, seats = spectator["turn_deadline"], spectator["to_act"]
    if 0 in seats or not seats or (due is not None and due <= clock.now):  # (another seat's ran out meanwhile)
        clock.now = max(clock.now, due or spectator["deadline"] or clock.now)
        if due is not None and fire_turn_clock(game["id"], spectator["version"], service) == "defaulted":
            return "defaulted"
        assert fire_timeout(game["id"], service) == "fired", "seat 0 awaited and no default: the game is stuck"
        return "timeout"
    seat = seats[pick.below(len(seats))]
    clock.advance(50)
    legal = [m for m in view(client, game, seat)["legal_moves"] if m["type"] != "resign"] \
        or view(client, game, seat)["legal_moves"]
    response = move(client, game, seat, legal[pick.below(len(legal))])
    assert response.status_code == 201, response.get_json()
    return "moved"


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_clocked_game_whose_seat_never_moves_is_defaulted_to_its_end_and_audits_clean(
        client: Any, clock: Any, service: Any, ruleset: str) -> None:
    rs = registry.get(ruleset)
    options = {**rs.options_for(rs.min_players), "clock": {"bank_s": 2, "increment_s": 1, "reaction_s": 1}}
    game = create(client, ruleset=ruleset, players=rs.min_players, seed=f"clock-{ruleset}", options=options)
    pick, done = Rng(f"clock-{ruleset}".encode()), []
    while view(client, game)["status"] == "active":
        done.append(_step(client, clock, service, game, pick))
        assert len(done) < 5000, f"{ruleset}: the game did not end"
    assert "defaulted" in done
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    report = audit_log(lines[0]["header"], lines[0]["hash"], lines[1:])
    assert report["ok"], report["divergence"]
    assert any(check["name"] == "clock" and check["ok"] for check in report["checks"])
