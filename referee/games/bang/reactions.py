"""Windows (R43): the shot window (R44, R35, R66, R73), Indians! (R34), the
Duel (R32, R46), the dying window (R48, R49), General Store picks (R29),
Lucky Duke's pick (R42), Kit Carlson's keep (R67) and the phase-1 source of
Jesse Jones and Pedro Ramirez (R65, R70)."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from referee.games.bang.context import Ctx, store_next
from referee.games.bang.flow import apply_effects, check
from referee.games.bang.state import Frame, Seat, State
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import JESSE_JONES, PEDRO_RAMIREZ

Move = dict[str, Any]
PASS: Move = cardrules.PASS


def prompt_moves(state: State, f: Frame) -> list[Move]:
    """Every legal answer of ``f.seat`` to the open prompt ``f``."""
    p = state.players[f.seat]
    kind = f.kind
    if kind in cardrules.WINDOW_RULE:
        return cardrules.window_moves(p, kind, used=f.used, played=f.played, misses=f.misses, needed=f.needed,
                                      limbo=state.limbo)
    if kind == "kit":
        return [{"type": "keep", "cards": list(c)} for c in combinations(sorted(state.limbo), 2)]
    # draw_choice
    out: list[Move] = [{"type": "draw", "source": "deck"}]
    if p.character == PEDRO_RAMIREZ and state.discard:
        out.append({"type": "draw", "source": "discard"})
    if p.character == JESSE_JONES:
        out.extend({"type": "draw", "source": "hand", "target": q.seat} for q in state.players
                   if q.alive and q.seat != f.seat and q.hand)
    return out


def default_answer(state: State, f: Frame) -> Move:
    """The rule-defined default (R43): pass where passing is legal, else the
    first legal option."""
    if f.kind in ("shot", "indians", "duel", "dying"):
        return dict(PASS)
    return prompt_moves(state, f)[0]


# --- answers -----------------------------------------------------------------

def barrel(ctx: Ctx, seat: Seat, source: str) -> None:
    check(ctx, seat, "barrel:" + source)


def respond(ctx: Ctx, seat: Seat, card: str) -> None:
    apply_effects(ctx, cardrules.respond(ctx.state.players[seat], seat, card, ctx.window(),
                                 beer_heals=ctx.beer_heals()))  # R24, R34, R46, R48


def pass_(ctx: Ctx, seat: Seat) -> None:
    apply_effects(ctx, cardrules.pass_(seat, ctx.window()))  # R34, R44, R46, R51


def choose(ctx: Ctx, seat: Seat, card: str) -> None:
    f = ctx.stack.pop()
    if f.kind == "store":
        ctx.emit("card_picked", {"seat": seat, "card": card})
        store_next(ctx, f.src, f.targets)
        return
    apply_effects(ctx, cardrules.lucky_choice(seat, f.purpose, card, ctx.state.limbo))  # R42


def keep(ctx: Ctx, seat: Seat, cards: list[str]) -> None:
    ctx.stack.pop()
    returned = [c for c in ctx.state.limbo if c not in cards]
    ctx.emit("kit_kept", {"seat": seat, "kept": list(cards), "returned": returned})
    ctx.phase = "play"


def draw_from(ctx: Ctx, seat: Seat, source: str, target: int) -> None:
    ctx.stack.pop()
    if source == "deck":
        ctx.draw(seat, 2, "draw")
    else:
        if source == "discard":
            card = ctx.state.discard[-1]
            ctx.emit("card_taken", {"seat": seat, "from": None, "card": card, "zone": "discard",
                                    "reason": "pedro_ramirez"})
        else:
            hand = ctx.state.players[target].hand
            card = hand[ctx.rng.below(len(hand))]
            ctx.emit("card_taken", {"seat": seat, "from": target, "card": card, "zone": "hand",
                                    "reason": "jesse_jones"})
        ctx.draw(seat, 1, "draw")
    ctx.phase = "play"
