"""What must hold of every Face Off state (the conformance suite checks each
one after every event): the 80 cards each in one place (FO4) and pile
(FO24), the figures and nuggets on the board (FO12, FO13, FO16), life and
the end (FO7, FO47)."""
from __future__ import annotations

from referee.games.cards.deck import ALL_CARDS, BLUE
from referee.games.faceoff import board
from referee.games.faceoff.state import State

_ALL = frozenset(ALL_CARDS)


def invariants(state: State) -> list[str]:
    """The broken invariants of ``state``, in rule order (none: sound)."""
    return [*_cards(state), *_figures(state), *_going_on(state)]


def _cards(state: State) -> list[str]:
    """FO4: every card in exactly one place; FO24: each in a pile of its colour."""
    out: list[str] = []
    places: list[str] = [*state.brown, *state.brown_discard, *state.blue, *state.blue_discard, *state.limbo]
    places += [card for card in state.bids if card is not None]
    for char in state.chars:
        places += [*char.hand, *char.in_play]
    if len(places) != len(ALL_CARDS) or not _ALL.issuperset(places) or len(set(places)) != len(places):
        out.append("FO4: the 80 cards are not each in exactly one place")
    if any(card in BLUE for card in state.brown + state.brown_discard) \
            or any(card not in BLUE for card in state.blue + state.blue_discard):
        out.append("FO24: a card in a pile of the other colour")
    return out


def _figures(state: State) -> list[str]:
    """FO16: one figure a square; FO12: on floor; FO13: a nugget on a free floor square."""
    out: list[str] = []
    squares = [char.pos for char in state.chars]
    if len(set(squares)) != 3:
        out.append("FO16: two figures on one square")
    if not all(board.floor(state.rows, square) for square in squares):
        out.append("FO12: a figure on rock")
    if any(nugget in squares or not board.floor(state.rows, nugget) for nugget in state.nuggets):
        out.append("FO13: a nugget under a figure or on rock")
    return out


def _going_on(state: State) -> list[str]:
    """While the game goes on: FO7, no life above max; FO47, nobody has won."""
    if state.result is not None:
        return []
    out: list[str] = []
    if any(char.life > char.max_life for char in state.chars):
        out.append("FO7: life above max")
    if any(len(won) >= 2 and (not state.variant or any(with_renegade for _, with_renegade in won))
           for won in state.trophies):
        out.append("FO47: a player has won but the game goes on")
    return out
