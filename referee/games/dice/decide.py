"""Deciding (D73, D75): the answer to the awaited decision checked against
the legal answers, then the turn run on to the next decision."""
from __future__ import annotations

from typing import assert_never

from referee.engine.protocol import Event, IllegalMove, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.dice import flow, legal, prompts
from referee.games.dice.context import Ctx
from referee.games.dice.dice_faces import DYNAMITE
from referee.games.dice.event_types import ARROWS_DISCARDED, LIFE_GAINED
from referee.games.dice.moves import (
    Answer,
    Arrow,
    Bart,
    Beer,
    BrokenArrow,
    DiceMove,
    Discard,
    Haunt,
    Pedro,
    Reroll,
    Resign,
    Roll,
    Shoot,
    Sid,
    Stop,
)
from referee.games.dice.state import State


def _refusal(state: State, move: Answer) -> IllegalMove:
    """The precise rule a move that is not among the legal answers breaks."""
    kind, prompt = move.TYPE, state.prompt or ""
    rule = prompts.RULES.get(prompt, "D73")
    if kind not in prompts.ANSWERS.get(prompt, (prompt,)):
        return IllegalMove("unexpected_move", rule="D73",
                           detail=f"the referee awaits a {prompt} decision, not a {kind} move")
    match move:
        case Reroll(dice=dice) if any(die > len(state.dice) for die in dice):
            return IllegalMove("no_such_die", rule="D15", detail=f"there are only {len(state.dice)} dice")
        case Reroll(dice=dice):
            locked = [die for die in dice if state.dice[die - 1] == DYNAMITE]
            return IllegalMove("dynamite_locked", rule="D16", detail=f"dice {locked} show dynamite: never rerolled")
        case Roll():
            return IllegalMove("no_saloon_die", rule="D52", detail="no Saloon die may be used in this turn")
        case Shoot(double=True):
            return IllegalMove("no_double", rule="D46",
                               detail="only Slab the Killer, once, spending a beer, doubles a shot")
        case Shoot(target=target):
            return IllegalMove("out_of_range", rule="D24", detail=f"seat {target} is not at this shot's distance")
        case Haunt(double=True):
            return IllegalMove("no_double_token", rule="D65",
                               detail="a ×2 token needs two equal faces, named as die 1")
        case Bart() | Pedro():
            return IllegalMove("too_many_arrows", rule=rule, detail="more arrows than the ability allows now")
    return IllegalMove("illegal_target", rule=rule, detail=f"{move.to_json()} is not a legal answer now")


def decide(state: State, actor: Seat, move: DiceMove, *, rng: Rng, now: int,
           memo: Memo | None = None) -> tuple[list[Event], State]:
    """Answer the awaited decision (D73; its answers found in the game's ``memo``
    where a view listed them), then run the turn on to the next one. ``resign``
    (D75) is listed for every awaited seat, whatever the prompt."""
    if isinstance(move, Resign):
        ctx = Ctx(state, rng, now, list(state.agenda))
        flow.resign(ctx, actor)
        return ctx.events, ctx.state
    if isinstance(move, Reroll):  # the dice named in any order: the legal answers name them ascending
        move = Reroll(dice=tuple(sorted(move.dice)))
    if move.to_json() not in legal.choices(state, memo):
        raise _refusal(state, move)
    ctx = Ctx(state, rng, now, list(state.agenda))
    _answer(ctx, state, actor, move)
    return ctx.events, ctx.state


def _answer(ctx: Ctx, state: State, actor: Seat, move: Answer) -> None:
    """Run the turn on from the legal answer ``move`` of ``actor`` to the awaited decision of ``state``."""
    match move:
        case Sid(target=target):
            ctx.emit(LIFE_GAINED, rule="D45", seat=target, amount=1)
            ctx.wait("roll", actor)
        case Roll(saloon=saloon):
            flow.first_roll(ctx, saloon)
        case Reroll(dice=dice):
            flow.reroll(ctx, list(dice))
        case Stop():
            flow.stop(ctx)
        case Arrow(chief=chief):
            (flow.take_chief if chief else flow.take_regular)(ctx, state.prompt_data[0])
            flow.run(ctx)
        case BrokenArrow(target=target):
            ctx.emit(ARROWS_DISCARDED, seat=target, regular=1, chief=False, by=actor, rule="D54")
            flow.run(ctx)
        case Discard(target=target):
            _kit_discard(ctx, state, actor, target)
        case Shoot(target=target, double=double):
            flow.declare(ctx, target, double)
        case Beer(target=target):
            flow.beer(ctx, target)
        case Bart(arrows=arrows):
            flow.bart(ctx, arrows)
        case Pedro(regular=regular, chief=chief):
            flow.pedro(ctx, regular, chief)
        case Haunt(die=die, double=double, target=target):
            flow.haunt(ctx, die, double, target)
        case _:
            assert_never(move)


def _kit_discard(ctx: Ctx, state: State, actor: Seat, target: int | None) -> None:
    """D40: Kit Carlson discards an arrow of ``target`` (``None``: no one), then the next discard, if any."""
    if target is not None:
        ctx.emit(ARROWS_DISCARDED, seat=target, regular=1, chief=False, by=actor, rule="D40")
    if state.prompt_data[0] > 1:
        ctx.push(("kit", state.prompt_data[0] - 1))
    flow.run(ctx)
