"""The decision context at a BANG! table (the engine's ``Decision``,
``Ctx``): it applies the card engine's effects (``cardrules.Effect``, one
method each; ``flow.apply_effects`` dispatches them) in BANG!'s events and
on its agenda, and offers the primitives every rule is made of — drawing
(R59), hits (R47), elimination (R51–R54, the end check: ``ending.py``,
R55–R58, R82) and resigning (R85).

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
from referee.games.bang.ending import end_result
from referee.games.bang.fold import EVOLVE
from referee.games.bang.prompts import awaiting
from referee.games.bang.roles import DEPUTY, OUTLAW, SHERIFF
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
        before = self.state
        payload = fields if data is None else data  # ``Decision.emit`` inlined: every event of the game passes here
        self.events.append(Event(type_, payload))
        self.state = after = EVOLVE[type_](before, payload)
        seat = before.suzy
        if seat >= 0:
            suzy = after.players[seat]
            if cardrules.suzy_draws(before.players[seat], suzy, suzy.alive):
                self.draw(seat, 1, "suzy_lafayette")
        return self.state

    def reshuffle(self) -> bool:
        """The discard pile becomes the deck, shuffled (R59). False if empty."""
        pile = self.state.discard
        if not pile:
            return False
        self.emit("deck_reshuffled", {"deck": self.rng.shuffle(pile)})
        if any(f.card in KEY for f in self.stack):  # a window's card is in the deck now, out of sight (R83):
            self.stack[:] = [frame._replace(card=KEY[frame.card].lower()) if frame.card in KEY else frame
                             for frame in self.stack]
        return True

    def _take(self, count: int, seat: Seat, type_: str, reason: str) -> list[str]:
        """Up to ``count`` cards off the top of the deck, one event per batch: when
        it runs out the discard pile is shuffled into a new deck and the taking
        goes on; what cannot be taken is not (R59)."""
        got: list[str] = []
        while count > 0:
            deck = self.state.deck
            if not deck:
                if not self.reshuffle():
                    break
                continue
            cards = list(deck[:count])
            count -= len(cards)
            got.extend(cards)
            self.emit(type_, {"seat": seat, "cards": cards, "reason": reason})
        return got

    def draw(self, seat: Seat, count: int, reason: str) -> list[str]:
        """Draw ``count`` cards from the deck into the hand (R59: lazily reshuffled;
        what cannot be drawn is not drawn)."""
        return self._take(count, seat, "cards_drawn", reason)

    def reveal(self, seat: Seat, count: int, reason: str) -> list[str]:
        """Turn up to ``count`` deck cards into the limbo (R29, R42, R67)."""
        return self._take(count, seat, "cards_revealed", reason)

    def heal(self, seat: Seat, amount: int) -> None:
        player = self.state.players[seat]
        gain = min(amount, player.max_life - player.life)
        if gain > 0:
            self.emit("life_gained", {"seat": seat, "amount": gain})

    # --- the card engine's effects at this table (``flow.apply_effects`` applies them) ---------------------

    def window(self) -> cardrules.Window:
        """The open window on top of the agenda as the card engine reads it (R43)."""
        top = self.stack[-1]
        return cardrules.Window(top.kind, top.seat, top.src, top.other, top.needed, top.misses, top.played)

    def beer_heals(self) -> bool:
        return alive_count(self.state) > 2  # R25

    def count_bang(self, effect: cardrules.CountBang) -> None:
        self.bangs += 1  # R18

    def card_played(self, effect: cardrules.PlayCard) -> None:
        self.played = effect.card
        self.emit("card_played", {"seat": effect.who, **cardrules.played(effect.card, effect.target, effect.pick)})

    def holder(self, who: int) -> Player:
        return self.state.players[who]

    def drawn(self, effect: cardrules.Draw) -> None:
        self.draw(effect.who, effect.n, effect.reason)

    def healed(self, effect: cardrules.Heal) -> None:
        self.heal(effect.who, effect.amount)

    def general_store(self, effect: cardrules.OpenStore) -> None:
        order = clockwise_from(self.state, effect.who, True)  # R29: one card per alive player, clockwise
        self.reveal(effect.who, len(order), "general_store")
        store_next(self, effect.who, order)

    def _card_of(self, key: str) -> str:
        """The card ID a window opened for ``key`` names: the Duel passed on
        (the window closed last), else the card just played. Once the card
        is shuffled into the deck (R59) the window names its kind only
        (``"gatling"``): where the card is is hidden (R83)."""
        closed = self.closed
        if closed is not None and KEY.get(closed.card, closed.card.upper()) == key:
            return closed.card
        return self.played if self.played in KEY and KEY[self.played] == key else key.lower()

    def open_shot(self, effect: cardrules.OpenShot) -> None:
        self.stack.append(Frame("shot", effect.target, src=effect.src, card=self._card_of(effect.key),
                                needed=effect.needed))

    def open_duel(self, effect: cardrules.OpenDuel) -> None:
        self.stack.append(Frame("duel", effect.target, other=effect.other, src=effect.src, card=self._card_of("DUEL")))

    def open_multi(self, effect: cardrules.OpenMulti) -> None:
        self.stack.append(Frame("multi", src=effect.src, card=self._card_of(effect.key), targets=effect.targets))

    def close_dying(self, effect: cardrules.CloseDying) -> None:
        who = effect.who
        top = self.stack[-1] if self.stack else None
        if top is not None and top.kind == "dying" and top.seat == who and self.state.players[who].life >= 1:
            self.stack.pop()

    def close_window(self, effect: cardrules.CloseWindow) -> None:
        self.closed = self.stack.pop()

    def reopen(self, effect: cardrules.Reopen) -> None:
        raw = self.closed
        if raw is not None:
            self.stack.append(raw._replace(misses=effect.misses, played=effect.played) if raw.kind == "shot" else raw)

    def answered(self, effect: cardrules.Answer) -> None:
        kind = effect.kind
        if kind == "shot" or kind == "dying":
            self.emit("card_played", {"seat": effect.who, "card": effect.card,
                                      "response": "missed" if kind == "shot" else "beer"})
        else:
            self.emit("card_discarded", {"seat": effect.who, "cards": [effect.card], "reason": kind})

    def take_hit(self, effect: cardrules.Hit) -> None:
        hit(self, effect.who, effect.amount, effect.by, effect.src)

    def die(self, effect: cardrules.Die) -> None:
        closed = self.closed
        eliminate(self, effect.who, closed.by if closed is not None else -1)

    def turned_up(self, effect: cardrules.TurnUp) -> list[str]:
        """The cards a "draw!" turns (R41, R59): Lucky Duke's two face up into the limbo (R42),
        else the top of the deck, reshuffled first if empty (it leaves the deck when checked)."""
        if effect.n == 2:
            return self.reveal(effect.who, 2, "lucky_duke")
        if not self.state.deck:
            self.reshuffle()
        deck = self.state.deck
        return [deck[0]] if deck else []

    def open_lucky(self, effect: cardrules.OpenLucky) -> None:
        self.stack.append(Frame("lucky", effect.who, purpose=effect.purpose))

    def checked(self, effect: cardrules.Checked) -> None:
        cards = effect.cards
        self.emit("draw_checked", {"seat": effect.who, "cards": [effect.card] if cards is None else list(cards),
                                   "card": effect.card, "reason": effect.purpose.split(":")[0],
                                   "from": "deck" if cards is None else "limbo"})

    def finish(self) -> None:
        """Write the agenda, phase and BANG! count if they changed."""
        state = self.state
        stack = tuple(self.stack)
        old = state.stack
        same = len(stack) == len(old) and all(new is kept for new, kept in zip(stack, old))
        if not same or self.phase != state.phase or self.bangs != state.bangs:
            self.emit_folded("awaiting", awaiting(state.turn, self.phase, self.bangs, stack),
                             but(state, phase=self.phase, bangs=self.bangs, stack=stack))


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
    return sum(1 for player in state.players if player.alive)


def hit(ctx: Ctx, seat: Seat, amount: int, credited: Seat, src: Seat) -> None:
    """One hit of ``amount`` life points (R47); ``credited`` is responsible (R52;
    -1: nobody), ``src`` played the card (El Gringo, R64). A dying window opens
    at life ≤ 0 (R48); after-hit abilities follow it (R50)."""
    ctx.emit("life_lost", {"seat": seat, "amount": amount, "by": credited if credited >= 0 else None})
    ctx.stack.append(Frame("after_hit", seat, src=src, amount=amount))
    if ctx.state.players[seat].life <= 0:
        ctx.stack.append(Frame("dying", seat, by=credited))


def eliminate(ctx: Ctx, seat: Seat, credited: Seat) -> None:
    """R51: dead and revealed; cards to Vulture Sam or the discard pile (hand
    in the order received, then in play in the order played); penalty or
    reward (``credited``: the killer, -1 for none); end check; the active
    player's turn ends."""
    victim = ctx.state.players[seat]
    ctx.emit("player_eliminated", {"seat": seat, "role": victim.role, "by": credited if credited >= 0 else None})
    _leave_cards(ctx, victim)
    state = ctx.state
    if credited >= 0 and credited != seat and state.players[credited].alive:
        _reward_or_penalty(ctx, victim, state.players[credited])
    result = end_result(ctx.state, seat, credited)
    if result is not None:
        ctx.emit("game_over", {"result": result})
        raise GameOver
    if seat == ctx.state.turn:
        raise TurnEnds


