"""Whom the referee awaits, with which moves, and the defaults (F9, F12,
F13, F17, F18, F21, F34).

What the legal moves, the prompts and the views derive from one immutable ``State`` is
computed once per state and kept in the game's memo
(``referee.engine.statecache.Memo``: ``memo.of(state)``; none given: a
fresh one). Keys: ``"to_act"`` (the awaited seats), ``"moves"`` (the legal
moves of the phase, the same for every awaited seat: roll, claim or pass,
accept or challenge), ``("moves", seat)`` (the roller's steal targets,
F12), ``"pending"`` (the prompt, every seat's alike) and ``"views"``
(``views._Views``: the view's public members encoded, and every seat's
encoded view, each handed to its own seat alone: F31, a seat's own card is
in its own view only). Everything else kept is public (the prompt shows
every awaited seat's moves). Values are shared: do not mutate them."""
from __future__ import annotations

from referee.engine.protocol import Move
from referee.engine.statecache import Memo, fresh
from referee.games.bluffaneer.moves import Accept, Challenge, Claim, Pass, Resign, Roll, Steal
from referee.games.bluffaneer.state import CLAIMS, DECISION, ROLL, STEAL, Seat, State

#: the moves of each phase as clients send them, built once (each list gets its own copies)
_RESIGN = Resign().to_json()
_ROLL = (Roll().to_json(), _RESIGN)
_ANSWERS = (Claim().to_json(), Pass().to_json(), _RESIGN)
_DECISIONS = (Accept().to_json(), Challenge().to_json(), _RESIGN)
#: the default of an awaited seat by phase, but the steal target's (F9, F18, F21)
_DEFAULTS = {ROLL: Roll().to_json(), CLAIMS: Pass().to_json(), DECISION: Accept().to_json()}


def to_act(state: State, memo: Memo | None = None) -> set[Seat]:
    """The roller for his roll, steal target or decision; during the claim
    window every non-roller who has neither claimed nor passed; nobody once
    the game is over. Found once per state where the game's ``memo`` is given; a new set each call."""
    return set(awaited(state) if memo is None else awaited_seats(state, memo))


def awaited_seats(state: State, memo: Memo) -> frozenset[Seat]:
    """``to_act``, found once per state (kept in ``memo``), shared."""
    kept = memo.of(state)
    known: frozenset[Seat] | None = kept.get("to_act")
    if known is None:
        known = kept["to_act"] = awaited(state)
    return known


def awaited(state: State) -> frozenset[Seat]:
    """The roller for his roll, steal target or decision; the claim window's claimers; nobody at the end
    (``to_act`` without the memo, a new set each call)."""
    if state.phase in (ROLL, STEAL, DECISION):
        return frozenset((state.turn,))
    if state.phase == CLAIMS:
        return frozenset(state.awaited_claimers())
    return frozenset()


def legal_moves(state: State, seat: Seat, memo: Memo | None = None) -> list[Move]:
    """Every move ``seat`` may send now, sorted (claim before pass, accept
    before challenge, steal targets ascending), and last ``resign`` (F34:
    every awaited seat may resign). The claim window's deadline
    is not known here: a claim or pass at or after it is still refused.
    Built once per state (kept in the game's ``memo``; the same list for every awaited
    seat where the phase gives them the same moves): shared, the caller
    must not change the list or its moves."""
    memo = fresh(memo)
    if seat not in awaited_seats(state, memo):
        return []
    kept = memo.of(state)
    key: object = ("moves", seat) if state.phase == STEAL else "moves"
    known: list[Move] | None = kept.get(key)
    if known is None:
        known = kept[key] = _moves(state, seat)
    return known


def _moves(state: State, seat: Seat) -> list[Move]:
    """``legal_moves`` for a seat already known to be awaited."""
    if state.phase == ROLL:
        return [dict(move) for move in _ROLL]
    if state.phase == STEAL:
        return [*(Steal(target).to_json() for target in range(state.players) if target != seat), dict(_RESIGN)]
    if state.phase == CLAIMS:
        return [dict(move) for move in _ANSWERS]
    return [dict(move) for move in _DECISIONS]


def default_move(state: State, seat: Seat) -> Move | None:
    """The rule's default for an awaited seat (F21 RULING): roll; rob the
    player on the roller's left; pass in the claim window (F18); accept."""
    if seat not in to_act(state):
        return None
    return default_for(state, seat)


def default_for(state: State, seat: Seat) -> Move:
    """``default_move`` for a seat already known to be awaited (the prompt's ``default``)."""
    if state.phase == STEAL:
        return Steal((seat + 1) % state.players).to_json()
    return dict(_DEFAULTS.get(state.phase, _DEFAULTS[DECISION]))
