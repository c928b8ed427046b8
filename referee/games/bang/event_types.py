"""BANG!'s events as frozen typed data (issue 26 item 5): each event's
``data`` as stored, a ``TypedDict`` of ``ReadOnly`` fields, under its type
string (storage format: never renamed). ``fold.evolve`` reads events
through these types, so mypy checks every read; ``schemas.EVENT_SCHEMAS``
publishes the same shapes and their redacted forms (hidden cards as counts,
hidden roles null, R83) to clients, and ``referee.engine.eventtypes`` holds
the two to each other.

The agenda entries of ``awaiting`` (``prompt``, ``then``) are one shape per
``kind``; ``prompts.py`` writes and reads them (R43, R45, R50, R77)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired

from typing_extensions import ReadOnly, TypedDict

from referee.engine.common_events import SeatOnly

Role = Literal["sheriff", "deputy", "outlaw", "renegade"]
Phase = Literal["start", "draw", "play", "discard", "over"]


class Dealt(TypedDict):
    """One seat as dealt (R6): ``hand`` in the order received, ``in_play`` in the order played."""

    seat: ReadOnly[int]
    role: ReadOnly[Role]
    character: ReadOnly[str]
    life: ReadOnly[int]
    max_life: ReadOnly[int]
    alive: ReadOnly[bool]
    hand: ReadOnly[list[str]]
    in_play: ReadOnly[list[str]]


class GameStarted(TypedDict):
    """R6: the deal; ``deck`` top first, ``discard`` bottom first; ``phase``
    the first turn's (a scenario may start it later than ``start``)."""

    three_player: ReadOnly[bool]
    turn: ReadOnly[int]
    phase: ReadOnly[Phase]
    players: ReadOnly[list[Dealt]]
    deck: ReadOnly[list[str]]
    discard: ReadOnly[list[str]]


#: R8
TurnStarted = SeatOnly


class DeckReshuffled(TypedDict):
    """R59: the discard pile shuffled into the new deck, top first."""

    deck: ReadOnly[list[str]]


class CardsDrawn(TypedDict):
    """From the top of the deck into the hand: phase 1 (R10), Black Jack
    (R62), Suzy Lafayette (R74), an Outlaw's reward (R54, R82), Stagecoach
    (R27), Wells Fargo (R28), Bart Cassidy (R61)."""

    seat: ReadOnly[int]
    cards: ReadOnly[list[str]]
    reason: ReadOnly[Literal["draw", "black_jack", "suzy_lafayette", "reward", "stagecoach", "wells_fargo",
                             "bart_cassidy"]]


class CardShown(TypedDict):
    """R62: Black Jack shows his second card."""

    seat: ReadOnly[int]
    card: ReadOnly[str]
    reason: ReadOnly[Literal["black_jack"]]


#: R30 (Panic!), R64 (El Gringo), R65 (Jesse Jones), R70 (Pedro Ramirez: ``from`` null, the discard pile;
#: ``from`` is a keyword, which the class syntax cannot name)
CardTaken = TypedDict("CardTaken", {
    "seat": ReadOnly[int], "from": ReadOnly[int | None], "card": ReadOnly[str],
    "zone": ReadOnly[Literal["hand", "in_play", "discard"]],
    "reason": ReadOnly[Literal["panic", "el_gringo", "jesse_jones", "pedro_ramirez"]],
})


class CardPlayed(TypedDict):
    """R21, R22: brown onto the discard pile, blue in play (Jail in front of
    ``target``); ``pick``, the card or ``hand`` Panic! and Cat Balou aim at
    (R30, R31); ``response``, a Missed! or Beer answering a window (R24, R43, R48)."""

    seat: ReadOnly[int]
    card: ReadOnly[str]
    target: NotRequired[ReadOnly[int]]
    pick: NotRequired[ReadOnly[str]]
    response: NotRequired[ReadOnly[Literal["missed", "beer"]]]


class CardDiscarded(TypedDict):
    """From the hand or in play onto the discard pile: the hand limit (R12),
    a checked Dynamite or Jail (R38, R39), a blue card replaced (R20), Cat
    Balou (R31), Sid Ketchum (R72), an answer to Indians! or a Duel (R34,
    R46), the dead's cards (R51) and the Sheriff's penalty (R53)."""

    seat: ReadOnly[int]
    cards: ReadOnly[list[str]]
    reason: ReadOnly[Literal["hand_limit", "dynamite", "jail", "replaced", "cat_balou", "sid_ketchum", "indians",
                             "duel", "eliminated", "penalty"]]


class CardsRevealed(TypedDict):
    """The top of the deck turned up into the limbo: General Store (R29),
    Lucky Duke (R42, R68), Kit Carlson (R67)."""

    seat: ReadOnly[int]
    cards: ReadOnly[list[str]]
    reason: ReadOnly[Literal["general_store", "lucky_duke", "kit_carlson"]]


#: R41, R42: a "draw!", ``cards`` in discard order, ``card`` the result (null: none) (``from``: a keyword)
DrawChecked = TypedDict("DrawChecked", {
    "seat": ReadOnly[int], "cards": ReadOnly[list[str]], "card": ReadOnly[str | None],
    "reason": ReadOnly[Literal["dynamite", "jail", "barrel"]], "from": ReadOnly[Literal["deck", "limbo"]],
})


