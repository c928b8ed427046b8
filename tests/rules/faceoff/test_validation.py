"""FO11–FO17: a move is accepted exactly when ``legal_moves`` lists it —
also where ``legal.offered`` checks one card's plays or one path step by
step instead of listing every legal move."""
from __future__ import annotations

from typing import Any

import pytest

from referee.engine.protocol import MalformedMove
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.faceoff import legal, moves
from referee.games.sim import Table, playout, random_chooser


def _variants(move: dict[str, Any]) -> list[dict[str, Any]]:
    """``move`` and near misses of it: a path one step longer, shorter or shifted; another target."""
    out = [move]
    if "path" in move:
        p = move["path"]
        out.append({**move, "path": p + [p[-1]] if p else [[0, 0]]})
        out.append({**move, "path": p[:-1]})
        out.append({**move, "path": [[x + 1, y] for x, y in p]})
        out.append({**move, "path": [[x, y + 1] for x, y in p] + ([[5, 5]] if len(p) < 2 else [])})
        out.append({**move, "type": "walk" if move["type"] == "move" else "move"})
    if "target" in move:
        out.append({**move, "target": (move["target"] + 1) % 3})
        out.append({**move, "target": 7})
    if move.get("type") == "play":
        out.append({"type": "play", "card": "BANG-AS", "target": 1})
        out.append({k: v for k, v in move.items() if k != "pick"})
    return out


def test_FO11_FO15_FO17_offered_agrees_with_the_legal_moves() -> None:
    rs = registry.get("bang-faceoff")
    checked = 0
    for m in ("faceoff_1", "faceoff_2"):
        table = Table(rs, 2, options={**rs.options_for(2), "map": m}, seed=f"offered-{m}")
        pick = Rng(f"offered-pick-{m}".encode())

        def check(t: Table) -> None:
            nonlocal checked
            s = t.state
            for seat in (0, 1):
                listed = legal.listed(s, seat)  # listed afresh, the memo left empty
                for move in listed[:12] + listed[-6:]:
                    for candidate in _variants(move):
                        # no memo: a fresh one, where the seat's legal moves are not listed yet
                        assert legal.offered(s, seat, candidate) == (candidate in listed), (candidate, listed[:5])
                        checked += 1
        try:
            playout(table, random_chooser(pick), pick_seat=pick, on_step=check, max_steps=1500)
        except RuntimeError as stop:  # 1,500 actions checked are enough; the game need not end
            assert "no result after" in str(stop)
    assert checked > 10_000


def test_FO9_a_number_sent_as_an_integral_float_is_read_as_the_integer() -> None:
    """``moves.parse`` copies a move through ``normal`` only when a field that holds numbers holds a
    float; one that holds none is read as it was sent, and both read alike."""
    sent = {"type": "walk", "path": [[3, 4], [3, 5]]}
    floats = {"type": "walk", "path": [[3.0, 4], [3, 5.0]]}
    read, normalised = moves.parse(sent), moves.parse(floats)
    assert read == normalised and read.json() is sent
    assert normalised.json() == sent and all(type(v) is int for square in normalised.json()["path"] for v in square)
    assert moves.parse({"type": "play", "card": "BANG-AS", "target": 1.0}).json() == \
        {"type": "play", "card": "BANG-AS", "target": 1}


def test_FO9_a_malformed_move_is_refused_naming_its_first_fault() -> None:
    refusals = {
        "a walk move has no field 'to'": {"type": "walk", "path": [], "to": 1},
        "a play move needs 'card'": {"type": "play", "target": 1},
        "a walk move: 'path' is malformed": {"type": "walk", "path": [[3, 40]]},
        "a place move: 'square' is malformed": {"type": "place", "square": [True, 2]},
    }
    for detail, move in refusals.items():
        with pytest.raises(MalformedMove) as refused:
            moves.parse(move)
        assert refused.value.detail == detail
