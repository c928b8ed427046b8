"""BANG!'s card engine over any table: what a card, a character and an open
window allow, why a move is refused, and what a played card does.

Both card rulesets decide with these: ``bang`` (seats around a table,
distance by seats, R14) and ``bang-faceoff`` (characters on a board,
distance by path, FO21). What differs between the tables is passed in —
the distances a character sees the others at, whether the one-BANG!-a-turn
limit holds (R18; Face Off lifts it, FO18), who may be jailed (R38; the
Face Off Sheriff may, FO19) — never re-implemented by a ruleset.

A *holder* is whatever has a character card and cards: ``bang``'s
``Player``, Face Off's ``Char`` (``Holder``). Windows are described by their
kind and the few counters a shot keeps (``used`` Barrel sources, ``played``
Missed! cards, ``misses`` and ``needed``). A card's effects act on the
ruleset's decision context through ``CardTable``: it records them in the
ruleset's own events and opens windows on its own agenda.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple, Protocol, Sequence

from referee.engine.rng import Rng

from referee.games.bang.cards import BLUE, KEY, WEAPON_OF, explodes, is_heart
from referee.games.bang.characters import (
    BART_CASSIDY, CALAMITY_JANET, EL_GRINGO, JOURDONNAIS, LUCKY_DUKE, PAUL_REGRET, ROSE_DOOLAN, SID_KETCHUM,
    SLAB_THE_KILLER, SUZY_LAFAYETTE, VULTURE_SAM, WILLY_THE_KID,
)

Move = dict[str, Any]
#: a refusal: (code, rule, detail)
Refusal = tuple[str, str, str]

PASS: Move = {"type": "pass"}
#: cards that take a ``target`` (R23, R30–R32, R38); Missed! only for Calamity Janet
TARGETED = frozenset({"BANG", "MISSED", "PANIC", "CATBALOU", "DUEL", "JAIL"})
#: cards that take a ``pick``: a card in play or ``"hand"`` (R30, R31)
PICKED = frozenset({"PANIC", "CATBALOU"})
#: the windows a card, "draw!" or a hit opens, and the rule that governs each (R43)
WINDOW_RULE = {"shot": "R44", "indians": "R34", "duel": "R46", "dying": "R48", "store": "R29",
               "lucky": "R42"}
#: windows a pass answers (R43)
PASSABLE = frozenset({"shot", "indians", "duel", "dying"})
#: the move types each window accepts
WINDOW_MOVES: dict[str, tuple[str, ...]] = {
    "shot": ("barrel", "respond", "sid", "pass"), "indians": ("respond", "sid", "pass"),
    "duel": ("respond", "sid", "pass"), "dying": ("respond", "sid", "pass"),
    "store": ("choose",), "lucky": ("choose",)}
#: "draw!" purpose -> what makes it succeed (R35 Barrel, R38 Jail: a Heart; R39 Dynamite: Spades 2–9)
CHECK_SUCCEEDS: dict[str, Callable[[str | None], bool]] = {
    "barrel": is_heart, "jail": is_heart, "dynamite": explodes}


class Holder(Protocol):
    """A character with cards: one seat of ``bang``, one figure of Face Off."""

    @property
    def character(self) -> str: ...

    @property
    def life(self) -> int: ...

    @property
    def max_life(self) -> int: ...

    @property
    def hand(self) -> tuple[str, ...]: ...

    @property
    def in_play(self) -> tuple[str, ...]: ...


# --- distance and reach (R15, R16) -------------------------------------------------

_SCOPES = frozenset(c for c in KEY if KEY[c] == "SCOPE")
_MUSTANGS = frozenset(c for c in KEY if KEY[c] == "MUSTANG")


def scope_of(character: str, in_play: tuple[str, ...]) -> int:
    """How much closer a holder sees the others: Scope and Rose Doolan (R15, R71)."""
    n = 1 if character == ROSE_DOOLAN else 0
    return n + len(_SCOPES.intersection(in_play)) if in_play else n


def mustang_of(character: str, in_play: tuple[str, ...]) -> int:
    """How much farther the others see a holder: Mustang and Paul Regret (R15, R69)."""
    n = 1 if character == PAUL_REGRET else 0
    return n + len(_MUSTANGS.intersection(in_play)) if in_play else n


def seen_at(base: int, viewer: Holder, target: Holder) -> int:
    """The distance at which ``viewer`` sees ``target`` (R15): the table's own
    distance (seats, R14; a board path, FO21) plus the target's Mustang and
    Paul Regret, minus the viewer's Scope and Rose Doolan, at least 1."""
    d = base + mustang_of(target.character, target.in_play) - scope_of(viewer.character, viewer.in_play)
    return d if d > 1 else 1