class SeatCard(TypedDict):
    """R29: ``card_picked``, a General Store card from the limbo into the hand."""

    seat: ReadOnly[int]
    card: ReadOnly[str]


class KitKept(TypedDict):
    """R67: Kit Carlson keeps two, the rest back on the deck, top first."""

    seat: ReadOnly[int]
    kept: ReadOnly[list[str]]
    returned: ReadOnly[list[str]]


class CardPassed(TypedDict):
    """R39: the Dynamite moves on to ``to``."""

    seat: ReadOnly[int]
    to: ReadOnly[int]
    card: ReadOnly[str]


class LifeLost(TypedDict):
    """R47: ``by`` the credited seat (R52), null: nobody."""

    seat: ReadOnly[int]
    amount: ReadOnly[int]
    by: ReadOnly[int | None]


class LifeGained(TypedDict):
    """R25, R26, R72."""

    seat: ReadOnly[int]
    amount: ReadOnly[int]


class PlayerEliminated(TypedDict):
    """R51 step 1: dead and revealed; ``by`` credited (R52), null: nobody."""

    seat: ReadOnly[int]
    role: ReadOnly[Role]
    by: ReadOnly[int | None]


#: R85: ``player_eliminated`` follows
PlayerResigned = SeatOnly


#: R75: Vulture Sam (``seat``) takes the dead's cards (``from``: a keyword)
CardsInherited = TypedDict("CardsInherited", {
    "seat": ReadOnly[int], "from": ReadOnly[int], "hand": ReadOnly[list[str]], "in_play": ReadOnly[list[str]],
})


class Entry(TypedDict):
    """One entry of the referee's agenda (R43, R77): a window (``shot``,
    ``indians``, ``duel``, ``dying``, ``store``, ``lucky``, ``kit``,
    ``draw_choice``) or a step the referee runs itself (``turn_step``,
    ``targets_left``, ``after_hit``); each kind has the keys ``prompts.py``
    names for it (``targets_left`` alone has no ``seat``)."""

    kind: ReadOnly[Literal["shot", "indians", "duel", "dying", "store", "lucky", "kit", "draw_choice", "turn_step",
                           "targets_left", "after_hit"]]
    seat: NotRequired[ReadOnly[int]]
    shooter: NotRequired[ReadOnly[int]]
    source: NotRequired[ReadOnly[int]]
    card: NotRequired[ReadOnly[str]]
    needed: NotRequired[ReadOnly[int]]
    misses: NotRequired[ReadOnly[int]]
    barrels_used: NotRequired[ReadOnly[list[str]]]
    missed_played: NotRequired[ReadOnly[int]]
    other: NotRequired[ReadOnly[int]]
    credited: NotRequired[ReadOnly[int | None]]
    order: NotRequired[ReadOnly[list[int]]]
    check: NotRequired[ReadOnly[Literal["dynamite", "jail", "barrel"]]]
    barrel: NotRequired[ReadOnly[str]]
    next: NotRequired[ReadOnly[Literal["dynamite", "jail", "draw"]]]
    targets: NotRequired[ReadOnly[list[int]]]
    amount: NotRequired[ReadOnly[int]]


class Awaiting(TypedDict):
    """R43, R77: whose move the referee awaits, the open window and what is
    still owed once it closes, the next first; ``bangs``, BANG! cards played
    this turn (R18)."""

    to_act: ReadOnly[list[int]]
    phase: ReadOnly[Phase]
    bangs: ReadOnly[int]
    prompt: ReadOnly[Entry | None]
    then: ReadOnly[list[Entry]]


class SeatOutcome(TypedDict):
    """R58: each seat's role, revealed, and outcome."""

    seat: ReadOnly[int]
    role: ReadOnly[Role]
    outcome: ReadOnly[Literal["win", "loss"]]
    alive: ReadOnly[bool]


class Result(TypedDict):
    """R55-R58, R82: ``winning_side`` a side (R58) or, with three players, the winner's role;
    ``detail`` one sentence of the ``reason`` and winners."""

    winners: ReadOnly[list[int]]
    seats: ReadOnly[list[SeatOutcome]]
    reason: ReadOnly[Literal["target_eliminated", "last_man_standing", "renegade_alone", "sheriff_dead",
                             "outlaws_and_renegade_dead"]]
    winning_side: ReadOnly[Literal["sheriff", "outlaws", "renegade", "deputy", "outlaw"]]
    detail: ReadOnly[str]


class GameOver(TypedDict):
    """R55-R58, R82."""

    result: ReadOnly[Result]


EVENT_TYPES: Mapping[str, type] = {
    "game_started": GameStarted, "turn_started": TurnStarted, "deck_reshuffled": DeckReshuffled,
    "cards_drawn": CardsDrawn, "card_shown": CardShown, "card_taken": CardTaken, "card_played": CardPlayed,
    "card_discarded": CardDiscarded, "cards_revealed": CardsRevealed, "draw_checked": DrawChecked,
    "card_picked": SeatCard, "kit_kept": KitKept, "card_passed": CardPassed, "life_lost": LifeLost,
    "life_gained": LifeGained, "player_eliminated": PlayerEliminated, "player_resigned": PlayerResigned,
    "cards_inherited": CardsInherited, "awaiting": Awaiting, "game_over": GameOver,
}
