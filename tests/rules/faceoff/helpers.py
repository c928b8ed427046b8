"""Face Off test helpers: a scenario with fixed characters, hands and decks."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from referee.engine.platform import playing_moves
from referee.engine.protocol import Move
from tests.harness import Table, scenario

RS = "bang-faceoff"
#: characters whose abilities stay out of the way of most tests
PLAIN = ["sid_ketchum", "vulture_sam", "jesse_jones"]
FILLER = ["BANG-2C", "BANG-3C", "BANG-4C", "BANG-5C", "BANG-6C", "BANG-7C", "BANG-8C", "BANG-9C"]


class FaceOffTable(Table):
    """A table whose ``legal`` leaves out the resignation every awaited seat may make (FO58),
    as the built-in bots do: ``legal_with_resign`` is the whole list."""

    def legal(self, seat: int) -> Sequence[Move]:
        return playing_moves(super().legal(seat))

    def legal_with_resign(self, seat: int) -> Sequence[Move]:
        return super().legal(seat)


def game(options: dict[str, Any] | None = None, **setup: Any) -> FaceOffTable:
    sc: dict[str, Any] = {"sheriff_seat": 0, "characters": PLAIN, "hands": [[], [], []]}
    sc.update(setup)
    t = scenario(RS, 2, options=options or {}, setup=sc)
    t.__class__ = FaceOffTable
    return cast(FaceOffTable, t)


def sq(t: Table, c: int) -> tuple[int, int]:
    return t.state.chars[c].pos


T = TypeVar("T", bound=Table)


def to_phase3(t: T, seat: int = 0, path: list[list[int]] | None = None) -> T:
    """Play phase 1 (``path``, else the first legal one) and two 0-step walks to reach phase 3."""
    t.play(seat, t.legal(seat)[0] if path is None else {"type": "move", "path": path})
    t.play(seat, {"type": "walk", "path": []})
    t.play(seat, {"type": "walk", "path": []})
    assert t.state.flow["phase"] == "play"
    return t
