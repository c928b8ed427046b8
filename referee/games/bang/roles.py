"""BANG!'s roles (R4): who plays which, the role cards dealt for each
player count, the 3-player game's targets (R82) and the Sheriff's extra
life (R6). The characters themselves are the cards kit's
(``referee.games.cards.characters``)."""
from __future__ import annotations

from referee.games.cards.characters import LIFE

SHERIFF, DEPUTY, OUTLAW, RENEGADE = "sheriff", "deputy", "outlaw", "renegade"
ROLES: tuple[str, ...] = (SHERIFF, DEPUTY, OUTLAW, RENEGADE)

#: player count -> the role cards used (R4), dealt in this order before shuffling
ROLE_DECK: dict[int, tuple[str, ...]] = {
    3: (DEPUTY, OUTLAW, RENEGADE),
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}

#: the 3-player game's targets (R82): each role's target role
TARGET_3P: dict[str, str] = {DEPUTY: RENEGADE, RENEGADE: OUTLAW, OUTLAW: DEPUTY}


def max_life(character: str, role: str, three_player: bool) -> int:
    """Printed life, +1 for the Sheriff (R6 step 3; never in R82)."""
    return LIFE[character] + (1 if role == SHERIFF and not three_player else 0)
