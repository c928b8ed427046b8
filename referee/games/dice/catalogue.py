"""The catalogue of BANG! The Dice Game (issue 24, item 2): the dice and
their faces (D2, D51), the 16 characters with their life (D8, D34–D49) and
the roles (D5, D6, D68), built from ``dice_faces``', ``characters``' and ``role_cards``' tables and the prose in
``catalogue.json`` (read through ``referee.engine.packagedata``). Pure: no
I/O of its own."""
from __future__ import annotations

from typing import Any

from referee.engine.packagedata import package_tables
from referee.games.dice.characters import CHARACTERS
from referee.games.dice.dice_faces import DIE_FACES, FACES
from referee.games.dice.role_cards import ROLE_KINDS, ROLES, TARGET_ROLE, kind_of, role_cards

_TEXTS = package_tables("referee.games.dice", "catalogue.json")
#: face -> ``name``, ``rule``, ``text`` (one sentence)
_FACES: dict[str, dict[str, str]] = _TEXTS["faces"]
#: die kind -> ``name``, ``rule``, ``count`` (how many a game uses at most)
_DICE: dict[str, dict[str, Any]] = _TEXTS["dice"]
#: character -> ``rule``, ``text`` (one sentence)
_CHARACTERS: dict[str, dict[str, str]] = _TEXTS["characters"]
#: role kind -> ``name``, ``goal``
_ROLES: dict[str, dict[str, str]] = _TEXTS["roles"]


def _name(cid: str) -> str:
    return " ".join(w if w == "the" else w.capitalize() for w in cid.split("_"))


def catalogue() -> dict[str, Any]:
    """Dice and faces (D2, D21–D26, D51–D55), characters (D8) and roles (D5,
    D6); each role lists its role card IDs, as views name a seat's role (D7)."""
    cards_of: dict[str, list[str]] = {kind: [] for kind in ROLE_KINDS}
    for roles in ROLES.values():
        for card in role_cards(roles):
            kind = kind_of(card)
            if card not in cards_of[kind]:
                cards_of[kind].append(card)
    roles_out = []
    for kind in ROLE_KINDS:
        roles_out.append({
            "id": kind, "name": _ROLES[kind]["name"], "cards": sorted(cards_of[kind]),
            "count_by_players": {str(n): dealt.count(kind) for n, dealt in ROLES.items()},
            "goal": _ROLES[kind]["goal"], "rule": "D6", "three_player_target": TARGET_ROLE.get(kind),
        })
    return {
        "ruleset": "bang-dice", "cards": [],
        "characters": [{"id": cid, "name": _name(cid), "life": life, "text": _CHARACTERS[cid]["text"],
                        "rule": _CHARACTERS[cid]["rule"]} for cid, life in CHARACTERS.items()],
        "roles": roles_out,
        "dice": [{"id": kind, "name": _DICE[kind]["name"], "faces": list(faces), "rule": _DICE[kind]["rule"],
                  "count": _DICE[kind]["count"]} for kind, faces in DIE_FACES.items()],
        "faces": [{"id": face, "name": _FACES[face]["name"], "text": _FACES[face]["text"], "rule": _FACES[face]["rule"]}
                  for face in FACES],
        "symbols": [], "maps": [],
    }
