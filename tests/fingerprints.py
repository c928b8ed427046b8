"""Fingerprints of what a client sees (issue 26, item 8): random games of every
installed ruleset, at every player count and option set, each reduced to one
sha256 over

* the log the service would write (``LoggedTable``: every envelope, so every
  event, salt, commitment and link: the chain's last hash covers them all);
* every seat's and the spectator's view, encoded as the API sends it, and
  every awaited seat's legal moves, after every action.

A refactoring of the rules that changes nothing for a client keeps every
fingerprint; ``tests/fixtures/fingerprints.json`` holds them as recorded
before the rules code was reorganised, and ``tests/conformance/
test_fingerprints.py`` compares. After a deliberate change of behaviour
(a new ruleset version), record them again::

    python -m tests.fingerprints --write
"""
from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.audit.offline import LoggedTable
from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.jsonenc import canonical_bytes
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser

FIXTURE = Path(__file__).parent / "fixtures" / "fingerprints.json"
SEEDS = tuple(f"print-{i}".encode() for i in range(1, 6))
# a random game that has not ended by then resigns the awaited seat (those
# rulesets that know ``resign``) or is fingerprinted as it stands
STEPS = 1500
ENVELOPE = {"id": "print"}
_GAMES = itertools.count()


def sizes() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for name in registry.names():
        rs = registry.get(name)
        for n in range(rs.min_players, rs.max_players + 1):
            for options in rs.option_sets(n):
                yield name, n, dict(options)


def key(name: str, players: int, options: dict[str, Any], seed: bytes) -> str:
    return f"{name}/{players}/{json.dumps(options, sort_keys=True)}/{seed.decode()}"


def fingerprint(name: str, players: int, options: dict[str, Any], seed: bytes) -> str:
    """One game's fingerprint (see the module's docstring)."""
    rs = registry.get(name)
    table = LoggedTable(rs, players, options=options, seed=seed)
    digest = hashlib.sha256()
    version = [0]
    game = next(_GAMES)  # a view's cache key is a game's id and version, as in the API
    views = ViewCache()

    def looked(t: Table) -> None:
        version[0] += 1
        active = rs.result(t.state) is None
        for seat in [None, *range(players)]:
            digest.update(encoded_view(rs, t.state, seat, active=active, envelope=ENVELOPE,
                                       key=(game, version[0]), cache=views))
        for seat in sorted(rs.to_act(t.state)):
            digest.update(canonical_bytes([seat, list(rs.legal_moves(t.state, seat))]))

    looked(table)
    try:
        playout(table, random_chooser(Rng(seed + b"/choose")), pick_seat=Rng(seed + b"/seat"),
                max_steps=STEPS, on_step=looked)
    except RuntimeError as err:
        if "no result after" not in str(err):
            raise
        digest.update(b"unfinished")
    digest.update(table.last_hash.encode())
    digest.update(canonical_bytes(rs.result(table.state)))
    return digest.hexdigest()


def compute() -> dict[str, str]:
    return {key(name, n, options, seed): fingerprint(name, n, options, seed)
            for name, n, options in sizes() for seed in SEEDS}


if __name__ == "__main__":
    prints = compute()
    if "--write" in sys.argv:
        FIXTURE.write_text(json.dumps(prints, indent=1, sort_keys=True) + "\n")
        print(f"{len(prints)} fingerprints written to {FIXTURE}")
    else:
        held = json.loads(FIXTURE.read_text())
        changed = sorted(k for k in prints if held.get(k) != prints[k])
        print(f"{len(prints)} games, {len(changed)} changed", *changed, sep="\n")
