"""What a card does (R21–R40, R61, R64, R72), an answer or a pass does to
its window (R24, R34, R44, R46, R48) and a "draw!" (R41, R42), on any
table: the ruleset's decision context, through ``CardTable``; part of
``rules``."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, Protocol

from referee.engine.rng import Rng
from referee.games.cards.characters import BART_CASSIDY, EL_GRINGO
from referee.games.cards.core import Holder, Move, check_cards, plays_as_bang, shots_needed
from referee.games.cards.deck import KEY, WEAPON_OF


class Window(NamedTuple):
    """An open window as the card engine reads it (R43): its ``kind``, who
    answers it, who played the card that opened it, the other duellist, and
    a shot's counters."""

    kind: str
    who: int
    src: int = -1
    other: int = -1
    needed: int = 1
    misses: int = 0
    played: int = 0


class CardTable(Protocol):
    """What a ruleset's decision context offers the card engine's effects:
    its characters, its events and its agenda. A window is the ruleset's own
    agenda frame (``raw``); ``read`` gives the engine its ``Window``."""

    rng: Rng

    def holder(self, i: int) -> Holder:
        """Character ``i`` now."""

    def around(self, i: int, include: bool) -> list[int]:
        """Every character in the game in play order from ``i`` (R45; ``include``: ``i`` first)."""

    def banged(self) -> None:
        """A BANG! was played: count it against the limit (R18)."""

    def card_played(self, who: int, card: str, target: int | None, pick: str | None) -> None:
        """``card`` leaves ``who``'s hand: to the discard, or in play (R21, R22)."""

    def discard(self, who: int, cards: list[str], reason: str) -> None:
        """``cards`` from ``who``'s hand or play to the discard."""

    def take(self, who: int, frm: int, card: str, zone: str, reason: str) -> None:
        """``who`` takes ``card`` from ``frm``'s ``zone`` (``hand`` | ``in_play``) into his hand."""

    def draw(self, who: int, k: int, reason: str) -> list[str]:
        """``who`` draws ``k`` cards (R59)."""

    def heal(self, who: int, amount: int) -> None:
        """``who`` regains up to ``amount`` life, never past his maximum (R25)."""

    def beer_heals(self) -> bool:
        """Whether a Beer gives life now (R25: not with two players left; FO23: always)."""

    def general_store(self, who: int) -> None:
        """Turn the cards up and open the picks (R29; FO26: three, in the board's order)."""

    def open_shot(self, target: int, src: int, key: str, needed: int) -> None:
        """A shot window for ``target`` (R44)."""

    def open_duel(self, target: int, other: int, src: int) -> None:
        """A Duel's turn to answer: ``target``, against ``other``; ``src`` played it (R32, R46)."""

    def open_multi(self, src: int, key: str, targets: list[int]) -> None:
        """Gatling or Indians!: one window per target, in order (R33, R34, R45)."""

    def close_dying(self, who: int) -> None:
        """Close ``who``'s dying window if it is open and he is back to 1 life or more (R48)."""

    def close_window(self) -> Any:
        """Take the open window off the agenda; its frame."""

    def read(self, raw: Any) -> Window:
        """The engine's reading of a window frame."""

    def reopen(self, raw: Any, misses: int, played: int) -> None:
        """Put the window back, a shot with these counters (R44, R73), a dying window as it was (R48)."""

    def answered(self, who: int, card: str, kind: str) -> None:
        """``card`` from ``who``'s hand answers a ``kind`` window: it is spent (R24, R32, R34, R48)."""

    def take_hit(self, who: int, amount: int, by: int, src: int) -> None:
        """``who`` loses ``amount`` life; ``by`` is responsible, ``src`` played the card (R47, R50)."""

    def die(self, who: int, raw: Any) -> None:
        """Nobody saved ``who`` in his dying window ``raw``: he is out (R51; FO40)."""

    def top_card(self) -> str | None:
        """The card a "draw!" turns: the top of the deck, reshuffled first if empty (R41, R59)."""

    def turn_up(self, who: int, k: int) -> list[str]:
        """Up to ``k`` cards off the deck, face up into the limbo, for Lucky Duke's choice (R42)."""

    def open_lucky(self, who: int, purpose: str) -> None:
        """A window where Lucky Duke chooses one of the limbo's cards for ``purpose`` (R42)."""

    def checked(self, who: int, purpose: str, card: str, cards: list[str] | None) -> None:
        """``card`` decides ``who``'s "draw!": off the deck (``cards`` None) or
        the chosen one of the limbo's ``cards`` (it last); all go to the discard (R41, R42)."""


