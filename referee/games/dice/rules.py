"""Faces, dice, roles and characters of BANG! The Dice Game (D2, D5, D8,
D34–D49, D51) and the table geometry (D10–D13)."""
from __future__ import annotations

from collections.abc import Sequence

from referee.games.roles import DEPUTY, OUTLAW, RENEGADE, ROLE_DECKS, SHERIFF, TARGETS_3P

ARROW, DYNAMITE, SHOT1, SHOT2, BEER, GATLING = "arrow", "dynamite", "shot1", "shot2", "beer", "gatling"
BROKEN_ARROW, BULLET = "broken_arrow", "bullet"
DOUBLE_SHOT1, DOUBLE_SHOT2, DOUBLE_GATLING, DOUBLE_BEER = (
    "double_shot1", "double_shot2", "double_gatling", "double_beer")

BASE, LOUDMOUTH, COWARD = "base", "loudmouth", "coward"
#: die kind -> its six faces in draw order (D2, D51, D72)
DIE_FACES: dict[str, tuple[str, ...]] = {
    BASE: (ARROW, DYNAMITE, SHOT1, SHOT2, BEER, GATLING),
    LOUDMOUTH: (ARROW, DYNAMITE, BULLET, DOUBLE_SHOT1, DOUBLE_SHOT2, DOUBLE_GATLING),
    COWARD: (ARROW, DYNAMITE, SHOT1, BROKEN_ARROW, BEER, DOUBLE_BEER),
}
FACES: tuple[str, ...] = (ARROW, DYNAMITE, SHOT1, SHOT2, BEER, GATLING, BROKEN_ARROW, BULLET,
                          DOUBLE_SHOT1, DOUBLE_SHOT2, DOUBLE_GATLING, DOUBLE_BEER)

#: face -> shot kinds it gives (D24, D53)
SHOT_KINDS: dict[str, tuple[int, ...]] = {SHOT1: (1,), SHOT2: (2,), DOUBLE_SHOT1: (1, 1), DOUBLE_SHOT2: (2, 2)}

REGULAR_ARROWS = 9

ROLE_KINDS = (SHERIFF, RENEGADE, OUTLAW, DEPUTY)
#: players -> roles dealt (D5): the family's table (``referee.games.roles``), and 8 players
ROLES: dict[int, tuple[str, ...]] = {
    **ROLE_DECKS, 8: (SHERIFF, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY)}
#: 3-player personal targets (D68)
TARGET_ROLE: dict[str, str] = TARGETS_3P

CHARACTERS: dict[str, int] = {  # D34–D49: character -> life
    "bart_cassidy": 8, "black_jack": 8, "calamity_janet": 8, "el_gringo": 7, "jesse_jones": 9,
    "jourdonnais": 7, "kit_carlson": 7, "lucky_duke": 8, "paul_regret": 9, "pedro_ramirez": 8,
    "rose_doolan": 9, "sid_ketchum": 8, "slab_the_killer": 8, "suzy_lafayette": 8, "vulture_sam": 9,
    "willy_the_kid": 8,
}
CHARACTER_IDS: tuple[str, ...] = tuple(CHARACTERS)


def role_cards(roles: Sequence[str]) -> tuple[str, ...]:
    """Each seat's role as a role card id, numbered per kind in seat order
    (``sheriff``, ``outlaw_2``…): what the deal hides (D7, D74). v1 spelled
    them ``SHERIFF``, ``OUTLAW-2`` (``legacy``)."""
    seen: dict[str, int] = {}
    out = []
    for role in roles:
        seen[role] = seen.get(role, 0) + 1
        out.append(role if role == SHERIFF else f"{role}_{seen[role]}")
    return tuple(out)


def kind_of(card: str) -> str:
    """The role kind of a role card id (``outlaw_2`` -> ``outlaw``)."""
    return card.split("_")[0]


def ring_at(living: Sequence[int], seat: int, distances: Sequence[int]) -> list[int]:
    """The living seats exactly k places left or right of ``seat`` for k in
    ``distances``, counted over ``living`` (in seat order) only (D11, D12)."""
    if seat not in living:
        return []
    m = len(living)
    i = living.index(seat)
    out = {living[(i + k) % m] for k in distances} | {living[(i - k) % m] for k in distances}
    out.discard(seat)
    return sorted(out)
