"""Event types (storage format: never rename) and ``evolve``: folding
recorded events into the state (F5–F34).

Each event records an outcome, so folding needs no generator. Event data is
plain JSON (lists, not tuples) so that a stored and re-read event equals the
one ``decide`` produced.

| type | data |
|---|---|
| ``game_started`` | players, first_seat, die_faces, claim_window_ms, coins, box, hands, deck (top first), discard (bottom first), dice_queue, flip_queue |
| ``dice_rolled`` | seat, dice [die 1, die 2], queued (how many came from dice_queue) |
| ``coins_moved`` | rule, transfers [{from, to (seat, or null: the box), owed, amount}] |
| ``card_revealed`` | seat, card, symbols, rule, matches |
| ``deck_reshuffled`` | order (new draw pile, top first) |
| ``card_drawn`` | seat, card |
| ``claim_window_opened`` | seat (roller), opened_at, deadline |
| ``claimed`` / ``passed`` | seat, at |
| ``claim_window_closed`` | reason (answered / timeout), at, winner, tied, flip, queued |
| ``claim_accepted`` / ``claim_challenged`` | seat (roller), claimant |
| ``turn_ended`` | seat, next |
| ``resigned`` | seat (F34: his coins go to the box in the ``coins_moved`` that follows) |
| ``game_ended`` | reason (``last_coin_lost`` F28, ``resigned`` F34), coins, zero, tied, flip, queued, winner |
"""  # noqa: E501
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.protocol import Event
from referee.games.bluffaneer.event_types import (
    CardDrawn,
    CardRevealed,
    CoinsMoved,
    Decided,
    DeckReshuffled,
    DiceRolled,
    GameEnded,
    GameStarted,
    Resigned,
    SeatAt,
    Tie,
    TurnEnded,
    WindowClosed,
    WindowOpened,
)
from referee.games.bluffaneer.state import (
    CLAIMS,
    DECISION,
    OVER,
    RESOLVING,
    ROLL,
    STEAL,
    Flip,
    State,
)
from referee.games.bluffaneer.symbols import SHIP, SWORD

GAME_STARTED = "game_started"
DICE_ROLLED = "dice_rolled"
COINS_MOVED = "coins_moved"
CARD_REVEALED = "card_revealed"
DECK_RESHUFFLED = "deck_reshuffled"
CARD_DRAWN = "card_drawn"
WINDOW_OPENED = "claim_window_opened"
CLAIMED = "claimed"
PASSED = "passed"
WINDOW_CLOSED = "claim_window_closed"
CLAIM_ACCEPTED = "claim_accepted"
CLAIM_CHALLENGED = "claim_challenged"
TURN_ENDED = "turn_ended"
RESIGNED = "resigned"
GAME_ENDED = "game_ended"


def _started(_: State | None, data: GameStarted) -> State:
    return State(
        players=data["players"], die_faces=tuple(data["die_faces"]), window_ms=data["claim_window_ms"],
        coins=tuple(data["coins"]), box=data["box"], hands=tuple(data["hands"]), deck=tuple(data["deck"]),
        discard=tuple(data["discard"]), turn=data["first_seat"], dice_queue=tuple(data["dice_queue"]),
        flip_queue=tuple(data["flip_queue"]),
    )


def _rolled(state: State, data: DiceRolled) -> State:
    a, b = data["dice"]
    # F12, F13: a sword or ship double waits for the roller's target.
    phase = STEAL if a == b and a in (SWORD, SHIP) else RESOLVING
    return state.replace(dice=(a, b), phase=phase, dice_queue=state.dice_queue[data["queued"]:], last_roll=(a, b),
                     last={"kind": "dice_rolled", "seat": data["seat"], "dice": [a, b]})


def _coins(state: State, data: CoinsMoved) -> State:
    coins = list(state.coins)
    box = state.box
    for t in data["transfers"]:
        coins[t["from"]] -= t["amount"]
        if t["to"] is None:
            box += t["amount"]
        else:
            coins[t["to"]] += t["amount"]
    return state.replace(coins=tuple(coins), box=box)


