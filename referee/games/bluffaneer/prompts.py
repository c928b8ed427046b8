"""Whom the referee awaits, with which moves, and the defaults (F9, F12,
F13, F17, F18, F21)."""
from __future__ import annotations

from referee.engine.protocol import Json, Move
from referee.games.bluffaneer import moves
from referee.games.bluffaneer.cache import MEMO
from referee.games.bluffaneer.state import CLAIMS, DECISION, ROLL, STEAL, Seat, State
from referee.games.bluffaneer.turn import steal_terms

_RESIGN = moves.simple(moves.RESIGN)
_ROLL = (moves.simple(moves.ROLL), _RESIGN)
_ANSWERS = (moves.simple(moves.CLAIM), moves.simple(moves.PASS), _RESIGN)
_DECISIONS = (moves.simple(moves.ACCEPT), moves.simple(moves.CHALLENGE), _RESIGN)


def to_act(state: State) -> set[Seat]:
    """The roller for his roll, steal target or decision; during the claim
    window every non-roller who has neither claimed nor passed; nobody once
    the game is over. Found once per state (``cache.MEMO``); a new set each call."""
    return set(awaited_seats(state))


def awaited_seats(state: State) -> frozenset[Seat]:
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
    before challenge, steal targets ascending), and last ``resign`` (F34:
    every awaited seat may resign). The claim window's deadline
    is not known here: a claim or pass at or after it is still refused.
    Built once per state (``cache.MEMO``; the same list for every awaited
    seat where the phase gives them the same moves): shared, the caller
    must not change the list or its moves."""
    if seat not in awaited_seats(state):
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
        return [*(moves.steal(target) for target in range(state.players) if target != seat), dict(_RESIGN)]
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


_KINDS = {ROLL: "roll", STEAL: "steal_target", CLAIMS: "claim_window", DECISION: "decision"}


def claims_prompt(awaited: list[Seat], deadline: int | None) -> Json:
    """The claim window's prompt (F17, F18): every ``awaited`` seat
    (ascending) may claim or pass (its ``legal_moves``) and passes by
    default at ``deadline``."""
    return {"kind": _KINDS[CLAIMS], "rule": "F18", "awaiting": awaited, "deadline": deadline,
            "default": [{"seat": seat, "move": moves.simple(moves.PASS)} for seat in awaited]}


def pending(state: State) -> Json | None:
    """The prompt (DESIGN.md, Reactions): the roll, the steal target, the
    claim window or the roller's decision; ``None`` once the game is over: its kind, the
    awaited seats, the deadline and each awaited seat's default (public; the
    seat's own answers are in its ``legal_moves`` only). Do not mutate it."""
    phase = state.phase
    kind = _KINDS.get(phase)
    if kind is None:
        return None
    awaited = sorted(awaited_seats(state))
    if phase == CLAIMS:
        return claims_prompt(awaited, state.deadline)
    rule = steal_terms(state)[0] if phase == STEAL else "F9" if phase == ROLL else "F21"
    return {
        "kind": kind,
        "rule": rule,
        "awaiting": awaited,
        "deadline": None,
        "default": [{"seat": seat, "move": _default(state, seat)} for seat in awaited],
    }
