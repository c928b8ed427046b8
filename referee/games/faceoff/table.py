"""The card engine's effects (``cardrules.Effect``) applied to three
characters on the board: a card's effects become Face Off's events and
agenda frames, with the board's policies (FO18, FO22, FO23, FO26, FO45)."""
from __future__ import annotations

from typing import Any

from referee.games.cards import rules as cardrules
from referee.games.cards.deck import BLUE, KEY
from referee.games.faceoff.elimination import eliminate, hit
from referee.games.faceoff.engine import Ctx
from referee.games.faceoff.flow import Frame, frame_but
from referee.games.faceoff.state import RENEGADE


class Table(Ctx):
    """The decision context that applies the card engine's effects (one
    method each; ``turn.apply_effects`` dispatches them)."""

    #: the window closed last (a shot reopened, a dying character's credit)
    closed: Frame | None = None

    def window(self) -> cardrules.Window:
        """The open window on top of the agenda as the card engine reads it (R43)."""
        f = self.stack[-1]
        return cardrules.Window(f.kind, f.char, f.src, f.other, f.needed, f.misses, f.played)

    def order(self, i: int) -> tuple[int, int, int]:
        """FO22: Indians!, Gatling and Saloon reach both others and the Renegade, from ``i``."""
        return i, (i + 1) % 3, (i + 2) % 3

    def count_bang(self, e: cardrules.CountBang) -> None:
        pass  # FO18: no BANG! limit

    def card_played(self, e: cardrules.PlayCard) -> None:
        card = e.card
        data: dict[str, Any] = {"char": e.who, **cardrules.played(card, e.target, e.pick)}
        if card in BLUE:
            data["to"] = e.target if KEY[card] == "JAIL" else e.who
        self.emit("card_played", data)

    def discard(self, e: cardrules.Discard) -> None:
        cards = e.cards if e.cards is not None else cardrules.one_at_random(self.state.chars[e.who].hand, self.rng)
        if cards is not None:  # R31: one card of the hand at random, none from an empty hand
            self.emit("card_discarded", {"char": e.who, "cards": list(cards), "reason": e.reason})

    def take(self, e: cardrules.Take) -> None:
        card = e.card if e.card is not None else cardrules.at_random(self.state.chars[e.frm].hand, self.rng)
        if card is None:  # R30, R64: one card of the hand at random, none from an empty hand
            return
        who, zone = e.who, e.zone
        self.emit("card_taken", {"char": who, "from": e.frm, "card": card, "zone": zone, "reason": e.reason,
                                 "seen_by": self.viewers(who) if zone == "hand" else [0, 1]})

    def drawn(self, e: cardrules.Draw) -> None:
        self.draw(e.who, e.n, e.reason)

    def healed(self, e: cardrules.Heal) -> None:
        self.heal(e.who, e.amount)

    def general_store(self, e: cardrules.OpenStore) -> None:
        """FO26: three cards; the player, his opponent, then the Renegade."""
        who = e.who
        self.reveal(who, "general_store", 3, [0, 1])
        if who == RENEGADE:  # seed §13 (the authority over FO26's ruling): the last card always to the Renegade
            mine = self.state.own_char(self.credit_of(RENEGADE))
            order = [RENEGADE, 1 - mine, RENEGADE]
        else:
            order = [who, 1 - who, RENEGADE]
        store_next(self, order)

    def open_shot(self, e: cardrules.OpenShot) -> None:
        # the card key in lower snake case (issue 24: one vocabulary), ``cardrules`` passes BANG!'s ``KEY``
        self.stack.append(Frame("shot", e.target, e.src, e.key.lower(), e.needed))

    def open_duel(self, e: cardrules.OpenDuel) -> None:
        self.stack.append(Frame("duel", e.target, e.src, other=e.other))

    def open_multi(self, e: cardrules.OpenMulti) -> None:
        self.stack.append(Frame("multi", src=e.src, key=e.key.lower(), targets=e.targets))

    def close_dying(self, e: cardrules.CloseDying) -> None:
        st = self.stack
        if st and st[-1].kind == "dying" and st[-1].char == e.who and self.state.chars[e.who].life >= 1:
            st.pop()

    def close_window(self, e: cardrules.CloseWindow) -> None:
        self.closed = self.stack.pop()

    def reopen(self, e: cardrules.Reopen) -> None:
        raw = self.closed
        if raw is not None:
            self.stack.append(frame_but(raw, misses=e.misses, played=e.played) if raw.kind == "shot" else raw)

    def answered(self, e: cardrules.Answer) -> None:
        kind = e.kind
        if kind == "dying":
            self.emit("card_played", {"char": e.who, "card": e.card})
        else:
            self.emit("card_discarded", {"char": e.who, "cards": [e.card],
                                         "reason": "missed" if kind == "shot" else kind})

    def take_hit(self, e: cardrules.Hit) -> None:
        hit(self, e.who, e.amount, e.by)  # FO45: the responsible character is credited

    def die(self, e: cardrules.Die) -> None:
        raw = self.closed
        if raw is not None:
            eliminate(self, e.who, raw.by, raw.seat)

    def turned_up(self, e: cardrules.TurnUp) -> list[str]:
        """The cards a "draw!" turns, from the brown deck (FO24): Lucky Duke's two face up into
        the limbo (R42), else its top card (it leaves the deck when checked, R41)."""
        if e.n == 2:
            return self.reveal(e.who, "lucky_duke", 2, None)
        top = self.top_brown()
        return [top] if top is not None else []

    def open_lucky(self, e: cardrules.OpenLucky) -> None:
        self.stack.append(Frame("lucky", e.who, purpose=e.purpose))

    def checked(self, e: cardrules.Checked) -> None:
        if e.cards is None:
            self.emit("draw_checked", {"char": e.who, "card": e.card, "reason": e.purpose})
        else:
            self.emit("draw_checked", {"char": e.who, "card": e.card, "reason": e.purpose, "from": "limbo",
                                       "cards": list(e.cards)})


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
