"""What a card does (R21–R40, R61, R64, R72), what an answer or a pass does
to its window (R24, R34, R44, R46, R48) and what a "draw!" turns up (R41,
R42), on any table, returned as data; part of ``rules``.

Each function here reads only what it is given (a holder, the open
``Window``, the table's play order, whether Beer heals) and returns what
happens — a list of small frozen effects (named tuples, below), in the
order they happen. The ruleset's decision context applies them one by one
to its own state, in its own events and on its own agenda; the card engine
never calls back into it.

Most effects carry everything they need. A few are *steps the table
resolves* when it applies them, because what they act on is known only
then, after the effects before them have been applied:

* a card taken or discarded *at random* from a hand (Panic!, Cat Balou,
  El Gringo: ``card`` None, R30, R31, R64): the hand is the one at that
  moment (Suzy Lafayette may just have drawn, R74), and the table's
  generator draws in the same order as the events it records;
* ``CloseDying``: the dying window closes only if the character is back to
  1 life or more once healed (R48);
* ``TurnUp``: a "draw!"'s card(s) come off the table's own deck, reshuffled
  first if it is empty (R41, R59) — only the table knows that deck; it then
  asks ``turned`` what the cards do;
* ``Decide``: a "draw!"'s card decides a Barrel, Jail or Dynamite: the
  consequence is the table's own (R35, R38, R39; FO10, FO19 on the board);
* ``OpenStore``: how many cards the General Store turns up and who picks in
  which order is the table's (R29; FO26);
* ``Die``: an elimination is the table's own (R51; FO40).

What every table knows before the play — the play order from the player
(R45) and whether a Beer heals (R25; FO23) — is passed in as data.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from referee.games.cards.characters import BART_CASSIDY, EL_GRINGO
from referee.games.cards.core import Holder, MoveLike, check_cards, move_field, plays_as_bang, shots_needed
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


# --- the effects ----------------------------------------------------------------------------

class CountBang(NamedTuple):
    """A BANG! was played: it counts against the limit where there is one (R18; FO18: none)."""

    who: int


class PlayCard(NamedTuple):
    """``card`` leaves ``who``'s hand: to the discard (brown), or in play (blue; a Jail in
    front of ``target``) (R21, R22)."""

    who: int
    card: str
    target: int | None
    pick: str | None


class Discard(NamedTuple):
    """``cards`` from ``who``'s hand or play go to the discard (R20, R31, R72); ``cards``
    None: one card of ``who``'s hand at random, if any (R31)."""

    who: int
    cards: tuple[str, ...] | None
    reason: str


class Take(NamedTuple):
    """``who`` takes ``card`` from ``frm``'s ``zone`` (``hand`` | ``in_play``) into his hand
    (R30, R64); ``card`` None: one of ``frm``'s hand at random, if any."""

    who: int
    frm: int
    card: str | None
    zone: str
    reason: str


class Draw(NamedTuple):
    """``who`` draws ``n`` cards off the deck (R27, R28, R61; R59)."""

    who: int
    n: int
    reason: str


class Heal(NamedTuple):
    """``who`` regains up to ``amount`` life, never past his maximum (R25, R26, R72)."""

    who: int
    amount: int


class OpenStore(NamedTuple):
    """The General Store: cards turned up, picked in turn from ``who`` (R29; FO26)."""

    who: int


class OpenShot(NamedTuple):
    """A shot window for ``target`` (R44): ``src`` shot with a card of ``key``, which
    ``needed`` Missed! cards stop (R73)."""

    target: int
    src: int
    key: str
    needed: int


class OpenDuel(NamedTuple):
    """A Duel's turn to answer: ``target``, against ``other``; ``src`` played it (R32, R46)."""

    target: int
    other: int
    src: int


class OpenMulti(NamedTuple):
    """Gatling or Indians! (``key``) from ``src``: one window per target, in order (R33, R34, R45)."""

    src: int
    key: str
    targets: tuple[int, ...]


class CloseWindow(NamedTuple):
    """The open window, which ``who`` answers, is taken off the agenda (R43)."""

    who: int


class Reopen(NamedTuple):
    """The window closed last is put back: a shot with these counters (R44, R73), a dying
    window as it was (R48)."""

    misses: int
    played: int


class CloseDying(NamedTuple):
    """``who``'s dying window closes if it is open and he is back to 1 life or more (R48)."""

    who: int


class Answer(NamedTuple):
    """``card`` from ``who``'s hand answers a ``kind`` window: it is spent (R24, R32, R34, R48)."""

    who: int
    card: str
    kind: str


