"""The roles of the BANG! family, as BANG! (R4, R82) and The Dice Game (D5,
D68) print them alike: the four roles, the role cards dealt for 3 to 7
players and the 3-player game's targets. A kit both rulesets build on (as
BANG! and Face Off build on the cards kit): it imports no ruleset, and what
a rulebook adds (The Dice Game's 8 players, D5; BANG!'s Sheriff's extra
life, R6) stays in that ruleset."""
from __future__ import annotations

SHERIFF, DEPUTY, OUTLAW, RENEGADE = "sheriff", "deputy", "outlaw", "renegade"

#: player count -> the role cards dealt (R4, D5), in this order before shuffling; 3 players: the
#: 3-player game's (R82, D68), no Sheriff
ROLE_DECKS: dict[int, tuple[str, ...]] = {
    3: (DEPUTY, OUTLAW, RENEGADE),
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}

#: the 3-player game's targets (R82, D68): each role's target role
TARGETS_3P: dict[str, str] = {DEPUTY: RENEGADE, RENEGADE: OUTLAW, OUTLAW: DEPUTY}
