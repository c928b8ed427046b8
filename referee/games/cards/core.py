"""The card engine's vocabulary (part of ``rules``, which both card rulesets
import): the windows and the moves they accept, a ``Holder``, distance and
reach (R15, R16), the small facts of a card or character (R18, R23, R30,
R31, R73), "draw!" (R41, R42), Suzy Lafayette (R74) and Vulture Sam
(R75)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from referee.engine.moves import TypedMove
from referee.engine.rng import Rng
from referee.games.cards.characters import (
    CALAMITY_JANET,
    LUCKY_DUKE,
    PAUL_REGRET,
    ROSE_DOOLAN,
    SLAB_THE_KILLER,
    SUZY_LAFAYETTE,
    VULTURE_SAM,
    WILLY_THE_KID,
)
from referee.games.cards.deck import KEY, WEAPON_OF, explodes, is_heart

#: a move as JSON: what the kit lists (legal moves, each a complete move object)
Move = dict[str, Any]
#: a move as the kit reads it: a ruleset's typed move (``referee.engine.moves.TypedMove``, its fields
#: named as the JSON keys), or the move's JSON for a ruleset that hands the kit JSON
MoveLike = TypedMove | Move
#: a refusal: (code, rule, detail)
Refusal = tuple[str, str, str]

PASS: Move = {"type": "pass"}
#: cards that take a ``target`` (R23, R30–R32, R38); Missed! only for Calamity Janet
TARGETED = frozenset({"BANG", "MISSED", "PANIC", "CATBALOU", "DUEL", "JAIL"})
#: cards that take a ``pick``: a card in play or ``"hand"`` (R30, R31)
PICKED = frozenset({"PANIC", "CATBALOU"})
#: the windows a card, "draw!" or a hit opens, and the rule that governs each (R43)
WINDOW_RULE = {"shot": "R44", "indians": "R34", "duel": "R46", "dying": "R48", "store": "R29",
               "lucky": "R42"}
#: windows a pass answers (R43)
PASSABLE = frozenset({"shot", "indians", "duel", "dying"})
#: the move types each window accepts
WINDOW_MOVES: dict[str, tuple[str, ...]] = {
    "shot": ("barrel", "respond", "sid", "pass"), "indians": ("respond", "sid", "pass"),
    "duel": ("respond", "sid", "pass"), "dying": ("respond", "sid", "pass"),
    "store": ("choose",), "lucky": ("choose",)}
#: "draw!" purpose -> what makes it succeed (R35 Barrel, R38 Jail: a Heart; R39 Dynamite: Spades 2–9)
CHECK_SUCCEEDS: dict[str, Callable[[str | None], bool]] = {
    "barrel": is_heart, "jail": is_heart, "dynamite": explodes}


def move_type(move: MoveLike) -> str:
    """The move's ``type`` string."""
    return str(move["type"]) if isinstance(move, dict) else move.TYPE


def move_field(move: MoveLike, name: str) -> Any:
    """The move's field ``name`` (its JSON key), ``None`` where the move leaves it out."""
    return move.get(name) if isinstance(move, dict) else getattr(move, name, None)


class Holder(Protocol):
    """A character with cards: one seat of ``bang``, one figure of Face Off."""

    @property
    def character(self) -> str: ...

    @property
    def life(self) -> int: ...

    @property
    def max_life(self) -> int: ...

    @property
    def hand(self) -> tuple[str, ...]: ...

    @property
    def in_play(self) -> tuple[str, ...]: ...


# --- distance and reach (R15, R16) -------------------------------------------------

_SCOPES = frozenset(c for c in KEY if KEY[c] == "SCOPE")
_MUSTANGS = frozenset(c for c in KEY if KEY[c] == "MUSTANG")


def scope_of(character: str, in_play: tuple[str, ...]) -> int:
    """How much closer a holder sees the others: Scope and Rose Doolan (R15, R71)."""
    closer = 1 if character == ROSE_DOOLAN else 0
    return closer + len(_SCOPES.intersection(in_play)) if in_play else closer


