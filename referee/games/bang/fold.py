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
                       waits for and what it still owes (R43; ``prompts.py``)
``game_over``          result {winners, seats, reason, winning_side, detail} — R55–R58, R82
=====================  ==========================================================
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from referee.engine.protocol import Event
from referee.games.bang.event_types import (
    Awaiting,
    CardDiscarded,
    CardPassed,
    CardPlayed,
    CardsDrawn,
    CardShown,
    CardsInherited,
    CardsRevealed,
    CardTaken,
    DeckReshuffled,
    DrawChecked,
    GameOver,
    GameStarted,
    KitKept,
    LifeGained,
    LifeLost,
    PlayerEliminated,
    PlayerResigned,
    SeatCard,
    TurnStarted,
)
from referee.games.bang.prompts import stack_of
from referee.games.bang.state import Player, State, but, pbut
from referee.games.cards.characters import SUZY_LAFAYETTE, VULTURE_SAM
from referee.games.cards.deck import BLUE


def _without(cards: tuple[str, ...], remove: Sequence[str]) -> tuple[str, ...]:
    if len(remove) == 1:
        card = remove[0]
        at = cards.index(card) if card in cards else -1
        return cards if at < 0 else cards[:at] + cards[at + 1:]
    drop = set(remove)
    return tuple(card for card in cards if card not in drop)


def _set(state: State, seat: int, player: Player) -> tuple[Player, ...]:
    players = list(state.players)
    players[seat] = player
    return tuple(players)


def _forget(state: State, cards: Iterable[str]) -> tuple[frozenset[str], frozenset[tuple[str, int]]]:
    """Cards entering a hand unseen: nobody knows them any more (R83)."""
    pub, priv = state.pub, state.priv
    if pub:
        pub = pub.difference(cards)
    if priv:
        gone = set(cards)
        priv = frozenset(known for known in priv if known[0] not in gone)
    return pub, priv


def _game_started(state: State | None, data: GameStarted) -> State:
    players = tuple(
        Player(seat=dealt["seat"], role=dealt["role"], character=dealt["character"], life=dealt["life"],
               max_life=dealt["max_life"], alive=dealt["alive"], hand=tuple(dealt["hand"]),
               in_play=tuple(dealt["in_play"]))
        for dealt in data["players"]
    )
    chars = [player.character for player in players]
    return State(
        players=players, deck=tuple(data["deck"]), discard=tuple(data["discard"]), turn=data["turn"],
        phase=data["phase"], three_player=data["three_player"],
        suzy=chars.index(SUZY_LAFAYETTE) if SUZY_LAFAYETTE in chars else -1,
        vulture=chars.index(VULTURE_SAM) if VULTURE_SAM in chars else -1,
    )


def _turn_started(state: State, data: TurnStarted) -> State:
    return but(state, turn=data["seat"], bangs=0, phase="start")


def _deck_reshuffled(state: State, data: DeckReshuffled) -> State:
    deck = tuple(data["deck"])
    pub, priv = _forget(state, deck)
    # the card played or "draw!"n last is in the deck now, out of sight (R83)
    return but(state, deck=deck, discard=(), pub=pub, priv=priv, last=None)


def _cards_drawn(state: State, data: CardsDrawn) -> State:
    cards = data["cards"]
    seat = data["seat"]
    player = state.players[seat]
    pub, priv = _forget(state, cards)
    return but(state, deck=state.deck[len(cards):], pub=pub, priv=priv,
               players=_set(state, seat, pbut(player, hand=player.hand + tuple(cards))))


def _card_shown(state: State, data: CardShown) -> State:
    return but(state, pub=state.pub | {data["card"]})


def _card_taken(state: State, data: CardTaken) -> State:
    seat, src, card, zone = data["seat"], data["from"], data["card"], data["zone"]
    pub, priv = _forget(state, (card,))
    if zone == "discard" or src is None:  # from the discard pile, ``from`` null (Pedro Ramirez, R70)
        state = but(state, discard=_without(state.discard, (card,)))
        pub = pub | {card}
    else:
        victim = state.players[src]
        if zone == "hand":
            victim = pbut(victim, hand=_without(victim.hand, (card,)))
            priv = priv | {(card, src)}
        else:
            victim = pbut(victim, in_play=_without(victim.in_play, (card,)))
            pub = pub | {card}
        state = but(state, players=_set(state, src, victim))
    player = state.players[seat]
    return but(state, pub=pub, priv=priv,
               players=_set(state, seat, pbut(player, hand=player.hand + (card,))))


