"""Whom the referee awaits, with which moves, and the defaults (F9, F12,
F13, F17, F18, F21)."""
from __future__ import annotations

from referee.engine.protocol import Json, Move
from referee.games.bluffaneer import moves
from referee.games.bluffaneer.state import CLAIMS, DECISION, ROLL, STEAL, Seat, State
from referee.games.bluffaneer.turn import steal_terms

_ROLL = (moves.simple(moves.ROLL),)
_ANSWERS = (moves.simple(moves.CLAIM), moves.simple(moves.PASS))
_DECISIONS = (moves.simple(moves.ACCEPT), moves.simple(moves.CHALLENGE))


def to_act(state: State) -> set[Seat]:
    """The roller for his roll, steal target or decision; during the claim
    window every non-roller who has neither claimed nor passed; nobody once
    the game is over."""
    if state.phase in (ROLL, STEAL, DECISION):
        return {state.turn}
    if state.phase == CLAIMS:
        return set(state.awaited_claimers())
    return set()


def legal_moves(state: State, seat: Seat) -> list[Move]:
    """Every move ``seat`` may send now, sorted (claim before pass, accept
    before challenge, steal targets ascending). The claim window's deadline
    is not known here: a claim or pass at or after it is still refused."""
    if seat not in to_act(state):
        return []
    return _moves(state, seat)


def _moves(state: State, seat: Seat) -> list[Move]:
    """``legal_moves`` for a seat already known to be awaited."""
    if state.phase == ROLL:
        return [dict(m) for m in _ROLL]
    if state.phase == STEAL:
        return [moves.steal(target) for target in range(state.players) if target != seat]
    if state.phase == CLAIMS:
        return [dict(m) for m in _ANSWERS]
    return [dict(m) for m in _DECISIONS]


def default_move(state: State, seat: Seat) -> Move | None:
    """The rule's default for an awaited seat (F21 RULING): roll; rob the
    player on the roller's left; pass in the claim window (F18); accept."""
    if seat not in to_act(state):
        return None
    return _default(state, seat)


def _default(state: State, seat: Seat) -> Move:
    """``default_move`` for a seat already known to be awaited."""
    if state.phase == ROLL:
        return moves.simple(moves.ROLL)
    if state.phase == STEAL:
        return moves.steal((seat + 1) % state.players)
    if state.phase == CLAIMS:
        return moves.simple(moves.PASS)
    return moves.simple(moves.ACCEPT)


_KINDS = {STEAL: "steal_target", CLAIMS: "claim_window", DECISION: "decision"}


def pending(state: State) -> Json | None:
    """The reaction prompt (DESIGN.md, Reactions): the steal target, the
    claim window or the roller's decision; ``None`` otherwise."""
    kind = _KINDS.get(state.phase)
    if kind is None:
        return None
    awaited = sorted(to_act(state))
    rule = {STEAL: steal_terms(state)[0], CLAIMS: "F18", DECISION: "F21"}[state.phase]
    return {
        "kind": kind,
        "rule": rule,
        "awaiting": awaited,
        "moves": {str(seat): _moves(state, seat) for seat in awaited},
        "deadline": state.deadline if state.phase == CLAIMS else None,
        "default": {str(seat): _default(state, seat) for seat in awaited},
    }
