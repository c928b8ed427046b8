"""The conformance suite's presence takeovers (issue 40 items 1 and 7), for
every registered ruleset: a person's seat away past the grace window is
taken over by the rules' default or a built-in bot, played for whenever it
is awaited (the game never waits on it; each such move recorded as its
taker's), given back mid-game once it was played for, when its token is used
again (``seat_returned`` in the chain), and the finished game audits clean. The clock is the service's
injected one."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.rng import Rng
from referee.games import registry
from referee.service.presence import window_ms
from tests.api.helpers import auth, create, move, ndjson, view
from workers.jobs import fire_timeout
from workers.presence import look_at_away

GRACE_S = 5


def _play_on(client: Any, game: dict[str, Any], clock: Any, service: Any, work: Any, pick: Rng | None,
             steps: int) -> dict[str, Any]:
    """Up to ``steps`` steps: the people's moves (never resigning; random by
    ``pick``, else the first listed), the
    taken-over seat's by its worker job, the rules' timeouts; the spectator view after."""
    for _ in range(steps):
        work()
        spectator = view(client, game)
        if spectator["status"] != "active":
            return spectator
        people = [s for s in spectator["to_act"] if "played_by" not in spectator["seats"][s]]
        if people:
            legal = view(client, game, people[0])["legal_moves"]
            playing = [m for m in legal if m["type"] != "resign"] or legal
            chosen = playing[pick.below(len(playing))] if pick is not None else playing[0]
            assert move(client, game, people[0], chosen).status_code == 201
        elif not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"])
            assert fire_timeout(game["id"], service) == "fired"
        else:
            work()
            assert view(client, game)["version"] != spectator["version"], \
                f"the taken-over seats {spectator['to_act']} were not played for"
        clock.advance(1)
    return view(client, game)


def _played_for(client: Any, game: dict[str, Any]) -> bool:
    """Whether a move of seat 0's was played for it since it was taken over."""
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))
    taken = next(e["seq"] for e in lines[1:] if e["type"] == "seat_taken_over")
    return any(e["type"] == "move" and e["actor"] == 0 and e["seq"] > taken for e in lines[1:])


@pytest.mark.parametrize("by", ["default", "random"])
@pytest.mark.parametrize("ruleset", registry.names())
def test_a_seat_away_is_played_for_until_it_returns_and_the_game_audits_clean(
        client: Any, clock: Any, service: Any, work: Any, ruleset: str, by: str) -> None:
    rs = registry.get(ruleset)
    game = create(client, ruleset=ruleset, players=rs.min_players, seed=f"presence-{ruleset}",
                  options={**rs.options_for(rs.min_players), "away_grace_s": GRACE_S, "away_bot": by})
    view(client, game, 0)
    clock.advance(window_ms() + GRACE_S * 1000)
    for seat in range(1, rs.min_players):
        view(client, game, seat)  # the others stay
    look_at_away(service)
    assert view(client, game)["seats"][0]["played_by"] == by
    pick = Rng(f"presence-{ruleset}".encode())
    for _ in range(200):  # on until the seat was played for (a move of seat 0's by its taker) ...
        taken = _play_on(client, game, clock, service, work, pick, 1)
        if _played_for(client, game):
            break
    assert _played_for(client, game), f"{ruleset}: seat 0 taken over was never played for"
    assert taken["status"] == "active", f"{ruleset}: the game ended before seat 0 could come back"
    assert view(client, game, 0)["status"] == "active"  # her token used: she is back
    assert "played_by" not in view(client, game)["seats"][0]
    end = _play_on(client, game, clock, service, work, None, 20_000)
    assert end["status"] == "finished"
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))
    types = [e["type"] for e in lines[1:]]
    assert types.count("seat_taken_over") == 1 and types.count("seat_returned") == 1
    assert types.index("seat_taken_over") < types.index("seat_returned")
    taken_at, back_at = (next(e["seq"] for e in lines[1:] if e["type"] == kind)
                         for kind in ("seat_taken_over", "seat_returned"))
    played_for = [e["data"].get("by") for e in lines[1:]
                  if e["type"] == "move" and e["actor"] == 0 and taken_at < e["seq"] < back_at]
    key, taker = ("default", "away") if by == "default" else ("bot", by)
    assert played_for and all((b or {}).get(key) == taker for b in played_for), \
        f"{ruleset}: seat 0 while taken over was played by {played_for}"
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report["divergence"]
