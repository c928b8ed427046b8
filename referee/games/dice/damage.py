"""Damage batches (D28): Bart Cassidy's and Pedro Ramirez's choices, the
subtraction, eliminations, the end check, Vulture Sam and El Gringo, the
active player's end (D22, D29, D30, D34, D37, D39, D43, D48, D59, D61)."""
from __future__ import annotations

from referee.games.dice.context import Ctx
from referee.games.dice.ending import End, ending, ending_after
from referee.games.dice.event_types import ARROWS_RETURNED, ELIMINATED, GAME_ENDED, LIFE_GAINED, LIFE_LOST
from referee.games.dice.state import Item

INDIANS, BULLET_HIT, DYNAMITE_HIT, SHOTS, GATLING_HIT = "indians", "bullet", "dynamite", "shots", "gatling"
BATCH_RULE = {INDIANS: "D22", BULLET_HIT: "D55", DYNAMITE_HIT: "D23", SHOTS: "D24", GATLING_HIT: "D26"}


def indians(ctx: Ctx) -> None:
    """D22, D39, D59: every living player loses a life per arrow (the Chief's
    Arrow 2, or nothing for its holder alone with the highest count), then every arrow goes back."""
    state = ctx.state
    counts = {seat: state.arrows[seat] + (2 if state.chief_holder == seat else 0) for seat in state.living()}
    losses = dict(counts)
    holder = state.chief_holder
    if holder is not None and all(counts[holder] > count for seat, count in counts.items() if seat != holder):
        losses[holder] = 0
    for seat in losses:
        if state.characters[seat] == "jourdonnais":
            losses[seat] = min(1, losses[seat])
    apply_batch(ctx, INDIANS, losses)


def batch_step(ctx: Ctx, item: Item) -> bool:
    """D28 step 1: Bart Cassidy's choice, then Pedro Ramirez's, when they can matter."""
    _, kind, pairs, stage = item
    state = ctx.state
    losses = {seat: points for seat, points in pairs if state.alive[seat] and points > 0}
    if stage == "bart" and _bart_chooses(ctx, kind, pairs, losses):
        return True
    if stage != "done" and kind != INDIANS and _pedro_chooses(ctx, kind, pairs, losses):
        return True
    apply_batch(ctx, kind, losses)
    return False


def _bart_chooses(ctx: Ctx, kind: str, pairs: Item, losses: dict[int, int]) -> bool:
    """D34: Bart Cassidy hit by shots or the Gatling, with two arrows or more in the pile,
    is asked how many arrows he takes instead of life (the pile keeps one)."""
    state = ctx.state
    bart = next((seat for seat in losses if state.characters[seat] == "bart_cassidy"), None)
    if bart is None or kind not in (SHOTS, GATLING_HIT) or state.pile < 2:
        return False
    ctx.push(("batch", kind, pairs, "pedro"))
    ctx.wait("bart", bart, (min(losses[bart], state.pile - 1),))
    return True


def _pedro_chooses(ctx: Ctx, kind: str, pairs: Item, losses: dict[int, int]) -> bool:
    """D43: Pedro Ramirez holding arrows, neither eliminated by the batch nor
    ending the game with it, is asked how many he discards instead of life."""
    state = ctx.state
    pedro = next((seat for seat in losses if state.characters[seat] == "pedro_ramirez"), None)
    if pedro is None:
        return False
    held = state.arrows[pedro] + (1 if state.chief_holder == pedro else 0)
    if not held or state.life[pedro] <= losses[pedro] or ending(state, losses) is not None:
        return False
    ctx.push(("batch", kind, pairs, "done"))
    ctx.wait("pedro", pedro, (min(losses[pedro], held),))
    return True


def apply_batch(ctx: Ctx, kind: str, losses: dict[int, int]) -> None:
    """D28 steps 2–6: subtract, eliminate (clockwise from the active player),
    check the end, Vulture Sam then El Gringo, the active player's end (D30)."""
    active = ctx.state.turn
    active_was_living = ctx.state.alive[active]
    losses = {seat: points for seat, points in losses.items() if ctx.state.alive[seat] and points > 0}
    dead = _subtract(ctx, kind, losses)
    personal = kind in (SHOTS, GATLING_HIT) and not ctx.state.is_ghost_turn()
    end = ending(ctx.state, {}, personal_dead=dead if personal else [])
    if end is not None:
        end_game(ctx, end)
        return
    _survivors_gain(ctx, kind, losses, dead)
    if active_was_living and not ctx.state.alive[active]:
        ctx.agenda[:] = [("next",)]


def _subtract(ctx: Ctx, kind: str, losses: dict[int, int]) -> list[int]:
    """D28 steps 2–3, D22, D29, D61: the life lost, the arrows back after the
    Indians, each player at 0 eliminated clockwise from the active player (the
    first a Ghost with its module, unless the batch ends the game); the dead."""
    state = ctx.state
    if losses:
        state = ctx.emit(LIFE_LOST, rule=BATCH_RULE[kind],
                         losses=[[seat, points] for seat, points in sorted(losses.items())])
    if kind == INDIANS:
        state = ctx.emit(ARROWS_RETURNED, seat=None, rule="D22")
    order = [(state.turn + step) % state.players for step in range(state.players)]
    dead = [seat for seat in order if state.alive[seat] and state.life[seat] == 0]
    for seat in dead:
        ghost = state.ghost_module and state.ghost is None and not state.three and ending_after(state, dead) is None
        state = ctx.emit(ELIMINATED, seat=seat, role=state.kind(seat), role_card=state.roles[seat],
                         ghost=ghost and seat == dead[0])
    return dead


def _survivors_gain(ctx: Ctx, kind: str, losses: dict[int, int], dead: list[int]) -> None:
    """D48: Vulture Sam gains 2 life per other player eliminated; D37: El Gringo,
    hit by another's shots or Gatling and still living, gives him an arrow."""
    state = ctx.state
    vulture = next((seat for seat in state.living() if state.characters[seat] == "vulture_sam"), None)
    others = [seat for seat in dead if seat != vulture]
    if vulture is not None and others:
        state = ctx.emit(LIFE_GAINED, rule="D48", seat=vulture, amount=2 * len(others))
    gringo = next((seat for seat in losses if state.characters[seat] == "el_gringo"), None)
    if kind in (SHOTS, GATLING_HIT) and gringo is not None and state.alive[gringo] and gringo != state.turn:
        ctx.push(("arrow", "d37"))


def end_game(ctx: Ctx, end: End) -> None:
    """D32, D33, D70: the game ends (every role shown); no step remains."""
    winners, draw, reason = end
    state = ctx.state
    ctx.emit(GAME_ENDED, winners=winners, draw=draw, reason=reason,
             roles=[state.kind(seat) for seat in range(state.players)])
    ctx.agenda.clear()
