"""Flips (F19, F30, F32), the end of a turn and of the game (F8, F28–F30,
F34)."""
from __future__ import annotations

from collections.abc import Sequence

from referee.engine.protocol import IllegalMove, Json
from referee.engine.rng import Rng
from referee.games.bluffaneer.context import Draft
from referee.games.bluffaneer.fold import COINS_MOVED, GAME_ENDED, TURN_ENDED
from referee.games.bluffaneer.fold import RESIGNED as RESIGNED_EVENT
from referee.games.bluffaneer.state import OVER, Seat, State

#: ``game_ended``'s and the result's ``reason``: a player at 0 coins (F28) or one resigned (F34)
LAST_COIN_LOST = "last_coin_lost"
RESIGNED = "resigned"


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


def end_turn(draft: Draft, rng: Rng, reason: str = LAST_COIN_LOST) -> None:
    """Close the current action (F27): if a player is at 0 coins the game
    ends and the most coins win, a tie broken by one flip (F28–F30; a
    resignation leaves the resigner at 0, F34: ``reason``); otherwise the
    turn passes clockwise (F8)."""
    state = draft.state
    zero = [seat for seat, c in enumerate(state.coins) if c == 0]
    if not zero:
        draft.emit(TURN_ENDED, seat=state.turn, next=(state.turn + 1) % state.players)
        return
    best = max(state.coins)
    tied = [seat for seat, c in enumerate(state.coins) if c == best]
    index, queued = flip(state, tied, rng)
    draft.emit(GAME_ENDED, reason=reason, coins=list(state.coins), zero=zero, tied=tied,
               flip=index, queued=queued, winner=tied[index or 0])


def resign(draft: Draft, actor: Seat, rng: Rng) -> None:
    """``actor`` (an awaited seat: the roller in any of his phases, or a
    player who has not yet answered in the claim window) gives the game up
    (F34): he pays every coin he has into the box, so he is at 0 coins and
    the game ends as F28 says, the most coins winning, a tie broken by one
    flip (F29, F30). An open claim window and a pending steal or decision
    lapse with it."""
    coins = draft.state.coins[actor]
    draft.emit(RESIGNED_EVENT, seat=actor)
    draft.emit(COINS_MOVED, rule="F34", transfers=[{"from": actor, "to": None, "owed": coins, "amount": coins}])
    end_turn(draft, rng, RESIGNED)


def result(state: State) -> Json | None:
    """``None`` until the end; then the winner, every seat's coins, the tied
    seats and the final flip (F29, F30), the reason as a code and a sentence
    (F28, F34)."""
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
        "reason": state.end_reason or LAST_COIN_LOST,
        "detail": _detail(state, tied, final is not None),
        "tied": tied if len(tied) > 1 else [],
        "flip": None if final is None else final.index,
    }


def _detail(state: State, tied: list[Seat], flipped: bool) -> str:
    """The result's sentence: why the game ended and how the winner was found (F28–F30, F34)."""
    if state.end_reason == RESIGNED:
        why = f"Seat {state.resigned} resigned and paid all his coins into the box (F34)"
    else:
        zero = [str(seat) for seat, c in enumerate(state.coins) if c == 0]
        why = f"Seat {zero[0]} lost his last coin (F28)" if len(zero) == 1 else \
            f"Seats {', '.join(zero)} lost their last coins (F28)"
    if flipped:
        how = f"seats {', '.join(map(str, tied))} tied for the most coins and a flip chose seat {state.winner} (F30)"
    else:
        how = f"seat {state.winner} has the most coins and wins (F29)"
    return f"{why}; {how}."
