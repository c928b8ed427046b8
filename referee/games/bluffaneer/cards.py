"""Revealing, discarding and replacing cards (F16, F22–F25, F31)."""
from __future__ import annotations

from typing import cast

from referee.engine.rng import Rng
from referee.games.bluffaneer.context import Draft
from referee.games.bluffaneer.fold import CARD_DRAWN, CARD_REVEALED, DECK_RESHUFFLED
from referee.games.bluffaneer.state import Seat
from referee.games.bluffaneer.symbols import CARD_SYMBOLS, matches


def reveal(draft: Draft, seat: Seat, rule: str) -> bool:
    """Reveal ``seat``'s card to everyone and put it face up on the discard
    pile (F24, F31); returns whether it matches the roll (F15)."""
    state = draft.state
    # Between a roll and the end of the turn every seat holds a card (F24).
    card = cast(str, state.hands[seat])
    match = matches(card, cast(tuple[str, str], state.dice))
    draft.emit(CARD_REVEALED, seat=seat, card=card, symbols=list(CARD_SYMBOLS[card]),
               rule=rule, matches=match)
    return match


def replace_card(draft: Draft, seat: Seat, rng: Rng) -> None:
    """``seat`` draws the top card; an empty draw pile is first rebuilt by
    shuffling the whole discard pile, bottom first, with the generator (F24,
    F25)."""
    if not draft.state.deck:
        draft.emit(DECK_RESHUFFLED, order=rng.shuffle(draft.state.discard))
    draft.emit(CARD_DRAWN, seat=seat, card=draft.state.deck[0])
