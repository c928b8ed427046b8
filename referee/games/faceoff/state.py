"""The folded state of a Face Off game and the events that build it (FO4–FO8).

Characters are indexed by figure: 0 the Sheriff's, 1 the Outlaw's, 2 the
Renegade (FO2). ``flow`` is the referee's control state (whose turn, phase,
Renegade control, the agenda of open prompts), a frozen ``flow.Flow``
written by the ``flow`` event at the end of every decision and at every
turn start.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from referee.engine.frozen import copier
from referee.engine.protocol import Event
from referee.games.cards.deck import BLUE
from referee.games.faceoff.flow import Flow, flow_but

Square = tuple[int, int]
SHERIFF, OUTLAW, RENEGADE = 0, 1, 2
ROLE_NAMES = ("sheriff", "outlaw", "renegade")
MARKS = ("S", "B", "R")


@dataclass(frozen=True, slots=True)
class Char:
    """One figure's character card, life, cards and square (FO5, FO7)."""

    name: str
    life: int
    max_life: int
    hand: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()
    pos: Square = (0, 0)

    @property
    def character(self) -> str:
        """The character card's name: a ``cardrules.Holder``, like a BANG! player."""
        return self.name


@dataclass(frozen=True, slots=True)
class State:
    map_id: str
    map_name: str
    rows: tuple[str, ...]
    chars: tuple[Char, ...]
    sheriff_seat: int
    brown: tuple[str, ...]
    brown_discard: tuple[str, ...]
    blue: tuple[str, ...]
    blue_discard: tuple[str, ...]
    nuggets: tuple[Square, ...]
    reserve: int
    trophies: tuple[tuple[tuple[str, bool], ...], ...]
    set_aside: tuple[str, ...]
    variant: bool
    flow: Flow
    bids: tuple[str | None, ...] = (None, None)
    last_bids: tuple[str | None, ...] | None = None
    limbo: tuple[str, ...] = ()
    pub: frozenset[str] = frozenset()
    result: Any = None
    #: the last thing a table draws (issue 24, ``state.last``): the card played, the figure's move,
    #: the "draw!" check, the bids revealed; ``None`` before any
    last: Any = None

    def owner(self, c: int) -> int:
        """The seat owning character ``c`` (-1: the Renegade, owned by nobody)."""
        if c == SHERIFF:
            return self.sheriff_seat
        if c == OUTLAW:
            return 1 - self.sheriff_seat
        return -1

    def own_char(self, seat: int) -> int:
        return SHERIFF if seat == self.sheriff_seat else OUTLAW


def flow_controller(state: State, c: int) -> int:
    """Who decides for character ``c`` now (FO32, FO35, FO39): the owner; for
    the Renegade, the bid winner in its turn, else the non-active player."""
    if c != RENEGADE:
        return state.owner(c)
    f = state.flow
    if f.active == RENEGADE:
        return f.controller
    if f.phase in ("bid", "place"):
        return -1
    return state.owner(1 - f.active)


_char_but = copier(Char)
_state_but = copier(State)


_T = TypeVar("_T", State, Char)


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of a ``State`` or ``Char`` with ``changes``."""
    out: _T = _state_but(obj, **changes) if type(obj) is State else _char_but(obj, **changes)
    return out


def card_pile(card: str) -> str:
    return "blue" if card in BLUE else "brown"


def _remove(cards: tuple[str, ...], gone: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    out = list(cards)
    for c in gone:
        out.remove(c)
    return tuple(out)


def _set_char(s: State, i: int, **kw: Any) -> State:
    chars = list(s.chars)
    chars[i] = replace(chars[i], **kw)
    return replace(s, chars=tuple(chars))


def _to_discards(s: State, cards: list[str] | tuple[str, ...]) -> State:
    brown = [c for c in cards if c not in BLUE]
    blue = [c for c in cards if c in BLUE]
    return replace(s, brown_discard=s.brown_discard + tuple(brown), blue_discard=s.blue_discard + tuple(blue))


def _take_from_char(s: State, i: int, cards: list[str] | tuple[str, ...]) -> State:
    """Remove ``cards`` from character ``i``'s hand or cards in play."""
    ch = s.chars[i]
    hand = [c for c in cards if c in ch.hand]
    played = [c for c in cards if c not in ch.hand]
    return _set_char(s, i, hand=_remove(ch.hand, hand), in_play=_remove(ch.in_play, played))


