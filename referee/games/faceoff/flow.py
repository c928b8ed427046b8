"""The referee's control state of a Face Off game (FO8–FO10, FO15, FO32–FO37):
whose turn, which phase, the turn-start square, the phase-2 slots, the
Renegade's controller, the bid and the agenda of open prompts and steps
still owed — a typed frozen value, written to the log as the ``flow``
event's JSON object (``to_json``) and read back from it (``from_json``).

A ``Flow`` is a frozen slotted dataclass (its fields are read often: slot
reads are the fastest), a ``Frame`` a named tuple (frames are built often:
a tuple builds several times faster). Their fields may also be read by
their JSON names, as the object is published (``schemas.FLOW``):
``flow["phase"]``, ``frame["kind"]``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.engine.frozen import copier
from referee.games.faceoff.event_types import FlowJson

Square = tuple[int, int]

#: each frame kind's fields besides ``kind``, as the log writes them: shot (FO29, FO31), indians
#: (FO22), duel (FO28), dying (FO39), store (FO26), kit (FO50), lucky (R42, FO53), multi (the
#: Indians!/Gatling targets left, FO22), after_hit (the abilities after a hit, FO53)
FIELDS: dict[str, tuple[str, ...]] = {
    "shot": ("char", "src", "key", "needed", "misses", "played", "used"),
    "indians": ("char", "src"),
    "duel": ("char", "other", "src"),
    "dying": ("char", "by", "seat"),
    "store": ("char", "rest"),
    "kit": ("char",),
    "lucky": ("char", "purpose"),
    "multi": ("src", "key", "targets"),
    "after_hit": ("char", "src", "amount"),
}
#: the fields that hold lists in the JSON (tuples here)
_LISTS = frozenset({"used", "targets", "rest"})


class Frame(NamedTuple):
    """One agenda entry; the fields its kind does not use (``FIELDS``) keep their defaults."""

    kind: str
    char: int = -1
    src: int = -1
    key: str = ""
    needed: int = 1
    misses: int = 0
    played: int = 0
    #: the Barrel sources a shot has used (R35)
    used: tuple[str, ...] = ()
    other: int = -1
    targets: tuple[int, ...] = ()
    #: a dying character's responsible character (-1: the Dynamite) and the seat credited (-1: none, FO45)
    by: int = -1
    seat: int = -1
    amount: int = 0
    #: the General Store's later choosers (FO26)
    rest: tuple[int, ...] = ()
    purpose: str = ""

    def __getitem__(self, key: Any) -> Any:
        """A field by its JSON name (or an item by its index, as a tuple's)."""
        return getattr(self, key) if isinstance(key, str) else tuple.__getitem__(self, key)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in FIELDS.get(self.kind, ()):
            value = getattr(self, name)
            out[name] = list(value) if name in _LISTS else value
        return out

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Frame:
        kind = raw["kind"]
        values: dict[str, Any] = {name: tuple(raw[name]) if name in _LISTS else raw[name]
                                  for name in FIELDS.get(kind, ()) if name in raw}
        return Frame(kind, **values)


@dataclass(frozen=True, slots=True)
class Flow:
    """The control state; ``stack``: the agenda, the last frame on top."""

    round: int
    #: whose turn: 0 the Sheriff's, 1 the Outlaw's, 2 the Renegade (FO8)
    active: int
    phase: str
    #: the turn-start square a step may not enter (FO12); ``None`` outside a turn
    start: Square | None
    slots: int
    drew: int
    walk: int
    #: the bid winner controlling the Renegade's turn, -1 none (FO32)
    controller: int
    #: the seat placing a spare nugget, -1 none (FO37)
    placer: int
    bidders: tuple[int, ...]
    stack: tuple[Frame, ...]

    def __getitem__(self, name: str) -> Any:
        """A field by its JSON name."""
        return getattr(self, name)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "active": self.active, "phase": self.phase,
                "start": None if self.start is None else [self.start[0], self.start[1]],
                "slots": self.slots, "drew": self.drew, "walk": self.walk, "controller": self.controller,
                "placer": self.placer, "bidders": list(self.bidders),
                "stack": [fr.to_json() for fr in self.stack] if self.stack else []}

    @staticmethod
    def from_json(raw: FlowJson) -> Flow:
        start = raw["start"]
        return make_flow(raw["round"], raw["active"], raw["phase"], None if start is None else (start[0], start[1]),
                         raw["slots"], raw["drew"], raw["walk"], raw["controller"], raw["placer"],
                         tuple(raw["bidders"]), tuple(map(Frame.from_json, raw["stack"])))


_FLOW_FIELDS = ("round", "active", "phase", "start", "slots", "drew", "walk", "controller", "placer", "bidders",
                "stack")
_new = object.__new__
(_set_round, _set_active, _set_phase, _set_start, _set_slots, _set_drew, _set_walk, _set_controller, _set_placer,
 _set_bidders, _set_stack) = (Flow.__dict__[name].__set__ for name in _FLOW_FIELDS)


def make_flow(round_: int, active: int, phase: str, start: Square | None, slots: int, drew: int, walk: int,
              controller: int, placer: int, bidders: tuple[int, ...], stack: tuple[Frame, ...]) -> Flow:
    """``Flow(...)``, several times faster: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``; this sets the slots directly, as ``referee.engine.frozen.copier`` does."""
    out: Flow = _new(Flow)
    _set_round(out, round_)
    _set_active(out, active)
    _set_phase(out, phase)
    _set_start(out, start)
    _set_slots(out, slots)
    _set_drew(out, drew)
    _set_walk(out, walk)
    _set_controller(out, controller)
    _set_placer(out, placer)
    _set_bidders(out, bidders)
    _set_stack(out, stack)
    return out


class Draft:
    """A flow's fields but its agenda as one decision changes them (``context.Ctx.flow``):
    mutable, and never part of a state; ``frozen`` makes the ``Flow`` it writes."""

    __slots__ = ("round", "active", "phase", "start", "slots", "drew", "walk", "controller", "placer", "bidders")

    round: int
    active: int
    phase: str
    start: Square | None
    slots: int
    drew: int
    walk: int
    controller: int
    placer: int
    bidders: tuple[int, ...]

    def __init__(self, flow: Flow) -> None:
        self.round, self.active, self.phase, self.start = flow.round, flow.active, flow.phase, flow.start
        self.slots, self.drew, self.walk = flow.slots, flow.drew, flow.walk
        self.controller, self.placer, self.bidders = flow.controller, flow.placer, flow.bidders

    def same_as(self, flow: Flow) -> bool:
        """Whether ``flow`` has these fields (its agenda aside)."""
        return (self.phase == flow.phase and self.active == flow.active and self.slots == flow.slots
                and self.drew == flow.drew and self.start == flow.start and self.round == flow.round
                and self.walk == flow.walk
                and self.controller == flow.controller and self.placer == flow.placer and self.bidders == flow.bidders)

    def frozen(self, stack: list[Frame]) -> Flow:
        return make_flow(self.round, self.active, self.phase, self.start, self.slots, self.drew, self.walk,
                         self.controller, self.placer, self.bidders, tuple(stack))


#: ``dataclasses.replace`` for a ``Flow``, faster (``referee.engine.frozen``)
flow_but: Callable[..., Flow] = copier(Flow)


def frame_but(frame: Frame, **changes: Any) -> Frame:
    """``frame`` with ``changes``."""
    return frame._replace(**changes)
