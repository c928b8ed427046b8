"""The state of a game, immutable (frozen dataclass of tuples): ``evolve``
builds a new one per event and never mutates its input."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.frozen import copier
from referee.games.dice.dice_faces import (
    BEER,
    DOUBLE_BEER,
    DOUBLE_GATLING,
    DYNAMITE,
    GATLING,
    REGULAR_ARROWS,
    SHOT_KINDS,
)
from referee.games.dice.role_cards import kind_of

Seat = int
#: an agenda item: a step name and its plain arguments (lists frozen to tuples)
Item = tuple[Any, ...]


def freeze(value: Any) -> Any:
    """Lists (and tuples) to tuples, recursively: event data as state holds it."""
    if isinstance(value, (list, tuple)):  # a scalar item is taken as it is, not through a call
        return tuple([freeze(item) if isinstance(item, (list, tuple)) else item for item in value])
    return value


def thaw(value: Any) -> Any:
    """Tuples to lists, recursively: state data as events carry it (JSON)."""
    if isinstance(value, (list, tuple)):
        return [thaw(item) if isinstance(item, (list, tuple)) else item for item in value]
    return value


@dataclass(frozen=True, slots=True)
class State:
    players: int
    saloon_dice: bool
    chief_arrow: bool
    ghost_module: bool
    roles: tuple[str, ...]                 # role card ids (D7): ``sheriff``, ``outlaw_2``…
    characters: tuple[str, ...]
    max_life: tuple[int, ...]
    life: tuple[int, ...]
    arrows: tuple[int, ...]                # regular arrows held
    alive: tuple[bool, ...]
    chief_holder: int | None = None        # None: in the pile (or no chief_arrow module)
    ghost: int | None = None
    tokens: tuple[tuple[str, int] | None, ...] = ()   # ghost token per seat: (face, dice)
    queue: tuple[str, ...] = ()            # forced die faces (D72)
    turn: int = 0
    dice: tuple[str, ...] = ()             # d1..d5 (the Ghost's d1..d2)
    die_kinds: tuple[str, ...] = ()
    rolls: int = 0
    rolled: tuple[int, ...] = ()           # the die numbers the last roll rolled (D15, D16)
    saloon: str | None = None
    slab_used: bool = False
    shot_targets: tuple[tuple[int, ...], ...] = ()   # per shot symbol, its legal targets (D24)
    declared: tuple[tuple[int, bool], ...] = ()       # (target, doubled) per shot declared
    # the decision awaited: kind, seat, plain int data, remaining agenda
    prompt: str | None = None
    prompt_seat: int | None = None
    prompt_data: tuple[Any, ...] = ()
    agenda: tuple[Item, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()
    draw: bool = False
    reason: str = ""                       # the end's code (``ending.DETAILS``)
    resigned: tuple[bool, ...] = ()        # per seat: gave the game up (D75)

    def replace(self, **changes: Any) -> State:
        out: State = _but(self, **changes)
        return out

    @property
    def three(self) -> bool:
        return self.players == 3

    @property
    def pile(self) -> int:
        return REGULAR_ARROWS - sum(self.arrows)

    def kind(self, seat: Seat) -> str:
        return kind_of(self.roles[seat])

    def living(self) -> list[int]:
        return [s for s in range(self.players) if self.alive[s]]

    def has_resigned(self, seat: Seat) -> bool:
        return bool(self.resigned) and self.resigned[seat]

    def is_ghost_turn(self) -> bool:
        return self.ghost is not None and self.turn == self.ghost

    def max_rolls(self) -> int:
        if self.is_ghost_turn():
            return 3
        return 4 if self.characters[self.turn] == "lucky_duke" else 3

    def count(self, *faces: str) -> int:
        return sum(1 for f in self.dice if f in faces)

    def dynamite(self) -> int:
        return self.count(DYNAMITE)

    def gatlings(self) -> int:
        return self.count(GATLING) + 2 * self.count(DOUBLE_GATLING)

    def beers(self) -> int:
        return self.count(BEER) + 2 * self.count(DOUBLE_BEER)

    def shot_kinds(self) -> list[int]:
        return [k for f in self.dice for k in SHOT_KINDS.get(f, ())]

    def rerollable(self) -> list[int]:
        """Die numbers (from 1) that may be named in a reroll (D16, D35)."""
        black_jack = not self.is_ghost_turn() and self.characters[self.turn] == "black_jack"
        return [i + 1 for i, f in enumerate(self.dice)
                if f != DYNAMITE or (black_jack and self.dynamite() < 3)]

    def holders(self) -> list[int]:
        """Living players holding a regular arrow (D40, D54)."""
        return [s for s in range(self.players) if self.alive[s] and self.arrows[s] > 0]


#: ``State.replace``: ``dataclasses.replace``, several times faster (a fold makes one per event)
_but = copier(State)
