"""The agenda runner: start of turn (R8, R9), phase 1 (R10, R62–R70),
"draw!" checks (R41, R42), multi-target cards (R45) and after-hit
abilities (R50, R61, R64); and ``apply_effects``, which applies the card engine's
effects (``cardrules.Effect``) at this table."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from referee.games.bang.context import Ctx, TurnEnds, hit
from referee.games.bang.state import PROMPTS, Frame, Seat, has_key, next_alive
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import BLACK_JACK, JESSE_JONES, KIT_CARLSON, PEDRO_RAMIREZ
from referee.games.cards.deck import KEY, red


def start_turn(ctx: Ctx, seat: Seat, step: str = "dynamite") -> None:
    """A new turn (R8): start-of-turn checks first (R9)."""
    ctx.emit("turn_started", {"seat": seat})
    ctx.phase = "start"
    ctx.bangs = 0
    ctx.stack.append(Frame("turn", seat, step=step))


def next_turn(ctx: Ctx) -> None:
    """The turn passes to the next alive player on the left (R8, R51 step 6)."""
    ctx.stack.clear()
    start_turn(ctx, next_alive(ctx.state, ctx.state.turn))


def run(ctx: Ctx) -> None:
    """Run process frames until a prompt (or the play/discard phase) waits."""
    while True:
        try:
            stack = ctx.stack
            while stack:
                top = stack[-1]
                if top.kind in PROMPTS:
                    return
                stack.pop()
                PROCESS[top.kind](ctx, top)
            return
        except TurnEnds:
            next_turn(ctx)


def act(ctx: Ctx, answer: Callable[..., None], *args: Any) -> None:
    """Apply one accepted move, then run the agenda."""
    try:
        answer(ctx, *args)
    except TurnEnds:
        next_turn(ctx)
    run(ctx)


# --- the card engine's effects ----------------------------------------------------

def apply_effects(ctx: Ctx, effects: Iterable[cardrules.Effect]) -> None:
    """Apply what the card engine says happens (its ``Effect`` values), in
    order, at this table: BANG!'s events and agenda (R18–R51)."""
    for e in effects:
        APPLY[type(e)](ctx, e)


def _turn_up(ctx: Ctx, turn_up: cardrules.TurnUp) -> None:
    apply_effects(ctx, cardrules.turned(turn_up, ctx.turned_up(turn_up)))  # R41, R42


def _decide(ctx: Ctx, decided: cardrules.Decide) -> None:
    apply_check(ctx, decided.who, decided.purpose, decided.card)


#: each effect's application at this table
APPLY: dict[type, Callable[[Ctx, Any], None]] = {
    cardrules.CountBang: Ctx.count_bang, cardrules.PlayCard: Ctx.card_played, cardrules.Discard: Ctx.discard,
    cardrules.Take: Ctx.take, cardrules.Draw: Ctx.drawn, cardrules.Heal: Ctx.healed,
    cardrules.OpenStore: Ctx.general_store, cardrules.OpenShot: Ctx.open_shot, cardrules.OpenDuel: Ctx.open_duel,
    cardrules.OpenMulti: Ctx.open_multi, cardrules.CloseWindow: Ctx.close_window, cardrules.Reopen: Ctx.reopen,
    cardrules.CloseDying: Ctx.close_dying, cardrules.Answer: Ctx.answered, cardrules.Hit: Ctx.take_hit,
    cardrules.Die: Ctx.die, cardrules.TurnUp: _turn_up, cardrules.OpenLucky: Ctx.open_lucky,
    cardrules.Checked: Ctx.checked, cardrules.Decide: _decide,
}


# --- "draw!" ---------------------------------------------------------------

def check(ctx: Ctx, seat: Seat, purpose: str) -> None:
    """``seat`` "draws!" for ``purpose`` (dynamite | jail | barrel:<source>),
    as the card engine turns it (R41, R42), with this table's consequences."""
    apply_effects(ctx, cardrules.check(ctx.state.players[seat], seat, purpose))


