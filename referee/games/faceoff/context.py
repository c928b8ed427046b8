"""The decision context on the board (the engine's ``Decision``, ``Ctx``):
it emits events and folds them at once, offers the primitives of drawing and
healing (FO23-FO25), and applies the card engine's effects
(``cardrules.Effect``, one method each; ``turn.apply_effects`` dispatches
them) as Face Off's events and agenda frames, with the board's policies
(FO18, FO22, FO23, FO26, FO45); and the control-flow signals of a turn
ending at once (FO19, FO44) and of the game's end (FO47).

A ``Ctx`` lives for one decision (or the setup): rules call ``emit`` and
read ``ctx.state``, the fold of the events emitted so far. The flow's fields
(``ctx.flow``, a mutable ``flow.Draft``) and its agenda (``ctx.stack``) are
kept aside and written once, as the closing ``flow`` event (``flush``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.platform import RESIGN
from referee.engine.protocol import Event, IllegalMove
from referee.engine.rng import Rng
from referee.games.cards import rules as cardrules
from referee.games.cards.deck import BLUE, KEY
from referee.games.cards.table import CardTable
from referee.games.faceoff.flow import Draft, Flow, Frame, frame_but
from referee.games.faceoff.fold import evolve
from referee.games.faceoff.state import RENEGADE, Char, State, replace

Move = dict[str, Any]
#: frames that wait for a move: BANG!'s card windows, and Kit Carlson's keep (FO50)
PROMPTS = frozenset(cardrules.WINDOW_RULE) | {"kit"}
#: the resignation (FO58), in every awaited seat's legal moves
RESIGN_MOVE: Move = {"type": RESIGN}


class TurnEnds(Exception):
    """The active character's turn is over at once."""


class GameOver(Exception):
    """``game_over`` was emitted: nothing else happens (FO47)."""


def refuse(code: str, rule: str, detail: str) -> IllegalMove:
    return IllegalMove(code, rule=rule, detail=detail)


def top_prompt(stack: tuple[Frame, ...] | list[Frame]) -> Frame | None:
    """The open window on top of the agenda, if a move is awaited for one (FO31)."""
    return stack[-1] if stack and stack[-1].kind in PROMPTS else None


