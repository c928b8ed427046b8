"""The BANG! heuristic's phase 2 (R11): one card at a time, the best first.

Each legal move gets a score; the highest wins and ``end_turn`` scores 0,
so the turn ends when nothing left is worth playing. The order the scores
make: draw cards (R27, R28) and General Store (R29), equipment (R35–R40),
Beer when hurt (R25), Panic!/Cat Balou on enemies' best cards or a friend's
Jail (R30, R31), Jail (R38), BANG! at the likeliest enemy in reach (R23),
Duel (R32), Gatling and Indians! when they hurt more enemies than friends
(R33, R34), Saloon (R26), Dynamite (R39), Sid Ketchum's ability (R72).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.bots.heuristic.bang_read import (
    HAND_CARD,
    IN_PLAY_WORTH,
    JOURDONNAIS,
    OUTLAW,
    RENEGADE,
    WEAPON_RANGE,
    Seen,
    has,
    key,
    ranked,
    worth,
)

Move = dict[str, Any]

#: least hostility worth a shot, a Jail, a Duel
SHOOT_AT = 0.2
JAIL_AT = 0.4
DUEL_AT = 0.4
#: least net gain worth a Panic!/Cat Balou, a Gatling/Indians!
TAKE_AT = 1.0
VOLLEY_AT = 0.6
#: share of hand cards that are BANG! (25 of 80, R1): to guess a Duel
BANG_SHARE = 25 / 80


def _defence(p: dict[str, Any]) -> float:
    """How likely a shot at ``p`` lands, roughly: Barrels halve it a bit (R35, R66)."""
    f = 1.0
    if has(p["in_play"], "BARREL"):
        f *= 0.75
    if p["character"] == JOURDONNAIS:
        f *= 0.75
    if p["hand"] == 0:
        f *= 1.3  # no Missed! possible
    return f


def _finish(p: dict[str, Any]) -> float:
    """A low-life target is worth more: it may die (R51)."""
    return 1.6 if p["life"] <= 1 else 1.2 if p["life"] == 2 else 1.0


def shot_score(seen: Seen, target: int) -> float:
    """How much a BANG! at ``target`` helps (R23)."""
    h = seen.hostility.get(target, 0.0)
    if h < SHOOT_AT:
        return 0.0
    p = seen.players[target]
    return h * _finish(p) * _defence(p)


def _take_score(seen: Seen, move: Move, *, keep: bool) -> float:
    """Panic! (``keep``) or Cat Balou: what the target loses (weighted by
    hostility) plus, for Panic!, what the bot gains (R30, R31)."""
    target = move["target"]
    h = seen.hostility.get(target, 0.0)
    pick = move.get("pick", "hand")
    if pick == "hand":
        lost = HAND_CARD
        got = 0.7 if keep else 0.0
    else:
        lost = IN_PLAY_WORTH.get(key(pick), 0.8)
        got = 0.6 * worth(seen, pick) if keep else 0.0
    return h * lost + got


def _volley_score(seen: Seen, *, gatling: bool) -> float:
    """Gatling or Indians!: one hit at every other alive player (R33, R34)."""
    total = 0.0
    for s, h in seen.hostility.items():
        p = seen.players[s]
        total += h * _finish(p) * (_defence(p) if gatling else 1.0)
    return total


def _duel_ok(seen: Seen, target: int) -> bool:
    """A Duel (R32) is worth it against a foe likely holding fewer BANG!s."""
    p = seen.players[target]
    mine = seen.shooters()
    if p["hand"] == 0:
        return True
    if seen.my["life"] <= 1:
        return False
    return bool(mine + 0.5 >= BANG_SHARE * p["hand"])


def _weapon_score(seen: Seen, card: str) -> float:
    """A better gun: longer range, or a Volcanic over the Colt (R16, R40)."""
    k = key(card)
    in_play = seen.my["in_play"]
    if k == "VOLCANIC":
        if has(in_play, "VOLCANIC"):
            return 0.0
        if seen.reach == 1:
            return 7.4
        close = any(h >= SHOOT_AT and seen.dist.get(s, 9) <= 1 for s, h in seen.hostility.items())
        return 3.6 if close and seen.shooters() >= 3 else 0.0
    return 7.5 + 0.01 * WEAPON_RANGE[k] if WEAPON_RANGE[k] > seen.reach else 0.0


def _saloon_score(seen: Seen) -> float:
    """Saloon heals everybody (R26): good when more friends than foes are hurt."""
    total = 1.2 if seen.hurt else 0.0
    for s, h in seen.hostility.items():
        p = seen.players[s]
        if p["life"] < p["max_life"]:
            total -= h
    return total


def _store_score(seen: Seen) -> float:
    """General Store (R29): the bot picks first, everybody gets a card."""
    return 1.0 - 0.5 * sum(seen.hostility.values())


def _dynamite_ok(seen: Seen) -> bool:
    """Dynamite (R39) hurts someone at random: a gamble for the side with
    more enemies around the table, never for the Sheriff's side."""
    life = int(seen.my["life"])
    if seen.role == OUTLAW:
        return life >= 3
    if seen.role == RENEGADE:
        return life >= 4 and len(seen.alive) >= 4
    return False