def apply_check(ctx: Ctx, seat: Seat, purpose: str, card: str | None) -> None:
    """Apply a "draw!" result (R35, R38, R39; no card: R41's ruling)."""
    p = ctx.state.players[seat]
    if purpose == "dynamite":
        dyn = has_key(p.in_play, "DYNAMITE")
        if dyn is None:
            return
        if cardrules.check_succeeds(purpose, card):
            ctx.emit("card_discarded", {"seat": seat, "cards": [dyn], "reason": "dynamite"})
            hit(ctx, seat, 3, -1, -1)
        else:
            to = next_alive(ctx.state, seat)
            if to != seat:
                ctx.emit("card_passed", {"seat": seat, "to": to, "card": dyn})
    elif purpose == "jail":
        jail = has_key(p.in_play, "JAIL")
        if jail is not None:
            ctx.emit("card_discarded", {"seat": seat, "cards": [jail], "reason": "jail"})
        if not cardrules.check_succeeds(purpose, card):
            raise TurnEnds
    else:
        source = purpose.split(":", 1)[1]
        shot = ctx.stack.pop()
        shot = Frame("shot", shot.seat, shot.src, shot.card, shot.needed,
                     shot.misses + (1 if cardrules.check_succeeds(purpose, card) else 0), shot.used + (source,),
                     shot.played)
        if shot.misses < shot.needed:
            ctx.stack.append(shot)


# --- process frames ----------------------------------------------------------

def _turn(ctx: Ctx, frame: Frame) -> None:
    seat = frame.seat
    p = ctx.state.players[seat]
    if frame.step == "dynamite":
        ctx.stack.append(Frame("turn", seat, step="jail"))
        if has_key(p.in_play, "DYNAMITE"):
            check(ctx, seat, "dynamite")
    elif frame.step == "jail":
        ctx.stack.append(Frame("turn", seat, step="draw"))
        if has_key(p.in_play, "JAIL"):
            check(ctx, seat, "jail")
    else:
        draw_phase(ctx, seat)


def draw_phase(ctx: Ctx, seat: Seat) -> None:
    """Phase 1 (R10) and the characters who change it (R62, R65, R67, R70)."""
    ctx.phase = "draw"
    s = ctx.state
    ch = s.players[seat].character
    if ch == JESSE_JONES and any(q.alive and q.seat != seat and q.hand for q in s.players):
        ctx.stack.append(Frame("draw_choice", seat))
        return
    if ch == PEDRO_RAMIREZ and s.discard:
        ctx.stack.append(Frame("draw_choice", seat))
        return
    if ch == KIT_CARLSON:
        cards = ctx.reveal(seat, 3, "kit_carlson")
        if len(cards) == 3:
            ctx.stack.append(Frame("kit", seat))
            return
        if cards:
            ctx.emit("kit_kept", {"seat": seat, "kept": cards, "returned": []})
        ctx.phase = "play"
        return
    got = ctx.draw(seat, 2, "draw")
    if ch == BLACK_JACK and len(got) == 2:
        ctx.emit("card_shown", {"seat": seat, "card": got[1], "reason": "black_jack"})
        if red(got[1]):
            ctx.draw(seat, 1, "black_jack")
    ctx.phase = "play"


def _multi(ctx: Ctx, frame: Frame) -> None:
    players = ctx.state.players
    targets = [t for t in frame.targets if players[t].alive]
    if not targets:
        return
    if len(targets) > 1:
        ctx.stack.append(Frame("multi", src=frame.src, card=frame.card, targets=tuple(targets[1:])))
    if KEY.get(frame.card, frame.card.upper()) == "GATLING":  # the card ID, or its kind once reshuffled (R59)
        ctx.stack.append(Frame("shot", targets[0], src=frame.src, card=frame.card, needed=1))
    else:
        ctx.stack.append(Frame("indians", targets[0], src=frame.src, card=frame.card))


def _after_hit(ctx: Ctx, frame: Frame) -> None:
    player = ctx.state.players[frame.seat]
    if player.alive:  # R50, R61, R64
        apply_effects(ctx, cardrules.after_hit(player, frame.seat, frame.src, frame.amount))


PROCESS: dict[str, Callable[[Ctx, Frame], None]] = {
    "turn": _turn,
    "multi": _multi,
    "after_hit": _after_hit,
}