def played(card: str, target: int | None, pick: str | None) -> dict[str, Any]:
    """The card, target and pick of a ``card_played`` event (the ruleset adds who played it)."""
    data: dict[str, Any] = {"card": card}
    if target is not None:
        data["target"] = target
    if pick is not None:
        data["pick"] = pick
    return data


def play_card(t: CardTable, who: int, move: Move) -> None:
    """What a card played in phase 2 does (R21–R40): ``move`` is a legal ``play``."""
    card = move["card"]
    target: int = move.get("target", -1)
    p = t.holder(who)
    k = KEY[card]
    if plays_as_bang(p, card):
        t.banged()
        t.card_played(who, card, target, None)
        t.open_shot(target, who, k, shots_needed(p))
        return
    if card in WEAPON_OF:  # R20: the weapon in play is replaced
        old = next((c for c in p.in_play if c in WEAPON_OF), None)
        if old is not None:
            t.discard(who, [old], "replaced")
    t.card_played(who, card, target if target >= 0 else None, move.get("pick"))
    effect = _EFFECTS.get(k)
    if effect is not None:  # a blue card's effect is its being in play (R21)
        effect(t, who, target, move)


def _beer(t: CardTable, who: int, target: int, move: Move) -> None:
    """R25: a Beer gives one life, where Beer heals."""
    if t.beer_heals():
        t.heal(who, 1)


def _saloon(t: CardTable, who: int, target: int, move: Move) -> None:
    """R26: every character in the game regains a life."""
    for q in t.around(who, True):
        t.heal(q, 1)


def _stagecoach(t: CardTable, who: int, target: int, move: Move) -> None:
    """R27: draw two cards."""
    t.draw(who, 2, "stagecoach")


def _wells_fargo(t: CardTable, who: int, target: int, move: Move) -> None:
    """R28: draw three cards."""
    t.draw(who, 3, "wells_fargo")


def _general_store(t: CardTable, who: int, target: int, move: Move) -> None:
    """R29: cards turned up, one picked by each in turn."""
    t.general_store(who)


def _taken(t: CardTable, target: int, pick: str) -> tuple[str, str]:
    """The card Panic! or Cat Balou takes and its zone: one of the target's
    hand at random, or the card in play picked (R30, R31)."""
    if pick == "hand":
        hand = t.holder(target).hand
        return hand[t.rng.below(len(hand))], "hand"
    return pick, "in_play"


def _panic(t: CardTable, who: int, target: int, move: Move) -> None:
    """R30: take a card from a character at distance 1."""
    taken, zone = _taken(t, target, move["pick"])
    t.take(who, target, taken, zone, "panic")


def _cat_balou(t: CardTable, who: int, target: int, move: Move) -> None:
    """R31: a character discards a card."""
    taken, zone = _taken(t, target, move["pick"])
    t.discard(target, [taken], "cat_balou")


def _duel(t: CardTable, who: int, target: int, move: Move) -> None:
    """R32: the target answers first."""
    t.open_duel(target, who, who)


def _gatling(t: CardTable, who: int, target: int, move: Move) -> None:
    """R33: a shot at every other character, in play order."""
    t.open_multi(who, "GATLING", t.around(who, False))


def _indians(t: CardTable, who: int, target: int, move: Move) -> None:
    """R34: every other character answers with a BANG! or is hit, in play order."""
    t.open_multi(who, "INDIANS", t.around(who, False))