def reach_of(in_play: tuple[str, ...]) -> int:
    """The range of the weapon in play, or 1 for the Colt .45 (R16)."""
    for c in in_play:
        r = WEAPON_OF.get(c)
        if r is not None:
            return r
    return 1


# --- phase-2 plays (R18–R40) -------------------------------------------------------------

def plays_as_bang(p: Holder, card: str) -> bool:
    """A BANG! card, or a Missed! in Calamity Janet's hand (R23, R63)."""
    k = KEY[card]
    return k == "BANG" or (k == "MISSED" and p.character == CALAMITY_JANET)


def bang_allowed(p: Holder, bangs: int) -> bool:
    """R18: one BANG! per turn unless Willy the Kid or a Volcanic in play."""
    if bangs < 1 or p.character == WILLY_THE_KID:
        return True
    return any(KEY[c] == "VOLCANIC" for c in p.in_play)


def shots_needed(shooter: Holder) -> int:
    """Missed! cards a BANG! of ``shooter`` needs: 2 for Slab the Killer (R73)."""
    return 2 if shooter.character == SLAB_THE_KILLER else 1


def picks(t: Holder) -> list[str]:
    """What Panic! or Cat Balou may take from ``t``: its hand (at random) or a card in play (R30, R31)."""
    return (["hand"] if t.hand else []) + sorted(t.in_play)


def has_jail(t: Holder) -> bool:
    return any(KEY[c] == "JAIL" for c in t.in_play)


def card_moves(p: Holder, card: str, dist: Mapping[int, int], holders: Sequence[Holder], *, bang_ok: bool,
               jailable: Callable[[int], bool]) -> list[Move]:
    """Every legal phase-2 ``play`` of ``card`` from ``p``'s hand. ``dist``:
    the distance ``p`` sees every possible target at (its keys are the
    targets); ``bang_ok``: the BANG! limit allows one more (R18);
    ``jailable(t)``: the table lets ``t`` be jailed at all (R38)."""
    k = KEY[card]
    if k in TARGETED:
        if k == "MISSED" and p.character != CALAMITY_JANET:
            return []  # R24
        if k in ("BANG", "MISSED") and not bang_ok:
            return []
        out: list[Move] = []
        if k in ("BANG", "MISSED"):
            r = reach_of(p.in_play)
            out.extend({"type": "play", "card": card, "target": t} for t in sorted(dist) if dist[t] <= r)
        elif k in PICKED:
            for t in sorted(dist):
                if k == "PANIC" and dist[t] > 1:
                    continue
                out.extend({"type": "play", "card": card, "target": t, "pick": pick} for pick in picks(holders[t]))
        elif k == "DUEL":
            out.extend({"type": "play", "card": card, "target": t} for t in sorted(dist))
        else:  # JAIL
            out.extend({"type": "play", "card": card, "target": t} for t in sorted(dist)
                       if jailable(t) and not has_jail(holders[t]))
        return out
    if card in BLUE and card not in WEAPON_OF and any(KEY[c] == k for c in p.in_play):
        return []  # R19
    return [{"type": "play", "card": card}]


#: the rule each targeted card's refusal names
PLAY_RULE = {"BANG": "R23", "MISSED": "R63", "PANIC": "R30", "CATBALOU": "R31", "DUEL": "R32", "JAIL": "R38"}


