"""Folding the events of a Face Off game into its state (FO4–FO8): one
handler a type, each reading the event's ``data`` as ``event_types``
declares it, and ``state.last``, the last thing a table draws."""
from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from referee.engine.protocol import Event
from referee.games.cards.deck import BLUE
from referee.games.faceoff.event_types import (
    BidMade,
    BidsRevealed,
    CardDiscarded,
    CardPassed,
    CardPicked,
    CardPlayed,
    CardsDrawn,
    CardShown,
    CardsInherited,
    CardsRevealed,
    CardTaken,
    CharacterEliminated,
    CharacterReplaced,
    DeckReshuffled,
    DrawChecked,
    FlowWritten,
    GameOver,
    GameSetup,
    LifeChanged,
    LimboReturned,
    Moved,
    NuggetPlaced,
    NuggetTaken,
)
from referee.games.faceoff.flow import Flow, flow_but
from referee.games.faceoff.state import Char, State, replace


def _remove(cards: tuple[str, ...], gone: Sequence[str]) -> tuple[str, ...]:
    out = list(cards)
    for card in gone:
        out.remove(card)
    return tuple(out)


def _set_char(state: State, char: int, **changes: Any) -> State:
    chars = list(state.chars)
    chars[char] = replace(chars[char], **changes)
    return replace(state, chars=tuple(chars))


def _to_discards(state: State, cards: Sequence[str]) -> State:
    brown = [card for card in cards if card not in BLUE]
    blue = [card for card in cards if card in BLUE]
    return replace(state, brown_discard=state.brown_discard + tuple(brown),
                   blue_discard=state.blue_discard + tuple(blue))


def _take_from_char(state: State, char: int, cards: Sequence[str]) -> State:
    """Remove ``cards`` from character ``char``'s hand or cards in play."""
    holder = state.chars[char]
    hand = [card for card in cards if card in holder.hand]
    played = [card for card in cards if card not in holder.hand]
    return _set_char(state, char, hand=_remove(holder.hand, hand), in_play=_remove(holder.in_play, played))


def _e_setup(_: State | None, data: GameSetup) -> State:
    chars = tuple(Char(dealt["name"], dealt["life"], dealt["max_life"], tuple(dealt["hand"]), tuple(dealt["in_play"]),
                       (dealt["pos"][0], dealt["pos"][1])) for dealt in data["chars"])
    board = data["map"]
    return State(
        map_id=board["id"], map_name=board.get("name", board["id"]), rows=tuple(board["rows"]),
        chars=chars, sheriff_seat=data["sheriff_seat"], brown=tuple(data["brown"]),
        brown_discard=tuple(data["brown_discard"]), blue=tuple(data["blue"]), blue_discard=tuple(data["blue_discard"]),
        nuggets=tuple(sorted((square[0], square[1]) for square in data["nuggets"])), reserve=data["reserve"],
        trophies=tuple(tuple((trophy[0], trophy[1]) for trophy in won) for won in data["trophies"]),
        set_aside=tuple(data["set_aside"]), variant=data["renegade_variant"], flow=Flow.from_json(data["flow"]))


def _e_flow(state: State, data: FlowWritten) -> State:
    return replace(state, flow=Flow.from_json(data["flow"]))


def _e_drawn(state: State, data: CardsDrawn) -> State:
    cards = tuple(data["cards"])
    char = data["char"]
    source = data["from"]
    if source == "brown":
        state = replace(state, brown=state.brown[len(cards):])
    elif source == "blue":
        state = replace(state, blue=state.blue[len(cards):])
    elif source == "brown_discard":
        state = replace(state, brown_discard=state.brown_discard[:-len(cards)], pub=state.pub | set(cards))
    return _set_char(state, char, hand=state.chars[char].hand + cards)


def _e_reshuffled(state: State, data: DeckReshuffled) -> State:
    order = tuple(data["order"])
    if data["deck"] == "brown":
        return replace(state, brown=order, brown_discard=(), pub=state.pub - set(order))
    return replace(state, blue=order, blue_discard=(), pub=state.pub - set(order))


def _e_moved(state: State, data: Moved) -> State:
    path = data["path"]
    if not path:
        return state
    return _set_char(state, data["char"], pos=(path[-1][0], path[-1][1]))


def _e_nugget(state: State, data: NuggetTaken) -> State:
    square = (data["square"][0], data["square"][1])
    return replace(state, nuggets=tuple(nugget for nugget in state.nuggets if nugget != square))


def _e_checked(state: State, data: DrawChecked) -> State:
    if data.get("from") == "limbo":  # Lucky Duke's two (R42): the chosen card last, on top of the discard
        cards = data["cards"]
        return replace(state, limbo=_remove(state.limbo, cards), brown_discard=state.brown_discard + tuple(cards))
    return replace(state, brown=state.brown[1:], brown_discard=state.brown_discard + (data["card"],))


def _e_played(state: State, data: CardPlayed) -> State:
    char, card = data["char"], data["card"]
    state = _set_char(state, char, hand=_remove(state.chars[char].hand, [card]))
    dest = data.get("to")
    if dest is None:
        return _to_discards(state, [card])
    return _set_char(state, dest, in_play=state.chars[dest].in_play + (card,))


