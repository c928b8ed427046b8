"""``evolve``: folding one recorded event into the state (D73: replay needs
nothing but the events). Each event records an outcome (a die's face, a
life lost), so folding needs no generator; the events' types and data are
``event_types``'."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.decision import by_table
from referee.engine.protocol import Event
from referee.games.dice.event_types import (
    ARROW_TAKEN,
    ARROWS_DISCARDED,
    ARROWS_RETURNED,
    AWAITING,
    DICE_ROLLED,
    ELIMINATED,
    GAME_ENDED,
    GAME_STARTED,
    LIFE_GAINED,
    LIFE_LOST,
    RESIGNED,
    SHOT_DECLARED,
    SHOTS_PLANNED,
    TOKEN_GIVEN,
    TURN_STARTED,
    ArrowsDiscarded,
    ArrowsReturned,
    ArrowTaken,
    Awaiting,
    DiceRolled,
    Eliminated,
    GameEnded,
    GameStarted,
    LifeGained,
    LifeLost,
    Resigned,
    ShotDeclared,
    ShotsPlanned,
    TokenGiven,
    TurnStarted,
)
from referee.games.dice.role_cards import role_cards
from referee.games.dice.state import State, freeze


def _started(_: State | None, data: GameStarted) -> State:
    return State(
        players=data["players"], saloon_dice=data["saloon_dice"], chief_arrow=data["chief_arrow"],
        ghost_module=data["ghost_module"], roles=role_cards(data["roles"]), resigned=(False,) * data["players"],
        characters=freeze(data["characters"]), max_life=freeze(data["max_life"]), life=freeze(data["life"]),
        arrows=freeze(data["arrows"]), alive=freeze(data["alive"]), chief_holder=data["chief_holder"],
        ghost=data["ghost"], tokens=freeze(data["tokens"]), queue=freeze(data["queue"]), turn=data["turn"],
    )


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _turn(state: State, data: TurnStarted) -> State:
    return state.replace(turn=data["seat"], dice=(), die_kinds=(), rolls=0, rolled=(), saloon=None,
                         slab_used=False, shot_targets=(), declared=())


def _rolled(state: State, data: DiceRolled) -> State:
    tokens = _set(state.tokens, data["seat"], None) if data["preset"] else state.tokens
    # faces, dice and die numbers: flat lists, a tuple each
    return state.replace(dice=tuple(data["dice"]), die_kinds=tuple(data["die_kinds"]), rolls=data["roll"],
                         rolled=tuple(data["rolled"]), saloon=data["saloon"], queue=state.queue[data["forced"]:],
                         tokens=tokens)


def _taken(state: State, data: ArrowTaken) -> State:
    seat = data["seat"]
    if data["chief"]:
        return state.replace(chief_holder=seat)
    return state.replace(arrows=_set(state.arrows, seat, state.arrows[seat] + data["count"]))


def _discarded(state: State, data: ArrowsDiscarded) -> State:
    seat = data["seat"]
    out = state.replace(arrows=_set(state.arrows, seat, state.arrows[seat] - data["regular"]))
    return out.replace(chief_holder=None) if data["chief"] else out


def _returned(state: State, data: ArrowsReturned) -> State:
    seat = data["seat"]
    if seat is None:
        return state.replace(arrows=(0,) * state.players, chief_holder=None)
    return state.replace(arrows=_set(state.arrows, seat, 0),
                         chief_holder=None if state.chief_holder == seat else state.chief_holder)


def _lost(state: State, data: LifeLost) -> State:
    life = list(state.life)
    for seat, points in data["losses"]:
        life[seat] = max(0, life[seat] - points)
    return state.replace(life=tuple(life))


def _gained(state: State, data: LifeGained) -> State:
    seat = data["seat"]
    return state.replace(life=_set(state.life, seat, min(state.max_life[seat], state.life[seat] + data["amount"])))


def _eliminated(state: State, data: Eliminated) -> State:
    seat = data["seat"]
    return state.replace(alive=_set(state.alive, seat, False), life=_set(state.life, seat, 0),
                         arrows=_set(state.arrows, seat, 0), tokens=_set(state.tokens, seat, None),
                         chief_holder=None if state.chief_holder == seat else state.chief_holder,
                         ghost=seat if data["ghost"] else state.ghost)


def _resigned(state: State, data: Resigned) -> State:
    return state.replace(resigned=_set(state.resigned, data["seat"], True))


def _planned(state: State, data: ShotsPlanned) -> State:
    return state.replace(shot_targets=freeze(data["targets"]), declared=())


def _declared(state: State, data: ShotDeclared) -> State:
    return state.replace(declared=state.declared + ((data["target"], data["double"]),),
                         slab_used=state.slab_used or data["double"])


def _token(state: State, data: TokenGiven) -> State:
    return state.replace(tokens=_set(state.tokens, data["target"], (data["face"], data["dice"])))


def _awaiting(state: State, data: Awaiting) -> State:
    return state.replace(prompt=data["kind"], prompt_seat=data["seat"], prompt_data=tuple(data["data"]),
                         agenda=freeze(data["agenda"]))


def _ended(state: State, data: GameEnded) -> State:
    return state.replace(over=True, winners=freeze(data["winners"]), draw=data["draw"], reason=data["reason"],
                         prompt=None, prompt_seat=None, prompt_data=(), agenda=())


#: each handler reads its event as declared in ``event_types.EVENT_TYPES`` (a test holds the two together)
EVOLVE: dict[str, Callable[[Any, Any], State]] = {
    GAME_STARTED: _started, TURN_STARTED: _turn, DICE_ROLLED: _rolled, ARROW_TAKEN: _taken,
    ARROWS_DISCARDED: _discarded, ARROWS_RETURNED: _returned, LIFE_LOST: _lost, LIFE_GAINED: _gained,
    ELIMINATED: _eliminated, SHOTS_PLANNED: _planned, SHOT_DECLARED: _declared, TOKEN_GIVEN: _token,
    AWAITING: _awaiting, GAME_ENDED: _ended, RESIGNED: _resigned,
}


def evolve(state: State | None, event: Event) -> State | None:
    """Apply one recorded event; an unknown type changes nothing."""
    apply = EVOLVE.get(event.type)
    return state if apply is None else apply(state, event.data)


#: the fold of this ruleset's events, for the engine's ``Decision`` (``context.Ctx``)
FOLD = by_table(EVOLVE)
