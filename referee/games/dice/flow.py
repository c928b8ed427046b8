"""The turn's steps (D14–D27, D34–D49, D51–D66): rolling and its immediate
effects, then resolution, each step run from the agenda (``context.Ctx``)
until a decision is awaited."""
from __future__ import annotations

from collections.abc import Callable

from referee.games.dice.context import Ctx
from referee.games.dice.damage import BULLET_HIT, DYNAMITE_HIT, GATLING_HIT, SHOTS, batch_step, end_game, indians
from referee.games.dice.dice_faces import ARROW, BASE, BROKEN_ARROW, BULLET, DIE_FACES
from referee.games.dice.distance import ring_at
from referee.games.dice.ending import ending
from referee.games.dice.event_types import (
    ARROW_TAKEN,
    ARROWS_DISCARDED,
    ARROWS_RETURNED,
    DICE_ROLLED,
    ELIMINATED,
    LIFE_GAINED,
    RESIGNED,
    SHOT_DECLARED,
    SHOTS_PLANNED,
    TOKEN_GIVEN,
    TURN_STARTED,
)
from referee.games.dice.state import Item, State

RESOLUTION: tuple[Item, ...] = (("dynamite",), ("shots",), ("beers",), ("gatling",), ("end",))


def run(ctx: Ctx) -> None:
    """Run steps until a decision is awaited or the game is over."""
    while not ctx.state.over and ctx.agenda:
        item = ctx.agenda.pop(0)
        if STEPS[item[0]](ctx, item):
            return


# -- turn start and rolling --------------------------------------------------------

def start_turn(ctx: Ctx, seat: int) -> bool:
    """D14: Sid Ketchum's choice first, else the roll move (the Ghost's too, D64)."""
    state = ctx.emit(TURN_STARTED, seat=seat, ghost=is_ghost(ctx.state, seat))
    if not state.is_ghost_turn() and state.characters[seat] == "sid_ketchum":
        ctx.wait("sid", seat)
    else:
        ctx.wait("roll", seat)
    return True


def is_ghost(state: State, seat: int) -> bool:
    """D63: ``seat`` is the Ghost's."""
    return state.ghost is not None and state.ghost == seat


def next_seat(state: State) -> int:
    """D31, D63, D75: the next seat clockwise holding a living player or the Ghost (not resigned)."""
    for k in range(1, state.players + 1):
        seat = (state.turn + k) % state.players
        if state.alive[seat] or (state.ghost == seat and not state.has_resigned(seat)):
            return seat
    return state.turn


def _faces(ctx: Ctx, kinds: list[str], numbers: list[int]) -> tuple[dict[int, str], int]:
    """Faces of the dice ``numbers`` (from 1, ascending): queued faces first, then ``below(6)`` (D72)."""
    out: dict[int, str] = {}
    forced = 0
    queue = ctx.state.queue
    for n in numbers:
        kind = kinds[n - 1]
        if forced < len(queue) and queue[forced] in DIE_FACES[kind]:
            out[n] = queue[forced]
            forced += 1
        else:
            out[n] = DIE_FACES[kind][ctx.rng.below(6)]
    return out, forced


def first_roll(ctx: Ctx, saloon: str | None) -> None:
    """D14 step 2–4, D52, D66: the Saloon die as d5, a ghost token presets d1 (d2), the rest rolled."""
    state = ctx.state
    seat = state.turn
    if state.is_ghost_turn():
        kinds = [BASE, BASE]
        preset: list[str] = []
    else:
        kinds = [BASE] * 4 + [saloon or BASE]
        token = state.tokens[seat]
        preset = [token[0]] * token[1] if token is not None else []
    numbers = list(range(len(preset) + 1, len(kinds) + 1))
    faces, forced = _faces(ctx, kinds, numbers)
    dice = preset + [faces[n] for n in numbers]
    ctx.emit(DICE_ROLLED, seat=seat, roll=1, saloon=saloon, die_kinds=kinds, dice=dice, rolled=numbers,
             preset=len(preset), forced=forced)
    _after(ctx, list(range(1, len(kinds) + 1)))


def reroll(ctx: Ctx, numbers: list[int]) -> None:
    """D16: the named dice rolled again, the others kept."""
    state = ctx.state
    faces, forced = _faces(ctx, list(state.die_kinds), numbers)
    dice = [faces.get(i + 1, f) for i, f in enumerate(state.dice)]
    ctx.emit(DICE_ROLLED, seat=state.turn, roll=state.rolls + 1, saloon=state.saloon, die_kinds=list(state.die_kinds),
             dice=dice, rolled=numbers, preset=0, forced=forced)
    _after(ctx, numbers)


