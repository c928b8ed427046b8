"""Event types (storage format: never rename) and ``evolve``.

Each event records an outcome (a die's face, a life lost), so folding
needs no generator. Data is plain JSON (lists, never tuples).

| type | data |
|---|---|
| ``game_started`` | the whole opening state (roles as role ids; redacted: hidden roles null) |
| ``turn_started`` | seat, ghost |
| ``dice_rolled`` | seat, roll, saloon, die_kinds, dice (all faces), rolled (die numbers), preset, forced |
| ``arrow_taken`` | seat, chief, count, rule |
| ``arrows_discarded`` | seat, regular, chief, by, rule |
| ``arrows_returned`` | seat (null: every player, D22), rule |
| ``life_lost`` | rule, losses [[seat, points]] |
| ``life_gained`` | rule, seat, amount |
| ``player_eliminated`` | seat, role, role_card, ghost |
| ``player_resigned`` | seat, rule (D75) |
| ``shots_planned`` | targets (per shot symbol, its legal targets) |
| ``shot_declared`` | target, double |
| ``token_given`` | seat, target, face, dice |
| ``awaiting`` | kind, seat, data, agenda |
| ``game_ended`` | winners, draw, reason (a code), roles |

v2 (issue 24, one vocabulary): faces lower case (``shot1``), roles as role
ids (``outlaw``) and role cards as ``outlaw_2``, ``reason`` a code, rule IDs
in the agenda lower case (``d21``), ``player_resigned``; v1's words are
``legacy``'s.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.engine.decision import by_table
from referee.engine.protocol import Event
from referee.games.dice.rules import role_cards
from referee.games.dice.state import State, freeze

GAME_STARTED = "game_started"
TURN_STARTED = "turn_started"
DICE_ROLLED = "dice_rolled"
ARROW_TAKEN = "arrow_taken"
ARROWS_DISCARDED = "arrows_discarded"
ARROWS_RETURNED = "arrows_returned"
LIFE_LOST = "life_lost"
LIFE_GAINED = "life_gained"
ELIMINATED = "player_eliminated"
SHOTS_PLANNED = "shots_planned"
SHOT_DECLARED = "shot_declared"
TOKEN_GIVEN = "token_given"
AWAITING = "awaiting"
GAME_ENDED = "game_ended"
RESIGNED = "player_resigned"

Data = Mapping[str, Any]


def _started(_: Any, d: Data) -> State:
    return State(
        players=d["players"], saloon_dice=d["saloon_dice"], chief_arrow=d["chief_arrow"],
        ghost_module=d["ghost_module"], roles=role_cards(d["roles"]), resigned=(False,) * d["players"],
        characters=freeze(d["characters"]), max_life=freeze(d["max_life"]), life=freeze(d["life"]),
        arrows=freeze(d["arrows"]), alive=freeze(d["alive"]), chief_holder=d["chief_holder"],
        ghost=d["ghost"], tokens=freeze(d["tokens"]), queue=freeze(d["queue"]), turn=d["turn"],
    )


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _turn(s: State, d: Data) -> State:
    return s.replace(turn=d["seat"], dice=(), die_kinds=(), rolls=0, rolled=(), saloon=None, slab_used=False,
                     shot_targets=(), declared=())


def _rolled(s: State, d: Data) -> State:
    tokens = _set(s.tokens, d["seat"], None) if d["preset"] else s.tokens
    return s.replace(dice=freeze(d["dice"]), die_kinds=freeze(d["die_kinds"]), rolls=d["roll"],
                     rolled=freeze(d["rolled"]),
                     saloon=d["saloon"], queue=s.queue[d["forced"]:], tokens=tokens)


def _taken(s: State, d: Data) -> State:
    if d["chief"]:
        return s.replace(chief_holder=d["seat"])
    return s.replace(arrows=_set(s.arrows, d["seat"], s.arrows[d["seat"]] + d["count"]))


def _discarded(s: State, d: Data) -> State:
    seat = d["seat"]
    out = s.replace(arrows=_set(s.arrows, seat, s.arrows[seat] - d["regular"]))
    return out.replace(chief_holder=None) if d["chief"] else out


def _returned(s: State, d: Data) -> State:
    seat = d["seat"]
    if seat is None:
        return s.replace(arrows=(0,) * s.players, chief_holder=None)
    return s.replace(arrows=_set(s.arrows, seat, 0),
                     chief_holder=None if s.chief_holder == seat else s.chief_holder)


def _lost(s: State, d: Data) -> State:
    life = list(s.life)
    for seat, points in d["losses"]:
        life[seat] = max(0, life[seat] - points)
    return s.replace(life=tuple(life))


def _gained(s: State, d: Data) -> State:
    seat = d["seat"]
    return s.replace(life=_set(s.life, seat, min(s.max_life[seat], s.life[seat] + d["amount"])))


def _eliminated(s: State, d: Data) -> State:
    seat = d["seat"]
    return s.replace(alive=_set(s.alive, seat, False), life=_set(s.life, seat, 0),
                     arrows=_set(s.arrows, seat, 0), tokens=_set(s.tokens, seat, None),
                     chief_holder=None if s.chief_holder == seat else s.chief_holder,
                     ghost=seat if d["ghost"] else s.ghost)


def _resigned(s: State, d: Data) -> State:
    return s.replace(resigned=_set(s.resigned, d["seat"], True))


def _planned(s: State, d: Data) -> State:
    return s.replace(shot_targets=freeze(d["targets"]), declared=())


def _declared(s: State, d: Data) -> State:
    return s.replace(declared=s.declared + ((d["target"], d["double"]),),
                     slab_used=s.slab_used or d["double"])


def _token(s: State, d: Data) -> State:
    return s.replace(tokens=_set(s.tokens, d["target"], (d["face"], d["dice"])))


def _awaiting(s: State, d: Data) -> State:
    return s.replace(prompt=d["kind"], prompt_seat=d["seat"], prompt_data=freeze(d["data"]),
                     agenda=freeze(d["agenda"]))


def _ended(s: State, d: Data) -> State:
    return s.replace(over=True, winners=freeze(d["winners"]), draw=d["draw"], reason=d["reason"],
                     prompt=None, prompt_seat=None, prompt_data=(), agenda=())


_APPLY: dict[str, Callable[[Any, Data], State]] = {
    GAME_STARTED: _started, TURN_STARTED: _turn, DICE_ROLLED: _rolled, ARROW_TAKEN: _taken,
    ARROWS_DISCARDED: _discarded, ARROWS_RETURNED: _returned, LIFE_LOST: _lost, LIFE_GAINED: _gained,
    ELIMINATED: _eliminated, SHOTS_PLANNED: _planned, SHOT_DECLARED: _declared, TOKEN_GIVEN: _token,
    AWAITING: _awaiting, GAME_ENDED: _ended, RESIGNED: _resigned,
}


def evolve(state: State | None, event: Event) -> State | None:
    """Apply one recorded event; an unknown type changes nothing."""
    apply = _APPLY.get(event.type)
    return state if apply is None else apply(state, event.data)


#: the fold of this ruleset's events, for the engine's ``Decision`` (``agenda.Ctx``)
FOLD = by_table(_APPLY)