def _e_setup(_: Any, d: dict[str, Any]) -> State:
    chars = tuple(Char(c["name"], c["life"], c["max_life"], tuple(c["hand"]), tuple(c["in_play"]),
                       (c["pos"][0], c["pos"][1])) for c in d["chars"])
    return State(
        map_id=d["map"]["id"], map_name=d["map"].get("name", d["map"]["id"]), rows=tuple(d["map"]["rows"]),
        chars=chars, sheriff_seat=d["sheriff_seat"], brown=tuple(d["brown"]),
        brown_discard=tuple(d["brown_discard"]), blue=tuple(d["blue"]), blue_discard=tuple(d["blue_discard"]),
        nuggets=tuple(sorted((n[0], n[1]) for n in d["nuggets"])), reserve=d["reserve"],
        trophies=tuple(tuple((t[0], t[1]) for t in ts) for ts in d["trophies"]),
        set_aside=tuple(d["set_aside"]), variant=d["renegade_variant"], flow=Flow.from_json(d["flow"]))


def _e_flow(s: State, d: dict[str, Any]) -> State:
    return replace(s, flow=Flow.from_json(d["flow"]))


def _e_drawn(s: State, d: dict[str, Any]) -> State:
    cards = tuple(d["cards"])
    i = d["char"]
    src = d["from"]
    if src == "brown":
        s = replace(s, brown=s.brown[len(cards):])
    elif src == "blue":
        s = replace(s, blue=s.blue[len(cards):])
    elif src == "brown_discard":
        s = replace(s, brown_discard=s.brown_discard[:-len(cards)], pub=s.pub | set(cards))
    return _set_char(s, i, hand=s.chars[i].hand + cards)


def _e_reshuffled(s: State, d: dict[str, Any]) -> State:
    if d["deck"] == "brown":
        return replace(s, brown=tuple(d["order"]), brown_discard=(), pub=s.pub - set(d["order"]))
    return replace(s, blue=tuple(d["order"]), blue_discard=(), pub=s.pub - set(d["order"]))


def _e_moved(s: State, d: dict[str, Any]) -> State:
    path = d["path"]
    if not path:
        return s
    return _set_char(s, d["char"], pos=(path[-1][0], path[-1][1]))


def _e_nugget(s: State, d: dict[str, Any]) -> State:
    sq = (d["square"][0], d["square"][1])
    return replace(s, nuggets=tuple(n for n in s.nuggets if n != sq))


def _e_checked(s: State, d: dict[str, Any]) -> State:
    if d.get("from") == "limbo":  # Lucky Duke's two (R42): the chosen card last, on top of the discard
        return replace(s, limbo=_remove(s.limbo, d["cards"]), brown_discard=s.brown_discard + tuple(d["cards"]))
    return replace(s, brown=s.brown[1:], brown_discard=s.brown_discard + (d["card"],))


def _e_played(s: State, d: dict[str, Any]) -> State:
    i, card = d["char"], d["card"]
    ch = s.chars[i]
    s = _set_char(s, i, hand=_remove(ch.hand, [card]))
    dest = d.get("to")
    if dest is None:
        return _to_discards(s, [card])
    return _set_char(s, dest, in_play=s.chars[dest].in_play + (card,))


def _e_discarded(s: State, d: dict[str, Any]) -> State:
    s = _take_from_char(s, d["char"], d["cards"])
    return _to_discards(s, d["cards"])


def _e_taken(s: State, d: dict[str, Any]) -> State:
    card = d["card"]
    s = _take_from_char(s, d["from"], [card])
    s = _set_char(s, d["char"], hand=s.chars[d["char"]].hand + (card,))
    return replace(s, pub=s.pub | {card}) if d.get("zone") == "in_play" else s


def _e_inherited(s: State, d: dict[str, Any]) -> State:
    cards = list(d["hand"]) + list(d["in_play"])
    s = _take_from_char(s, d["from"], cards)
    return _set_char(s, d["char"], hand=s.chars[d["char"]].hand + tuple(cards))


def _e_life(s: State, d: dict[str, Any]) -> State:
    ch = s.chars[d["char"]]
    delta = d["amount"] if d["kind"] == "gain" else -d["amount"]
    return _set_char(s, d["char"], life=ch.life + delta)


def _e_passed(s: State, d: dict[str, Any]) -> State:
    s = _take_from_char(s, d["char"], [d["card"]])
    return _set_char(s, d["to"], in_play=s.chars[d["to"]].in_play + (d["card"],))


def _e_revealed(s: State, d: dict[str, Any]) -> State:
    n = len(d["cards"])
    return replace(s, brown=s.brown[n:], limbo=s.limbo + tuple(d["cards"]))


