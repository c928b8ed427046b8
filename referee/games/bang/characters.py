"""BANG!'s former home of the characters (R3) and roles (R4), now the cards
kit's ``referee.games.cards.characters`` and ``referee.games.bang.roles``:
a re-export kept for the tests and callers that import
``referee.games.bang.characters``."""
from __future__ import annotations

from referee.games.bang.roles import DEPUTY, OUTLAW, RENEGADE, ROLE_DECK, ROLES, SHERIFF, TARGET_3P, max_life
from referee.games.cards.characters import (
    BART_CASSIDY,
    BLACK_JACK,
    CALAMITY_JANET,
    CHARACTERS,
    EL_GRINGO,
    JESSE_JONES,
    JOURDONNAIS,
    KIT_CARLSON,
    LIFE,
    LUCKY_DUKE,
    PAUL_REGRET,
    PEDRO_RAMIREZ,
    ROSE_DOOLAN,
    SID_KETCHUM,
    SLAB_THE_KILLER,
    SUZY_LAFAYETTE,
    VULTURE_SAM,
    WILLY_THE_KID,
)

__all__ = [
    "BART_CASSIDY", "BLACK_JACK", "CALAMITY_JANET", "CHARACTERS", "EL_GRINGO", "JESSE_JONES", "JOURDONNAIS",
    "KIT_CARLSON", "LIFE", "LUCKY_DUKE", "PAUL_REGRET", "PEDRO_RAMIREZ", "ROSE_DOOLAN", "SID_KETCHUM",
    "SLAB_THE_KILLER", "SUZY_LAFAYETTE", "VULTURE_SAM", "WILLY_THE_KID",
    "DEPUTY", "OUTLAW", "RENEGADE", "ROLE_DECK", "ROLES", "SHERIFF", "TARGET_3P", "max_life",
]
