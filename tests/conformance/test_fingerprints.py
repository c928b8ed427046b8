"""What a client sees is unchanged by a reorganisation of the rules code
(issue 26, item 8): every game of ``tests.fingerprints`` — every installed
built-in ruleset, player count and option set, five seeds each — has the
fingerprint recorded in ``tests/fixtures/fingerprints.json`` before the
rules were reorganised: the same log (events, salts, commitments, links),
the same views for every seat and the spectator, the same legal moves."""
from __future__ import annotations

import json
from typing import Any

import pytest

from tests import fingerprints

pytestmark = pytest.mark.fingerprints

HELD: dict[str, str] = json.loads(fingerprints.FIXTURE.read_text())
GAMES = [(name, n, options, seed) for name, n, options in fingerprints.sizes()
         for seed in fingerprints.SEEDS if fingerprints.key(name, n, options, seed) in HELD]


def test_every_built_in_ruleset_size_and_option_set_has_a_recorded_fingerprint() -> None:
    keys = {fingerprints.key(name, n, options, seed) for name, n, options, seed in GAMES}
    missing = [(name, n, options) for name, n, options in fingerprints.sizes()
               if name in {"bang", "bang-dice", "bang-faceoff", "bluffaneer"}
               and not any(fingerprints.key(name, n, options, s) in keys for s in fingerprints.SEEDS)]
    assert not missing
    assert len(GAMES) >= 5 * 41


@pytest.mark.parametrize("name,players,options,seed", GAMES,
                         ids=[fingerprints.key(*game) for game in GAMES])
def test_a_random_game_logs_shows_and_offers_what_it_did_before(
        name: str, players: int, options: dict[str, Any], seed: bytes) -> None:
    assert fingerprints.fingerprint(name, players, options, seed) == \
        HELD[fingerprints.key(name, players, options, seed)]
