"""The decision context both card tables build on (``bang``'s seats, Face
Off's figures): the engine's ``Decision`` with the table's generator, and
the card engine's effects that both apply alike — a ``Discard`` or a
``Take`` that names no card leaves it to chance, one card of the hand
drawn on the table's own generator, so the draw is in its events (R30,
R31, R64). What differs is passed in: the key that names a holder in the
events (``seat`` | ``char``), the holder itself, and what a take adds (Face
Off: who may see the card, FO57)."""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from referee.engine.decision import Decision
from referee.engine.protocol import Event, S
from referee.engine.rng import Rng
from referee.games.cards.core import Holder, at_random, one_at_random
from referee.games.cards.effects import Discard, Take


class CardTable(Decision[S]):
    """``Decision`` at a table of holders (``cards.core.Holder``) with its generator ``rng``."""

    __slots__ = ("rng",)
    #: the key that names a holder in ``card_discarded`` and ``card_taken``
    holder_key: ClassVar[str]

    def __init__(self, state: S, fold: Callable[[S, Event], S], rng: Rng) -> None:
        super().__init__(state, fold)
        self.rng = rng

    @abstractmethod
    def holder(self, who: int) -> Holder:
        """Holder ``who`` in the state so far (each card table says where its holders are)."""

    def taken_extra(self, who: int, zone: str) -> dict[str, Any]:
        """What ``card_taken`` adds for ``who`` taking from ``zone``; default: nothing."""
        return {}

    def discard(self, effect: Discard) -> None:
        """``effect.cards`` to the discard pile (R20, R72); none named: one card of the
        hand at random, none from an empty hand (R31)."""
        cards = effect.cards if effect.cards is not None else one_at_random(self.holder(effect.who).hand, self.rng)
        if cards is not None:
            self.emit("card_discarded", {self.holder_key: effect.who, "cards": list(cards), "reason": effect.reason})

    def take(self, effect: Take) -> None:
        """``effect.card`` into ``effect.who``'s hand; none named: one card of ``effect.frm``'s hand
        at random, none from an empty hand (R30, R64)."""
        who, giver = effect.who, effect.frm
        card = effect.card if effect.card is not None else at_random(self.holder(giver).hand, self.rng)
        if card is not None:
            self.emit("card_taken", {self.holder_key: who, "from": giver, "card": card, "zone": effect.zone,
                                     "reason": effect.reason, **self.taken_extra(who, effect.zone)})
