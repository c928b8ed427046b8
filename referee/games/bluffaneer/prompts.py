"""What a seat is asked (DESIGN.md, Reactions): the prompt the referee
publishes in every view's ``pending`` — the roll (F9), the steal target
(F12, F13), the claim window (F17, F18) or the roller's decision (F21) —
with the awaited seats, the deadline and each awaited seat's default. The
moves themselves are in ``legal``."""
from __future__ import annotations

from referee.engine.protocol import Json
from referee.games.bluffaneer import legal
from referee.games.bluffaneer.moves import Pass
from referee.games.bluffaneer.state import CLAIMS, DECISION, ROLL, STEAL, Seat, State
from referee.games.bluffaneer.turn import steal_terms

_KINDS = {ROLL: "roll", STEAL: "steal_target", CLAIMS: "claim_window", DECISION: "decision"}
#: the claim window's default (F18), as clients send it
_PASS = Pass().to_json()


def claims_prompt(awaited: list[Seat], deadline: int | None) -> Json:
    """The claim window's prompt (F17, F18): every ``awaited`` seat
    (ascending) may claim or pass (its ``legal_moves``) and passes by
    default at ``deadline``."""
    return {"kind": _KINDS[CLAIMS], "rule": "F18", "awaiting": awaited, "deadline": deadline,
            "default": [{"seat": seat, "move": dict(_PASS)} for seat in awaited]}


def pending(state: State, awaited: frozenset[Seat] | None = None) -> Json | None:
    """The prompt (DESIGN.md, Reactions): the roll, the steal target, the
    claim window or the roller's decision; ``None`` once the game is over: its kind, the
    awaited seats, the deadline and each awaited seat's default (public; the
    seat's own answers are in its ``legal_moves`` only; ``awaited``: ``to_act``'s
    seats if the caller has them). Do not mutate it."""
    phase = state.phase
    kind = _KINDS.get(phase)
    if kind is None:
        return None
    seats = sorted(awaited if awaited is not None else legal.awaited(state))
    if phase == CLAIMS:
        return claims_prompt(seats, state.deadline)
    rule = steal_terms(state)[0] if phase == STEAL else "F9" if phase == ROLL else "F21"
    return {
        "kind": kind,
        "rule": rule,
        "awaiting": seats,
        "deadline": None,
        "default": [{"seat": seat, "move": legal.default_for(state, seat)} for seat in seats],
    }
