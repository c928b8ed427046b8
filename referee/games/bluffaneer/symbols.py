"""Symbols, dice faces and the 18 cards of Bluffaneer (F2, F3, F4, F15)."""
from __future__ import annotations

from collections.abc import Sequence

#: The four symbols (F2), lower snake case identifiers (issue 24: one
#: vocabulary). Colours play no part in the rules.
CHEST = "chest"
SWORD = "sword"
SHIP = "ship"
SKULL = "skull"
SYMBOLS: tuple[str, ...] = (CHEST, SWORD, SHIP, SKULL)

#: The face list of both dice (F3 RULING); ``die_faces`` may replace it.
DEFAULT_DIE_FACES: tuple[str, ...] = (CHEST, SHIP, SWORD, SWORD, SKULL, SKULL)

#: The six symbol pairs, each printed on three cards (F4), in rule order.
PAIRS: tuple[tuple[str, str], ...] = (
    (CHEST, SWORD), (CHEST, SHIP), (CHEST, SKULL),
    (SWORD, SHIP), (SWORD, SKULL), (SHIP, SKULL),
)
COPIES = 3

#: The 18 card ids in canonical order (pair order, then copy 1..3), e.g.
#: ``CHEST-SWORD-1`` (card IDs of the catalogue: its symbols upper case).
#: Setup shuffles the cards in this order (F6, F32).
CARD_IDS: tuple[str, ...] = tuple(f"{a.upper()}-{b.upper()}-{i}" for a, b in PAIRS for i in range(1, COPIES + 1))

#: card id -> its two symbols, in printed order
CARD_SYMBOLS: dict[str, tuple[str, str]] = {
    f"{a.upper()}-{b.upper()}-{i}": (a, b) for a, b in PAIRS for i in range(1, COPIES + 1)
}

_PAIR_SETS: dict[str, frozenset[str]] = {card: frozenset(pair) for card, pair in CARD_SYMBOLS.items()}


def is_double(dice: Sequence[str]) -> bool:
    """Both dice show the same symbol (F10)."""
    return dice[0] == dice[1]


def matches(card: str, dice: Sequence[str]) -> bool:
    """The card shows exactly the two rolled symbols, in either order; a
    double never matches (F15)."""
    return dice[0] != dice[1] and _PAIR_SETS[card] == frozenset(dice)


def cards_of_pair(pair: Sequence[str]) -> tuple[str, ...]:
    """The three card ids showing ``pair`` in either order (F4); empty if
    the pair is not one of the six."""
    wanted = frozenset(pair)
    if len(pair) != 2 or len(wanted) != 2:
        return ()
    return tuple(card for card in CARD_IDS if _PAIR_SETS[card] == wanted)


def card_json(card: str) -> dict[str, object]:
    """A card as clients see it once they may: id and symbols."""
    return {"id": card, "symbols": list(CARD_SYMBOLS[card])}
