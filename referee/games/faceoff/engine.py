"""The decision context on the board (the engine's ``Decision``): emits
events, folds them at once, and offers the primitives of drawing and healing (FO24, FO25, FO23); the control-flow
signals of a turn ending at once (FO19, FO44) and of the game's end (FO47).

A ``Ctx`` lives for one decision (or the setup): rules call ``emit`` and
read ``ctx.state``, the fold of the events emitted so far. The flow's fields
(``ctx.flow``, a mutable ``flow.Draft``) and its agenda (``ctx.stack``) are
kept aside and written once, as the closing ``flow`` event (``flush``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import Decision
from referee.engine.platform import RESIGN
from referee.engine.protocol import Event, IllegalMove
from referee.engine.rng import Rng
from referee.games.cards import rules as cardrules
from referee.games.faceoff.flow import Draft, Flow, Frame
from referee.games.faceoff.state import RENEGADE, State, evolve, replace

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


class Ctx(Decision[State]):
    """The engine's ``Decision`` on the board: events emitted so far, folded
    at once, and the table's generator; the flow is written at the end
    (``flush``): ``flow`` its fields as this decision changes them, but for
    the agenda, ``stack``. Neither is ever part of a state."""

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, evolve)
        self.rng = rng
        self.stack: list[Frame] = list(state.flow.stack)
        self.flow = Draft(state.flow)

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

    def viewers(self, c: int) -> list[int]:
        """The seats that may see character ``c``'s hand now (FO57)."""
        if c != RENEGADE:
            return [self.state.owner(c)]
        f = self.flow
        if f.active == RENEGADE and f.controller >= 0 and f.phase not in ("bid", "place"):
            return [f.controller]
        return []

    def credit_of(self, by: int) -> int:
        """The seat controlling the responsible character now (FO45), -1 for none."""
        if by < 0:
            return -1
        if by != RENEGADE:
            return self.state.owner(by)
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

    def draw(self, c: int, k: int, reason: str, deck: str = "brown") -> list[str]:
        """Draw ``k`` cards into ``c``'s hand, one event per batch: when the deck
        runs out its discard pile is shuffled into a new one and the drawing goes
        on; what cannot be drawn is not (R59; FO24, FO25: each deck on its own)."""
        got: list[str] = []
        while k > 0:
            pile = self.state.brown if deck == "brown" else self.state.blue
            if not pile:
                if not self.reshuffle(deck):
                    break
                continue
            cards = list(pile[:k])
            k -= len(cards)
            got.extend(cards)
            self.emit("cards_drawn", {"char": c, "cards": cards, "count": len(cards), "from": deck,
                                      "reason": reason, "seen_by": self.viewers(c)})
        return got

    def top_brown(self) -> str | None:
        if not self.state.brown:
            self.reshuffle("brown")
        return self.state.brown[0] if self.state.brown else None

    def heal(self, c: int, amount: int) -> None:
        ch = self.state.chars[c]
        gain = min(amount, ch.max_life - ch.life)
        if gain > 0:
            self.emit("life_changed", {"char": c, "kind": "gain", "amount": gain})

    def reveal(self, who: int, reason: str, k: int, seen_by: list[int] | None) -> list[str]:
        """Turn up to ``k`` cards of the brown deck into the limbo (FO26, FO50, R42)."""
        cards: list[str] = []
        for _ in range(k):
            top = self.top_brown()
            if top is None:
                break
            data: dict[str, Any] = {"char": who, "cards": [top], "reason": reason}
            if seen_by is not None:
                data["seen_by"] = seen_by
            self.emit("cards_revealed", data)
            cards.append(top)
        return cards
