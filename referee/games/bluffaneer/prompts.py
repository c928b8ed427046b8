"""Whom the referee awaits, with which moves, and the defaults (F9, F12,
F13, F17, F18, F21)."""
from __future__ import annotations

from referee.engine.protocol import Json, Move
from referee.games.bluffaneer import moves
from referee.games.bluffaneer.cache import MEMO
from referee.games.bluffaneer.state import CLAIMS, DECISION, ROLL, STEAL, Seat, State
from referee.games.bluffaneer.turn import steal_terms

_ROLL = (moves.simple(moves.ROLL),)
_ANSWERS = (moves.simple(moves.CLAIM), moves.simple(moves.PASS))
_DECISIONS = (moves.simple(moves.ACCEPT), moves.simple(moves.CHALLENGE))


def to_act(state: State) -> set[Seat]:
    """The roller for his roll, steal target or decision; during the claim
    window every non-roller who has neither claimed nor passed; nobody once
    the game is over. Found once per state (``cache.MEMO``); a new set each call."""
    return set(_awaited(state))


def _awaited(state: State) -> frozenset[Seat]:
    """``to_act``, found once per state (``cache.MEMO``), shared."""
    memo = MEMO.of(state)
    known: frozenset[Seat] | None = memo.get("to_act")
    if known is None:
        if state.phase in (ROLL, STEAL, DECISION):
            known = frozenset((state.turn,))
        elif state.phase == CLAIMS:
            known = frozenset(state.awaited_claimers())
        else:
            known = frozenset()
        memo["to_act"] = known
    return known


def legal_moves(state: State, seat: Seat) -> list[Move]:
    """Every move ``seat`` may send now, sorted (claim before pass, accept
    before challenge, steal targets ascending). The claim window's deadline
    is not known here: a claim or pass at or after it is still refused.
    Built once per state (``cache.MEMO``; the same list for every awaited
    seat where the phase gives them the same moves): shared, the caller
    must not change the list or its moves."""
    if seat not in _awaited(state):
        return []
    memo = MEMO.of(state)
    key: object = ("moves", seat) if state.phase == STEAL else "moves"
    known: list[Move] | None = memo.get(key)
    if known is None:
        known = memo[key] = _moves(state, seat)
    return known


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


#: each seat's name as a JSON object key
_NAMES = tuple(str(seat) for seat in range(64))


def pending(state: State) -> Json | None:
    """The reaction prompt (DESIGN.md, Reactions): the steal target, the
    claim window or the roller's decision; ``None`` otherwise. In the claim
    window every awaited seat's moves are one list and its default one
    move (the same for each, F17, F18): do not mutate the prompt."""
    phase = state.phase
    kind = _KINDS.get(phase)
    if kind is None:
        return None
    awaited = sorted(_awaited(state))
    if phase == CLAIMS:
        names = [_NAMES[seat] if seat < 64 else str(seat) for seat in awaited]
        answers = legal_moves(state, awaited[0]) if awaited else []
        return {"kind": kind, "rule": "F18", "awaiting": awaited, "moves": dict.fromkeys(names, answers),
                "deadline": state.deadline, "default": dict.fromkeys(names, moves.simple(moves.PASS))}
    rule = steal_terms(state)[0] if phase == STEAL else "F21"
    return {
        "kind": kind,
        "rule": rule,
        "awaiting": awaited,
        "moves": {str(seat): _moves(state, seat) for seat in awaited},
        "deadline": None,
        "default": {str(seat): _default(state, seat) for seat in awaited},
    }
