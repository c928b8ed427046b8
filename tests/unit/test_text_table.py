"""Issue 24, done when: one small client draws a text table of any ruleset's
view using only the vocabulary and the catalogue — no ruleset-specific
branch — over random games of every ruleset at every size (in memory here;
over real HTTP in ``tests/e2e/test_one_table_client.py``)."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.protocol import seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout, random_chooser
from tests.table_client import check_drawn, load

TABLE = load()
SIZES = [(name, n) for name in registry.names()
         for n in range(registry.get(name).min_players, registry.get(name).max_players + 1)]


def _catalogue(rs: Any) -> dict[str, Any]:
    hook = getattr(rs, "catalogue", None)
    return hook() if hook else {"ruleset": rs.name}


@pytest.mark.parametrize("ruleset,players", SIZES)
def test_one_client_draws_every_view_of_a_random_game(ruleset: str, players: int) -> None:
    rs = registry.get(ruleset)
    catalogue = _catalogue(rs)
    names = TABLE.names_of(catalogue)
    table = Table(rs, players, seed=f"table-{ruleset}-{players}", options=rs.options_for(players))
    drawn = 0

    def on_step(t: Table) -> None:
        nonlocal drawn
        if drawn > 400 and rs.result(t.state) is None:  # long games: every view of the first 400 steps
            return
        for seat in [None, *range(players)]:
            view = seat_view(rs, t.state, seat)
            check_drawn(TABLE.draw(view, catalogue), view, names)
        drawn += 1

    playout(table, random_chooser(Rng(b"table")), pick_seat=Rng(b"table-seats"), on_step=on_step)
    final = seat_view(rs, table.state, None)
    assert final["result"] is not None and "over (" in TABLE.draw(final, catalogue)