def _after(ctx: Ctx, numbers: list[int]) -> None:
    """D17: the immediate effects of the dice of this roll, arrows, broken arrows, bullets; then D18."""
    state = ctx.state
    items: list[Item] = []
    if not state.is_ghost_turn():  # D64: no result has any effect on the Ghost
        faces = [state.dice[n - 1] for n in numbers]
        items += [("arrow", "d21")] * faces.count(ARROW)
        items += [("broken",)] * faces.count(BROKEN_ARROW)
        items += [("bullet",)] * faces.count(BULLET)
    ctx.push(*items, ("after_roll",))
    run(ctx)


def _after_roll(ctx: Ctx, _: Item) -> bool:
    """D18, D19: three dynamite, the last roll, or no die to reroll end the rolling."""
    state = ctx.state
    if state.dynamite() >= 3 or state.rolls >= state.max_rolls() or not state.rerollable():
        return _resolve(ctx)
    ctx.wait("reroll", state.turn)
    return True


def _resolve(ctx: Ctx) -> bool:
    if ctx.state.is_ghost_turn():
        ctx.wait("haunt", ctx.state.turn)
        return True
    ctx.push(*RESOLUTION)
    return False


def stop(ctx: Ctx) -> None:
    """D16: keeping every die ends the rolling."""
    if not _resolve(ctx):
        run(ctx)


# -- arrows --------------------------------------------------------------------

def _arrow(ctx: Ctx, item: Item) -> bool:
    """D21, D37, D58: take one arrow; with the Chief's Arrow in the pile the taker chooses."""
    state = ctx.state
    if not state.alive[state.turn]:
        return False
    if state.chief_arrow and state.chief_holder is None:
        ctx.wait("arrow", state.turn, (item[1],))
        return True
    take_regular(ctx, item[1])
    return False


def take_regular(ctx: Ctx, rule: str) -> None:
    """D21, D22: a regular arrow; if it empties the pile, the Indians attack at once. The
    agenda names the arrow's rule lower case (``d21``), the event as the rules text does."""
    state = ctx.emit(ARROW_TAKEN, seat=ctx.state.turn, chief=False, count=1, rule=rule.upper())
    if state.pile == 0:
        indians(ctx)


def take_chief(ctx: Ctx, rule: str) -> None:
    """D58: the Chief's Arrow fills one arrow result; it never triggers an attack (D60)."""
    ctx.emit(ARROW_TAKEN, seat=ctx.state.turn, chief=True, count=1, rule=rule.upper())


def _broken(ctx: Ctx, _: Item) -> bool:
    """D54: a living player holding a regular arrow returns one; none: no effect."""
    if ctx.state.holders():
        ctx.wait("broken_arrow", ctx.state.turn)
        return True
    return False


def _bullet(ctx: Ctx, _: Item) -> bool:
    """D55: the roller loses 1 life, one batch per bullet."""
    ctx.push(("batch", BULLET_HIT, ((ctx.state.turn, 1),), "bart"))
    return False


# -- resolution ----------------------------------------------------------------

def _dynamite(ctx: Ctx, _: Item) -> bool:
    """D23: three or more dynamite cost exactly 1 life."""
    if ctx.state.dynamite() >= 3:
        ctx.push(("batch", DYNAMITE_HIT, ((ctx.state.turn, 1),), "bart"))
    return False


def shot_targets(state: State) -> list[list[int]]:
    """D12, D13, D24, D36, D44: each shot symbol's legal targets, from the living players now."""
    living = state.living()
    short = len(living) <= 3
    me = state.turn
    char = state.characters[me]
    out = []
    for kind in state.shot_kinds():
        k = 1 if short else kind
        if char == "calamity_janet":
            reach = [1, 2]
        elif char == "rose_doolan":
            reach = [k, k + 1]
        else:
            reach = [k]
        out.append(ring_at(living, me, reach))
    return out


def _shots(ctx: Ctx, _: Item) -> bool:
    """D24: every shot symbol gets a target, declared one by one, then one batch."""
    targets = shot_targets(ctx.state)
    if not targets:
        return False
    ctx.emit(SHOTS_PLANNED, targets=targets)
    ctx.wait("shoot", ctx.state.turn)
    return True


def can_double(state: State) -> bool:
    """D46: Slab the Killer, once per turn, spends a beer to double one shot."""
    return state.characters[state.turn] == "slab_the_killer" and not state.slab_used and state.beers() >= 1


def declare(ctx: Ctx, target: int, double: bool) -> None:
    state = ctx.emit(SHOT_DECLARED, target=target, double=double)
    if len(state.declared) < len(state.shot_targets):
        ctx.wait("shoot", state.turn)
        return
    losses: dict[int, int] = {}
    for t, doubled in state.declared:
        losses[t] = losses.get(t, 0) + (2 if doubled else 1)
    ctx.push(("batch", SHOTS, tuple(sorted(losses.items())), "bart"))
    run(ctx)