def _leave_cards(ctx: Ctx, victim: Player) -> None:
    """R51 step 2, R75: the eliminated one's cards go to Vulture Sam, alive, else to the discard pile."""
    if not victim.hand and not victim.in_play:
        return
    vulture = ctx.state.vulture
    if vulture >= 0 and vulture != victim.seat and ctx.state.players[vulture].alive:
        ctx.emit("cards_inherited", {"seat": vulture, "from": victim.seat, "hand": list(victim.hand),
                                     "in_play": list(victim.in_play)})
    else:
        ctx.emit("card_discarded", {"seat": victim.seat, "cards": list(victim.hand + victim.in_play),
                                    "reason": "eliminated"})


def _reward_or_penalty(ctx: Ctx, victim: Player, killer: Player) -> None:
    """R54, R82: whoever kills an Outlaw (anyone, in the 3-player game) draws 3;
    R53: the Sheriff who kills a Deputy discards all his cards."""
    if ctx.state.three_player or victim.role == OUTLAW:
        ctx.draw(killer.seat, 3, "reward")
    elif victim.role == DEPUTY and killer.role == SHERIFF:
        cards = killer.hand + killer.in_play
        if cards:
            ctx.emit("card_discarded", {"seat": killer.seat, "cards": list(cards), "reason": "penalty"})


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
    credited = -1
    if stack and stack[-1].seat == seat and stack[-1].kind in RESIGNABLE:
        closed = stack.pop()
        if closed.kind == "dying":
            credited = closed.by
    stack[:] = [frame for frame in stack if not (frame.kind == "duel" and seat in (frame.seat, frame.other))]
    ctx.emit("player_resigned", {"seat": seat})
    eliminate(ctx, seat, credited)
