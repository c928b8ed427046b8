"""The decision context at a BANG! table (the engine's ``Decision``,
``Ctx``): it applies the card engine's effects (``cardrules.Effect``, one
method each; ``flow.apply_effects`` dispatches them) in BANG!'s events and
on its agenda, and offers the primitives every rule is made of — drawing
(R59), hits (R47), elimination (R51–R54) and the end of the game (R55–R58,
R82).

A ``Ctx`` lives for one ``decide`` (or ``setup``): rules call ``emit`` and
read ``ctx.state``, which is always the fold of the events emitted so far.
The agenda (``ctx.stack``), ``phase`` and ``bangs`` are kept aside and
written once, as the closing ``awaiting`` event.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.decision import by_table
from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.games.bang.fold import EVOLVE
from referee.games.bang.prompts import awaiting
from referee.games.bang.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF, TARGET_3P
from referee.games.bang.state import Frame, Player, Seat, State, but, clockwise_from
from referee.games.cards import rules as cardrules
from referee.games.cards.deck import KEY
from referee.games.cards.table import CardTable

_FOLD = by_table(EVOLVE)


class GameOver(Exception):
    """Raised after ``game_over`` was emitted: nothing else happens (R51 step 4)."""


class TurnEnds(Exception):
    """The active player's turn is over at once (R9, R12, R51 step 6)."""


