"""Three characters on the board as BANG!'s card engine sees them
(``cardrules.CardTable``): a card's effect acts through the decision
context, with Face Off's board policies (FO18, FO22, FO23, FO26, FO45)."""
from __future__ import annotations

from typing import Any

from referee.games.cards import rules as cardrules
from referee.games.cards.deck import BLUE, KEY
from referee.games.faceoff.elimination import eliminate, hit
from referee.games.faceoff.engine import Ctx
from referee.games.faceoff.flow import Frame, frame_but
from referee.games.faceoff.state import RENEGADE, Char


class Table(Ctx):
    """The decision context as the card engine's table."""

    def holder(self, i: int) -> Char:
        return self.state.chars[i]

    def around(self, i: int, include: bool) -> list[int]:
        """FO22: Indians!, Gatling and Saloon reach both others and the Renegade."""
        return [(i + k) % 3 for k in range(0 if include else 1, 3)]

    def banged(self) -> None:
        pass  # FO18: no BANG! limit

    def card_played(self, who: int, card: str, target: int | None, pick: str | None) -> None:
        data: dict[str, Any] = {"char": who, **cardrules.played(card, target, pick)}
        if card in BLUE:
            data["to"] = target if KEY[card] == "JAIL" else who
        self.emit("card_played", data)

    def discard(self, who: int, cards: list[str], reason: str) -> None:
        self.emit("card_discarded", {"char": who, "cards": cards, "reason": reason})

    def take(self, who: int, frm: int, card: str, zone: str, reason: str) -> None:
        self.emit("card_taken", {"char": who, "from": frm, "card": card, "zone": zone, "reason": reason,
                                 "seen_by": self.viewers(who) if zone == "hand" else [0, 1]})

    def beer_heals(self) -> bool:
        return True  # FO23

    def general_store(self, who: int) -> None:
        """FO26: three cards; the player, his opponent, then the Renegade."""
        self.reveal(who, "general_store", 3, [0, 1])
        if who == RENEGADE:  # seed §13 (the authority over FO26's ruling): the last card always to the Renegade
            mine = self.state.own_char(self.credit_of(RENEGADE))
            order = [RENEGADE, 1 - mine, RENEGADE]
        else:
            order = [who, 1 - who, RENEGADE]
        store_next(self, order)

    def open_shot(self, target: int, src: int, key: str, needed: int) -> None:
        # the card key in lower snake case (issue 24: one vocabulary), ``cardrules`` passes BANG!'s ``KEY``
        self.stack.append(Frame("shot", target, src, key.lower(), needed))

    def open_duel(self, target: int, other: int, src: int) -> None:
        self.stack.append(Frame("duel", target, src, other=other))

    def open_multi(self, src: int, key: str, targets: list[int]) -> None:
        self.stack.append(Frame("multi", src=src, key=key.lower(), targets=tuple(targets)))

    def close_dying(self, who: int) -> None:
        st = self.stack
        if st and st[-1].kind == "dying" and st[-1].char == who and self.state.chars[who].life >= 1:
            st.pop()

    def close_window(self) -> Frame:
        return self.stack.pop()

    def read(self, raw: Frame) -> cardrules.Window:
        return cardrules.Window(raw.kind, raw.char, raw.src, raw.other, raw.needed, raw.misses, raw.played)

    def reopen(self, raw: Frame, misses: int, played: int) -> None:
        self.stack.append(frame_but(raw, misses=misses, played=played) if raw.kind == "shot" else raw)

    def answered(self, who: int, card: str, kind: str) -> None:
        if kind == "dying":
            self.emit("card_played", {"char": who, "card": card})
        else:
            self.emit("card_discarded", {"char": who, "cards": [card], "reason": "missed" if kind == "shot" else kind})

    def take_hit(self, who: int, amount: int, by: int, src: int) -> None:
        hit(self, who, amount, by)  # FO45: the responsible character is credited

    def die(self, who: int, raw: Frame) -> None:
        eliminate(self, who, raw.by, raw.seat)

    def top_card(self) -> str | None:
        return self.top_brown()  # FO24: every "draw!" from the brown deck

    def turn_up(self, who: int, k: int) -> list[str]:
        return self.reveal(who, "lucky_duke", k, None)

    def open_lucky(self, who: int, purpose: str) -> None:
        self.stack.append(Frame("lucky", who, purpose=purpose))

    def checked(self, who: int, purpose: str, card: str, cards: list[str] | None) -> None:
        if cards is None:
            self.emit("draw_checked", {"char": who, "card": card, "reason": purpose})
        else:
            self.emit("draw_checked", {"char": who, "card": card, "reason": purpose, "from": "limbo", "cards": cards})


def store_next(ctx: Ctx, order: list[int]) -> None:
    """The next General Store chooser (FO26); the last card goes to the last in ``order``."""
    limbo = ctx.state.limbo
    if not limbo or not order:
        return
    if len(limbo) == 1 or len(order) == 1:
        for card in list(limbo):
            ctx.emit("card_picked", {"char": order[-1], "card": card, "public": True})
        return
    ctx.stack.append(Frame("store", order[0], rest=tuple(order[1:])))