def why_not_play(p: Holder, move: Move, dist: Mapping[int, int], holders: Sequence[Holder], *, bang_ok: bool,
                 jailable: Callable[[int], bool], target_rule: str | None = None,
                 range_rule: str | None = None) -> Refusal:
    """Why ``card_moves`` does not offer ``move`` (a ``play`` of a card in
    ``p``'s hand). ``target_rule``/``range_rule`` name the table's own rule
    for a target that is not one / out of range (default: the card's, R16, R17)."""
    card = move["card"]
    k = KEY[card]
    target = move.get("target")
    if k == "MISSED" and p.character != CALAMITY_JANET:
        return "missed_only_in_response", "R24", "Missed! is played only against a shot aimed at you"
    rule = PLAY_RULE.get(k, "R19")
    if k in ("BANG", "MISSED") and not bang_ok:
        return "bang_limit", "R18", "one BANG! per turn unless Volcanic or Willy the Kid"
    if k in TARGETED and target is None:
        return "target_required", target_rule or rule, f"a {k} needs a target"
    if target is not None:
        if k not in TARGETED:  # R21, R22: a blue card goes in front of you, a brown one to the discard
            return "no_target", "R21" if card in BLUE else "R22", f"a {k} takes no target"
        if type(target) is not int or target not in dist:
            return "invalid_target", target_rule or rule, "the target must be another character in the game"
        t = holders[target]
        d = dist[target]
        if k in ("BANG", "MISSED"):
            return "out_of_range", range_rule or "R16", f"{target} is at distance {d}, reach {reach_of(p.in_play)}"
        if k == "PANIC" and d > 1:
            return "out_of_range", range_rule or "R17", f"Panic! needs distance 1, {target} is at {d}"
        if k == "JAIL":
            if not jailable(target):
                return "jail_on_sheriff", "R38", "the Sheriff cannot be jailed"
            return "duplicate_in_play", "R19", "that character already has a Jail"
        if k in PICKED:
            if not t.hand and not t.in_play:
                return "target_has_no_cards", rule, "the target has no cards"
            return "invalid_pick", rule, "pick 'hand' (a non-empty hand) or a card in play in front of the target"
    if card in BLUE:
        return "duplicate_in_play", "R19", f"a {k} is already in play in front of you"
    return "illegal_play", "R11", "this card cannot be played now"


def sid_moves(p: Holder) -> list[Move]:
    """Sid Ketchum: discard 2 → +1 life, not at full life (R72)."""
    if p.character != SID_KETCHUM or p.life >= p.max_life or len(p.hand) < 2:
        return []
    h = sorted(p.hand)
    return [{"type": "sid", "cards": [a, b]} for i, a in enumerate(h) for b in h[i + 1:]]


def why_not_sid(p: Holder, cards: list[str]) -> Refusal | None:
    """Why Sid Ketchum's ability is refused (R72), or None."""
    if p.character != SID_KETCHUM:
        return "not_sid_ketchum", "R72", "only Sid Ketchum may discard 2 cards for a life point"
    if p.life >= p.max_life:
        return "full_life", "R72", "Sid Ketchum cannot use his ability at full life"
    if not all(c in p.hand for c in cards) or len(set(cards)) != len(cards):
        return "card_not_in_hand", "R72", "both cards must be in your hand"
    return None


# --- windows (R43–R49) -------------------------------------------------------------------

def answer_keys(p: Holder, kind: str) -> tuple[str, ...]:
    """Card keys that answer a window (Calamity Janet swaps, R63)."""
    if kind == "shot":
        return ("MISSED", "BANG") if p.character == CALAMITY_JANET else ("MISSED",)
    if kind in ("indians", "duel"):
        return ("BANG", "MISSED") if p.character == CALAMITY_JANET else ("BANG",)
    return ("BEER",)


def barrel_sources(p: Holder, used: Iterable[str], played: int, misses: int, needed: int) -> list[str]:
    """Barrel "draw!"s still open in a shot window: each Barrel in play and
    Jourdonnais once, all before the first Missed! (R35, R44, R66)."""
    if played or misses >= needed:
        return []
    done = set(used)
    out = [c for c in sorted(p.in_play) if KEY[c] == "BARREL" and c not in done]
    if p.character == JOURDONNAIS and "jourdonnais" not in done:
        out.append("jourdonnais")
    return out


def window_moves(p: Holder, kind: str, *, used: Iterable[str] = (), played: int = 0, misses: int = 0,
                 needed: int = 1, limbo: Iterable[str] = ()) -> list[Move]:
    """Every legal answer of ``p`` to an open window of ``kind`` (R43):
    Barrels, answering cards, Sid Ketchum and the pass; a pick among the
    revealed cards for the General Store and Lucky Duke (R29, R42)."""
    if kind in PASSABLE:
        out: list[Move] = []
        if kind == "shot":
            out.extend({"type": "barrel", "source": b} for b in barrel_sources(p, used, played, misses, needed))
        keys = answer_keys(p, kind)
        out.extend({"type": "respond", "card": c} for c in sorted(p.hand) if KEY[c] in keys)
        out.extend(sid_moves(p))
        out.append(dict(PASS))
        return out
    return [{"type": "choose", "card": c} for c in sorted(set(limbo))]