class Ctx(CardTable[State]):
    """The engine's ``Decision`` at a BANG! table: the events emitted so far
    and the state they fold to, the table's generator, and the agenda,
    phase and BANG! count, written once at the end (``finish``)."""

    __slots__ = ("stack", "phase", "bangs", "played", "closed")
    holder_key = "seat"

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, _FOLD, rng)
        self.stack: list[Frame] = list(state.stack)
        self.phase = state.phase
        self.bangs = state.bangs
        #: the card ID played last in this decision, and the window closed last: the card a window
        #: opened for names (the agenda's ``card``; ``cardrules`` passes its key only)
        self.played = ""
        self.closed: Frame | None = None

    def emit(self, type_: str, data: Mapping[str, Any] | None = None, /, **fields: Any) -> State:
        """Record one event and fold it; Suzy Lafayette draws as soon as her
        hand becomes empty (R74)."""
        s = self.state
        d = fields if data is None else data  # ``Decision.emit`` inlined: every event of the game passes here
        self.events.append(Event(type_, d))
        self.state = nxt = EVOLVE[type_](s, d)
        su = s.suzy
        if su >= 0:
            suzy = nxt.players[su]
            if cardrules.suzy_draws(s.players[su], suzy, suzy.alive):
                self.draw(su, 1, "suzy_lafayette")
        return self.state

    def reshuffle(self) -> bool:
        """The discard pile becomes the deck, shuffled (R59). False if empty."""
        pile = self.state.discard
        if not pile:
            return False
        self.emit("deck_reshuffled", {"deck": self.rng.shuffle(pile)})
        if any(f.card in KEY for f in self.stack):  # a window's card is in the deck now, out of sight (R83):
            self.stack[:] = [f._replace(card=KEY[f.card].lower()) if f.card in KEY else f for f in self.stack]
        return True

    def _take(self, k: int, seat: Seat, type_: str, reason: str) -> list[str]:
        """Up to ``k`` cards off the top of the deck, one event per batch: when
        it runs out the discard pile is shuffled into a new deck and the taking
        goes on; what cannot be taken is not (R59)."""
        got: list[str] = []
        while k > 0:
            deck = self.state.deck
            if not deck:
                if not self.reshuffle():
                    break
                continue
            cards = list(deck[:k])
            k -= len(cards)
            got.extend(cards)
            self.emit(type_, {"seat": seat, "cards": cards, "reason": reason})
        return got

    def draw(self, seat: Seat, k: int, reason: str) -> list[str]:
        """Draw ``k`` cards from the deck into the hand (R59: lazily reshuffled;
        what cannot be drawn is not drawn)."""
        return self._take(k, seat, "cards_drawn", reason)

    def reveal(self, seat: Seat, k: int, reason: str) -> list[str]:
        """Turn up to ``k`` deck cards into the limbo (R29, R42, R67)."""
        return self._take(k, seat, "cards_revealed", reason)

    def heal(self, seat: Seat, amount: int) -> None:
        p = self.state.players[seat]
        gain = min(amount, p.max_life - p.life)
        if gain > 0:
            self.emit("life_gained", {"seat": seat, "amount": gain})

    # --- the card engine's effects at this table (``flow.apply_effects`` applies them) ---------------------

    def window(self) -> cardrules.Window:
        """The open window on top of the agenda as the card engine reads it (R43)."""
        f = self.stack[-1]
        return cardrules.Window(f.kind, f.seat, f.src, f.other, f.needed, f.misses, f.played)

    def beer_heals(self) -> bool:
        return alive_count(self.state) > 2  # R25

    def count_bang(self, e: cardrules.CountBang) -> None:
        self.bangs += 1  # R18

    def card_played(self, e: cardrules.PlayCard) -> None:
        self.played = e.card
        self.emit("card_played", {"seat": e.who, **cardrules.played(e.card, e.target, e.pick)})

    def holder(self, who: int) -> Player:
        return self.state.players[who]

    def drawn(self, e: cardrules.Draw) -> None:
        self.draw(e.who, e.n, e.reason)

    def healed(self, e: cardrules.Heal) -> None:
        self.heal(e.who, e.amount)

    def general_store(self, e: cardrules.OpenStore) -> None:
        order = clockwise_from(self.state, e.who, True)  # R29: one card per alive player, clockwise
        self.reveal(e.who, len(order), "general_store")
        store_next(self, e.who, order)

    def _card_of(self, key: str) -> str:
        """The card ID a window opened for ``key`` names: the Duel passed on
        (the window closed last), else the card just played. Once the card
        is shuffled into the deck (R59) the window names its kind only
        (``"gatling"``): where the card is is hidden (R83)."""
        closed = self.closed
        if closed is not None and KEY.get(closed.card, closed.card.upper()) == key:
            return closed.card
        return self.played if self.played in KEY and KEY[self.played] == key else key.lower()

    def open_shot(self, e: cardrules.OpenShot) -> None:
        self.stack.append(Frame("shot", e.target, src=e.src, card=self._card_of(e.key), needed=e.needed))

    def open_duel(self, e: cardrules.OpenDuel) -> None:
        self.stack.append(Frame("duel", e.target, other=e.other, src=e.src, card=self._card_of("DUEL")))

    def open_multi(self, e: cardrules.OpenMulti) -> None:
        self.stack.append(Frame("multi", src=e.src, card=self._card_of(e.key), targets=e.targets))

    def close_dying(self, e: cardrules.CloseDying) -> None:
        who = e.who
        top = self.stack[-1] if self.stack else None
        if top is not None and top.kind == "dying" and top.seat == who and self.state.players[who].life >= 1:
            self.stack.pop()

    def close_window(self, e: cardrules.CloseWindow) -> None:
        self.closed = self.stack.pop()

    def reopen(self, e: cardrules.Reopen) -> None:
        raw = self.closed
        if raw is not None:
            self.stack.append(raw._replace(misses=e.misses, played=e.played) if raw.kind == "shot" else raw)

    def answered(self, e: cardrules.Answer) -> None:
        kind = e.kind
        if kind == "shot" or kind == "dying":
            self.emit("card_played", {"seat": e.who, "card": e.card,
                                      "response": "missed" if kind == "shot" else "beer"})
        else:
            self.emit("card_discarded", {"seat": e.who, "cards": [e.card], "reason": kind})

    def take_hit(self, e: cardrules.Hit) -> None:
        hit(self, e.who, e.amount, e.by, e.src)

    def die(self, e: cardrules.Die) -> None:
        closed = self.closed
        eliminate(self, e.who, closed.by if closed is not None else -1)

    def turned_up(self, e: cardrules.TurnUp) -> list[str]:
        """The cards a "draw!" turns (R41, R59): Lucky Duke's two face up into the limbo (R42),
        else the top of the deck, reshuffled first if empty (it leaves the deck when checked)."""
        if e.n == 2:
            return self.reveal(e.who, 2, "lucky_duke")
        if not self.state.deck:
            self.reshuffle()
        deck = self.state.deck
        return [deck[0]] if deck else []

    def open_lucky(self, e: cardrules.OpenLucky) -> None:
        self.stack.append(Frame("lucky", e.who, purpose=e.purpose))

    def checked(self, e: cardrules.Checked) -> None:
        cards = e.cards
        self.emit("draw_checked", {"seat": e.who, "cards": [e.card] if cards is None else list(cards),
                                   "card": e.card, "reason": e.purpose.split(":")[0],
                                   "from": "deck" if cards is None else "limbo"})

    def finish(self) -> None:
        """Write the agenda, phase and BANG! count if they changed."""
        s = self.state
        stack = tuple(self.stack)
        old = s.stack
        same = len(stack) == len(old) and all(a is b for a, b in zip(stack, old))
        if not same or self.phase != s.phase or self.bangs != s.bangs:
            self.emit_folded("awaiting", awaiting(s.turn, self.phase, self.bangs, stack),
                             but(s, phase=self.phase, bangs=self.bangs, stack=stack))


