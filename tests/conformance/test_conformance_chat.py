"""The conformance suite's table chat (issue 40 items 5 and 7), over every
registered ruleset: a game played to its end over the API while its seats
talk between the moves, each move sent with the version its seat saw before
the talk (accepted: chat makes no move stale), never resigning, the first
message hidden by the creator mid-game. The log still folds to the served state, every chat event
sits at a shown version, and the audit is clean."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine.platform import PLATFORM_EVENTS, playing_moves
from referee.engine.protocol import Event, fold
from referee.engine.rng import Rng
from referee.games import registry
from tests.api.helpers import auth, create, move, view


def _talk(client: Any, game: dict[str, Any], seat: int, step: int) -> int | None:
    """Seat ``seat`` says something (its seq; ``None``: its window was full)."""
    said = client.post(f"/v1/games/{game['id']}/chat", json={"text": f"step {step}"},
                       headers=auth(game["seats"][seat]["token"]))
    assert said.status_code in (201, 429), said.get_json()
    return int(said.get_json()["seq"]) if said.status_code == 201 else None


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_game_whose_seats_talk_between_moves_ends_and_audits_clean(
        client: Any, clock: Any, service: Any, ruleset: str) -> None:
    from workers.jobs import fire_timeout
    rs, seed = registry.get(ruleset), f"conform-chat-{ruleset}"
    game = create(client, ruleset=ruleset, players=rs.min_players, seed=seed, options=rs.options_for(rs.min_players))
    pick, players, posted, hidden = Rng(b"conform-chat"), len(game["seats"]), [], False
    for step in range(5000):
        spectator = view(client, game)
        if spectator["status"] != "active":
            break
        if not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"])
            assert fire_timeout(game["id"], service) == "fired"
            continue
        seat = spectator["to_act"][step % len(spectator["to_act"])]
        mine = view(client, game, seat)
        posted.append(_talk(client, game, (seat + 1) % players, step))
        playing = list(playing_moves(mine["legal_moves"]))  # never resigning: a game of one move says little
        made = move(client, game, seat, playing[pick.below(len(playing))], expected_version=mine["version"])
        assert made.status_code == 201, made.get_json()
        if not hidden and posted[0] is not None:  # the first message, hidden by the creator mid-game
            hidden = True
            assert client.post(f"/v1/games/{game['id']}/chat/{posted[0]}/hide",
                               headers=auth(game["owner_token"])).status_code == 200
        clock.advance(500)
    else:
        raise AssertionError("the game did not end")
    log = [json.loads(line) for line in client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True).splitlines()]
    assert fold(rs, [Event(e["type"], e["data"]) for e in log[1:] if e["type"] not in PLATFORM_EVENTS]) \
        == service.load(game["id"]).state
    chat = [e["seq"] for e in log[1:] if e["type"] == "chat_posted"]
    assert len(chat) == len([seq for seq in posted if seq is not None]) >= 3, f"{ruleset}: {len(chat)} messages"
    assert [e["data"]["seq"] for e in log[1:] if e["type"] == "chat_hidden"] == [posted[0]], "no message was hidden"
    shown = client.get(f"/v1/games/{game['id']}/replay").get_json()["shown_versions"]
    assert all(seq - 1 in shown for seq in chat)
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report["divergence"]
