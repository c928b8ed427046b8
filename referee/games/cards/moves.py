"""The moves the two card rulesets share, one class a move type (typed moves:
``referee.engine.moves.TypedMove``): BANG! (R…) and Face Off (FO…) read the
same JSON into them, each with its own table (``MoveTable``) and schemas;
what only one ruleset has (BANG!'s ``discard`` of several cards, ``keep``;
Face Off's paths, bid and nugget) stays in its ``moves`` module."""
from __future__ import annotations

from dataclasses import dataclass

from referee.engine.moves import TypedMove


@dataclass(frozen=True, slots=True)
class Play(TypedMove):
    """A card of the hand in one's own turn (R11; Face Off's phase 3, FO17):
    ``target`` for a card aimed at a seat (a character in Face Off), ``pick``
    (``"hand"`` or a card in play) for Panic! and Cat Balou."""

    TYPE = "play"
    card: str
    target: int | None = None
    pick: str | None = None


@dataclass(frozen=True, slots=True)
class Sid(TypedMove):
    """Sid Ketchum discards two cards for a life point (R72, FO53)."""

    TYPE = "sid"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EndTurn(TypedMove):
    """The end of one's playing phase (R11; FO17, FO20)."""

    TYPE = "end_turn"


@dataclass(frozen=True, slots=True)
class Draw(TypedMove):
    """A draw's source (R10; a phase-2 slot in Face Off, FO15): the deck, Pedro
    Ramirez's discard pile (R70), Jesse Jones's ``target``'s hand (R65, FO53)."""

    TYPE = "draw"
    source: str
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Choose(TypedMove):
    """A card turned up and picked: the General Store's (R29, FO26), Kit
    Carlson's in Face Off (FO50), Lucky Duke's "draw!" (R42)."""

    TYPE = "choose"
    card: str


@dataclass(frozen=True, slots=True)
class Barrel(TypedMove):
    """A "draw!" of a Barrel in play or of Jourdonnais in a shot window (R35, R66)."""

    TYPE = "barrel"
    source: str


@dataclass(frozen=True, slots=True)
class Respond(TypedMove):
    """A card answering the open window (R43–R48): Missed!, BANG!, Beer."""

    TYPE = "respond"
    card: str


@dataclass(frozen=True, slots=True)
class Pass(TypedMove):
    """No answer to the open window (R43–R48)."""

    TYPE = "pass"


@dataclass(frozen=True, slots=True)
class Timeout(TypedMove):
    """The system's command (``referee.engine.base.TIMEOUT``), always refused:
    neither card game has a clock of its own (R77, FO9)."""

    TYPE = "timeout"


@dataclass(frozen=True, slots=True)
class Resign(TypedMove):
    """The awaited player leaves the game (R85; in Face Off the other player wins at once, FO58)."""

    TYPE = "resign"