#: the worth of playing a card: (what the bot sees, the move, the card)
CardScore = Callable[[Seen, Move, str], float]


def _store_play(seen: Seen, move: Move, card: str) -> float:
    return 8.5 if _store_score(seen) > 0 else 0.0


def _weapon_play(seen: Seen, move: Move, card: str) -> float:
    return _weapon_score(seen, card)


def _beer_play(seen: Seen, move: Move, card: str) -> float:
    return 6.0 if seen.hurt and seen.beer_heals else 0.0


def _take_play(seen: Seen, move: Move, card: str) -> float:
    value = _take_score(seen, move, keep=key(card) == "PANIC")
    return 5.0 + value if value >= TAKE_AT else 0.0


def _jail_play(seen: Seen, move: Move, card: str) -> float:
    hostility = seen.hostility.get(move["target"], 0.0)
    return 4.5 + hostility if hostility >= JAIL_AT else 0.0


def _shot_play(seen: Seen, move: Move, card: str) -> float:
    """A BANG! (or Missed! for Calamity Janet, R63) at the target."""
    value = shot_score(seen, move["target"])
    if value <= 0:
        return 0.0
    # Calamity Janet shoots with the card she holds more of
    spare = sum(1 for held in seen.hand if key(held) == key(card)) * 0.001
    return 3.5 + value + spare


def _duel_play(seen: Seen, move: Move, card: str) -> float:
    target = move["target"]
    hostility = seen.hostility.get(target, 0.0)
    if hostility < DUEL_AT or not _duel_ok(seen, target):
        return 0.0
    return 3.0 + hostility * _finish(seen.players[target])


def _volley_play(seen: Seen, move: Move, card: str) -> float:
    value = _volley_score(seen, gatling=key(card) == "GATLING")
    return 2.5 + value if value >= VOLLEY_AT else 0.0


def _saloon_play(seen: Seen, move: Move, card: str) -> float:
    value = _saloon_score(seen)
    return 2.0 + value if value > 0.5 else 0.0


def _dynamite_play(seen: Seen, move: Move, card: str) -> float:
    return 1.0 if _dynamite_ok(seen) else 0.0


def _fixed(value: float) -> CardScore:
    """A card always worth ``value`` to play."""
    return lambda seen, move, card: value


#: card key -> the worth of playing it (``seen``, the move, the card); any other card: 0
CARD_SCORES: dict[str, CardScore] = {
    "WELLSFARGO": _fixed(10.0), "STAGECOACH": _fixed(9.5), "GENERALSTORE": _store_play,
    "BARREL": _fixed(8.0), "MUSTANG": _fixed(7.8),
    **{weapon: _weapon_play for weapon in WEAPON_RANGE},
    "SCOPE": _fixed(7.0), "BEER": _beer_play, "PANIC": _take_play, "CATBALOU": _take_play,
    "JAIL": _jail_play, "BANG": _shot_play, "MISSED": _shot_play, "DUEL": _duel_play,
    "GATLING": _volley_play, "INDIANS": _volley_play, "SALOON": _saloon_play, "DYNAMITE": _dynamite_play,
}


def score(seen: Seen, move: Move) -> float:
    """The worth of one phase-2 move; 0 or less: not worth playing."""
    kind = move.get("type")
    if kind == "end_turn":
        return 0.0
    if kind == "sid":
        return _sid_score(seen)
    if kind != "play":
        return -1.0
    card = move["card"]
    card_score = CARD_SCORES.get(key(card))
    return 0.0 if card_score is None else card_score(seen, move, card)


def _sid_score(seen: Seen) -> float:
    """Sid Ketchum (R72) trades two cards for a life point when his hand is
    over the limit anyway (the excess would be discarded, R12)."""
    me = seen.my
    if me["life"] < me["max_life"] and len(seen.hand) >= me["life"] + 2:
        return 0.5
    return 0.0


def cheapest(seen: Seen, moves: list[Move]) -> Move | None:
    """Among ``cards``-moves (discard, Sid), the one giving up the least."""
    best: Move | None = None
    best_value = 0.0
    for m in moves:
        cards = m.get("cards") or []
        kept = [c for c in seen.hand if c not in cards]
        given = sum(v for v, _ in ranked(seen, cards, kept))
        if best is None or given < best_value:
            best, best_value = m, given
    return best


def _best_scored(seen: Seen, legal: list[Move]) -> tuple[Move | None, float]:
    """The first highest-scoring move other than Sid Ketchum's, and its score."""
    best: Move | None = None
    best_value = 0.0
    for move in legal:
        if move.get("type") == "sid":
            continue
        value = score(seen, move)
        if best is None or value > best_value:
            best, best_value = move, value
    return best, best_value


def play_turn(seen: Seen, legal: list[Move]) -> Move:
    """The best phase-2 move (R11)."""
    sids = [move for move in legal if move.get("type") == "sid"]
    best, best_value = _best_scored(seen, legal)
    if sids and best_value <= 0.0 and _sid_score(seen) > 0:
        chosen = cheapest(seen, sids)
        if chosen is not None:
            return chosen
    if best is None or best_value <= 0.0:
        end = next((move for move in legal if move.get("type") == "end_turn"), None)
        return end if end is not None else legal[0]
    return best
