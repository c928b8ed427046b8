"""BANG!'s roles (R4): who plays which, the role cards dealt for each
player count, the 3-player game's targets (R82) and the Sheriff's extra
life (R6). The roles and their table are the family's (``referee.games.roles``,
which The Dice Game prints alike); the characters the cards kit's
(``referee.games.cards.characters``)."""
from __future__ import annotations

from referee.games.cards.characters import LIFE
from referee.games.roles import DEPUTY, OUTLAW, RENEGADE, ROLE_DECKS, SHERIFF, TARGETS_3P

ROLES: tuple[str, ...] = (SHERIFF, DEPUTY, OUTLAW, RENEGADE)

#: player count -> the role cards used (R4), dealt in this order before shuffling: the family's table
ROLE_DECK: dict[int, tuple[str, ...]] = ROLE_DECKS

#: the 3-player game's targets (R82): each role's target role
TARGET_3P: dict[str, str] = TARGETS_3P

__all__ = ["DEPUTY", "OUTLAW", "RENEGADE", "ROLES", "ROLE_DECK", "SHERIFF", "TARGET_3P", "max_life"]


def max_life(character: str, role: str, three_player: bool) -> int:
    """Printed life, +1 for the Sheriff (R6 step 3; never in R82)."""
    return LIFE[character] + (1 if role == SHERIFF and not three_player else 0)
