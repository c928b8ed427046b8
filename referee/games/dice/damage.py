"""Damage batches (D28): Bart Cassidy's and Pedro Ramirez's choices, the
subtraction, eliminations, the end check, Vulture Sam and El Gringo, the
active player's end (D22, D29, D30, D34, D37, D39, D43, D48, D59, D61)."""
from __future__ import annotations

from referee.games.dice.context import Ctx
from referee.games.dice.ending import ending, ending_after
from referee.games.dice.event_types import ARROWS_RETURNED, ELIMINATED, GAME_ENDED, LIFE_GAINED, LIFE_LOST
from referee.games.dice.state import Item

INDIANS, BULLET_HIT, DYNAMITE_HIT, SHOTS, GATLING_HIT = "indians", "bullet", "dynamite", "shots", "gatling"
BATCH_RULE = {INDIANS: "D22", BULLET_HIT: "D55", DYNAMITE_HIT: "D23", SHOTS: "D24", GATLING_HIT: "D26"}


def indians(ctx: Ctx) -> None:
    """D22, D39, D59: every living player loses a life per arrow (the Chief's
    Arrow 2, or nothing for its holder alone with the highest count), then every arrow goes back."""
    s = ctx.s
    counts = {p: s.arrows[p] + (2 if s.chief_holder == p else 0) for p in s.living()}
    losses = dict(counts)
    holder = s.chief_holder
    if holder is not None and all(counts[holder] > c for p, c in counts.items() if p != holder):
        losses[holder] = 0
    for p in losses:
        if s.characters[p] == "jourdonnais":
            losses[p] = min(1, losses[p])
    apply_batch(ctx, INDIANS, losses)


def batch_step(ctx: Ctx, item: Item) -> bool:
    """D28 step 1: Bart Cassidy's choice, then Pedro Ramirez's, when they can matter."""
    _, kind, pairs, stage = item
    s = ctx.s
    losses = {p: n for p, n in pairs if s.alive[p] and n > 0}
    if stage == "bart":
        bart = next((p for p in losses if s.characters[p] == "bart_cassidy"), None)
        if bart is not None and kind in (SHOTS, GATLING_HIT) and s.pile >= 2:
            ctx.push(("batch", kind, pairs, "pedro"))
            ctx.wait("bart", bart, (min(losses[bart], s.pile - 1),))
            return True
    pedro = next((p for p in losses if s.characters[p] == "pedro_ramirez"), None)
    if stage != "done" and pedro is not None and kind != INDIANS:
        held = s.arrows[pedro] + (1 if s.chief_holder == pedro else 0)
        if held and s.life[pedro] > losses[pedro] and ending(s, losses) is None:
            ctx.push(("batch", kind, pairs, "done"))
            ctx.wait("pedro", pedro, (min(losses[pedro], held),))
            return True
    apply_batch(ctx, kind, losses)
    return False


def apply_batch(ctx: Ctx, kind: str, losses: dict[int, int]) -> None:
    """D28 steps 2–6: subtract, eliminate (clockwise from the active player),
    check the end, Vulture Sam then El Gringo, the active player's end (D30)."""
    s = ctx.s
    active = s.turn
    active_was_living = s.alive[active]
    losses = {p: n for p, n in losses.items() if s.alive[p] and n > 0}
    if losses:
        s = ctx.emit(LIFE_LOST, rule=BATCH_RULE[kind], losses=[[p, n] for p, n in sorted(losses.items())])
    if kind == INDIANS:
        s = ctx.emit(ARROWS_RETURNED, seat=None, rule="D22")
    order = [(active + k) % s.players for k in range(s.players)]
    dead = [p for p in order if s.alive[p] and s.life[p] == 0]
    for p in dead:
        ghost = s.ghost_module and s.ghost is None and not s.three and ending_after(s, dead) is None
        s = ctx.emit(ELIMINATED, seat=p, role=s.kind(p), role_card=s.roles[p], ghost=ghost and p == dead[0])
    personal = kind in (SHOTS, GATLING_HIT) and not s.is_ghost_turn()
    end = ending(s, {}, personal_dead=dead if personal else [])
    if end is not None:
        winners, draw, reason = end
        ctx.emit(GAME_ENDED, winners=winners, draw=draw, reason=reason, roles=[s.kind(p) for p in range(s.players)])
        ctx.agenda.clear()
        return
    vulture = next((p for p in s.living() if s.characters[p] == "vulture_sam"), None)
    others = [p for p in dead if p != vulture]
    if vulture is not None and others:
        s = ctx.emit(LIFE_GAINED, rule="D48", seat=vulture, amount=2 * len(others))
    gringo = next((p for p in losses if s.characters[p] == "el_gringo"), None)
    if kind in (SHOTS, GATLING_HIT) and gringo is not None and s.alive[gringo] and gringo != active:
        ctx.push(("arrow", "d37"))
    if active_was_living and not s.alive[active]:
        ctx.agenda[:] = [("next",)]
