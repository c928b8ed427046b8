"""The 16 characters (R3) with their printed life, shared by BANG! and Face
Off (FO4: the same characters and IDs); their abilities (R61–R76) are the
card engine's (``rules``) and the rulesets' own code, which name them by
these constants. The roles are BANG!'s: ``referee.games.bang.roles``."""
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
