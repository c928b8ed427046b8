"""What the BANG! heuristic reads from its seat's view (R83): who is who, who
is where, and what each card is worth to it.

Everything here is computed from the view alone — public roles (the
Sheriff, the dead, everybody in the 3-player game), characters, life, cards
in play, hand sizes, the discard pile and the bot's own hand and role.
Card facts (name, suit, rank) are read from the card ID itself (R1).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# the role names of the view; the role facts (R4, R82) come with every view
# (`roles_in_game`, `targets`): a bot sees the engine and views only
SHERIFF, DEPUTY, OUTLAW, RENEGADE = "sheriff", "deputy", "outlaw", "renegade"

__all__ = ["DEPUTY", "OUTLAW", "RENEGADE", "SHERIFF"]

Json = dict[str, Any]

#: weapon key -> range (R16)
WEAPON_RANGE: dict[str, int] = {
    "VOLCANIC": 1, "SCHOFIELD": 2, "REMINGTON": 3, "CARABINE": 4, "WINCHESTER": 5,
}

CALAMITY_JANET = "calamity_janet"
JOURDONNAIS = "jourdonnais"
PAUL_REGRET = "paul_regret"
ROSE_DOOLAN = "rose_doolan"
SLAB_THE_KILLER = "slab_the_killer"
WILLY_THE_KID = "willy_the_kid"


# --- cards (R1, R2) ------------------------------------------------------------

def key(card: str) -> str:
    """The card's name key: ``BANG-10D`` -> ``BANG`` (R1)."""
    return card.split("-", 1)[0]


def suit(card: str) -> str:
    """The suit letter: ``BANG-10D`` -> ``D``; ``STAGECOACH-9S-1`` -> ``S``."""
    return card.split("-")[1][-1]


def rank(card: str) -> int:
    """The rank as 2..14 (J 11, Q 12, K 13, A 14) (R2)."""
    text = card.split("-")[1][:-1]
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(text) or int(text)


def explodes(card: str) -> bool:
    """A Dynamite "draw!" explodes on Spades 2–9 (R39)."""
    return suit(card) == "S" and 2 <= rank(card) <= 9


def has(cards: Iterable[str], name: str) -> bool:
    """Is a card called ``name`` among ``cards``?"""
    return any(key(c) == name for c in cards)


def reach_of(in_play: Iterable[str]) -> int:
    """The range of the weapon in play, or 1 for the Colt .45 (R16)."""
    for c in in_play:
        r = WEAPON_RANGE.get(key(c))
        if r is not None:
            return r
    return 1


# --- the table ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Seen:
    """The bot's reading of one view."""

    me: int
    role: str | None
    players: list[Json]
    hand: list[str]
    alive: list[int]
    three: bool
    hostility: dict[int, float]
    dist: dict[int, int]
    reach: int

    @property
    def my(self) -> Json:
        """The bot's own public seat entry."""
        return self.players[self.me]

    @property
    def hurt(self) -> bool:
        """Below max life (R25)."""
        return bool(self.my["life"] < self.my["max_life"])

    @property
    def beer_heals(self) -> bool:
        """Beer gives life only with three or more alive (R49)."""
        return len(self.alive) > 2

    @property
    def calamity(self) -> bool:
        """Calamity Janet swaps BANG! and Missed! (R63)."""
        return bool(self.my["character"] == CALAMITY_JANET)

    def shooters(self) -> int:
        """How many cards in hand can be used as a BANG! (R23, R63)."""
        names = ("BANG", "MISSED") if self.calamity else ("BANG",)
        return sum(1 for c in self.hand if key(c) in names)


def read(view: Json) -> Seen:
    """Read a ``seat_view`` of the ``bang`` ruleset."""
    state = view.get("state") or {}
    seat = view.get("seat")
    if seat is None:
        seat = state.get("seat")
    me = int(seat) if seat is not None else 0
    players: list[Json] = list(state.get("seats") or [])
    role = state.get("role")
    if role is not None and 0 <= me < len(players) and players[me].get("role") is None:
        players[me] = dict(players[me], role=role)  # the view keeps one's own hidden role out of ``players``
    alive = [p["seat"] for p in players if p.get("alive")]
    three = len(players) == 3
    facts = (list(state.get("roles_in_game") or []), dict(state.get("targets") or {}))
    hostility = _hostility(players, me, role, alive, three, facts)
    dist = distances(players, alive, me)
    return Seen(me=me, role=role, players=players, hand=list(state.get("hand") or []),
                alive=alive, three=three, hostility=hostility, dist=dist,
                reach=reach_of(players[me]["in_play"]) if players else 1)


