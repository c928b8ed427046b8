"""Face Off's events as frozen typed data (issue 26 item 5): each event's
``data`` as stored, a ``TypedDict`` of ``ReadOnly`` fields, under its type
string (storage format: never renamed). ``fold.evolve`` reads events
through these types, so mypy checks every read; ``schemas.EVENT_SCHEMAS``
publishes the same shapes (and their redacted forms, FO57) to clients, and
``referee.engine.eventtypes`` holds the two to each other.

A character is its figure's index (0 the Sheriff's, 1 the Outlaw's, 2 the
Renegade, FO2), a seat 0 or 1 (FO1), a square ``[x, y]``, a card its id."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired

from typing_extensions import ReadOnly, TypedDict

Pile = Literal["brown", "blue"]


class FrameJson(TypedDict):
    """One entry of the agenda (FO22, FO26, FO28, FO29, FO31, FO39, FO50, FO53):
    ``kind`` and the fields its kind uses (``flow.FIELDS``)."""

    kind: ReadOnly[Literal["shot", "indians", "duel", "dying", "store", "kit", "lucky", "multi", "after_hit"]]
    char: NotRequired[ReadOnly[int]]
    src: NotRequired[ReadOnly[int]]
    key: NotRequired[ReadOnly[str]]
    needed: NotRequired[ReadOnly[int]]
    misses: NotRequired[ReadOnly[int]]
    played: NotRequired[ReadOnly[int]]
    used: NotRequired[ReadOnly[list[str]]]
    other: NotRequired[ReadOnly[int]]
    targets: NotRequired[ReadOnly[list[int]]]
    by: NotRequired[ReadOnly[int]]
    seat: NotRequired[ReadOnly[int]]
    amount: NotRequired[ReadOnly[int]]
    rest: NotRequired[ReadOnly[list[int]]]
    purpose: NotRequired[ReadOnly[str]]


class FlowJson(TypedDict):
    """The referee's control state (FO8-FO10, FO12, FO15, FO32-FO37): ``controller``
    and ``placer`` a seat or -1 (none), ``start`` the turn-start square or ``None``."""

    round: ReadOnly[int]
    active: ReadOnly[int]
    phase: ReadOnly[Literal["start", "start_jail", "move", "phase2", "play", "discard", "bid", "place", "over"]]
    start: ReadOnly[list[int] | None]
    slots: ReadOnly[int]
    drew: ReadOnly[int]
    walk: ReadOnly[Literal[2, 3]]
    controller: ReadOnly[int]
    placer: ReadOnly[int]
    bidders: ReadOnly[list[int]]
    stack: ReadOnly[list[FrameJson]]


class MapShown(TypedDict):
    """FO54: the board, one string a row."""

    id: ReadOnly[str]
    name: ReadOnly[str]
    rows: ReadOnly[list[str]]


class CharDealt(TypedDict):
    """FO5, FO7: one figure's character, life, cards and square."""

    name: ReadOnly[str]
    life: ReadOnly[int]
    max_life: ReadOnly[int]
    hand: ReadOnly[list[str]]
    in_play: ReadOnly[list[str]]
    pos: ReadOnly[list[int]]


class GameSetup(TypedDict):
    """FO2, FO4, FO6, FO7, FO54: ``chars`` in figure order, the decks top first,
    ``trophies`` by seat, each ``[character, with_renegade]`` (FO48)."""

    map: ReadOnly[MapShown]
    sheriff_seat: ReadOnly[int]
    chars: ReadOnly[list[CharDealt]]
    brown: ReadOnly[list[str]]
    blue: ReadOnly[list[str]]
    brown_discard: ReadOnly[list[str]]
    blue_discard: ReadOnly[list[str]]
    nuggets: ReadOnly[list[list[int]]]
    reserve: ReadOnly[int]
    trophies: ReadOnly[list[list[tuple[str, bool]]]]
    set_aside: ReadOnly[list[str]]
    renegade_variant: ReadOnly[bool]
    flow: ReadOnly[FlowJson]