class Hit(NamedTuple):
    """``who`` loses ``amount`` life; ``by`` is responsible, ``src`` played the card (R47, R50)."""

    who: int
    amount: int
    by: int
    src: int


class Die(NamedTuple):
    """Nobody saved ``who`` in the dying window closed last: he is out (R51; FO40)."""

    who: int


class TurnUp(NamedTuple):
    """``who`` "draws!" for ``purpose``: ``n`` cards come off the deck (R41; Lucky Duke two,
    face up, R42); then ``turned`` says what they do."""

    who: int
    purpose: str
    n: int


class OpenLucky(NamedTuple):
    """Lucky Duke chooses one of the two cards turned up for ``purpose`` (R42)."""

    who: int
    purpose: str


class Checked(NamedTuple):
    """``card`` decides ``who``'s "draw!": off the deck (``cards`` None) or the chosen one of
    the limbo's ``cards`` (it last); all go to the discard (R41, R42)."""

    who: int
    purpose: str
    card: str
    cards: tuple[str, ...] | None


class Decide(NamedTuple):
    """The "draw!" for ``purpose`` was ``card`` (None: no card at all, R41's ruling): the
    table's own consequence follows (``check_succeeds`` says whether it succeeded;
    R35, R38, R39)."""

    who: int
    purpose: str
    card: str | None


Effect = (CountBang | PlayCard | Discard | Take | Draw | Heal | OpenStore | OpenShot | OpenDuel | OpenMulti
          | CloseWindow | Reopen | CloseDying | Answer | Hit | Die | TurnUp | OpenLucky | Checked | Decide)
Effects = list[Effect]


def played(card: str, target: int | None, pick: str | None) -> dict[str, Any]:
    """The card, target and pick of a ``card_played`` event (the ruleset adds who played it)."""
    data: dict[str, Any] = {"card": card}
    if target is not None:
        data["target"] = target
    if pick is not None:
        data["pick"] = pick
    return data


# --- a card played (R21–R40) -----------------------------------------------------------------

def play_card(holder: Holder, who: int, move: MoveLike, *, order: Sequence[int], beer_heals: bool) -> Effects:
    """What ``holder`` (character ``who``) playing a card in phase 2 does (R21–R40):
    ``move`` is a legal ``play`` (typed, or its JSON); ``order``: every character
    in the game in play order from ``who``, ``who`` first (R45); ``beer_heals``:
    whether a Beer gives life at this table now (R25; FO23)."""
    target = move_field(move, "target")
    return card_effects(holder, who, move_field(move, "card"), -1 if target is None else target,
                        move_field(move, "pick"), order=order, beer_heals=beer_heals)


def card_effects(holder: Holder, who: int, card: str, target: int, pick: str | None, *, order: Sequence[int],
                 beer_heals: bool) -> Effects:
    """``play_card`` of ``card`` aimed at ``target`` (-1: none) with ``pick`` (Panic!, Cat Balou)."""
    key = KEY[card]
    if plays_as_bang(holder, card):
        return [CountBang(who), PlayCard(who, card, target, None), OpenShot(target, who, key, shots_needed(holder))]
    out: Effects = []
    if card in WEAPON_OF:  # R20: the weapon in play is replaced
        old = next((mine for mine in holder.in_play if mine in WEAPON_OF), None)
        if old is not None:
            out.append(Discard(who, (old,), "replaced"))
    out.append(PlayCard(who, card, target if target >= 0 else None, pick))
    out.extend(_brown_effects(key, who, target, pick, order=order, beer_heals=beer_heals))
    return out  # a blue card's effect is its being in play (R21)


#: the cards that draw: key -> (how many, the reason the draw records) (R27, R28)
_DRAWS = {"STAGECOACH": (2, "stagecoach"), "WELLSFARGO": (3, "wells_fargo")}


def _brown_effects(key: str, who: int, target: int, pick: str | None, *, order: Sequence[int],
                   beer_heals: bool) -> Effects:
    """What a brown card of ``key`` does once played (R25–R34); nothing for a blue one."""
    if key == "BEER":  # R25
        return [Heal(who, 1)] if beer_heals else []
    if key == "SALOON":  # R26: every character in the game regains a life
        return [Heal(each, 1) for each in order]
    if key in _DRAWS:  # R27, R28
        count, reason = _DRAWS[key]
        return [Draw(who, count, reason)]
    if key == "GENERALSTORE":  # R29
        return [OpenStore(who)]
    if key == "PANIC":  # R30: a card of the target's, at random from the hand or the one in play picked
        return [Take(who, target, None if pick == "hand" else pick, "hand" if pick == "hand" else "in_play",
                     "panic")]
    if key == "CATBALOU":  # R31: the target discards one
        return [Discard(target, None if pick == "hand" else (str(pick),), "cat_balou")]
    if key == "DUEL":  # R32: the target answers first
        return [OpenDuel(target, who, who)]
    if key in ("GATLING", "INDIANS"):  # R33, R34: every other character, in play order (R45)
        return [OpenMulti(who, key, tuple(order[1:]))]
    return []


