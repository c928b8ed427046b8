"""The dice of BANG! The Dice Game and the Old Saloon dice: their faces in
draw order (D2, D51, D72), the shots each face gives (D24, D53) and the
arrows in the pile (D3)."""
from __future__ import annotations

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