def _revealed(state: State, data: CardRevealed) -> State:
    # F24: a revealed card goes face up onto the discard pile at once.
    hands = list(state.hands)
    hands[data["seat"]] = None
    return state.replace(hands=tuple(hands), discard=state.discard + (data["card"],), phase=RESOLVING, last={
        "kind": "card_revealed", "seat": data["seat"], "card": data["card"], "symbols": list(data["symbols"]),
        "matches": data["matches"]})


def _reshuffled(state: State, data: DeckReshuffled) -> State:
    # the revealed card just shuffled in is hidden again (F31): the table shows the reshuffle
    order = data["order"]
    return state.replace(deck=tuple(order), discard=(), last={"kind": "deck_reshuffled", "count": len(order)})


def _drawn(state: State, data: CardDrawn) -> State:
    hands = list(state.hands)
    hands[data["seat"]] = data["card"]
    return state.replace(hands=tuple(hands), deck=state.deck[1:])


def _opened(state: State, data: WindowOpened) -> State:
    return state.replace(phase=CLAIMS, opened_at=data["opened_at"], deadline=data["deadline"])


def _claimed(state: State, data: SeatAt) -> State:
    seat = data["seat"]
    return state.replace(claims=state.claims + ((seat, data["at"]),), last={"kind": "claimed", "seat": seat})


def _passed(state: State, data: SeatAt) -> State:
    return state.replace(passes=state.passes + (data["seat"],))


def _flip(kind: str, data: Tie) -> Flip | None:
    if data["flip"] is None:
        return None
    return Flip(kind=kind, among=tuple(data["tied"]), index=data["flip"], queued=data["queued"])


def _closed(state: State, data: WindowClosed) -> State:
    flip = _flip("claim", data)
    return state.replace(
        phase=DECISION if data["winner"] is not None else RESOLVING, deadline=None,
        claimant=data["winner"], last_flip=flip or state.last_flip,
        flip_queue=state.flip_queue[1:] if data["queued"] else state.flip_queue,
    )


def _accepted(state: State, data: Decided) -> State:
    return state.replace(phase=RESOLVING,
                         last={"kind": CLAIM_ACCEPTED, "seat": data["seat"], "claimant": data["claimant"]})


def _challenged(state: State, data: Decided) -> State:
    return state.replace(phase=RESOLVING,
                         last={"kind": CLAIM_CHALLENGED, "seat": data["seat"], "claimant": data["claimant"]})


def _resigned(state: State, data: Resigned) -> State:
    return state.replace(phase=RESOLVING, resigned=data["seat"], last={"kind": RESIGNED, "seat": data["seat"]})


def _turn_ended(state: State, data: TurnEnded) -> State:
    return state.replace(
        phase=ROLL, turn=data["next"], dice=None, opened_at=None, deadline=None,
        claims=(), passes=(), claimant=None,
    )


def _game_ended(state: State, data: GameEnded) -> State:
    flip = _flip("final", data)
    return state.replace(
        phase=OVER, winner=data["winner"], deadline=None, last_flip=flip or state.last_flip, end_reason=data["reason"],
        flip_queue=state.flip_queue[1:] if data["queued"] else state.flip_queue,
    )


#: each handler reads its event as declared in ``event_types.EVENT_TYPES`` (a test holds the two together)
EVOLVE: dict[str, Callable[[Any, Any], State]] = {
    GAME_STARTED: _started, DICE_ROLLED: _rolled, COINS_MOVED: _coins,
    CARD_REVEALED: _revealed, DECK_RESHUFFLED: _reshuffled, CARD_DRAWN: _drawn,
    WINDOW_OPENED: _opened, CLAIMED: _claimed, PASSED: _passed, WINDOW_CLOSED: _closed,
    CLAIM_ACCEPTED: _accepted, CLAIM_CHALLENGED: _challenged, TURN_ENDED: _turn_ended,
    RESIGNED: _resigned, GAME_ENDED: _game_ended,
}


def evolve(state: State | None, event: Event) -> State | None:
    """Apply one recorded event. Never validates, never raises on a known
    type; an unknown type changes nothing."""
    apply = EVOLVE.get(event.type)
    return state if apply is None else apply(state, event.data)
