"""Flips (F19, F30, F32), the end of a turn and of the game (F8, F28–F30)."""
from __future__ import annotations

from typing import Sequence

from referee.engine.protocol import IllegalMove, Json
from referee.games.bluffaneer.events import GAME_ENDED, TURN_ENDED, Draft
from referee.games.bluffaneer.state import OVER, Seat, State
from referee.engine.rng import Rng

REASON = "a player lost his last coin"


def flip(state: State, among: Sequence[Seat], rng: Rng) -> tuple[int | None, bool]:
    """Pick one of ``among`` (ascending seats): ``(index, queued)``, or
    ``(None, False)`` without a tie. The next queued flip is used first and
    must be below ``k``; otherwise ``below(k)`` (F32)."""
    k = len(among)
    if k < 2:
        return None, False
    if state.flip_queue:
        index = state.flip_queue[0]
        if index >= k:
            raise IllegalMove("queued_flip_out_of_range", rule="F32",
                              detail=f"the next queued flip is {index}, but only {k} seats tie")
        return index, True
    return rng.below(k), False


def end_turn(draft: Draft, rng: Rng) -> None:
    """Close the current action (F27): if a player is at 0 coins the game
    ends and the most coins win, a tie broken by one flip (F28–F30);
    otherwise the turn passes clockwise (F8)."""
    state = draft.state
    zero = [seat for seat, c in enumerate(state.coins) if c == 0]
    if not zero:
        draft.emit(TURN_ENDED, seat=state.turn, next=(state.turn + 1) % state.players)
        return
    best = max(state.coins)
    tied = [seat for seat, c in enumerate(state.coins) if c == best]
    index, queued = flip(state, tied, rng)
    draft.emit(GAME_ENDED, reason=REASON, coins=list(state.coins), zero=zero, tied=tied,
               flip=index, queued=queued, winner=tied[index or 0])


def result(state: State) -> Json | None:
    """``None`` until the end; then the winner, every seat's coins, the tied
    seats and the final flip (F29, F30)."""
    if state.phase != OVER:
        return None
    best = max(state.coins)
    tied = [seat for seat, c in enumerate(state.coins) if c == best]
    final = state.last_flip if state.last_flip is not None and state.last_flip.kind == "final" \
        else None
    return {
        "winners": [state.winner],
        "seats": [{"seat": seat, "outcome": "win" if seat == state.winner else "loss",
                   "coins": c} for seat, c in enumerate(state.coins)],
        "reason": REASON,
        "tied": tied if len(tied) > 1 else [],
        "flip": None if final is None else final.index,
    }
