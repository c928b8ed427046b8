"""Deciding: a parsed move by a seat the referee awaits → the events it
causes, folded as emitted (F9–F23, F34); the claim window's timeout (F18);
and the precise refusal of a move from a seat the referee does not await."""
from __future__ import annotations

from referee.engine.protocol import Event, OutOfTurn
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.bluffaneer import claims, turn
from referee.games.bluffaneer.context import new_draft
from referee.games.bluffaneer.ending import resign
from referee.games.bluffaneer.moves import Accept, Claim, ParsedMove, Pass, Resign, Roll, SeatMove, Steal
from referee.games.bluffaneer.state import Seat, State


def decide(state: State, actor: Seat, move: SeatMove, *, rng: Rng, now: int,
           memo: Memo | None = None) -> tuple[list[Event], State]:
    """The events ``move`` by ``actor`` (a seat the referee awaits) received
    at ``now`` causes, folded as emitted; or a refusal that changes nothing
    (F33): the ruleset's ``play``. The rules find nothing they need in ``memo``."""
    draft = new_draft(state)
    match move:  # the most frequent first: claims and passes, then rolls
        case Claim() | Pass():
            claims.answer(draft, actor, move, rng, now)
        case Roll():
            turn.roll(draft, actor, rng, now)
        case Accept():
            claims.accept(draft, actor, rng)
        case Steal():
            turn.steal(draft, actor, move, rng)
        case Resign():
            resign(draft, actor, rng)
        case _:  # Challenge (``timeout`` never reaches ``play``: RulesetBase.decide_and_fold)
            claims.challenge(draft, actor, rng)
    return draft.events, draft.state


def timeout(state: State, *, rng: Rng, now: int) -> tuple[list[Event], State]:
    """The claim window closes at its deadline (F18)."""
    draft = new_draft(state)
    claims.close(draft, "timeout", rng, now)
    return draft.events, draft.state


def out_of_turn(state: State, actor: Seat, move: ParsedMove) -> OutOfTurn | None:
    """The rule a move from ``actor``, a seat the referee does not await, breaks:
    the roller may not claim (F17), a seat answers once (F17), only the
    roller rolls, robs and decides (F9, F12, F21); ``None``: no rule more
    precise than the platform's."""
    match move:
        case Roll():
            return turn.roll_refusal(state, actor)
        case Steal():
            return turn.steal_refusal(state, actor)
        case Claim() | Pass():
            return claims.answer_refusal(state, actor, move)
        case Resign():
            return None  # F34: a seat resigns when the referee awaits it
    return claims.decision_refusal(state, actor)
