"""The agenda runner: process frames (the Indians!/Gatling targets left,
FO22; the abilities after a hit, FO53) run until a prompt or a phase waits
for a move; a turn that ends passes on (FO8, FO19, FO44); ``settle``: a
decision (or the setup) carried through to the next awaited move."""
from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec

from referee.games.cards import rules as cardrules
from referee.games.faceoff.bid import new_round, open_bid
from referee.games.faceoff.context import PROMPTS, Ctx, GameOver, TurnEnds
from referee.games.faceoff.flow import Frame, frame_but
from referee.games.faceoff.state import OUTLAW, RENEGADE, SHERIFF
from referee.games.faceoff.turn import apply_effects, jail_step, start_turn

P = ParamSpec("P")


def settle(ctx: Ctx, step: Callable[P, None], *args: P.args, **kwargs: P.kwargs) -> None:
    """``step(*args, **kwargs)`` (a move, or the first turn's start), then the agenda run until a
    move is awaited and the flow written; a turn that ends at once passes on (FO19, FO44), and the
    game's end stops everything (FO47). The step's arguments are passed along rather than closed
    over in a lambda: it runs at every action (``python -m bench instructions``)."""
    try:
        try:
            step(*args, **kwargs)
        except TurnEnds:
            advance(ctx)
        run(ctx)
        ctx.flush()
    except GameOver:
        pass


def advance(ctx: Ctx) -> None:
    """The turn passes on; a turn that ends at once (a failed Jail, FO19) passes again."""
    while True:
        try:
            next_turn(ctx)
            return
        except TurnEnds:
            continue


def next_turn(ctx: Ctx) -> None:
    """After the Sheriff the Outlaw, after the Outlaw the bid (FO8), after the Renegade a new round."""
    a = ctx.flow.active
    ctx.stack.clear()
    ctx.flow.start = None
    if a == RENEGADE:
        ctx.flow.controller = -1
    if a == SHERIFF:
        start_turn(ctx, OUTLAW)
    elif a == OUTLAW:
        open_bid(ctx)
    else:
        new_round(ctx)


def run(ctx: Ctx) -> None:
    """Run process frames until a prompt or a phase waits for a move."""
    while True:
        try:
            while ctx.stack:
                top = ctx.stack[-1]
                if top.kind in PROMPTS:
                    return
                ctx.stack.pop()
                _process(ctx, top)
            if ctx.flow.phase == "start_jail":
                jail_step(ctx, ctx.flow.active)
                continue
            return
        except TurnEnds:
            advance(ctx)


def _process(ctx: Ctx, frame: Frame) -> None:
    if frame.kind == "multi":
        _next_target(ctx, frame)
    elif frame.kind == "after_hit":
        c = frame.char
        apply_effects(ctx, cardrules.after_hit(ctx.state.chars[c], c, frame.src, frame.amount))  # R50, R61, R64 (FO53)


def _next_target(ctx: Ctx, frame: Frame) -> None:
    """FO22: Indians! or Gatling reaches its next target; the rest wait below."""
    targets = frame.targets
    if not targets:
        return
    if len(targets) > 1:
        ctx.stack.append(frame_but(frame, targets=targets[1:]))
    t = targets[0]
    if frame.key == "gatling":
        ctx.stack.append(Frame("shot", t, frame.src, "gatling", 1))
    else:
        ctx.stack.append(Frame("indians", t, frame.src))
