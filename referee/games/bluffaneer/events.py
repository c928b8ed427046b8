"""Event types (storage format: never rename) and ``evolve``.

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

from collections.abc import Callable, Mapping
from typing import Any

from referee.engine.decision import Decision, by_table
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

Data = Mapping[str, Any]


def _started(_: State | None, d: GameStarted) -> State:
    return State(
        players=d["players"], die_faces=tuple(d["die_faces"]), window_ms=d["claim_window_ms"],
        coins=tuple(d["coins"]), box=d["box"], hands=tuple(d["hands"]), deck=tuple(d["deck"]),
        discard=tuple(d["discard"]), turn=d["first_seat"], dice_queue=tuple(d["dice_queue"]),
        flip_queue=tuple(d["flip_queue"]),
    )


def _rolled(s: State, d: DiceRolled) -> State:
    a, b = d["dice"]
    # F12, F13: a sword or ship double waits for the roller's target.
    phase = STEAL if a == b and a in (SWORD, SHIP) else RESOLVING
    return s.replace(dice=(a, b), phase=phase, dice_queue=s.dice_queue[d["queued"]:], last_roll=(a, b),
                     last={"kind": "dice_rolled", "seat": d["seat"], "dice": [a, b]})


def _coins(s: State, d: CoinsMoved) -> State:
    coins = list(s.coins)
    box = s.box
    for t in d["transfers"]:
        coins[t["from"]] -= t["amount"]
        if t["to"] is None:
            box += t["amount"]
        else:
            coins[t["to"]] += t["amount"]
    return s.replace(coins=tuple(coins), box=box)


def _revealed(s: State, d: CardRevealed) -> State:
    # F24: a revealed card goes face up onto the discard pile at once.
    hands = list(s.hands)
    hands[d["seat"]] = None
    return s.replace(hands=tuple(hands), discard=s.discard + (d["card"],), phase=RESOLVING, last={
        "kind": "card_revealed", "seat": d["seat"], "card": d["card"], "symbols": list(d["symbols"]),
        "matches": d["matches"]})


def _reshuffled(s: State, d: DeckReshuffled) -> State:
    # the revealed card just shuffled in is hidden again (F31): the table shows the reshuffle
    return s.replace(deck=tuple(d["order"]), discard=(), last={"kind": "deck_reshuffled", "count": len(d["order"])})


def _drawn(s: State, d: CardDrawn) -> State:
    hands = list(s.hands)
    hands[d["seat"]] = d["card"]
    return s.replace(hands=tuple(hands), deck=s.deck[1:])


def _opened(s: State, d: WindowOpened) -> State:
    return s.replace(phase=CLAIMS, opened_at=d["opened_at"], deadline=d["deadline"])


def _claimed(s: State, d: SeatAt) -> State:
    return s.replace(claims=s.claims + ((d["seat"], d["at"]),), last={"kind": "claimed", "seat": d["seat"]})


def _passed(s: State, d: SeatAt) -> State:
    return s.replace(passes=s.passes + (d["seat"],))


def _flip(kind: str, d: Tie) -> Flip | None:
    if d["flip"] is None:
        return None
    return Flip(kind=kind, among=tuple(d["tied"]), index=d["flip"], queued=d["queued"])


def _closed(s: State, d: WindowClosed) -> State:
    flip = _flip("claim", d)
    return s.replace(
        phase=DECISION if d["winner"] is not None else RESOLVING, deadline=None,
        claimant=d["winner"], last_flip=flip or s.last_flip,
        flip_queue=s.flip_queue[1:] if d["queued"] else s.flip_queue,
    )


def _accepted(s: State, d: Decided) -> State:
    return s.replace(phase=RESOLVING, last={"kind": CLAIM_ACCEPTED, "seat": d["seat"], "claimant": d["claimant"]})


def _challenged(s: State, d: Decided) -> State:
    return s.replace(phase=RESOLVING, last={"kind": CLAIM_CHALLENGED, "seat": d["seat"], "claimant": d["claimant"]})


def _resigned(s: State, d: Resigned) -> State:
    return s.replace(phase=RESOLVING, resigned=d["seat"], last={"kind": RESIGNED, "seat": d["seat"]})


def _turn_ended(s: State, d: TurnEnded) -> State:
    return s.replace(
        phase=ROLL, turn=d["next"], dice=None, opened_at=None, deadline=None,
        claims=(), passes=(), claimant=None,
    )


def _game_ended(s: State, d: GameEnded) -> State:
    flip = _flip("final", d)
    return s.replace(
        phase=OVER, winner=d["winner"], deadline=None, last_flip=flip or s.last_flip, end_reason=d["reason"],
        flip_queue=s.flip_queue[1:] if d["queued"] else s.flip_queue,
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


#: the events of one decision, folded as they are emitted, so each rule sees the
#: outcome of the one before: the engine's builder over this ruleset's events
Draft = Decision[State]
_FOLD = by_table(EVOLVE)


def new_draft(state: State) -> Draft:
    """A decision starting from ``state``."""
    return Decision(state, _FOLD)
