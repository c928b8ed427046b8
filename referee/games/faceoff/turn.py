"""A character's turn (FO10–FO20): Dynamite, then Jail, at its start
("draw!" R41, R42 with Lucky Duke, from the brown deck FO24), phase 1's
move, phase 2's two slots, phase 3's cards and phase 4's discard; and
``apply_effects``, which applies the card engine's effects (``cardrules.Effect``)
on the board."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from referee.games.cards import rules as cardrules
from referee.games.cards.characters import WILLY_THE_KID
from referee.games.cards.deck import KEY
from referee.games.faceoff import board
from referee.games.faceoff.context import Ctx, TurnEnds
from referee.games.faceoff.elimination import eliminate, hit
from referee.games.faceoff.flow import frame_but
from referee.games.faceoff.movement import blocked_for


def apply_effects(ctx: Ctx, effects: Iterable[cardrules.Effect]) -> None:
    """Apply what the card engine says happens (its ``Effect`` values), in
    order, on the board: Face Off's events and agenda."""
    for e in effects:
        APPLY[type(e)](ctx, e)


def _turn_up(ctx: Ctx, effect: cardrules.TurnUp) -> None:
    apply_effects(ctx, cardrules.turned(effect, ctx.turned_up(effect)))  # R41, R42, FO24


def _decide(ctx: Ctx, effect: cardrules.Decide) -> None:
    apply_check(ctx, effect.who, effect.purpose, effect.card)


def _hit(ctx: Ctx, effect: cardrules.Hit) -> None:
    hit(ctx, effect.who, effect.amount, effect.by)  # FO45: the responsible character is credited


def _die(ctx: Ctx, effect: cardrules.Die) -> None:
    closed = ctx.closed  # the dying window, closed just before: its credit (FO45)
    if closed is not None:
        eliminate(ctx, effect.who, closed.by, closed.seat)


#: each effect's application on the board
APPLY: dict[type, Callable[[Ctx, Any], None]] = {
    cardrules.CountBang: Ctx.count_bang, cardrules.PlayCard: Ctx.card_played,
    cardrules.Discard: Ctx.discard, cardrules.Take: Ctx.take, cardrules.Draw: Ctx.drawn,
    cardrules.Heal: Ctx.healed, cardrules.OpenStore: Ctx.general_store, cardrules.OpenShot: Ctx.open_shot,
    cardrules.OpenDuel: Ctx.open_duel, cardrules.OpenMulti: Ctx.open_multi,
    cardrules.CloseWindow: Ctx.close_window, cardrules.Reopen: Ctx.reopen,
    cardrules.CloseDying: Ctx.close_dying, cardrules.Answer: Ctx.answered, cardrules.Hit: _hit,
    cardrules.Die: _die, cardrules.TurnUp: _turn_up, cardrules.OpenLucky: Ctx.open_lucky,
    cardrules.Checked: Ctx.checked, cardrules.Decide: _decide,
}


def check(ctx: Ctx, char: int, purpose: str) -> None:
    """``char`` "draws!" for ``purpose`` (dynamite | jail | barrel) as BANG!'s
    card engine turns it (R41; Lucky Duke chooses, R42), from the brown deck
    (FO24), with the board's consequences (``apply_check``)."""
    apply_effects(ctx, cardrules.check(ctx.state.chars[char], char, purpose))


def apply_check(ctx: Ctx, char: int, purpose: str, card: str | None) -> None:
    """The "draw!" result (R35, R38, R39 as BANG! decides them; FO10, FO19)."""
    ok = cardrules.check_succeeds(purpose, card)
    if purpose == "dynamite":
        _dynamite(ctx, char, ok)
    elif purpose == "jail":
        _jail(ctx, char, ok)
    else:
        _barrel(ctx, ok)


def _dynamite(ctx: Ctx, char: int, exploded: bool) -> None:
    """R39, FO10: the Dynamite explodes (3 life, then the Jail) or passes on to the next figure."""
    dyn = next((x for x in ctx.state.chars[char].in_play if KEY[x] == "DYNAMITE"), None)
    if dyn is None:
        return
    if exploded:
        ctx.emit("card_discarded", {"char": char, "cards": [dyn], "reason": "dynamite"})
        hit(ctx, char, 3, -1)
        ctx.flow.phase = "start_jail"
        return
    ctx.emit("card_passed", {"char": char, "to": (char + 1) % 3, "card": dyn})
    jail_step(ctx, char)


def _jail(ctx: Ctx, char: int, freed: bool) -> None:
    """R38, FO19: the Jail is discarded; not freed, phases 1–3 are skipped, phase 4 still played."""
    jail = next((x for x in ctx.state.chars[char].in_play if KEY[x] == "JAIL"), None)
    if jail is not None:
        ctx.emit("card_discarded", {"char": char, "cards": [jail], "reason": "jail"})
    if not freed:
        to_discard(ctx, char)
        return
    phase1(ctx, char)


def _barrel(ctx: Ctx, missed: bool) -> None:
    """R35: a Barrel adds a miss to the shot on top of the agenda; a shot missed enough closes."""
    shot = ctx.stack.pop()
    if missed:
        shot = frame_but(shot, misses=shot.misses + 1)
    if shot.misses < shot.needed:
        ctx.stack.append(shot)


def start_turn(ctx: Ctx, char: int) -> None:
    """A turn of character ``char``: Dynamite, then Jail (FO10), then phase 1."""
    ctx.flow.active = char
    ctx.flow.phase = "start"
    ctx.flow.start = ctx.state.chars[char].pos
    ctx.flow.slots = 0
    ctx.flow.drew = 0
    ctx.flow.walk = 2
    ctx.stack.clear()
    ctx.flush()
    if any(KEY[x] == "DYNAMITE" for x in ctx.state.chars[char].in_play):
        check(ctx, char, "dynamite")
        return
    jail_step(ctx, char)


def jail_step(ctx: Ctx, char: int) -> None:
    if any(KEY[x] == "JAIL" for x in ctx.state.chars[char].in_play):
        ctx.flow.phase = "start"
        check(ctx, char, "jail")
        return
    phase1(ctx, char)


def phase1(ctx: Ctx, char: int) -> None:
    """FO11, FO14: phase 1 moves the figure; a figure with no legal step moves by an empty path."""
    s = ctx.state
    ctx.flow.phase = "move"
    if not board.steps_from(s.rows, s.chars[char].pos, blocked_for(ctx.state, char, ctx.flow)):
        ctx.emit("moved", {"char": char, "path": [], "phase": 1})
        phase2(ctx, char)


def phase2(ctx: Ctx, char: int) -> None:
    """FO15: two slots, draw or move; Willy the Kid walks 3 (FO51)."""
    ctx.flow.phase = "phase2"
    ctx.flow.slots = 2
    ctx.flow.drew = 0
    ctx.flow.walk = 3 if ctx.state.chars[char].name == WILLY_THE_KID else 2


def after_slot(ctx: Ctx, char: int) -> None:
    """FO15: a slot used; after the second, Kit Carlson's look goes back and phase 3 begins (FO17, FO50)."""
    ctx.flow.slots -= 1
    if ctx.flow.slots <= 0:
        if ctx.state.limbo and not ctx.stack:
            ctx.emit("limbo_returned", {"count": len(ctx.state.limbo)})
        ctx.flow.phase = "play"


def to_discard(ctx: Ctx, char: int) -> None:
    """FO20: phase 4 while the hand is over the life; else the turn ends."""
    ch = ctx.state.chars[char]
    if len(ch.hand) > max(ch.life, 0):
        ctx.flow.phase = "discard"
        return
    raise TurnEnds