def _e_discarded(state: State, data: CardDiscarded) -> State:
    state = _take_from_char(state, data["char"], data["cards"])
    return _to_discards(state, data["cards"])


def _e_taken(state: State, data: CardTaken) -> State:
    card, char = data["card"], data["char"]
    state = _take_from_char(state, data["from"], [card])
    state = _set_char(state, char, hand=state.chars[char].hand + (card,))
    return replace(state, pub=state.pub | {card}) if data.get("zone") == "in_play" else state


def _e_inherited(state: State, data: CardsInherited) -> State:
    cards = list(data["hand"]) + list(data["in_play"])
    char = data["char"]
    state = _take_from_char(state, data["from"], cards)
    return _set_char(state, char, hand=state.chars[char].hand + tuple(cards))


def _e_life(state: State, data: LifeChanged) -> State:
    char = data["char"]
    delta = data["amount"] if data["kind"] == "gain" else -data["amount"]
    return _set_char(state, char, life=state.chars[char].life + delta)


def _e_passed(state: State, data: CardPassed) -> State:
    card, to = data["card"], data["to"]
    state = _take_from_char(state, data["char"], [card])
    return _set_char(state, to, in_play=state.chars[to].in_play + (card,))


def _e_revealed(state: State, data: CardsRevealed) -> State:
    cards = tuple(data["cards"])
    return replace(state, brown=state.brown[len(cards):], limbo=state.limbo + cards)


def _e_picked(state: State, data: CardPicked) -> State:
    card, char = data["card"], data["char"]
    state = replace(state, limbo=_remove(state.limbo, [card]))
    state = _set_char(state, char, hand=state.chars[char].hand + (card,))
    return replace(state, pub=state.pub | {card}) if data.get("public") else state


def _e_returned(state: State, data: LimboReturned) -> State:
    return replace(state, brown=state.limbo + state.brown, limbo=())


def _e_shown(state: State, data: CardShown) -> State:
    return replace(state, pub=state.pub | {data["card"]})


def _e_bid(state: State, data: BidMade) -> State:
    seat, card = data["seat"], data["card"]
    char = state.own_char(seat)
    state = _set_char(state, char, hand=_remove(state.chars[char].hand, [card]))
    bids = list(state.bids)
    bids[seat] = card
    return replace(state, bids=tuple(bids), last_bids=None)


def _e_bids_revealed(state: State, data: BidsRevealed) -> State:
    winner = data["winner"]
    bids = state.bids
    for seat in (0, 1):
        card = bids[seat]
        if card is None:
            continue
        if winner is None or seat == winner:
            state = _to_discards(state, [card])
        else:
            char = state.own_char(seat)
            state = _set_char(state, char, hand=state.chars[char].hand + (card,))
            state = replace(state, pub=state.pub | {card})
    return replace(state, bids=(None, None), last_bids=bids)


def _e_placed(state: State, data: NuggetPlaced) -> State:
    square = (data["square"][0], data["square"][1])
    return replace(state, nuggets=tuple(sorted(state.nuggets + (square,))), reserve=state.reserve - 1)


def _e_eliminated(state: State, data: CharacterEliminated) -> State:
    seat = data["credited"]
    if seat is None:
        return replace(state, set_aside=state.set_aside + (data["character"],))
    trophies = list(state.trophies)
    trophies[seat] = trophies[seat] + ((data["character"], bool(data["with_renegade"])),)
    return replace(state, trophies=tuple(trophies))


def _e_replaced(state: State, data: CharacterReplaced) -> State:
    if data.get("pool_reshuffled"):
        state = replace(state, set_aside=())
    char = data["char"]
    chars = list(state.chars)
    chars[char] = Char(data["character"], data["life"], data["life"], (), (), state.chars[char].pos)
    return replace(state, chars=tuple(chars))


def _e_over(state: State, data: GameOver) -> State:
    return replace(state, result=copy.deepcopy(data["result"]), flow=flow_but(state.flow, phase="over", stack=()))


#: type string -> handler(state, data typed as ``event_types`` declares it): mypy checks each handler
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


def _last_played(data: CardPlayed) -> dict[str, Any]:
    return {"kind": "card_played", "char": data["char"], "card": data["card"], "target": data.get("target"),
            "to": data.get("to")}


def _last_moved(data: Moved) -> dict[str, Any] | None:
    return {"kind": "moved", "char": data["char"], "path": data["path"]} if data["path"] else None


def _last_checked(data: DrawChecked) -> dict[str, Any]:
    return {"kind": "draw_checked", "char": data["char"], "card": data["card"], "reason": data["reason"]}


def _last_bids(data: BidsRevealed) -> dict[str, Any]:
    return {"kind": "bids_revealed", "bids": data["bids"], "winner": data["winner"]}


#: the events a table draws, and what ``state.last`` says of each (all public, FO57)
LAST: dict[str, Callable[[Any], dict[str, Any] | None]] = {
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
