"""Shared by the tests of encoded views (``referee.engine.encoded_views``
and the rulesets' own encoders): the bytes the generic path sends, and one
random step of a game."""
from __future__ import annotations

import random
from typing import Any

from referee.engine.jsonenc import dumps
from referee.engine.protocol import seat_view
from referee.games.sim import Table


def expected(rs: Any, state: Any, seat: int | None, active: bool, envelope: dict[str, Any]) -> bytes:
    """The view as ``seat_view`` gives it, in the order the API sends its members."""
    view = seat_view(rs, state, seat, active=active)
    body = dict(rs.public_view(state))
    own = dict(rs.seat_part(state, seat))
    own.pop("pending", None)
    body.update(own)
    return dumps({**envelope, "to_act": view["to_act"], "deadline": view["deadline"], "result": view["result"],
                  "seat": seat, "legal_moves": view["legal_moves"], "pending": view["pending"], "state": body})


def step(rs: Any, table: Table, pick: random.Random) -> bool:
    """One random legal move (or the timeout); ``False`` once the game is over."""
    if rs.result(table.state) is not None:
        return False
    seats = sorted(rs.to_act(table.state))
    seat = seats[pick.randrange(len(seats))] if seats else None
    moves = rs.legal_moves(table.state, seat) if seat is not None else []
    if moves:
        table.play(seat, moves[pick.randrange(len(moves))])
    else:
        table.timeout()
    return True