def store_next(ctx: Ctx, src: Seat, order: list[Seat] | tuple[Seat, ...]) -> None:
    """Next General Store chooser; the last card goes by itself (R29)."""
    limbo = ctx.state.limbo
    if not limbo or not order:
        return
    if len(limbo) == 1:
        ctx.emit("card_picked", {"seat": order[0], "card": limbo[0]})
        return
    ctx.stack.append(Frame("store", order[0], src=src, targets=tuple(order[1:])))


def alive_count(state: State) -> int:
    return sum(1 for p in state.players if p.alive)


def hit(ctx: Ctx, seat: Seat, amount: int, by: Seat, src: Seat) -> None:
    """One hit of ``amount`` life points (R47); ``by`` is credited (R52),
    ``src`` played the card (El Gringo, R64). A dying window opens at life
    ≤ 0 (R48); after-hit abilities follow it (R50)."""
    ctx.emit("life_lost", {"seat": seat, "amount": amount, "by": by if by >= 0 else None})
    ctx.stack.append(Frame("after_hit", seat, src=src, amount=amount))
    if ctx.state.players[seat].life <= 0:
        ctx.stack.append(Frame("dying", seat, by=by))


def eliminate(ctx: Ctx, seat: Seat, by: Seat) -> None:
    """R51: dead and revealed; cards to Vulture Sam or the discard pile (hand
    in the order received, then in play in the order played); penalty or
    reward; end check; the active player's turn ends."""
    p = ctx.state.players[seat]
    ctx.emit("player_eliminated", {"seat": seat, "role": p.role, "by": by if by >= 0 else None})
    vs = ctx.state.vulture
    if vs >= 0 and vs != seat and ctx.state.players[vs].alive:
        if p.hand or p.in_play:
            ctx.emit("cards_inherited", {"seat": vs, "from": seat, "hand": list(p.hand),
                                         "in_play": list(p.in_play)})
    elif p.hand or p.in_play:
        ctx.emit("card_discarded", {"seat": seat, "cards": list(p.hand + p.in_play),
                                    "reason": "eliminated"})
    s = ctx.state
    if by >= 0 and by != seat and s.players[by].alive:
        killer = s.players[by]
        if s.three_player or p.role == OUTLAW:
            ctx.draw(by, 3, "reward")  # R54, R82
        elif p.role == DEPUTY and killer.role == SHERIFF:
            cards = killer.hand + killer.in_play  # R53
            if cards:
                ctx.emit("card_discarded", {"seat": by, "cards": list(cards), "reason": "penalty"})
    result = end_result(ctx.state, seat, by)
    if result is not None:
        ctx.emit("game_over", {"result": result})
        raise GameOver
    if seat == ctx.state.turn:
        raise TurnEnds


