"""The 80 playing cards (R1) and their ranks and suits (R2), which BANG! and
Face Off both play (FO4: the same cards and IDs).

Card IDs are ``<KEY>-<rank><suit>`` exactly as the R1 table spells them; the
two Stagecoaches are ``STAGECOACH-9S-1`` and ``STAGECOACH-9S-2``. Everything
here is a precomputed table: rules look a card up, they never parse an ID.
"""
from __future__ import annotations

#: (key, blue?, copies as "<rank><suit>" in the R1 order)
_TABLE: tuple[tuple[str, bool, str], ...] = (
    ("BANG", False, "AS QH KH AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2C 3C 4C 5C 6C 7C 8C 9C"),
    ("MISSED", False, "2S 3S 4S 5S 6S 7S 8S 10C JC QC KC AC"),
    ("BEER", False, "6H 7H 8H 9H 10H JH"),
    ("PANIC", False, "JH QH AH 8D"),
    ("CATBALOU", False, "KH 9D 10D JD"),
    ("STAGECOACH", False, "9S 9S"),
    ("WELLSFARGO", False, "3H"),
    ("GENERALSTORE", False, "QS 9C"),
    ("DUEL", False, "JS QD 8C"),
    ("INDIANS", False, "KD AD"),
    ("GATLING", False, "10H"),
    ("SALOON", False, "5H"),
    ("BARREL", True, "QS KS"),
    ("SCOPE", True, "AS"),
    ("MUSTANG", True, "8H 9H"),
    ("JAIL", True, "10S JS 4H"),
    ("DYNAMITE", True, "2H"),
    ("VOLCANIC", True, "10S 10C"),
    ("SCHOFIELD", True, "KS JC QC"),
    ("REMINGTON", True, "KC"),
    ("CARABINE", True, "AC"),
    ("WINCHESTER", True, "8S"),
)

_RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}

#: weapon key -> range (R16)
WEAPON_RANGE: dict[str, int] = {
    "VOLCANIC": 1, "SCHOFIELD": 2, "REMINGTON": 3, "CARABINE": 4, "WINCHESTER": 5,
}


def _build() -> tuple[tuple[str, ...], dict[str, str], dict[str, int], dict[str, str], frozenset[str]]:
    ids: list[str] = []
    key: dict[str, str] = {}
    rank: dict[str, int] = {}
    suit: dict[str, str] = {}
    blue: set[str] = set()
    for name, is_blue, copies in _TABLE:
        words = copies.split()
        for i, rs in enumerate(words):
            cid = f"{name}-{rs}"
            if name == "STAGECOACH":
                cid = f"{cid}-{i + 1}"
            ids.append(cid)
            key[cid] = name
            r = rs[:-1]
            rank[cid] = _RANKS.get(r) or int(r)
            suit[cid] = rs[-1]
            if is_blue:
                blue.add(cid)
    return tuple(ids), key, rank, suit, frozenset(blue)


#: every card ID, in the R1 order (the order shuffled at setup)
ALL_CARDS, KEY, RANK, SUIT, BLUE = _build()
CARD_SET: frozenset[str] = frozenset(ALL_CARDS)
BLUE_KEYS: frozenset[str] = frozenset(KEY[c] for c in BLUE)
#: card ID -> weapon range, only for weapons
WEAPON_OF: dict[str, int] = {c: WEAPON_RANGE[k] for c, k in KEY.items() if k in WEAPON_RANGE}


def is_heart(card: str | None) -> bool:
    """Barrel, Jourdonnais and Jail succeed on a Heart (R35, R38, R41)."""
    return card is not None and SUIT[card] == "H"


def explodes(card: str | None) -> bool:
    """Dynamite explodes on Spades 2–9 (R39); no card at all: it does not (R41)."""
    return card is not None and SUIT[card] == "S" and 2 <= RANK[card] <= 9


def red(card: str) -> bool:
    """Hearts or Diamonds (Black Jack, R62)."""
    return SUIT[card] in ("H", "D")