class Ctx(CardTable[State]):
    """The engine's ``Decision`` on the board: events emitted so far, folded
    at once, and the table's generator; the flow is written at the end
    (``flush``): ``flow`` its fields as this decision changes them, but for
    the agenda, ``stack``. Neither is ever part of a state."""

    holder_key = "char"

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, evolve, rng)
        self.stack: list[Frame] = list(state.flow.stack)
        self.flow = Draft(state.flow)
        #: the window closed last (a shot reopened, a dying character's credit)
        self.closed: Frame | None = None

    def written(self) -> Flow:
        """The flow as this decision has left it so far."""
        return self.flow.frozen(self.stack)

    def emit(self, type_: str, data: Mapping[str, Any] | None = None, /, **fields: Any) -> State:
        """Record one event and fold it; Suzy Lafayette draws as soon as her hand becomes
        empty (R74, FO53), unless it is emptied by her elimination."""
        before = self.state
        d = fields if data is None else data  # ``Decision.emit`` inlined: every event of the game passes here
        ev = Event(type_, d)
        self.events.append(ev)
        after: State = evolve(before, ev)
        self.state = after
        if after.chars is before.chars:  # no character changed: no hand was emptied
            return after
        alive = type_ != "cards_inherited" and not (type_ == "card_discarded" and d["reason"] == "eliminated")
        for i, ch in enumerate(after.chars):
            if ch is not before.chars[i] and cardrules.suzy_draws(before.chars[i], ch, alive):
                self.draw(i, 1, "suzy_lafayette")
        return self.state

    def flush(self) -> None:
        old = self.state.flow
        if self.flow.same_as(old) and tuple(self.stack) == old.stack:
            return
        now = self.written()  # folded as ``evolve`` folds it: ``Flow.from_json`` of its JSON is ``now``
        self.emit_folded("flow", {"flow": now.to_json()}, replace(self.state, flow=now))

    def viewers(self, char: int) -> list[int]:
        """The seats that may see character ``char``'s hand now (FO57)."""
        if char != RENEGADE:
            return [self.state.owner(char)]
        f = self.flow
        if f.active == RENEGADE and f.controller >= 0 and f.phase not in ("bid", "place"):
            return [f.controller]
        return []

    def credit_of(self, responsible: int) -> int:
        """The seat controlling the responsible character now (FO45), -1 for none."""
        if responsible < 0:
            return -1
        if responsible != RENEGADE:
            return self.state.owner(responsible)
        f = self.flow
        if f.active == RENEGADE:
            return f.controller
        return self.state.owner(1 - f.active)

    def reshuffle(self, deck: str) -> bool:
        pile = self.state.brown_discard if deck == "brown" else self.state.blue_discard
        if not pile:
            return False
        self.emit("deck_reshuffled", {"deck": deck, "order": self.rng.shuffle(list(pile))})
        return True

    def draw(self, char: int, count: int, reason: str, deck: str = "brown") -> list[str]:
        """Draw ``count`` cards into ``char``'s hand, one event per batch: when the deck
        runs out its discard pile is shuffled into a new one and the drawing goes
        on; what cannot be drawn is not (R59; FO24, FO25: each deck on its own)."""
        got: list[str] = []
        while count > 0:
            pile = self.state.brown if deck == "brown" else self.state.blue
            if not pile:
                if not self.reshuffle(deck):
                    break
                continue
            cards = list(pile[:count])
            count -= len(cards)
            got.extend(cards)
            self.emit("cards_drawn", {"char": char, "cards": cards, "count": len(cards), "from": deck,
                                      "reason": reason, "seen_by": self.viewers(char)})
        return got

    def top_brown(self) -> str | None:
        if not self.state.brown:
            self.reshuffle("brown")
        return self.state.brown[0] if self.state.brown else None

    def heal(self, char: int, amount: int) -> None:
        ch = self.state.chars[char]
        gain = min(amount, ch.max_life - ch.life)
        if gain > 0:
            self.emit("life_changed", {"char": char, "kind": "gain", "amount": gain})

    def reveal(self, who: int, reason: str, count: int, seen_by: list[int] | None) -> list[str]:
        """Turn up to ``count`` cards of the brown deck into the limbo (FO26, FO50, R42)."""
        cards: list[str] = []
        for _ in range(count):
            top = self.top_brown()
            if top is None:
                break
            data: dict[str, Any] = {"char": who, "cards": [top], "reason": reason}
            if seen_by is not None:
                data["seen_by"] = seen_by
            self.emit("cards_revealed", data)
            cards.append(top)
        return cards

    def window(self) -> cardrules.Window:
        """The open window on top of the agenda as the card engine reads it (R43)."""
        f = self.stack[-1]
        return cardrules.Window(f.kind, f.char, f.src, f.other, f.needed, f.misses, f.played)

    def order(self, first: int) -> tuple[int, int, int]:
        """FO22: Indians!, Gatling and Saloon reach both others and the Renegade, from ``first``."""
        return first, (first + 1) % 3, (first + 2) % 3

    def count_bang(self, effect: cardrules.CountBang) -> None:
        pass  # FO18: no BANG! limit

    def card_played(self, effect: cardrules.PlayCard) -> None:
        card = effect.card
        data: dict[str, Any] = {"char": effect.who, **cardrules.played(card, effect.target, effect.pick)}
        if card in BLUE:
            data["to"] = effect.target if KEY[card] == "JAIL" else effect.who
        self.emit("card_played", data)

    def holder(self, who: int) -> Char:
        return self.state.chars[who]

    def taken_extra(self, who: int, zone: str) -> dict[str, Any]:
        """Who may see the card taken (FO57): a hand's, its taker's viewers; a card in play, both."""
        return {"seen_by": self.viewers(who) if zone == "hand" else [0, 1]}

    def drawn(self, effect: cardrules.Draw) -> None:
        self.draw(effect.who, effect.n, effect.reason)

    def healed(self, effect: cardrules.Heal) -> None:
        self.heal(effect.who, effect.amount)

    def general_store(self, effect: cardrules.OpenStore) -> None:
        """FO26: three cards; the player, his opponent, then the Renegade."""
        who = effect.who
        self.reveal(who, "general_store", 3, [0, 1])
        if who == RENEGADE:  # seed §13 (the authority over FO26's ruling): the last card always to the Renegade
            mine = self.state.own_char(self.credit_of(RENEGADE))
            order = [RENEGADE, 1 - mine, RENEGADE]
        else:
            order = [who, 1 - who, RENEGADE]
        store_next(self, order)

    def open_shot(self, effect: cardrules.OpenShot) -> None:
        # the card key in lower snake case (issue 24: one vocabulary), ``cardrules`` passes BANG!'s ``KEY``
        self.stack.append(Frame("shot", effect.target, effect.src, effect.key.lower(), effect.needed))

    def open_duel(self, effect: cardrules.OpenDuel) -> None:
        self.stack.append(Frame("duel", effect.target, effect.src, other=effect.other))

    def open_multi(self, effect: cardrules.OpenMulti) -> None:
        self.stack.append(Frame("multi", src=effect.src, key=effect.key.lower(), targets=effect.targets))

    def close_dying(self, effect: cardrules.CloseDying) -> None:
        st = self.stack
        if st and st[-1].kind == "dying" and st[-1].char == effect.who and self.state.chars[effect.who].life >= 1:
            st.pop()

    def close_window(self, effect: cardrules.CloseWindow) -> None:
        self.closed = self.stack.pop()

    def reopen(self, effect: cardrules.Reopen) -> None:
        raw = self.closed
        if raw is not None:
            self.stack.append(frame_but(raw, misses=effect.misses, played=effect.played) if raw.kind == "shot" else raw)

    def answered(self, effect: cardrules.Answer) -> None:
        kind = effect.kind
        if kind == "dying":
            self.emit("card_played", {"char": effect.who, "card": effect.card})
        else:
            self.emit("card_discarded", {"char": effect.who, "cards": [effect.card],
                                         "reason": "missed" if kind == "shot" else kind})

    def turned_up(self, effect: cardrules.TurnUp) -> list[str]:
        """The cards a "draw!" turns, from the brown deck (FO24): Lucky Duke's two face up into
        the limbo (R42), else its top card (it leaves the deck when checked, R41)."""
        if effect.n == 2:
            return self.reveal(effect.who, "lucky_duke", 2, None)
        top = self.top_brown()
        return [top] if top is not None else []

    def open_lucky(self, effect: cardrules.OpenLucky) -> None:
        self.stack.append(Frame("lucky", effect.who, purpose=effect.purpose))

    def checked(self, effect: cardrules.Checked) -> None:
        if effect.cards is None:
            self.emit("draw_checked", {"char": effect.who, "card": effect.card, "reason": effect.purpose})
        else:
            self.emit("draw_checked", {"char": effect.who, "card": effect.card, "reason": effect.purpose,
                                       "from": "limbo", "cards": list(effect.cards)})


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
