"""Movement and nuggets (FO11–FO16): the squares a step may not enter,
the paths a figure may take, and a walk picking nuggets up."""
from __future__ import annotations

from typing import Any

from referee.games.faceoff import board
from referee.games.faceoff.context import Ctx
from referee.games.faceoff.flow import Draft, Flow
from referee.games.faceoff.state import State


def blocked_for(state: State, char: int, flow: Flow | Draft | None = None) -> frozenset[board.Square]:
    """Squares a step of ``char`` may not enter (FO12): other figures and the
    turn-start square (of ``flow``: a decision's own, not yet written; else the state's)."""
    f = state.flow if flow is None else flow
    out = {state.chars[o].pos for o in range(3) if o != char}
    if f.start is not None and f.active == char:
        out.add(f.start)
    return frozenset(out)


def path_json(path: tuple[board.Square, ...]) -> list[list[int]]:
    return [[x, y] for x, y in path]


def steps_ok(state: State, char: int, path: Any, limit: int) -> bool:
    """``path`` is ``[[x, y], ...]``, at most ``limit`` legal steps from ``char``'s square (FO12)."""
    if not isinstance(path, list) or len(path) > limit:
        return False
    blocked = blocked_for(state, char)
    here = state.chars[char].pos
    for sq in path:
        if not (isinstance(sq, list) and len(sq) == 2 and all(type(v) is int for v in sq)):
            return False
        step = (sq[0], sq[1])
        if step not in board.steps_from(state.rows, here, blocked):
            return False
        here = step
    return True


def walk(ctx: Ctx, char: int, path: list[list[int]], phase: int) -> None:
    """``char`` walks ``path``; a nugget is taken square by square, a blue card each (FO13)."""
    ctx.emit("moved", {"char": char, "path": path, "phase": phase})
    for sq in path:
        t = (sq[0], sq[1])
        if t in ctx.state.nuggets:
            ctx.emit("nugget_taken", {"char": char, "square": [t[0], t[1]]})
            ctx.draw(char, 1, "nugget", deck="blue")