def mustang_of(character: str, in_play: tuple[str, ...]) -> int:
    """How much farther the others see a holder: Mustang and Paul Regret (R15, R69)."""
    farther = 1 if character == PAUL_REGRET else 0
    return farther + len(_MUSTANGS.intersection(in_play)) if in_play else farther


def seen_at(base: int, viewer: Holder, target: Holder) -> int:
    """The distance at which ``viewer`` sees ``target`` (R15): the table's own
    distance (seats, R14; a board path, FO21) plus the target's Mustang and
    Paul Regret, minus the viewer's Scope and Rose Doolan, at least 1."""
    distance = base + mustang_of(target.character, target.in_play) - scope_of(viewer.character, viewer.in_play)
    return distance if distance > 1 else 1


def reach_of(in_play: tuple[str, ...]) -> int:
    """The range of the weapon in play, or 1 for the Colt .45 (R16)."""
    for card in in_play:
        reach = WEAPON_OF.get(card)
        if reach is not None:
            return reach
    return 1


# --- what a card or a character is (R18, R23, R30, R31, R73) -----------------------------

def plays_as_bang(holder: Holder, card: str) -> bool:
    """A BANG! card, or a Missed! in Calamity Janet's hand (R23, R63)."""
    key = KEY[card]
    return key == "BANG" or (key == "MISSED" and holder.character == CALAMITY_JANET)


def bang_allowed(holder: Holder, bangs: int) -> bool:
    """R18: one BANG! per turn unless Willy the Kid or a Volcanic in play."""
    if bangs < 1 or holder.character == WILLY_THE_KID:
        return True
    return any(KEY[card] == "VOLCANIC" for card in holder.in_play)


def shots_needed(shooter: Holder) -> int:
    """Missed! cards a BANG! of ``shooter`` needs: 2 for Slab the Killer (R73)."""
    return 2 if shooter.character == SLAB_THE_KILLER else 1


def picks(target: Holder) -> list[str]:
    """What Panic! or Cat Balou may take from ``target``: its hand (at random) or a card in play (R30, R31)."""
    return (["hand"] if target.hand else []) + sorted(target.in_play)


def has_jail(holder: Holder) -> bool:
    return any(KEY[card] == "JAIL" for card in holder.in_play)


# --- "draw!" (R41, R42), Suzy Lafayette (R74) and elimination (R75) -------------------------------------------

def check_cards(holder: Holder) -> int:
    """How many cards a "draw!" turns up: Lucky Duke two, choosing one (R42)."""
    return 2 if holder.character == LUCKY_DUKE else 1


def check_succeeds(purpose: str, card: str | None) -> bool:
    """Whether a "draw!" for ``purpose`` (``dynamite`` | ``jail`` |
    ``barrel[:source]``) succeeds with ``card``; no card at all never does (R41)."""
    return CHECK_SUCCEEDS[purpose.split(":", 1)[0]](card)


def suzy_draws(before: Holder, after: Holder, alive: bool) -> bool:
    """Whether Suzy Lafayette draws now (R74 RULING): at once, when the card
    movement that just happened emptied her hand, and only while alive."""
    return after.character == SUZY_LAFAYETTE and alive and bool(before.hand) and not after.hand


def heir(holders: Sequence[Holder], victim: int) -> int | None:
    """Vulture Sam, if another of ``holders`` (every one in the game) is he:
    he takes the eliminated one's cards (R75), else None."""
    for index, holder in enumerate(holders):
        if index != victim and holder.character == VULTURE_SAM:
            return index
    return None


def at_random(hand: tuple[str, ...], rng: Rng) -> str | None:
    """One card of ``hand`` drawn with ``rng``, where an effect leaves the
    card to chance (``Take``/``Discard`` naming none: Panic! and Cat Balou on
    a hand, R30, R31; El Gringo, R64); ``None`` from an empty hand. The table
    resolves it on its own generator, so the draw is in its events."""
    return hand[rng.below(len(hand))] if hand else None


def one_at_random(hand: tuple[str, ...], rng: Rng) -> tuple[str] | None:
    """``at_random`` as the one card discarded (R31), ``None`` from an empty hand."""
    card = at_random(hand, rng)
    return None if card is None else (card,)