class FlowWritten(TypedDict):
    """FO8, FO9, FO32-FO37: the control state after a decision."""

    flow: ReadOnly[FlowJson]


#: FO13, FO15, FO24, FO42, FO52, FO53 (``from`` is a keyword: the class syntax cannot name it)
CardsDrawn = TypedDict("CardsDrawn", {
    "char": ReadOnly[int], "cards": ReadOnly[list[str]], "count": ReadOnly[int],
    "from": ReadOnly[Literal["brown", "blue", "brown_discard"]],
    "reason": ReadOnly[Literal["draw", "nugget", "black_jack", "stagecoach", "wells_fargo", "bart_cassidy",
                               "suzy_lafayette", "replacement", "pedro_ramirez"]],
    "seen_by": ReadOnly[list[int]]})


class DeckReshuffled(TypedDict):
    """FO25: the new deck, top first."""

    deck: ReadOnly[Pile]
    order: ReadOnly[list[str]]


class Moved(TypedDict):
    """FO11, FO12, FO14, FO15, FO51: the squares entered, in order (none: no step)."""

    char: ReadOnly[int]
    path: ReadOnly[list[list[int]]]
    phase: ReadOnly[Literal[1, 2]]


class NuggetTaken(TypedDict):
    """FO13."""

    char: ReadOnly[int]
    square: ReadOnly[list[int]]


#: FO10, FO19, FO24, FO29, FO41; Lucky Duke (FO53, R42): ``from`` the limbo, ``cards`` those he turned
DrawChecked = TypedDict("DrawChecked", {
    "char": ReadOnly[int], "card": ReadOnly[str], "reason": ReadOnly[Literal["dynamite", "jail", "barrel"]],
    "from": NotRequired[ReadOnly[Literal["deck", "limbo"]]], "cards": NotRequired[ReadOnly[list[str]]]})


class CardPlayed(TypedDict):
    """FO17-FO19, FO22, FO23, FO26-FO29, FO39: ``to``, the character a blue card
    goes in front of; ``pick``, a card or ``"hand"`` (Panic!, Cat Balou)."""

    char: ReadOnly[int]
    card: ReadOnly[str]
    target: NotRequired[ReadOnly[int]]
    pick: NotRequired[ReadOnly[str]]
    to: NotRequired[ReadOnly[int]]


class CardDiscarded(TypedDict):
    """FO19, FO20, FO22, FO24, FO27-FO29, FO40, FO41, FO53 (Sid Ketchum)."""

    char: ReadOnly[int]
    cards: ReadOnly[list[str]]
    reason: ReadOnly[Literal["dynamite", "jail", "replaced", "cat_balou", "hand_limit", "sid_ketchum", "missed",
                             "indians", "duel", "eliminated"]]


#: FO27, FO53 (Jesse Jones, El Gringo): ``from``, the character taken from
CardTaken = TypedDict("CardTaken", {
    "char": ReadOnly[int], "from": ReadOnly[int], "card": ReadOnly[str],
    "zone": ReadOnly[Literal["hand", "in_play"]], "reason": ReadOnly[Literal["panic", "jesse_jones", "el_gringo"]],
    "seen_by": ReadOnly[list[int]]})

#: FO40, FO53 (Vulture Sam): the eliminated character's cards (``from``)
CardsInherited = TypedDict("CardsInherited", {
    "char": ReadOnly[int], "from": ReadOnly[int], "hand": ReadOnly[list[str]], "in_play": ReadOnly[list[str]],
    "seen_by": ReadOnly[list[int]]})


class LifeChanged(TypedDict):
    """FO22, FO23, FO39, FO41, FO53; FO45: a loss says ``by`` whom (``None``: the Dynamite)."""

    char: ReadOnly[int]
    kind: ReadOnly[Literal["gain", "loss"]]
    amount: ReadOnly[int]
    by: NotRequired[ReadOnly[int | None]]


