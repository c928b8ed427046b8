"""The 16 characters (R3) with their printed life; abilities are predicates
used by the rules modules (R61–R76)."""
from __future__ import annotations

BART_CASSIDY = "bart_cassidy"
BLACK_JACK = "black_jack"
CALAMITY_JANET = "calamity_janet"
EL_GRINGO = "el_gringo"
JESSE_JONES = "jesse_jones"
JOURDONNAIS = "jourdonnais"
KIT_CARLSON = "kit_carlson"
LUCKY_DUKE = "lucky_duke"
PAUL_REGRET = "paul_regret"
PEDRO_RAMIREZ = "pedro_ramirez"
ROSE_DOOLAN = "rose_doolan"
SID_KETCHUM = "sid_ketchum"
SLAB_THE_KILLER = "slab_the_killer"
SUZY_LAFAYETTE = "suzy_lafayette"
VULTURE_SAM = "vulture_sam"
WILLY_THE_KID = "willy_the_kid"

#: character -> printed life (R3), in the order shuffled at setup
LIFE: dict[str, int] = {
    BART_CASSIDY: 4, BLACK_JACK: 4, CALAMITY_JANET: 4, EL_GRINGO: 3,
    JESSE_JONES: 4, JOURDONNAIS: 4, KIT_CARLSON: 4, LUCKY_DUKE: 4,
    PAUL_REGRET: 3, PEDRO_RAMIREZ: 4, ROSE_DOOLAN: 4, SID_KETCHUM: 4,
    SLAB_THE_KILLER: 4, SUZY_LAFAYETTE: 4, VULTURE_SAM: 4, WILLY_THE_KID: 4,
}
CHARACTERS: tuple[str, ...] = tuple(LIFE)

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