def distances(players: list[Json], alive: list[int], a: int) -> dict[int, int]:
    """The distance at which ``a`` sees every other alive player (R14, R15)."""
    if a not in alive:
        return {}
    m = len(alive)
    i = alive.index(a)
    pa = players[a]
    minus = int(has(pa["in_play"], "SCOPE")) + int(pa["character"] == ROSE_DOOLAN)
    out: dict[int, int] = {}
    for j, b in enumerate(alive):
        if b == a:
            continue
        k = (j - i) % m
        pb = players[b]
        d = min(k, m - k) + int(has(pb["in_play"], "MUSTANG")) \
            + int(pb["character"] == PAUL_REGRET) - minus
        out[b] = max(d, 1)
    return out


def role_chances(players: list[Json], roles_in_game: list[str]) -> dict[int, dict[str, float]]:
    """For every alive player, the chance of each role given what is public:
    the roles of the game (R4) less the known ones (the Sheriff, the dead,
    the bot's own), spread evenly over the alive players whose role is
    hidden (R83)."""
    left = Counter(roles_in_game)
    hidden: list[int] = []
    out: dict[int, dict[str, float]] = {}
    for p in players:
        r = p.get("role")
        if r is not None:
            left[r] -= 1
            if p.get("alive"):
                out[p["seat"]] = {r: 1.0}
        elif p.get("alive"):
            hidden.append(p["seat"])
    total = sum(max(v, 0) for v in left.values())
    if hidden:
        share = {r: max(v, 0) / total for r, v in left.items() if v > 0} if total else {}
        for s in hidden:
            out[s] = dict(share)
    return out


def _weights(role: str | None, players: list[Json], alive: list[int],
             chances: dict[int, dict[str, float]]) -> dict[str, float]:
    """How much the bot wants each role hurt (+) or spared (−), by its goal (R4)."""
    outlaws_left = sum(c.get(OUTLAW, 0.0) for c in chances.values()) > 0
    if role == SHERIFF:
        return {DEPUTY: -1.0, OUTLAW: 1.0, RENEGADE: 0.9}
    if role == DEPUTY:
        return {SHERIFF: -2.0, DEPUTY: -1.0, OUTLAW: 1.0, RENEGADE: 0.9}
    if role == OUTLAW:
        return {SHERIFF: 1.6, DEPUTY: 0.9, OUTLAW: -1.0, RENEGADE: 0.5}
    if role == RENEGADE:
        # the Renegade must outlive everybody, the Sheriff last (R4, R55)
        sheriff = next((p for p in players if p.get("role") == SHERIFF and p.get("alive")), None)
        if len(alive) <= 2:
            w_sheriff = 1.6
        elif not outlaws_left:
            w_sheriff = 0.2 if sheriff is not None and sheriff["life"] >= 3 else -1.0
        else:
            w_sheriff = -0.6
        return {SHERIFF: w_sheriff, DEPUTY: 0.5 if outlaws_left else 1.0, OUTLAW: 1.0}
    return {}


def _hostility(players: list[Json], me: int | None, role: str | None, alive: list[int],
               three: bool, facts: tuple[list[str], dict[str, str]]) -> dict[int, float]:
    """For every other alive player, how much the bot wants him hurt: +1 a
    sure enemy, −1 a sure friend, in between by the role chances."""
    if me is None or not players:
        return {}
    if three:
        return _hostility_3p(players, me, role, alive, facts[1])
    chances = role_chances(players, facts[0])
    weights = _weights(role, players, alive, chances)
    return {s: sum(weights.get(r, 0.0) * p for r, p in chances.get(s, {}).items())
            for s in alive if s != me}


def _hostility_3p(players: list[Json], me: int, role: str | None, alive: list[int],
                  targets: dict[str, str]) -> dict[int, float]:
    """The 3-player game (R82): hunt the own target; the other survivor hunts
    the bot; once the target is gone, the last one standing wins."""
    target = targets.get(role or "")
    target_alive = any(p.get("role") == target and p.get("alive") for p in players)
    out: dict[int, float] = {}
    for s in alive:
        if s == me:
            continue
        if not target_alive:
            out[s] = 1.0
        else:
            out[s] = 1.6 if players[s].get("role") == target else 0.7
    return out


