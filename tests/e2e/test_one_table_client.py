"""Issue 24, done when, over real HTTP: the one-table client
(``examples/text_table.py``) draws every view of a random game of each
ruleset from the API's views and the served catalogue alone, the players'
seats claimed by two separate clients in a game found through
``GET /v1/games``."""
from __future__ import annotations

import pytest

from referee.client import RefereeClient, VersionConflict
from referee.engine.platform import RESIGN, playing_moves
from referee.engine.rng import Rng
from referee.games import registry
from referee.http.contract import built_in
from tests.e2e.conftest import Live, checked_client
from tests.table_client import check_drawn, load

pytestmark = pytest.mark.e2e
TABLE = load()


@pytest.mark.parametrize("ruleset", built_in())  # the served ones (the test-only Nim is in-process only)
def test_e2e_one_client_draws_a_random_game_of_every_ruleset(live: Live, ruleset: str) -> None:
    client: RefereeClient = live.client
    rs = registry.get(ruleset)
    players = rs.min_players if rs.min_players > 2 else 2
    catalogue = client.rulesets.catalogue(ruleset)
    names = TABLE.names_of(catalogue)
    game = client.games.create(ruleset, players=players, options=rs.options_for(players))
    pick = Rng(f"one-table-{ruleset}".encode())
    for step in range(3000):
        spectator = client.games.view(game.id)
        check_drawn(TABLE.draw(spectator.raw, catalogue), spectator.raw, names)
        if not spectator.active:
            break
        if not spectator.to_act:  # a deadline of the rules is due: the worker plays it
            client.games.events(game.id, after=spectator.version, wait=5)
            continue
        seat = spectator.to_act[pick.below(len(spectator.to_act))]
        mine = client.games.view(game.id, token=game.tokens[seat])
        check_drawn(TABLE.draw(mine.raw, catalogue), mine.raw, names)
        if not mine.legal_moves:
            continue
        chosen = pick.choice(playing_moves(mine.legal_moves))
        if step >= 400 and {"type": RESIGN} in mine.legal_moves:  # a long random game ends with a resignation
            chosen = {"type": RESIGN}
        try:
            client.games.move(game.id, chosen, token=game.tokens[seat])
        except VersionConflict:  # a timeout was played meanwhile: look again
            continue
    final = client.games.view(game.id)
    assert final.status == "finished" and "over (" in TABLE.draw(final.raw, catalogue)
    assert client.games.audit(game.id).ok


def test_e2e_an_open_game_is_found_claimed_by_two_clients_played_and_audited(live: Live) -> None:
    creator: RefereeClient = live.client
    game = creator.games.create("bang-faceoff", seats=[{"open": True}, {"open": True}])
    found = list(creator.games.all(ruleset="bang-faceoff", open_seats=True, limit=1))  # a page at a time
    assert game.id in [g.id for g in found] and all(g.raw["open_seats"] for g in found)
    with checked_client(live.url) as alice, checked_client(live.url) as bob:
        tokens = {0: alice.games.claim(game.id, 0, "alice").token, 1: bob.games.claim(game.id, 1, "bob").token}
        players = {0: alice, 1: bob}
        catalogue = alice.rulesets.catalogue("bang-faceoff")
        pick = Rng(b"open-game")
        for step in range(3000):
            spectator = creator.games.view(game.id)
            if not spectator.active:
                break
            if not spectator.to_act:
                creator.games.events(game.id, after=spectator.version, wait=5)
                continue
            seat = spectator.to_act[0]
            mine = players[seat].games.view(game.id, token=tokens[seat])
            TABLE.draw(mine.raw, catalogue)
            if mine.legal_moves:
                chosen = pick.choice(playing_moves(mine.legal_moves))
                if step >= 400 and {"type": RESIGN} in mine.legal_moves:  # random Face Off can run long
                    chosen = {"type": RESIGN}
                try:
                    players[seat].games.move(game.id, chosen, token=tokens[seat])
                except VersionConflict:
                    continue
    assert creator.games.view(game.id).status == "finished"
    assert creator.games.audit(game.id).ok
