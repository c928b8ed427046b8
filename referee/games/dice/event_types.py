"""BANG! The Dice Game's events as frozen typed data (issue 26 item 5): each
event's ``data`` as stored, a ``TypedDict`` of ``ReadOnly`` fields, under its
type string (storage format: never renamed). ``fold.evolve`` reads events
through these types, so mypy checks every read; ``schemas.EVENT_SCHEMAS``
publishes the same shapes (and their redacted forms: hidden roles ``null``)
to clients, and ``referee.engine.eventtypes`` holds the two to each other.
The closed sets of strings below spell ``dice_faces``' faces and dice, ``role_cards``' roles,
``prompts.RULES``' prompt kinds and ``ending.DETAILS``' end codes
(``tests/rules/dice/test_event_types.py`` holds them together).

Data is plain JSON (lists, never tuples):

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

from collections.abc import Mapping
from typing import Literal

from typing_extensions import ReadOnly, TypedDict

#: the event types (storage format: never rename)
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

#: a die face (D2, D51)
Face = Literal["arrow", "dynamite", "shot1", "shot2", "beer", "gatling", "broken_arrow", "bullet",
               "double_shot1", "double_shot2", "double_gatling", "double_beer"]
#: a die (D2, D51): ``base`` or an Old Saloon die
DieKind = Literal["base", "loudmouth", "coward"]
#: a role kind (D5): what ``game_started``, ``player_eliminated`` and ``game_ended`` store
Role = Literal["sheriff", "renegade", "outlaw", "deputy"]
#: the decision awaited (D73)
PromptKind = Literal["sid", "roll", "reroll", "arrow", "broken_arrow", "shoot", "beer", "discard", "bart", "pedro",
                     "haunt"]
#: the end's code (D32, D33, D70)
EndReason = Literal["target_eliminated", "last_alive", "nobody_alive", "renegade_last", "outlaws_win",
                    "sheriff_wins"]
#: one agenda step: its name, then its arguments (a rule ID ``d21``, a count, a batch's ``[seat, points]`` pairs)
Step = list[str | int | list[list[int]]]


class GameStarted(TypedDict):
    """D5-D9: the whole opening state, per seat where a list; ``tokens`` a
    ghost token ``[face, dice]`` per seat or ``null`` (D65)."""

    players: ReadOnly[int]
    saloon_dice: ReadOnly[bool]
    chief_arrow: ReadOnly[bool]
    ghost_module: ReadOnly[bool]
    roles: ReadOnly[list[Role]]
    characters: ReadOnly[list[str]]
    max_life: ReadOnly[list[int]]
    life: ReadOnly[list[int]]
    arrows: ReadOnly[list[int]]
    alive: ReadOnly[list[bool]]
    chief_holder: ReadOnly[int | None]
    ghost: ReadOnly[int | None]
    tokens: ReadOnly[list[list[str | int] | None]]
    queue: ReadOnly[list[Face]]
    turn: ReadOnly[int]


class TurnStarted(TypedDict):
    """D14, D31: ``ghost``, the Ghost's turn (D63)."""

    seat: ReadOnly[int]
    ghost: ReadOnly[bool]


class DiceRolled(TypedDict):
    """D15-D17, D52, D66: every die's face after the roll; ``rolled`` the die
    numbers rolled, ``preset`` how many a ghost token set, ``forced`` how many
    came from the scenario's queue (D72)."""

    seat: ReadOnly[int]
    roll: ReadOnly[int]
    saloon: ReadOnly[Literal["loudmouth", "coward"] | None]
    die_kinds: ReadOnly[list[DieKind]]
    dice: ReadOnly[list[Face]]
    rolled: ReadOnly[list[int]]
    preset: ReadOnly[int]
    forced: ReadOnly[int]


class ArrowTaken(TypedDict):
    """D21, D34, D58: ``chief``, the Chief's Arrow instead of ``count`` regular ones."""

    seat: ReadOnly[int]
    chief: ReadOnly[bool]
    count: ReadOnly[int]
    rule: ReadOnly[str]


class ArrowsDiscarded(TypedDict):
    """D40, D43, D54: ``by`` the seat whose ability or die discarded them."""

    seat: ReadOnly[int]
    regular: ReadOnly[int]
    chief: ReadOnly[bool]
    by: ReadOnly[int]
    rule: ReadOnly[str]


class ArrowsReturned(TypedDict):
    """D22, D26: ``seat`` ``None``, every player's arrows (the Indians attacked)."""

    seat: ReadOnly[int | None]
    rule: ReadOnly[str]


class LifeLost(TypedDict):
    """D28: one batch, ``[seat, points]`` per seat hit."""

    rule: ReadOnly[str]
    losses: ReadOnly[list[list[int]]]


class LifeGained(TypedDict):
    """D25, D45, D47, D48."""

    rule: ReadOnly[str]
    seat: ReadOnly[int]
    amount: ReadOnly[int]


class Eliminated(TypedDict):
    """D29, D61, D75: the role shown; ``ghost``, the seat comes back as the Ghost."""

    seat: ReadOnly[int]
    role: ReadOnly[Role]
    role_card: ReadOnly[str]
    ghost: ReadOnly[bool]


class Resigned(TypedDict):
    """D75."""

    seat: ReadOnly[int]
    rule: ReadOnly[str]


class ShotsPlanned(TypedDict):
    """D24: per shot symbol, its legal targets."""

    targets: ReadOnly[list[list[int]]]


class ShotDeclared(TypedDict):
    """D24, D46: ``double``, Slab the Killer's doubled shot."""

    target: ReadOnly[int]
    double: ReadOnly[bool]


class TokenGiven(TypedDict):
    """D65: the Ghost's token, ``dice`` 1 or 2 dice preset to ``face``."""

    seat: ReadOnly[int]
    target: ReadOnly[int]
    face: ReadOnly[Face]
    dice: ReadOnly[int]


class Awaiting(TypedDict):
    """D73: the decision awaited, its plain data (counts, a rule ID) and the steps after it."""

    kind: ReadOnly[PromptKind]
    seat: ReadOnly[int]
    data: ReadOnly[list[int | str]]
    agenda: ReadOnly[list[Step]]


class GameEnded(TypedDict):
    """D32, D33, D70: every seat's role shown."""

    winners: ReadOnly[list[int]]
    draw: ReadOnly[bool]
    reason: ReadOnly[EndReason]
    roles: ReadOnly[list[Role]]


EVENT_TYPES: Mapping[str, type] = {
    "game_started": GameStarted, "turn_started": TurnStarted, "dice_rolled": DiceRolled,
    "arrow_taken": ArrowTaken, "arrows_discarded": ArrowsDiscarded, "arrows_returned": ArrowsReturned,
    "life_lost": LifeLost, "life_gained": LifeGained, "player_eliminated": Eliminated,
    "player_resigned": Resigned, "shots_planned": ShotsPlanned, "shot_declared": ShotDeclared,
    "token_given": TokenGiven, "awaiting": Awaiting, "game_ended": GameEnded,
}
