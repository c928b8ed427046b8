"""Bluffaneer's events as frozen typed data (issue 26 item 5): each event's
``data`` as stored, a ``TypedDict`` of ``ReadOnly`` fields, under its type
string (storage format: never renamed). ``fold.evolve`` reads events
through these types, so mypy checks every read; ``schemas.EVENT_SCHEMAS``
publishes the same shapes (and their redacted forms) to clients, and
``referee.engine.eventtypes`` holds the two to each other."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from typing_extensions import ReadOnly, TypedDict

from referee.engine.common_events import SeatOnly


class GameStarted(TypedDict):
    """F5-F8: the deal. ``hands`` one card a seat (``null``: none yet)."""

    players: ReadOnly[int]
    first_seat: ReadOnly[int]
    die_faces: ReadOnly[list[str]]
    claim_window_ms: ReadOnly[int]
    coins: ReadOnly[list[int]]
    box: ReadOnly[int]
    hands: ReadOnly[list[str | None]]
    deck: ReadOnly[list[str]]
    discard: ReadOnly[list[str]]
    dice_queue: ReadOnly[list[str]]
    flip_queue: ReadOnly[list[int]]


class DiceRolled(TypedDict):
    """F9: ``queued``, how many of the two came from the scenario's dice queue."""

    seat: ReadOnly[int]
    dice: ReadOnly[list[str]]
    queued: ReadOnly[int]


#: one payment: ``to`` ``None`` is the box (``from`` is a keyword: the class syntax cannot name it)
Transfer = TypedDict("Transfer", {"from": ReadOnly[int], "to": ReadOnly[int | None], "owed": ReadOnly[int],
                                  "amount": ReadOnly[int]})


class CoinsMoved(TypedDict):
    """F10-F26: the payments one rule made."""

    rule: ReadOnly[str]
    transfers: ReadOnly[list[Transfer]]


class CardRevealed(TypedDict):
    """F16, F22, F23."""

    seat: ReadOnly[int]
    card: ReadOnly[str]
    symbols: ReadOnly[list[str]]
    rule: ReadOnly[str]
    matches: ReadOnly[bool]


class DeckReshuffled(TypedDict):
    """F25: the new draw pile, top first."""

    order: ReadOnly[list[str]]


class CardDrawn(TypedDict):
    """F24."""

    seat: ReadOnly[int]
    card: ReadOnly[str]


class WindowOpened(TypedDict):
    """F18: ``seat`` is the roller's."""

    seat: ReadOnly[int]
    opened_at: ReadOnly[int]
    deadline: ReadOnly[int]


class SeatAt(TypedDict):
    """``claimed`` (F17) and ``passed`` (F18)."""

    seat: ReadOnly[int]
    at: ReadOnly[int]


class Tie(TypedDict):
    """A tie broken by a coin flip (F20, F30): ``flip`` ``None`` when there was none."""

    tied: ReadOnly[list[int]]
    flip: ReadOnly[int | None]
    queued: ReadOnly[bool]


class WindowClosed(Tie):
    """F19, F20: the claimant who won the window, if any."""

    reason: ReadOnly[Literal["answered", "timeout"]]
    at: ReadOnly[int]
    winner: ReadOnly[int | None]


class Decided(TypedDict):
    """``claim_accepted`` and ``claim_challenged`` (F21): ``seat`` the roller's."""

    seat: ReadOnly[int]
    claimant: ReadOnly[int]


class TurnEnded(TypedDict):
    """F27."""

    seat: ReadOnly[int]
    next: ReadOnly[int]


#: F34: the seat's coins go to the box in the ``coins_moved`` that follows
Resigned = SeatOnly


class GameEnded(Tie):
    """F28-F30, F34."""

    reason: ReadOnly[Literal["last_coin_lost", "resigned"]]
    coins: ReadOnly[list[int]]
    zero: ReadOnly[list[int]]
    winner: ReadOnly[int]


EVENT_TYPES: Mapping[str, type] = {
    "game_started": GameStarted, "dice_rolled": DiceRolled, "coins_moved": CoinsMoved,
    "card_revealed": CardRevealed, "deck_reshuffled": DeckReshuffled, "card_drawn": CardDrawn,
    "claim_window_opened": WindowOpened, "claimed": SeatAt, "passed": SeatAt, "claim_window_closed": WindowClosed,
    "claim_accepted": Decided, "claim_challenged": Decided, "turn_ended": TurnEnded, "resigned": Resigned,
    "game_ended": GameEnded,
}