# --- characters (R50, R61, R64, R72) ----------------------------------------------------------

def sid(who: int, cards: Iterable[str]) -> Effects:
    """Sid Ketchum discards two cards and regains one life (R72); a dying
    window closes at life ≥ 1 (R48)."""
    return [Discard(who, tuple(cards), "sid_ketchum"), Heal(who, 1), CloseDying(who)]


def after_hit(holder: Holder, who: int, src: int, amount: int) -> Effects:
    """What a hit character (``holder``, character ``who``) does next (R50): Bart
    Cassidy draws one card per life lost (R61); El Gringo takes one random
    card per life lost from the hand of the one who hit him, while it has
    any (R64)."""
    if holder.character == BART_CASSIDY:
        return [Draw(who, amount, "bart_cassidy")]
    if holder.character == EL_GRINGO and src >= 0 and src != who:
        return [Take(who, src, None, "hand", "el_gringo")] * amount
    return []


# --- windows (R24, R34, R44, R46, R48) --------------------------------------------------------

def respond(holder: Holder, who: int, card: str, window: Window, *, beer_heals: bool) -> Effects:
    """``card`` from ``holder``'s hand (character ``who``) answers the open window
    ``window`` (``window_moves`` offered it): a Missed! counts against the shot,
    which stays open until it has the misses it needs (R24, R73); a BANG!
    answers Indians! (R34) or passes the Duel to the other duellist (R46); a
    Beer in the dying window gives a life where Beer heals (``beer_heals``),
    and the window stays open below 1 life (R48, R49)."""
    out: Effects = [CloseWindow(who), Answer(who, card, window.kind)]
    if window.kind == "shot":
        if window.misses + 1 < window.needed:
            out.append(Reopen(window.misses + 1, window.played + 1))
    elif window.kind == "duel":
        out.append(OpenDuel(window.other, who, window.src))
    elif window.kind == "dying":
        if beer_heals:
            out.append(Heal(who, 1))
        if holder.life + (min(1, holder.max_life - holder.life) if beer_heals else 0) < 1:  # the life once healed
            out.append(Reopen(window.misses, window.played))
    return out


def pass_(who: int, window: Window) -> Effects:
    """Nobody answers the open window ``window``: the shot or Indians! hits (R44,
    R34), the duellist who passes loses a life to the other (R46), the dying
    character is out (R48, R51)."""
    if window.kind == "shot" or window.kind == "indians":
        return [CloseWindow(who), Hit(who, 1, window.src, window.src)]
    if window.kind == "duel":
        return [CloseWindow(who), Hit(who, 1, window.other, window.src)]
    return [CloseWindow(who), Die(who)]


# --- "draw!" (R41, R42) --------------------------------------------------------------------------

def check(holder: Holder, who: int, purpose: str) -> Effects:
    """``holder`` (character ``who``) "draws!" for ``purpose`` (``dynamite`` |
    ``jail`` | ``barrel[:source]``): the top card of the deck, or two for
    Lucky Duke (R41, R42) — a step the table resolves (``TurnUp``)."""
    return [TurnUp(who, purpose, check_cards(holder))]


def turned(turn_up: TurnUp, cards: Sequence[str]) -> Effects:
    """What the ``cards`` a ``TurnUp`` turned do: the top card decides and is
    discarded (R41); Lucky Duke chooses one of two — a ``lucky`` window —
    unless fewer than two could be turned (R42); no card at all: ``Decide``
    with None (R41's ruling)."""
    who, purpose = turn_up.who, turn_up.purpose
    if turn_up.n == 2 and len(cards) == 2:
        return [OpenLucky(who, purpose)]
    card = cards[0] if cards else None
    if card is None:
        return [Decide(who, purpose, None)]
    return [Checked(who, purpose, card, (card,) if turn_up.n == 2 else None), Decide(who, purpose, card)]


def lucky_choice(who: int, purpose: str, card: str, limbo: Iterable[str]) -> Effects:
    """Lucky Duke chose ``card`` of the two in the limbo: it decides, both go to the discard (R42)."""
    return [Checked(who, purpose, card, tuple(other for other in limbo if other != card) + (card,)),
            Decide(who, purpose, card)]