def _e_picked(s: State, d: dict[str, Any]) -> State:
    card = d["card"]
    s = replace(s, limbo=_remove(s.limbo, [card]))
    s = _set_char(s, d["char"], hand=s.chars[d["char"]].hand + (card,))
    return replace(s, pub=s.pub | {card}) if d.get("public") else s


def _e_returned(s: State, d: dict[str, Any]) -> State:
    return replace(s, brown=s.limbo + s.brown, limbo=())


def _e_shown(s: State, d: dict[str, Any]) -> State:
    return replace(s, pub=s.pub | {d["card"]})


def _e_bid(s: State, d: dict[str, Any]) -> State:
    seat, card = d["seat"], d["card"]
    i = s.own_char(seat)
    s = _set_char(s, i, hand=_remove(s.chars[i].hand, [card]))
    bids = list(s.bids)
    bids[seat] = card
    return replace(s, bids=tuple(bids), last_bids=None)


def _e_bids_revealed(s: State, d: dict[str, Any]) -> State:
    winner = d["winner"]
    bids = s.bids
    for seat in (0, 1):
        card = bids[seat]
        if card is None:
            continue
        if winner is None or seat == winner:
            s = _to_discards(s, [card])
        else:
            i = s.own_char(seat)
            s = _set_char(s, i, hand=s.chars[i].hand + (card,))
            s = replace(s, pub=s.pub | {card})
    return replace(s, bids=(None, None), last_bids=bids)


def _e_placed(s: State, d: dict[str, Any]) -> State:
    sq = (d["square"][0], d["square"][1])
    return replace(s, nuggets=tuple(sorted(s.nuggets + (sq,))), reserve=s.reserve - 1)


def _e_eliminated(s: State, d: dict[str, Any]) -> State:
    seat = d["credited"]
    if seat is None:
        return replace(s, set_aside=s.set_aside + (d["character"],))
    trophies = list(s.trophies)
    trophies[seat] = trophies[seat] + ((d["character"], bool(d["with_renegade"])),)
    return replace(s, trophies=tuple(trophies))


def _e_replaced(s: State, d: dict[str, Any]) -> State:
    if d.get("pool_reshuffled"):
        s = replace(s, set_aside=())
    i = d["char"]
    old = s.chars[i]
    chars = list(s.chars)
    chars[i] = Char(d["character"], d["life"], d["life"], (), (), old.pos)
    return replace(s, chars=tuple(chars))


def _e_over(s: State, d: dict[str, Any]) -> State:
    return replace(s, result=copy.deepcopy(d["result"]), flow=flow_but(s.flow, phase="over", stack=()))


EVOLVE: dict[str, Callable[[Any, Any], State]] = {
    "game_setup": _e_setup,
    "flow": _e_flow,
    "cards_drawn": _e_drawn,
    "deck_reshuffled": _e_reshuffled,
    "moved": _e_moved,
    "nugget_taken": _e_nugget,
    "draw_checked": _e_checked,
    "card_played": _e_played,
    "card_discarded": _e_discarded,
    "card_taken": _e_taken,
    "cards_inherited": _e_inherited,
    "life_changed": _e_life,
    "card_passed": _e_passed,
    "cards_revealed": _e_revealed,
    "card_picked": _e_picked,
    "limbo_returned": _e_returned,
    "card_shown": _e_shown,
    "bid_made": _e_bid,
    "bids_revealed": _e_bids_revealed,
    "nugget_placed": _e_placed,
    "character_eliminated": _e_eliminated,
    "character_replaced": _e_replaced,
    "game_over": _e_over,
}


def _last_played(d: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "card_played", "char": d["char"], "card": d["card"], "target": d.get("target"),
            "to": d.get("to")}


def _last_moved(d: dict[str, Any]) -> dict[str, Any] | None:
    return {"kind": "moved", "char": d["char"], "path": d["path"]} if d["path"] else None


def _last_checked(d: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "draw_checked", "char": d["char"], "card": d["card"], "reason": d["reason"]}


def _last_bids(d: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "bids_revealed", "bids": d["bids"], "winner": d["winner"]}


#: the events a table draws, and what ``state.last`` says of each (all public, FO57)
LAST: dict[str, Callable[[dict[str, Any]], dict[str, Any] | None]] = {
    "card_played": _last_played, "moved": _last_moved, "draw_checked": _last_checked, "bids_revealed": _last_bids,
}


def evolve(state: Any, event: Event) -> Any:
    fn = EVOLVE.get(event.type)
    if fn is None:
        return state
    out = fn(state, event.data)
    shown = LAST.get(event.type)
    if shown is not None:
        last = shown(dict(event.data)) if not isinstance(event.data, dict) else shown(event.data)
        if last is not None:
            out = replace(out, last=last)
    return out