# --- what a card is worth to the bot ---------------------------------------------

#: card key -> base worth in hand
BASE: dict[str, float] = {
    "BANG": 2.6, "MISSED": 3.2, "BEER": 3.0, "PANIC": 2.4, "CATBALOU": 2.1, "STAGECOACH": 2.8,
    "WELLSFARGO": 3.2, "GENERALSTORE": 1.0, "DUEL": 1.9, "INDIANS": 1.9, "GATLING": 2.2,
    "SALOON": 1.4, "BARREL": 2.8, "SCOPE": 1.5, "MUSTANG": 2.5, "JAIL": 1.8, "DYNAMITE": 0.3,
}
#: how fast further copies lose worth (by card class)
DECAY: dict[str, float] = {"BANG": 0.6, "MISSED": 0.65, "BEER": 0.85, "SHOT": 0.8}


def _weapon_worth(seen: Seen, weapon: str) -> float:
    """A gun in hand: worth more when it beats the reach the bot has (R16, R40)."""
    if weapon == "VOLCANIC":
        return 1.8 if seen.reach == 1 and not has(seen.my["in_play"], "VOLCANIC") else 0.6
    weapon_range = WEAPON_RANGE[weapon]
    return 1.0 + 0.4 * weapon_range if weapon_range > seen.reach else 0.4


def _beer_worth(seen: Seen) -> float:
    """Beer is worth little when it would not heal (R49), more when low on life."""
    if not seen.beer_heals:
        return 0.2
    return BASE["BEER"] + (1.0 if seen.my["life"] <= 2 else 0.0)


def _special_worth(seen: Seen, card_key: str) -> float | None:
    """The worth of a card the situation changes, or ``None`` for its ``BASE`` worth."""
    me = seen.my
    in_play = me["in_play"]
    if card_key in ("BARREL", "MUSTANG", "SCOPE") and has(in_play, card_key):
        return 0.4  # a spare: cannot be played while one is in play (R19)
    if card_key == "SALOON":
        return BASE[card_key] + (0.6 if seen.hurt else 0.0)
    if card_key == "BANG" and (me["character"] == WILLY_THE_KID or has(in_play, "VOLCANIC")):
        return 2.4
    if card_key == "DYNAMITE" and seen.role == OUTLAW:
        return 1.0
    return None


def worth(seen: Seen, card: str) -> float:
    """Worth of one copy of ``card`` in the bot's hand, before duplicates."""
    card_key = key(card)
    if card_key in WEAPON_RANGE:
        return _weapon_worth(seen, card_key)
    if card_key == "BEER":
        return _beer_worth(seen)
    special = _special_worth(seen, card_key)
    return BASE.get(card_key, 1.0) if special is None else special


def _klass(seen: Seen, card: str) -> str:
    k = key(card)
    if seen.calamity and k in ("BANG", "MISSED"):
        return "SHOT"
    return k


def ranked(seen: Seen, cards: Iterable[str], held: Iterable[str] = ()) -> list[tuple[float, str]]:
    """``cards`` with their worth to the bot, best first: each further copy
    of a class is worth less (``held``: copies already kept elsewhere)."""
    counts = Counter(_klass(seen, c) for c in held)
    base = sorted(((worth(seen, c), c) for c in cards), key=lambda t: (-t[0], t[1]))
    out: list[tuple[float, str]] = []
    for value, card in base:
        klass = _klass(seen, card)
        n = counts[klass]
        counts[klass] += 1
        out.append((value * DECAY.get(klass, 0.7) ** n, card))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def gain(seen: Seen, card: str) -> float:
    """Worth of adding ``card`` to the bot's current hand."""
    return ranked(seen, [card], seen.hand)[0][0]


#: worth of an in-play card to the player it lies in front of (R21, R35–R40)
IN_PLAY_WORTH: dict[str, float] = {
    "BARREL": 2.5, "MUSTANG": 2.2, "SCOPE": 1.2, "VOLCANIC": 1.5, "SCHOFIELD": 1.0,
    "REMINGTON": 1.3, "CARABINE": 1.5, "WINCHESTER": 1.7, "JAIL": -2.5, "DYNAMITE": -1.0,
}
#: worth of a random card from a hand, to its owner
HAND_CARD = 1.2
