"""The characters of BANG! The Dice Game and their life points (D34–D49)."""
from __future__ import annotations

CHARACTERS: dict[str, int] = {  # D34–D49: character -> life
    "bart_cassidy": 8, "black_jack": 8, "calamity_janet": 8, "el_gringo": 7, "jesse_jones": 9,
    "jourdonnais": 7, "kit_carlson": 7, "lucky_duke": 8, "paul_regret": 9, "pedro_ramirez": 8,
    "rose_doolan": 9, "sid_ketchum": 8, "slab_the_killer": 8, "suzy_lafayette": 8, "vulture_sam": 9,
    "willy_the_kid": 8,
}
CHARACTER_IDS: tuple[str, ...] = tuple(CHARACTERS)
