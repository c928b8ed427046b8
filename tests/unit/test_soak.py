"""``bench/soak.py`` in parallel (``--jobs``): the rows add up to what the
serial soak gives game for game (same seeds per game index), and a broken
game in a pool's process is still reported and fails the run."""
from __future__ import annotations

import multiprocessing
from typing import Any

import pytest

from bench import soak
from bench.__main__ import main
from referee.games import registry

KEPT = ("games", "broken", "actions", "reasons")


def rows(result: dict[str, Any]) -> dict[Any, dict[str, Any]]:
    return {(ruleset, *key): {k: row[k] for k in KEPT} for ruleset, by_row in result.items()
            for key, row in by_row.items()}


def test_the_parallel_soak_gives_the_serial_rows() -> None:
    rs = registry.get("bluffaneer")
    whole = {("bluffaneer", n, soak.label(o)): {k: soak.soak("bluffaneer", n, 2, o)[k] for k in KEPT}
             for n in range(rs.min_players, rs.max_players + 1) for o in rs.option_sets(n)}
    lines: list[str] = []
    parallel = rows(soak.run(2, ["bluffaneer"], jobs=2, chunk=1, progress=lines.append))
    assert parallel == rows(soak.run(2, ["bluffaneer"], jobs=1)) == whole
    assert all(row["games"] == 2 and not row["broken"] for row in parallel.values())
    assert len(lines) == 2 * len(whole)  # one progress line per chunk of one game


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the patched invariants reach the pool's processes only when they fork")
def test_a_broken_game_in_the_pool_is_reported_and_fails_the_run(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rs = registry.get("bluffaneer")
    real = rs.invariants
    monkeypatch.setattr(rs, "invariants", lambda state: real(state) + (
        ["forged: 4 players"] if len(state.coins) == 4 else []))
    parallel = rows(soak.run(2, ["bluffaneer"], jobs=2, chunk=1))
    assert parallel == rows(soak.run(2, ["bluffaneer"], jobs=1))
    broken = {key: row["broken"] for key, row in parallel.items() if row["broken"]}
    assert list(broken) == [("bluffaneer", 4, "-")]
    assert [line.split(":")[0] for line in broken["bluffaneer", 4, "-"]] == \
        ["seed soak-bluffaneer-4---0", "seed soak-bluffaneer-4---1"]
    assert all("forged: 4 players" in line for line in broken["bluffaneer", 4, "-"])
    assert main(["soak", "2", "bluffaneer", "--jobs", "2"]) == 1
    out = capsys.readouterr()
    assert "bluffaneer  4 players -: 2 games" in out.out and "2 BROKEN" in out.out
    assert "(2 jobs, " in out.out.splitlines()[0]