#: card key -> what it does once played, beyond going to the discard or in play
_EFFECTS: dict[str, Callable[[CardTable, int, int, Move], None]] = {
    "BEER": _beer, "SALOON": _saloon, "STAGECOACH": _stagecoach, "WELLSFARGO": _wells_fargo,
    "GENERALSTORE": _general_store, "PANIC": _panic, "CATBALOU": _cat_balou, "DUEL": _duel,
    "GATLING": _gatling, "INDIANS": _indians,
}


def sid(t: CardTable, who: int, cards: list[str]) -> None:
    """Sid Ketchum discards two cards and regains one life (R72); a dying
    window closes at life ≥ 1 (R48)."""
    t.discard(who, list(cards), "sid_ketchum")
    t.heal(who, 1)
    t.close_dying(who)


def after_hit(t: CardTable, who: int, src: int, amount: int) -> None:
    """What a hit character does next (R50): Bart Cassidy draws one card per
    life lost (R61); El Gringo takes one random card per life lost from the
    hand of the one who hit him (R64)."""
    p = t.holder(who)
    if p.character == BART_CASSIDY:
        t.draw(who, amount, "bart_cassidy")
    elif p.character == EL_GRINGO and src >= 0 and src != who:
        for _ in range(amount):
            hand = t.holder(src).hand
            if not hand:
                break
            t.take(who, src, hand[t.rng.below(len(hand))], "hand", "el_gringo")


def respond(t: CardTable, who: int, card: str) -> None:
    """A card answers the open window (``window_moves`` offered it): a Missed!
    counts against the shot, which stays open until it has the misses it needs
    (R24, R73); a BANG! answers Indians! (R34) or passes the Duel to the other
    duellist (R46); a Beer in the dying window gives a life where Beer heals,
    and the window stays open below 1 life (R48, R49)."""
    raw = t.close_window()
    w = t.read(raw)
    t.answered(who, card, w.kind)
    if w.kind == "shot":
        if w.misses + 1 < w.needed:
            t.reopen(raw, w.misses + 1, w.played + 1)
    elif w.kind == "duel":
        t.open_duel(w.other, who, w.src)
    elif w.kind == "dying":
        if t.beer_heals():
            t.heal(who, 1)
        if t.holder(who).life < 1:
            t.reopen(raw, w.misses, w.played)


def pass_(t: CardTable, who: int) -> None:
    """Nobody answers the open window: the shot or Indians! hits (R44, R34),
    the duellist who passes loses a life to the other (R46), the dying
    character is out (R48, R51)."""
    raw = t.close_window()
    w = t.read(raw)
    if w.kind == "shot" or w.kind == "indians":
        t.take_hit(who, 1, w.src, w.src)
    elif w.kind == "duel":
        t.take_hit(who, 1, w.other, w.src)
    else:
        t.die(who, raw)


Apply = Callable[[Any, int, str, "str | None"], None]


def check(t: CardTable, who: int, purpose: str, apply: Apply) -> None:
    """``who`` "draws!" for ``purpose`` (``dynamite`` | ``jail`` |
    ``barrel[:source]``): the top card decides and is discarded (R41); Lucky
    Duke turns two and chooses one — a ``lucky`` window — unless fewer than
    two could be turned (R42). ``apply(t, who, purpose, card)`` is the table's
    own consequence (``check_succeeds`` says whether the card succeeds); no
    card at all: ``card`` None (R41's ruling)."""
    card: str | None
    if check_cards(t.holder(who)) == 2:
        cards = t.turn_up(who, 2)
        if len(cards) == 2:
            t.open_lucky(who, purpose)
            return
        card = cards[0] if cards else None
        if card is not None:
            t.checked(who, purpose, card, [card])
    else:
        card = t.top_card()
        if card is not None:
            t.checked(who, purpose, card, None)
    apply(t, who, purpose, card)


def lucky_choice(t: CardTable, who: int, purpose: str, card: str, limbo: Iterable[str], apply: Apply) -> None:
    """Lucky Duke chose ``card`` of the two in the limbo: it decides, both go to the discard (R42)."""
    t.checked(who, purpose, card, [c for c in limbo if c != card] + [card])
    apply(t, who, purpose, card)
