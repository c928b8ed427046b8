"""The heuristic bot (issue 11, Deliver 7): always legal, from the view only, and better than random."""
from __future__ import annotations

from collections.abc import Sequence

from bench.bots_bench import run_ruleset
from referee.engine.protocol import Move, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table, playout

RS = registry.get("bang-dice")


def test_D73_the_heuristic_answers_every_prompt_with_a_legal_move() -> None:
    choose = registry.heuristic("bang-dice")
    assert choose is not None
    rng = Rng(b"h")
    for n, options in ((3, {"expansion": True}), (5, {"expansion": True}), (8, {})):
        t = Table(RS, n, options=options, seed=f"heur-{n}")

        def pick(table: Table, seat: int, moves: Sequence[Move]) -> Move:
            move = choose(seat_view(RS, table.state, seat), list(moves), rng)
            assert move in moves
            return move
        playout(t, pick, pick_seat=Rng(b"s"))
        assert RS.result(t.state) is not None


def test_D6_the_heuristic_beats_random_above_the_fair_share() -> None:
    report = run_ruleset("bang-dice", 80)
    overall = report["roles"]["overall"] if "roles" in report else None
    text = str(report)
    assert report["ratio"] > 1.3, text
    if overall is not None:
        assert overall["heuristic"]["win_rate"] > report["fair_share"], text