#: a result's reason -> its sentence (the result's ``detail``; R55, R56, R82), filled with the winners
DETAILS: dict[str, str] = {
    "target_eliminated": "Seat {w} ({side}) eliminated its target and wins the 3-player game (R82).",
    "last_man_standing": "Seat {w} ({side}) is the last player alive in the 3-player game (R82).",
    "renegade_alone": "The Sheriff is dead and the Renegade, seat {w}, is the only one left: he wins alone (R55).",
    "sheriff_dead": "The Sheriff is dead: the Outlaws win, dead or alive (R55).",
    "outlaws_and_renegade_dead": "Every Outlaw and the Renegade are dead: the Sheriff and his Deputies win (R56).",
}


def result_detail(result: dict[str, Any]) -> str:
    """The sentence of a result (its ``reason`` and winners; R55, R56, R82)."""
    return DETAILS[result["reason"]].format(w=", ".join(map(str, result["winners"])), side=result["winning_side"])


#: the windows an awaited player may resign from (R85), besides his own phases 2 and 3; never the
#: General Store, Lucky Duke's or Kit Carlson's choice, which hold cards turned up for him
RESIGNABLE = frozenset({"shot", "indians", "duel", "dying", "draw_choice"})


def may_resign(state: State, seat: Seat) -> bool:
    """Whether the awaited ``seat`` may resign now (R85)."""
    top = state.top()
    if top is None:
        return seat == state.turn and state.phase in ("play", "discard")
    return top.seat == seat and top.kind in RESIGNABLE


def resign(ctx: Ctx, seat: Seat) -> None:
    """R85: the player leaves the game as if eliminated (R51): the window he
    answers closes (a Duel he is part of ends); a dying player's
    resignation is credited as his death would be (R52), any other to
    nobody; then the end check, and his turn ends if it was his."""
    stack = ctx.stack
    by = -1
    if stack and stack[-1].seat == seat and stack[-1].kind in RESIGNABLE:
        closed = stack.pop()
        if closed.kind == "dying":
            by = closed.by
    stack[:] = [f for f in stack if not (f.kind == "duel" and seat in (f.seat, f.other))]
    ctx.emit("player_resigned", {"seat": seat})
    eliminate(ctx, seat, by)


def _result(state: State, winners: list[Seat], reason: str, side: str) -> dict[str, Any]:
    won = set(winners)
    out: dict[str, Any] = {
        "winners": sorted(won),
        "seats": [{"seat": p.seat, "role": p.role, "outcome": "win" if p.seat in won else "loss",
                   "alive": p.alive} for p in state.players],
        "reason": reason,
        "winning_side": side,
    }
    out["detail"] = result_detail(out)
    return out


def end_result(state: State, victim: Seat, by: Seat) -> dict[str, Any] | None:
    """The result if the game is over after ``victim``'s elimination (R55–R57,
    R82), else None."""
    players = state.players
    alive = [p for p in players if p.alive]
    if state.three_player:
        if by >= 0 and players[by].alive and TARGET_3P[players[by].role] == players[victim].role:
            return _result(state, [by], "target_eliminated", players[by].role)
        if len(alive) == 1:
            return _result(state, [alive[0].seat], "last_man_standing", alive[0].role)
        return None
    sheriff = next(p for p in players if p.role == SHERIFF)
    if not sheriff.alive:
        if len(alive) == 1 and alive[0].role == RENEGADE:
            return _result(state, [alive[0].seat], "renegade_alone", "renegade")
        return _result(state, [p.seat for p in players if p.role == OUTLAW], "sheriff_dead", "outlaws")
    if not any(p.role in (OUTLAW, RENEGADE) for p in alive):
        return _result(state, [p.seat for p in players if p.role in (SHERIFF, DEPUTY)],
                       "outlaws_and_renegade_dead", "sheriff")
    return None
