"""The roll and what it causes at once: doubles, the roller's own card and
the opening of the claim window (F9–F16, F18)."""
from __future__ import annotations

from typing import cast

from referee.engine.protocol import IllegalMove, OutOfTurn
from referee.engine.rng import Rng
from referee.games.bluffaneer import payments
from referee.games.bluffaneer.cards import replace_card, reveal
from referee.games.bluffaneer.context import Draft
from referee.games.bluffaneer.ending import end_turn
from referee.games.bluffaneer.fold import DICE_ROLLED, WINDOW_OPENED
from referee.games.bluffaneer.moves import Steal
from referee.games.bluffaneer.state import ROLL, STEAL, Seat, State
from referee.games.bluffaneer.symbols import CHEST, SHIP, SKULL, SWORD, matches

#: double symbol -> (rule, coins stolen) for the doubles that need a target
STEALS: dict[str, tuple[str, int]] = {SWORD: ("F12", 2), SHIP: ("F13", 3)}


def steal_terms(state: State) -> tuple[str, int]:
    """``(rule, coins)`` of the pending steal: F12 after swords, F13 after
    ships; F12 when no steal is pending."""
    dice = state.dice
    return STEALS.get(dice[0], STEALS[SWORD]) if dice is not None else STEALS[SWORD]


def roll_refusal(state: State, actor: Seat) -> OutOfTurn | None:
    """Why ``actor`` may not roll now, if he may not (F9)."""
    if state.phase != ROLL or actor != state.turn:
        code = "not_your_turn" if actor != state.turn else "already_rolled"
        return OutOfTurn(code, rule="F9", detail=f"the referee awaits no roll from seat {actor}")
    return None


def steal_refusal(state: State, actor: Seat) -> OutOfTurn | None:
    """Why ``actor`` may not name a steal target now, if he may not (F12, F13)."""
    if state.phase != STEAL or actor != state.turn:
        code = "not_your_turn" if actor != state.turn else "no_steal_pending"
        return OutOfTurn(code, rule=steal_terms(state)[0],
                         detail=f"the referee awaits no steal target from seat {actor}")
    return None


def roll(draft: Draft, actor: Seat, rng: Rng, now: int) -> None:
    """The roller's roll (F9): die 1 then die 2, each the next queued face or
    ``die_faces[below(6)]`` (F32); then the double's action (F10, F11, F14),
    the wait for a steal target (F12, F13), the roller's own match (F16) or
    the claim window (F17, F18)."""
    state = draft.state
    refused = roll_refusal(state, actor)
    if refused is not None:
        raise refused
    faces = list(state.dice_queue[:2])
    queued = len(faces)
    while len(faces) < 2:
        faces.append(state.die_faces[rng.below(len(state.die_faces))])
    state = draft.emit(DICE_ROLLED, seat=actor, dice=faces, queued=queued)
    a, b = faces
    if a == b:
        if a == CHEST:
            payments.everyone_pays_roller(draft)
        elif a == SKULL:
            payments.roller_pays_everyone(draft)
        else:
            return  # the roller now chooses whom to rob (F12, F13)
        end_turn(draft, rng)
    elif matches(cast(str, state.hands[actor]), (a, b)):
        reveal(draft, actor, "F16")
        payments.others_pay_box(draft)
        replace_card(draft, actor, rng)
        end_turn(draft, rng)
    else:
        draft.emit(WINDOW_OPENED, seat=actor, opened_at=now, deadline=now + state.window_ms)


def steal(draft: Draft, actor: Seat, move: Steal, rng: Rng) -> None:
    """The roller robs ``move.target`` after a sword or ship double (F12, F13)."""
    target = move.target
    state = draft.state
    rule, amount = steal_terms(state)
    refused = steal_refusal(state, actor)
    if refused is not None:
        raise refused
    if target == actor:
        raise IllegalMove("cannot_steal_from_self", rule=rule,
                          detail="the roller must choose another player")
    if not 0 <= target < state.players:
        raise IllegalMove("no_such_seat", rule=rule, detail=f"there is no seat {target}")
    payments.steal(draft, rule, target, amount)
    end_turn(draft, rng)
