"""The claim window and the roller's decision (F17–F23)."""
from __future__ import annotations

from referee.engine.protocol import IllegalMove, OutOfTurn
from referee.engine.rng import Rng
from referee.games.bluffaneer import payments
from referee.games.bluffaneer.cards import replace_card, reveal
from referee.games.bluffaneer.context import Draft
from referee.games.bluffaneer.ending import end_turn, flip
from referee.games.bluffaneer.fold import (
    CLAIM_ACCEPTED,
    CLAIM_CHALLENGED,
    CLAIMED,
    PASSED,
    WINDOW_CLOSED,
)
from referee.games.bluffaneer.moves import Answer, Claim
from referee.games.bluffaneer.state import CLAIMS, DECISION, Seat, State


def answer_refusal(state: State, actor: Seat, move: Answer) -> OutOfTurn | None:
    """Why ``actor`` may not claim or pass now, if he may not: only a
    non-roller, once, while the window is open (F17, F18)."""
    kind = move.TYPE
    if actor == state.turn:
        return OutOfTurn(f"roller_cannot_{kind}", rule="F17",
                         detail=f"the roller may not {kind}: only the other players claim or pass (F17)")
    if state.phase != CLAIMS:
        return OutOfTurn("no_claim_window", rule="F18", detail="no claim window is open")
    if state.answered(actor):
        done = "claimed" if any(s == actor for s, _ in state.claims) else "passed"
        return OutOfTurn(f"already_{done}", rule="F17",
                         detail=f"seat {actor} has already {done} in this window")
    return None


def _check_answer(state: State, actor: Seat, move: Answer, now: int) -> None:
    """A claim or pass: ``answer_refusal``, and before the window's deadline (F18)."""
    refused = answer_refusal(state, actor, move)
    if refused is not None:
        raise refused
    if state.deadline is not None and now >= state.deadline:
        raise IllegalMove("claim_window_expired", rule="F18",
                          detail=f"received at {now}, the window's deadline was {state.deadline}")


def answer(draft: Draft, actor: Seat, move: Answer, rng: Rng, now: int) -> None:
    """Record a claim ("Give me the loot!") or a pass (F17); the last
    outstanding answer closes the window at once (F18)."""
    _check_answer(draft.state, actor, move, now)
    state = draft.emit(CLAIMED if isinstance(move, Claim) else PASSED, seat=actor, at=now)
    if not state.awaited_claimers():
        close(draft, "answered", rng, now)


def close(draft: Draft, reason: str, rng: Rng, now: int) -> None:
    """Close the window: the earliest claim counts, a same-millisecond tie is
    settled by one flip (F19, F32); without a claim the turn ends (F20)."""
    state = draft.state
    if not state.claims:
        draft.emit(WINDOW_CLOSED, reason=reason, at=now, winner=None, tied=[], flip=None,
                   queued=False)
        end_turn(draft, rng)
        return
    first = min(at for _, at in state.claims)
    tied = sorted(seat for seat, at in state.claims if at == first)
    index, queued = flip(state, tied, rng)
    draft.emit(WINDOW_CLOSED, reason=reason, at=now, winner=tied[index or 0], tied=tied,
               flip=index, queued=queued)


def decision_refusal(state: State, actor: Seat) -> OutOfTurn | None:
    """Why ``actor`` may not accept or challenge now, if he may not (F21)."""
    if actor != state.turn:
        return OutOfTurn("not_the_roller", rule="F21", detail="only the roller decides on a claim")
    if state.phase != DECISION or state.claimant is None:
        return OutOfTurn("no_claim_to_decide", rule="F21", detail="there is no claim to decide on")
    return None


def _check_decision(state: State, actor: Seat) -> Seat:
    refused = decision_refusal(state, actor)
    if refused is not None:
        raise refused
    assert state.claimant is not None  # decision_refusal: a claim to decide on
    return state.claimant


def accept(draft: Draft, actor: Seat, rng: Rng) -> None:
    """The roller believes the claimant: gives him 1 coin, then the card is
    revealed, discarded and replaced (F22, F24)."""
    claimant = _check_decision(draft.state, actor)
    draft.emit(CLAIM_ACCEPTED, seat=actor, claimant=claimant)
    payments.pay(draft, "F22", [(actor, claimant, 1)])
    reveal(draft, claimant, "F22")
    replace_card(draft, claimant, rng)
    end_turn(draft, rng)


def challenge(draft: Draft, actor: Seat, rng: Rng) -> None:
    """The roller cries "Bluffing!": the card is revealed; a true claim earns the claimant 2
    coins from the roller, a bluff costs him 1 to the roller (F23, F24)."""
    claimant = _check_decision(draft.state, actor)
    draft.emit(CLAIM_CHALLENGED, seat=actor, claimant=claimant)
    if reveal(draft, claimant, "F23"):
        payments.pay(draft, "F23", [(actor, claimant, 2)])
    else:
        payments.pay(draft, "F23", [(claimant, actor, 1)])
    replace_card(draft, claimant, rng)
    end_turn(draft, rng)