def why_not_answer(p: Holder, kind: str, move: Move, *, used: Iterable[str] = (), played: int = 0,
                   misses: int = 0, needed: int = 1, limbo: Iterable[str] = ()) -> Refusal | None:
    """Why ``move`` does not answer the open window of ``kind``, or None if it does."""
    t = move["type"]
    rule = WINDOW_RULE[kind]
    if t not in WINDOW_MOVES[kind]:
        return ("not_now", "R13" if t == "play" else rule,
                f"the open {kind} window accepts {', '.join(WINDOW_MOVES[kind])}")
    if t == "pass":
        return None
    if t == "sid":
        return why_not_sid(p, move["cards"])
    if t == "respond":
        card = move["card"]
        if card not in p.hand:
            return "card_not_in_hand", rule, f"{card} is not in your hand"
        if KEY[card] not in answer_keys(p, kind):
            code, why = {"shot": ("not_a_missed", "R24"), "dying": ("not_a_beer", "R25")}.get(
                kind, ("not_a_bang", "R32" if kind == "duel" else "R34"))
            return code, why, f"{card} does not answer a {kind} window"
        return None
    if t == "barrel":
        source = move["source"]
        if source in set(used):
            return "barrel_used", "R35", "one \"draw!\" per Barrel per shot"
        if played:
            return "barrel_after_missed", "R44", "Barrel draws come before the first Missed!"
        if source not in barrel_sources(p, used, played, misses, needed):
            return "no_barrel", "R35", f"no Barrel {source!r} in front of you"
        return None
    # choose
    if move["card"] not in set(limbo):
        return "not_offered", rule, f"{move['card']} is not among the revealed cards"
    return None


# --- the deck (R59) -------------------------------------------------------------------------

def take_from_deck(k: int, deck: Callable[[], tuple[str, ...]], reshuffle: Callable[[], bool],
                   took: Callable[[list[str]], None]) -> list[str]:
    """Up to ``k`` cards off the top of ``deck()``: when it runs out the
    discard pile is shuffled into a new deck (``reshuffle()``; False: nothing
    to shuffle) and the taking goes on; what cannot be taken is not (R59).
    ``took(cards)`` records each batch as it leaves the deck."""
    got: list[str] = []
    while k > 0:
        pile = deck()
        if not pile:
            if not reshuffle():
                break
            continue
        cards = list(pile[:k])
        k -= len(cards)
        got.extend(cards)
        took(cards)
    return got


# --- "draw!" (R41, R42), Suzy Lafayette (R74) and elimination (R75) -------------------------------------------

def check_cards(p: Holder) -> int:
    """How many cards a "draw!" turns up: Lucky Duke two, choosing one (R42)."""
    return 2 if p.character == LUCKY_DUKE else 1


def check_succeeds(purpose: str, card: str | None) -> bool:
    """Whether a "draw!" for ``purpose`` (``dynamite`` | ``jail`` |
    ``barrel[:source]``) succeeds with ``card``; no card at all never does (R41)."""
    return CHECK_SUCCEEDS[purpose.split(":", 1)[0]](card)


def suzy_draws(before: Holder, after: Holder, alive: bool) -> bool:
    """Whether Suzy Lafayette draws now (R74 RULING): at once, when the card
    movement that just happened emptied her hand, and only while alive."""
    return after.character == SUZY_LAFAYETTE and alive and bool(before.hand) and not after.hand


def heir(holders: Sequence[Holder], victim: int, alive: Callable[[int], bool]) -> int | None:
    """Vulture Sam, if another character in the game is he: he takes the
    eliminated one's cards (R75), else None."""
    for i, h in enumerate(holders):
        if i != victim and h.character == VULTURE_SAM and alive(i):
            return i
    return None


# --- what a card does (R21–R40, R61, R64, R72) ---------------------------------------

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
    if k == "BEER":
        if t.beer_heals():
            t.heal(who, 1)
    elif k == "SALOON":
        for q in t.around(who, True):
            t.heal(q, 1)
    elif k == "STAGECOACH":
        t.draw(who, 2, "stagecoach")
    elif k == "WELLSFARGO":
        t.draw(who, 3, "wells_fargo")
    elif k == "GENERALSTORE":
        t.general_store(who)
    elif k in PICKED:
        pick = move["pick"]
        if pick == "hand":  # at random (R30, R31)
            hand = t.holder(target).hand
            taken, zone = hand[t.rng.below(len(hand))], "hand"
        else:
            taken, zone = pick, "in_play"
        if k == "PANIC":
            t.take(who, target, taken, zone, "panic")
        else:
            t.discard(target, [taken], "cat_balou")
    elif k == "DUEL":
        t.open_duel(target, who, who)
    elif k == "GATLING" or k == "INDIANS":
        t.open_multi(who, k, t.around(who, False))


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
