"""The catalogue of BANG! (issue 24, item 2): every card and character as
the cards kit builds them (R1, R3, ``referee.games.cards.catalogue``) and
every role (R4, R82) with its name and goal. Pure: no I/O."""
from __future__ import annotations

from typing import Any

from referee.games.bang.roles import ROLE_DECK, ROLES, TARGET_3P
from referee.games.cards.catalogue import card_entries, character_entries

#: role -> (name, goal), all from R4; the 3-player targets are R82's
ROLE_TEXT: dict[str, tuple[str, str]] = {
    "sheriff": ("Sheriff", "Eliminate all the Outlaws and the Renegade."),
    "deputy": ("Deputy", "Help the Sheriff: a Deputy wins exactly when the Sheriff does."),
    "outlaw": ("Outlaw", "Eliminate the Sheriff."),
    "renegade": ("Renegade", "Be the last one left, the Sheriff eliminated last."),
}


def catalogue() -> dict[str, Any]:
    """Cards (R1, R2), characters (R3), roles (R4, R82); BANG! has no dice,
    symbols or maps."""
    roles = []
    for role in ROLES:
        name, goal = ROLE_TEXT[role]
        counts = {str(n): deck.count(role) for n, deck in ROLE_DECK.items()}
        roles.append({"id": role, "name": name, "count_by_players": counts, "goal": goal, "rule": "R4",
                      "three_player_target": TARGET_3P.get(role)})
    return {
        "ruleset": "bang", "cards": card_entries(), "characters": character_entries(), "roles": roles,
        "dice": [], "faces": [], "symbols": [], "maps": [],
    }
