"""Event types (past tense, storage format: never rename) and ``evolve``.

Every event is ``Event(type, data)`` with JSON data. ``evolve`` applies one
event without validating anything; it never mutates its input and never
raises on a well-formed log.

=====================  ==========================================================
type                   data
=====================  ==========================================================
``game_started``       three_player, turn, phase, players [{seat, role, character,
                       life, max_life, alive, hand, in_play}], deck (top first),
                       discard (bottom first) — R6
``turn_started``       seat — R8
``deck_reshuffled``    deck: the discard pile shuffled, top first — R59
``cards_drawn``        seat, cards, reason — from the deck top into the hand
``card_shown``         seat, card, reason — a hand card shown to all (R62)
``card_taken``         seat, from, card, zone (hand|in_play|discard), reason
``card_played``        seat, card, target? — brown: onto the discard pile; blue:
                       in play (Jail: in front of ``target``) — R21, R22
``card_discarded``     seat, cards, reason — from his hand/in play to the pile
``cards_revealed``     seat, cards, reason — deck top into the limbo (General
                       Store, Lucky Duke, Kit Carlson)
``draw_checked``       seat, cards (in discard order), card (the result or
                       null), reason, from (deck|limbo) — R41, R42
``card_picked``        seat, card — limbo into the hand (General Store, R29)
``kit_kept``           seat, kept, returned — R67
``card_passed``        seat, to, card — the Dynamite moves on (R39)
``life_lost``          seat, amount, by (credited seat or null) — R47
``life_gained``        seat, amount — R25, R26, R72
``player_eliminated``  seat, role, by — R51 step 1
``player_resigned``    seat — the player resigns (R85); ``player_eliminated`` follows
``cards_inherited``    seat (Vulture Sam), from, hand, in_play — R75
``awaiting``           to_act, phase, bangs, prompt, then — what the referee
                       waits for and what it still owes (R43; ``agenda.py``)
``game_over``          result {winners, seats, reason, winning_side, detail} — R55–R58, R82
=====================  ==========================================================
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.games.bang.agenda import stack_of
from referee.games.bang.state import Player, State, but, pbut
from referee.games.cards.characters import SUZY_LAFAYETTE, VULTURE_SAM
from referee.games.cards.deck import BLUE

Data = Mapping[str, Any]


def _without(cards: tuple[str, ...], remove: Any) -> tuple[str, ...]:
    if len(remove) == 1:
        c = remove[0]
        i = cards.index(c) if c in cards else -1
        return cards if i < 0 else cards[:i] + cards[i + 1:]
    drop = set(remove)
    return tuple(c for c in cards if c not in drop)


def _set(state: State, seat: int, player: Player) -> tuple[Player, ...]:
    ps = list(state.players)
    ps[seat] = player
    return tuple(ps)


def _forget(state: State, cards: Any) -> tuple[frozenset[str], frozenset[tuple[str, int]]]:
    """Cards entering a hand unseen: nobody knows them any more (R83)."""
    pub, priv = state.pub, state.priv
    if pub:
        pub = pub.difference(cards)
    if priv:
        gone = set(cards)
        priv = frozenset(x for x in priv if x[0] not in gone)
    return pub, priv


def _game_started(state: State | None, d: Data) -> State:
    players = tuple(
        Player(seat=p["seat"], role=p["role"], character=p["character"], life=p["life"],
               max_life=p["max_life"], alive=p["alive"], hand=tuple(p["hand"]),
               in_play=tuple(p["in_play"]))
        for p in d["players"]
    )
    chars = [p.character for p in players]
    return State(
        players=players, deck=tuple(d["deck"]), discard=tuple(d["discard"]), turn=d["turn"],
        phase=d["phase"], three_player=d["three_player"],
        suzy=chars.index(SUZY_LAFAYETTE) if SUZY_LAFAYETTE in chars else -1,
        vulture=chars.index(VULTURE_SAM) if VULTURE_SAM in chars else -1,
    )


def _turn_started(s: State, d: Data) -> State:
    return but(s, turn=d["seat"], bangs=0, phase="start")


def _deck_reshuffled(s: State, d: Data) -> State:
    deck = tuple(d["deck"])
    pub, priv = _forget(s, deck)
    # the card played or "draw!"n last is in the deck now, out of sight (R83)
    return but(s, deck=deck, discard=(), pub=pub, priv=priv, last=None)


def _cards_drawn(s: State, d: Data) -> State:
    cards = d["cards"]
    seat = d["seat"]
    p = s.players[seat]
    pub, priv = _forget(s, cards)
    return but(s, deck=s.deck[len(cards):], pub=pub, priv=priv,
                   players=_set(s, seat, pbut(p, hand=p.hand + tuple(cards))))


def _card_shown(s: State, d: Data) -> State:
    return but(s, pub=s.pub | {d["card"]})


def _card_taken(s: State, d: Data) -> State:
    seat, src, card, zone = d["seat"], d["from"], d["card"], d["zone"]
    pub, priv = _forget(s, (card,))
    if zone == "discard":
        s = but(s, discard=_without(s.discard, (card,)))
        pub = pub | {card}
    else:
        q = s.players[src]
        if zone == "hand":
            q = pbut(q, hand=_without(q.hand, (card,)))
            priv = priv | {(card, src)}
        else:
            q = pbut(q, in_play=_without(q.in_play, (card,)))
            pub = pub | {card}
        s = but(s, players=_set(s, src, q))
    p = s.players[seat]
    return but(s, pub=pub, priv=priv,
                   players=_set(s, seat, pbut(p, hand=p.hand + (card,))))


def _card_played(s: State, d: Data) -> State:
    seat, card = d["seat"], d["card"]
    p = s.players[seat]
    p = pbut(p, hand=_without(p.hand, (card,)))
    target = d.get("target")
    last = {"kind": "card_played", "seat": seat, "card": card, "target": target,
            "pick": d.get("pick"), "response": d.get("response")}
    if card not in BLUE:
        return but(s, players=_set(s, seat, p), discard=s.discard + (card,), last=last)
    if target is None or target == seat:
        return but(s, players=_set(s, seat, pbut(p, in_play=p.in_play + (card,))), last=last)
    ps = list(s.players)
    ps[seat] = p
    t = ps[target]
    ps[target] = pbut(t, in_play=t.in_play + (card,))
    return but(s, players=tuple(ps), last=last)


def _card_discarded(s: State, d: Data) -> State:
    seat, cards = d["seat"], d["cards"]
    p = s.players[seat]
    hand = _without(p.hand, cards) if any(c in p.hand for c in cards) else p.hand
    in_play = _without(p.in_play, cards) if any(c in p.in_play for c in cards) else p.in_play
    return but(s, discard=s.discard + tuple(cards),
                   players=_set(s, seat, pbut(p, hand=hand, in_play=in_play)))


def _cards_revealed(s: State, d: Data) -> State:
    cards = d["cards"]
    return but(s, deck=s.deck[len(cards):], limbo=s.limbo + tuple(cards))


def _draw_checked(s: State, d: Data) -> State:
    cards = tuple(d["cards"])
    last = {"kind": "draw_checked", "seat": d["seat"], "card": d["card"], "cards": list(cards),
            "reason": d["reason"]}
    if d["from"] == "limbo":
        return but(s, limbo=_without(s.limbo, cards), discard=s.discard + cards, last=last)
    return but(s, deck=s.deck[len(cards):], discard=s.discard + cards, last=last)


def _card_picked(s: State, d: Data) -> State:
    seat, card = d["seat"], d["card"]
    p = s.players[seat]
    pub, priv = _forget(s, (card,))
    return but(s, limbo=_without(s.limbo, (card,)), pub=pub | {card}, priv=priv,
                   players=_set(s, seat, pbut(p, hand=p.hand + (card,))))


def _kit_kept(s: State, d: Data) -> State:
    seat, kept, returned = d["seat"], tuple(d["kept"]), tuple(d["returned"])
    p = s.players[seat]
    pub, priv = _forget(s, kept + returned)
    priv = priv | {(c, seat) for c in returned}
    return but(s, limbo=(), deck=returned + s.deck, pub=pub, priv=priv,
                   players=_set(s, seat, pbut(p, hand=p.hand + kept)))


def _card_passed(s: State, d: Data) -> State:
    seat, to, card = d["seat"], d["to"], d["card"]
    ps = list(s.players)
    ps[seat] = pbut(ps[seat], in_play=_without(ps[seat].in_play, (card,)))
    ps[to] = pbut(ps[to], in_play=ps[to].in_play + (card,))
    return but(s, players=tuple(ps))


def _life_lost(s: State, d: Data) -> State:
    p = s.players[d["seat"]]
    return but(s, players=_set(s, p.seat, pbut(p, life=p.life - d["amount"])))


def _life_gained(s: State, d: Data) -> State:
    p = s.players[d["seat"]]
    return but(s, players=_set(s, p.seat, pbut(p, life=min(p.max_life, p.life + d["amount"]))))


def _player_eliminated(s: State, d: Data) -> State:
    p = s.players[d["seat"]]
    return but(s, players=_set(s, p.seat, pbut(p, alive=False, life=0)))


def _player_resigned(s: State, d: Data) -> State:
    return but(s, last={"kind": "resigned", "seat": d["seat"]})


def _cards_inherited(s: State, d: Data) -> State:
    seat, src = d["seat"], d["from"]
    hand, in_play = tuple(d["hand"]), tuple(d["in_play"])
    pub, priv = _forget(s, hand)
    priv = priv | {(c, src) for c in hand}
    ps = list(s.players)
    ps[src] = pbut(ps[src], hand=(), in_play=())
    ps[seat] = pbut(ps[seat], hand=ps[seat].hand + hand + in_play)
    return but(s, players=tuple(ps), pub=pub | set(in_play), priv=priv)


def _awaiting(s: State, d: Data) -> State:
    return but(s, phase=d["phase"], bangs=d["bangs"], stack=stack_of(d))


def _game_over(s: State, d: Data) -> State:
    return but(s, phase="over", stack=(), result=d["result"])


EVOLVE: dict[str, Callable[[Any, Data], State]] = {
    "game_started": _game_started,
    "turn_started": _turn_started,
    "deck_reshuffled": _deck_reshuffled,
    "cards_drawn": _cards_drawn,
    "card_shown": _card_shown,
    "card_taken": _card_taken,
    "card_played": _card_played,
    "card_discarded": _card_discarded,
    "cards_revealed": _cards_revealed,
    "draw_checked": _draw_checked,
    "card_picked": _card_picked,
    "kit_kept": _kit_kept,
    "card_passed": _card_passed,
    "life_lost": _life_lost,
    "life_gained": _life_gained,
    "player_eliminated": _player_eliminated,
    "player_resigned": _player_resigned,
    "cards_inherited": _cards_inherited,
    "awaiting": _awaiting,
    "game_over": _game_over,
}


def evolve(state: Any, event: Any) -> Any:
    """Apply one recorded event (never validates; unknown types change
    nothing): a plain function of ``state`` and ``event``."""
    fn = EVOLVE.get(event.type)
    if fn is None:
        return state
    return fn(state, event.data)