def _card_played(state: State, data: CardPlayed) -> State:
    seat, card = data["seat"], data["card"]
    player = state.players[seat]
    player = pbut(player, hand=_without(player.hand, (card,)))
    target = data.get("target")
    last = {"kind": "card_played", "seat": seat, "card": card, "target": target,
            "pick": data.get("pick"), "response": data.get("response")}
    if card not in BLUE:
        return but(state, players=_set(state, seat, player), discard=state.discard + (card,), last=last)
    if target is None or target == seat:
        return but(state, players=_set(state, seat, pbut(player, in_play=player.in_play + (card,))), last=last)
    players = list(state.players)
    players[seat] = player
    aimed = players[target]
    players[target] = pbut(aimed, in_play=aimed.in_play + (card,))
    return but(state, players=tuple(players), last=last)


def _card_discarded(state: State, data: CardDiscarded) -> State:
    seat, cards = data["seat"], data["cards"]
    player = state.players[seat]
    hand = _without(player.hand, cards) if any(card in player.hand for card in cards) else player.hand
    in_play = _without(player.in_play, cards) if any(card in player.in_play for card in cards) else player.in_play
    return but(state, discard=state.discard + tuple(cards),
               players=_set(state, seat, pbut(player, hand=hand, in_play=in_play)))


def _cards_revealed(state: State, data: CardsRevealed) -> State:
    cards = data["cards"]
    return but(state, deck=state.deck[len(cards):], limbo=state.limbo + tuple(cards))


def _draw_checked(state: State, data: DrawChecked) -> State:
    cards = tuple(data["cards"])
    last = {"kind": "draw_checked", "seat": data["seat"], "card": data["card"], "cards": list(cards),
            "reason": data["reason"]}
    if data["from"] == "limbo":
        return but(state, limbo=_without(state.limbo, cards), discard=state.discard + cards, last=last)
    return but(state, deck=state.deck[len(cards):], discard=state.discard + cards, last=last)


def _card_picked(state: State, data: SeatCard) -> State:
    seat, card = data["seat"], data["card"]
    player = state.players[seat]
    pub, priv = _forget(state, (card,))
    return but(state, limbo=_without(state.limbo, (card,)), pub=pub | {card}, priv=priv,
               players=_set(state, seat, pbut(player, hand=player.hand + (card,))))


def _kit_kept(state: State, data: KitKept) -> State:
    seat, kept, returned = data["seat"], tuple(data["kept"]), tuple(data["returned"])
    player = state.players[seat]
    pub, priv = _forget(state, kept + returned)
    priv = priv | {(card, seat) for card in returned}
    return but(state, limbo=(), deck=returned + state.deck, pub=pub, priv=priv,
               players=_set(state, seat, pbut(player, hand=player.hand + kept)))


def _card_passed(state: State, data: CardPassed) -> State:
    seat, to, card = data["seat"], data["to"], data["card"]
    players = list(state.players)
    players[seat] = pbut(players[seat], in_play=_without(players[seat].in_play, (card,)))
    players[to] = pbut(players[to], in_play=players[to].in_play + (card,))
    return but(state, players=tuple(players))


def _life_lost(state: State, data: LifeLost) -> State:
    player = state.players[data["seat"]]
    return but(state, players=_set(state, player.seat, pbut(player, life=player.life - data["amount"])))


def _life_gained(state: State, data: LifeGained) -> State:
    player = state.players[data["seat"]]
    life = min(player.max_life, player.life + data["amount"])
    return but(state, players=_set(state, player.seat, pbut(player, life=life)))


def _player_eliminated(state: State, data: PlayerEliminated) -> State:
    player = state.players[data["seat"]]
    return but(state, players=_set(state, player.seat, pbut(player, alive=False, life=0)))


def _player_resigned(state: State, data: PlayerResigned) -> State:
    return but(state, last={"kind": "resigned", "seat": data["seat"]})


def _cards_inherited(state: State, data: CardsInherited) -> State:
    seat, src = data["seat"], data["from"]
    hand, in_play = tuple(data["hand"]), tuple(data["in_play"])
    pub, priv = _forget(state, hand)
    priv = priv | {(card, src) for card in hand}
    players = list(state.players)
    players[src] = pbut(players[src], hand=(), in_play=())
    players[seat] = pbut(players[seat], hand=players[seat].hand + hand + in_play)
    return but(state, players=tuple(players), pub=pub | set(in_play), priv=priv)


def _awaiting(state: State, data: Awaiting) -> State:
    return but(state, phase=data["phase"], bangs=data["bangs"], stack=stack_of(data))


def _game_over(state: State, data: GameOver) -> State:
    return but(state, phase="over", stack=(), result=data["result"])


#: each handler reads its event as declared in ``event_types.EVENT_TYPES`` (a test holds the two together)
EVOLVE: dict[str, Callable[[Any, Any], State]] = {
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


def evolve(state: State | None, event: Event) -> State | None:
    """Apply one recorded event (never validates; unknown types change
    nothing): a plain function of ``state`` and ``event``."""
    apply = EVOLVE.get(event.type)
    if apply is None:
        return state
    return apply(state, event.data)
