"""``referee.audit.offline.LoggedTable``: the log the soak audits is the one
the service would write — the verifier accepts it whole and catches an edit."""
from __future__ import annotations

import copy

import pytest

from referee.audit.offline import LoggedTable
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import playout, random_chooser


@pytest.mark.parametrize("ruleset", registry.names())
def test_a_played_table_audits_clean_and_an_edit_is_caught(ruleset: str) -> None:
    rs = registry.get(ruleset)
    n = rs.min_players
    table = LoggedTable(rs, n, options=rs.options_for(n), seed=f"offline-{ruleset}")
    playout(table, random_chooser(Rng(b"offline-moves")), pick_seat=Rng(b"offline-seats"))
    report = table.audit()
    assert report["ok"], report["divergence"]
    assert report["result"] == rs.result(table.state)
    moves = [i for i, e in enumerate(table.envelopes) if e["type"] == "move"]
    forged = copy.deepcopy(table)
    forged.envelopes[moves[len(moves) // 2]]["data"]["rng"] += 1
    bad = forged.audit()
    assert not bad["ok"] and bad["divergence"]["seq"] == moves[len(moves) // 2] + 1
