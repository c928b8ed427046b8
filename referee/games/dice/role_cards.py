"""The roles dealt (D5, D8), the role card ids that hide them (D7, D74) and
the 3-player personal targets (D68)."""
from __future__ import annotations

from collections.abc import Sequence

from referee.games.roles import DEPUTY, OUTLAW, RENEGADE, ROLE_DECKS, SHERIFF, TARGETS_3P

ROLE_KINDS = (SHERIFF, RENEGADE, OUTLAW, DEPUTY)
#: players -> roles dealt (D5): the family's table (``referee.games.roles``), and 8 players
ROLES: dict[int, tuple[str, ...]] = {
    **ROLE_DECKS, 8: (SHERIFF, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY)}
#: 3-player personal targets (D68)
TARGET_ROLE: dict[str, str] = TARGETS_3P


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
