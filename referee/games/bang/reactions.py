"""Windows (R43): the shot window (R44, R35, R66, R73), Indians! (R34), the
Duel (R32, R46), the dying window (R48, R49), General Store picks (R29),
Lucky Duke's pick (R42), Kit Carlson's keep (R67) and the phase-1 source of
Jesse Jones and Pedro Ramirez (R65, R70)."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from referee.games.bang.context import Ctx, store_next
from referee.games.bang.flow import apply_effects, check
from referee.games.bang.state import Frame, Seat, State
from referee.games.cards import rules as cardrules
from referee.games.cards.characters import JESSE_JONES, PEDRO_RAMIREZ

#: a move as JSON, as the legal moves list it
JsonMove = dict[str, Any]
PASS: JsonMove = cardrules.PASS


def prompt_moves(state: State, prompt: Frame) -> list[JsonMove]:
    """Every legal answer of ``prompt.seat`` to the open prompt ``prompt``."""
    player = state.players[prompt.seat]
    kind = prompt.kind
    if kind in cardrules.WINDOW_RULE:
        return cardrules.window_moves(player, kind, used=prompt.used, played=prompt.played, misses=prompt.misses,
                                      needed=prompt.needed, limbo=state.limbo)
    if kind == "kit":
        return [{"type": "keep", "cards": list(pair)} for pair in combinations(sorted(state.limbo), 2)]
    # draw_choice
    out: list[JsonMove] = [{"type": "draw", "source": "deck"}]
    if player.character == PEDRO_RAMIREZ and state.discard:
        out.append({"type": "draw", "source": "discard"})
    if player.character == JESSE_JONES:
        out.extend({"type": "draw", "source": "hand", "target": other.seat} for other in state.players
                   if other.alive and other.seat != prompt.seat and other.hand)
    return out


def default_answer(state: State, prompt: Frame) -> JsonMove:
    """The rule-defined default (R43): pass where passing is legal, else the
    first legal option."""
    if prompt.kind in ("shot", "indians", "duel", "dying"):
        return dict(PASS)
    return prompt_moves(state, prompt)[0]


# --- answers -----------------------------------------------------------------

def barrel(ctx: Ctx, seat: Seat, source: str) -> None:
    check(ctx, seat, "barrel:" + source)


def respond(ctx: Ctx, seat: Seat, card: str) -> None:
    apply_effects(ctx, cardrules.respond(ctx.state.players[seat], seat, card, ctx.window(),
                                 beer_heals=ctx.beer_heals()))  # R24, R34, R46, R48


def pass_(ctx: Ctx, seat: Seat) -> None:
    apply_effects(ctx, cardrules.pass_(seat, ctx.window()))  # R34, R44, R46, R51


def choose(ctx: Ctx, seat: Seat, card: str) -> None:
    window = ctx.stack.pop()
    if window.kind == "store":
        ctx.emit("card_picked", {"seat": seat, "card": card})
        store_next(ctx, window.src, window.targets)
        return
    apply_effects(ctx, cardrules.lucky_choice(seat, window.purpose, card, ctx.state.limbo))  # R42


def keep(ctx: Ctx, seat: Seat, cards: Sequence[str]) -> None:
    ctx.stack.pop()
    returned = [card for card in ctx.state.limbo if card not in cards]
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
