"""Deciding (D73, D75): the answer to the awaited decision checked against
the legal answers, then the turn run on to the next decision."""
from __future__ import annotations

from referee.engine.protocol import Event, IllegalMove, Json, Seat
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games.dice import flow, legal, prompts
from referee.games.dice.context import Ctx
from referee.games.dice.dice_faces import DYNAMITE
from referee.games.dice.event_types import ARROWS_DISCARDED, LIFE_GAINED
from referee.games.dice.state import State


def _refusal(state: State, move: Json) -> IllegalMove:
    """The precise rule a move that is not among the legal answers breaks."""
    kind, prompt = move["type"], state.prompt or ""
    rule = prompts.RULES.get(prompt, "D73")
    if kind not in prompts.ANSWERS.get(prompt, (prompt,)):
        return IllegalMove("unexpected_move", rule="D73",
                           detail=f"the referee awaits a {prompt} decision, not a {kind} move")
    if kind == "reroll":
        dice = move["dice"]
        if any(d > len(state.dice) for d in dice):
            return IllegalMove("no_such_die", rule="D15", detail=f"there are only {len(state.dice)} dice")
        locked = [d for d in dice if state.dice[d - 1] == DYNAMITE]
        return IllegalMove("dynamite_locked", rule="D16", detail=f"dice {locked} show dynamite: never rerolled")
    if kind == "roll":
        return IllegalMove("no_saloon_die", rule="D52", detail="no Saloon die may be used in this turn")
    if kind == "shoot" and move["double"]:
        return IllegalMove("no_double", rule="D46",
                           detail="only Slab the Killer, once, spending a beer, doubles a shot")
    if kind == "shoot":
        return IllegalMove("out_of_range", rule="D24", detail=f"seat {move['target']} is not at this shot's distance")
    if kind == "haunt" and move["double"]:
        return IllegalMove("no_double_token", rule="D65", detail="a ×2 token needs two equal faces, named as die 1")
    if kind in ("bart", "pedro"):
        return IllegalMove("too_many_arrows", rule=rule, detail="more arrows than the ability allows now")
    return IllegalMove("illegal_target", rule=rule, detail=f"{move} is not a legal answer now")



def decide(state: State, actor: Seat, move: Json, *, rng: Rng, now: int,
           memo: Memo | None = None) -> tuple[list[Event], State]:
    """Answer the awaited decision (D73; its answers found in the game's ``memo``
    where a view listed them), then run the turn on to the next one."""
    kind = move["type"]
    if kind == "resign":  # D75: listed for every awaited seat
        ctx = Ctx(state, rng, now, list(state.agenda))
        flow.resign(ctx, actor)
        return ctx.events, ctx.state
    norm = {**move, "dice": sorted(move["dice"])} if kind == "reroll" else move
    if norm not in legal.choices(state, memo):
        raise _refusal(state, norm)
    ctx = Ctx(state, rng, now, list(state.agenda))
    if kind == "sid":
        ctx.emit(LIFE_GAINED, rule="D45", seat=move["target"], amount=1)
        ctx.wait("roll", actor)
    elif kind == "roll":
        flow.first_roll(ctx, move["saloon"])
    elif kind == "reroll":
        flow.reroll(ctx, norm["dice"])
    elif kind == "stop":
        flow.stop(ctx)
    elif kind == "arrow":
        (flow.take_chief if move["chief"] else flow.take_regular)(ctx, state.prompt_data[0])
        flow.run(ctx)
    elif kind in ("broken_arrow", "discard"):
        if move["target"] is not None:
            ctx.emit(ARROWS_DISCARDED, seat=move["target"], regular=1, chief=False, by=actor,
                     rule="D54" if kind == "broken_arrow" else "D40")
        if kind == "discard" and state.prompt_data[0] > 1:
            ctx.push(("kit", state.prompt_data[0] - 1))
        flow.run(ctx)
    elif kind == "shoot":
        flow.declare(ctx, move["target"], move["double"])
    elif kind == "beer":
        flow.beer(ctx, move["target"])
    elif kind == "bart":
        flow.bart(ctx, move["arrows"])
    elif kind == "pedro":
        flow.pedro(ctx, move["regular"], move["chief"])
    else:
        flow.haunt(ctx, move["die"], move["double"], move["target"])
    return ctx.events, ctx.state