class CardPassed(TypedDict):
    """FO41: the Dynamite, to the next character."""

    char: ReadOnly[int]
    to: ReadOnly[int]
    card: ReadOnly[str]


class CardsRevealed(TypedDict):
    """FO26, FO50, FO53 (R42): the brown deck's top into the limbo; without
    ``seen_by``, public."""

    char: ReadOnly[int]
    cards: ReadOnly[list[str]]
    reason: ReadOnly[Literal["general_store", "kit_carlson", "lucky_duke"]]
    seen_by: NotRequired[ReadOnly[list[int]]]


class CardPicked(TypedDict):
    """FO26 (``public``), FO50 (Kit Carlson's, seen by his controller)."""

    char: ReadOnly[int]
    card: ReadOnly[str]
    public: ReadOnly[bool]
    seen_by: NotRequired[ReadOnly[list[int]]]


class LimboReturned(TypedDict):
    """FO50: Kit Carlson's unkept cards back on the brown deck."""

    count: ReadOnly[int]


class CardShown(TypedDict):
    """FO52: Black Jack's second card."""

    char: ReadOnly[int]
    card: ReadOnly[str]
    reason: ReadOnly[Literal["black_jack"]]


class BidMade(TypedDict):
    """FO33."""

    seat: ReadOnly[int]
    card: ReadOnly[str]
    seen_by: ReadOnly[list[int]]


class BidsRevealed(TypedDict):
    """FO33, FO36: both bids by seat (``None``: no bid), ``winner`` ``None`` on a tie."""

    bids: ReadOnly[list[str | None]]
    winner: ReadOnly[int | None]


class NuggetPlaced(TypedDict):
    """FO37."""

    seat: ReadOnly[int]
    square: ReadOnly[list[int]]


class CharacterEliminated(TypedDict):
    """FO40, FO41, FO45, FO48: ``credited`` ``None``, the character is set aside."""

    char: ReadOnly[int]
    character: ReadOnly[str]
    by: ReadOnly[int | None]
    credited: ReadOnly[int | None]
    with_renegade: ReadOnly[bool]


class CharacterReplaced(TypedDict):
    """FO42, FO49."""

    char: ReadOnly[int]
    character: ReadOnly[str]
    life: ReadOnly[int]
    pool_reshuffled: ReadOnly[bool]


class SeatResult(TypedDict):
    """One seat's outcome and kills (FO47, FO49)."""

    seat: ReadOnly[int]
    role: ReadOnly[Literal["sheriff", "outlaw"]]
    outcome: ReadOnly[Literal["win", "loss", "draw"]]
    kills: ReadOnly[int]


class Result(TypedDict):
    """The game's result: ``detail``, one sentence citing the rule (FO47, FO49, FO58)."""

    winners: ReadOnly[list[int]]
    seats: ReadOnly[list[SeatResult]]
    reason: ReadOnly[Literal["two_kills", "no_characters_left", "resigned"]]
    detail: ReadOnly[str]


class GameOver(TypedDict):
    """FO47, FO49, FO58."""

    result: ReadOnly[Result]


EVENT_TYPES: Mapping[str, type] = {
    "game_setup": GameSetup, "flow": FlowWritten, "cards_drawn": CardsDrawn, "deck_reshuffled": DeckReshuffled,
    "moved": Moved, "nugget_taken": NuggetTaken, "draw_checked": DrawChecked, "card_played": CardPlayed,
    "card_discarded": CardDiscarded, "card_taken": CardTaken, "cards_inherited": CardsInherited,
    "life_changed": LifeChanged, "card_passed": CardPassed, "cards_revealed": CardsRevealed,
    "card_picked": CardPicked, "limbo_returned": LimboReturned, "card_shown": CardShown, "bid_made": BidMade,
    "bids_revealed": BidsRevealed, "nugget_placed": NuggetPlaced, "character_eliminated": CharacterEliminated,
    "character_replaced": CharacterReplaced, "game_over": GameOver,
}
