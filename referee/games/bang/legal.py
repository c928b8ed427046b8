"""Who acts and what he may send (R43, R77): ``to_act``, ``legal_moves``,
``default_move`` and the options a timeout's default is drawn from.

Legal moves are JSON, each a complete move object a client may POST
unchanged (DESIGN.md); ``decide.py`` accepts exactly these.
"""
from __future__ import annotations

from typing import Any

from referee.engine.platform import RESIGN
from referee.engine.statecache import Memo
from referee.games.bang import reactions, turn
from referee.games.bang.cache import derived
from referee.games.bang.context import may_resign
from referee.games.bang.state import Seat, State
from referee.games.cards import rules as cardrules

#: a move as JSON: what the legal moves and the defaults list, each a complete move object
JsonMove = dict[str, Any]

#: windows a pass answers (R43): their default is the pass
PASSABLE = cardrules.PASSABLE


def to_act(state: State | None, memo: Memo | None = None) -> set[Seat]:
    """The seat the top window awaits, else the player whose turn it is (R43, R77); none once the game
    is over (the rules find nothing they need in ``memo``)."""
    if state is None or state.phase == "over":
        return set()
    top = state.top()
    return {top.seat} if top is not None else {state.turn}


def legal_moves(state: State | None, seat: Seat, memo: Memo | None = None) -> tuple[JsonMove, ...]:
    """Every move ``decide`` accepts from ``seat`` now, in a stable order
    (R43, R77): an immutable tuple, JSON-encoded as a list; kept in the
    game's ``memo`` under ``seat`` (``cache.py``; ``None``: a fresh one)."""
    if state is None or state.phase == "over":
        return ()
    known = derived(state, memo if memo is not None else Memo()).legal  # computed once per state and seat
    moves: tuple[JsonMove, ...] | None = known.get(seat)
    if moves is None:
        moves = known[seat] = tuple(_legal(state, seat))
    return moves


#: the move that resigns (R85), listed last wherever an awaited seat may resign
RESIGN_MOVE: JsonMove = {"type": RESIGN}


def _legal(state: State, seat: Seat) -> list[JsonMove]:
    moves = _playing(state, seat)
    if moves and may_resign(state, seat):
        return [*moves, dict(RESIGN_MOVE)]
    return moves


def _playing(state: State, seat: Seat) -> list[JsonMove]:
    top = state.top()
    if top is not None:
        return reactions.prompt_moves(state, top) if top.seat == seat else []
    if seat != state.turn:
        return []
    if state.phase == "play":
        return turn.play_moves(state, seat)
    if state.phase == "discard":
        return turn.discard_moves(state.players[seat])
    return []


def default_move(state: State | None, seat: Seat, memo: Memo | None = None) -> JsonMove | None:
    """What a turn clock applies (R43 RULING): pass / end phase 2 where legal,
    else the first legal option (phase 3: the oldest cards in hand)."""
    if state is None or state.phase == "over" or seat not in to_act(state):
        return None
    top = state.top()
    if top is not None:
        return reactions.default_answer(state, top)
    if state.phase == "play":
        return {"type": "end_turn"}
    moves = legal_moves(state, seat, memo)
    return moves[0] if moves else None


def default_options(state: State | None, seat: Seat, memo: Memo | None = None) -> tuple[JsonMove, ...]:
    """The moves a timeout's default is drawn from (R43 RULING): the pass,
    decline or end of phase 2 where that is legal; otherwise every legal
    option, one to be drawn uniformly with the game's generator (R78)."""
    if state is None or state.phase == "over" or seat not in to_act(state):
        return ()
    top = state.top()
    if top is not None and top.kind in PASSABLE:
        return (dict(reactions.PASS),)
    if top is None and state.phase == "play":
        return ({"type": "end_turn"},)
    moves = legal_moves(state, seat, memo)
    return moves[:-1] if moves and moves[-1]["type"] == RESIGN else moves  # never resign (R85)