def _beers(ctx: Ctx, _: Item) -> bool:
    """D25, D38, D46: one target per beer, in order; Jesse Jones's boost fixed at the step's start."""
    state = ctx.state
    n = state.beers() - (1 if state.slab_used else 0)
    if n <= 0:
        return False
    boost = state.characters[state.turn] == "jesse_jones" and state.life[state.turn] <= 4
    ctx.wait("beer", state.turn, (n, int(boost)))
    return True


def beer(ctx: Ctx, target: int) -> None:
    state = ctx.state
    n, boost = state.prompt_data
    amount = 2 if boost and target == state.turn else 1
    state = ctx.emit(LIFE_GAINED, rule="D38" if amount == 2 else "D25", seat=target, amount=amount)
    if n > 1:
        ctx.wait("beer", state.turn, (n - 1, boost))
        return
    run(ctx)


def _gatling(ctx: Ctx, _: Item) -> bool:
    """D26, D49, D56, D42: fires once on 3+ symbols (Willy: 2); then Kit Carlson's discards (D40)."""
    state = ctx.state
    count = state.gatlings()
    kit = count if state.characters[state.turn] == "kit_carlson" else 0
    if kit:
        ctx.push(("kit", kit))
    if count >= (2 if state.characters[state.turn] == "willy_the_kid" else 3):
        ctx.emit(ARROWS_RETURNED, seat=state.turn, rule="D26")
        returned = ctx.state
        losses = {p: 0 if returned.characters[p] == "paul_regret" else 1 for p in returned.living() if p != state.turn}
        ctx.push(("batch", GATLING_HIT, tuple(sorted(losses.items())), "bart"))
    return False


def _kit(ctx: Ctx, item: Item) -> bool:
    if ctx.state.holders():
        ctx.wait("discard", ctx.state.turn, (item[1],))
        return True
    return False


def _end(ctx: Ctx, _: Item) -> bool:
    """D47: Suzy Lafayette without a shot on her final dice gains 2; then the turn passes."""
    state = ctx.state
    if state.characters[state.turn] == "suzy_lafayette" and not state.shot_kinds():
        ctx.emit(LIFE_GAINED, rule="D47", seat=state.turn, amount=2)
    return start_turn(ctx, next_seat(ctx.state))


def _next(ctx: Ctx, _: Item) -> bool:
    return start_turn(ctx, next_seat(ctx.state))


# -- damage batches ------------------------------------------------------------

def bart(ctx: Ctx, arrows: int) -> None:
    _, kind, pairs, stage = ctx.agenda.pop(0)
    seat = ctx.state.prompt_seat
    if arrows:
        ctx.emit(ARROW_TAKEN, seat=seat, chief=False, count=arrows, rule="D34")
    ctx.push(("batch", kind, tuple((p, n - arrows if p == seat else n) for p, n in pairs), stage))
    run(ctx)


def pedro(ctx: Ctx, regular: int, chief: bool) -> None:
    if regular or chief:
        ctx.emit(ARROWS_DISCARDED, seat=ctx.state.prompt_seat, regular=regular, chief=chief,
                 by=ctx.state.prompt_seat, rule="D43")
    run(ctx)


STEPS: dict[str, Callable[[Ctx, Item], bool]] = {
    "after_roll": _after_roll, "arrow": _arrow, "broken": _broken, "bullet": _bullet,
    "dynamite": _dynamite, "shots": _shots, "beers": _beers, "gatling": _gatling, "kit": _kit,
    "end": _end, "next": _next, "batch": batch_step,
}


def resign(ctx: Ctx, seat: int) -> None:
    """D75: the awaited seat gives the game up: eliminated as at 0 life (D29: role shown, arrows
    back to the pile), never the Ghost (a resigned Ghost stops haunting); the end is checked
    (D32, D33, D70), Vulture Sam gains (D48); on its own turn the turn passes (D30, D31), while
    reacting (Bart Cassidy, Pedro Ramirez) the active player's turn goes on."""
    state = ctx.emit(RESIGNED, seat=seat, rule="D75")
    if state.alive[seat]:
        state = ctx.emit(ELIMINATED, seat=seat, role=state.kind(seat), role_card=state.roles[seat], ghost=False)
        end = ending(state, {})
        if end is not None:
            end_game(ctx, end)
            return
        vulture = next((living for living in state.living() if state.characters[living] == "vulture_sam"), None)
        if vulture is not None:
            ctx.emit(LIFE_GAINED, rule="D48", seat=vulture, amount=2)
    if seat == ctx.state.turn:
        ctx.agenda[:] = [("next",)]
    run(ctx)


def haunt(ctx: Ctx, die: int, double: bool, target: int) -> None:
    """D65: the Ghost's token to a living player; then the turn passes."""
    state = ctx.state
    face = state.dice[die - 1]
    ctx.emit(TOKEN_GIVEN, seat=state.turn, target=target, face=face, dice=2 if double else 1)
    start_turn(ctx, next_seat(ctx.state))
