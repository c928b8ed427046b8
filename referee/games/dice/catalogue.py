"""The catalogue of BANG! The Dice Game (issue 24, item 2): the dice and
their faces (D2, D51), the 16 characters with their life (D8, D34–D49) and
the roles (D5, D6, D68), built from ``rules``' tables. Pure: no I/O."""
from __future__ import annotations

from typing import Any

from referee.games.dice.rules import CHARACTERS, DIE_FACES, FACES, ROLE_KINDS, ROLES, TARGET_ROLE, kind_of, role_cards

#: face -> (name, rule, one sentence)
_FACES: dict[str, tuple[str, str, str]] = {
    "arrow": ("Arrow", "D21", "Take an arrow from the pile; when the pile runs out the Indians attack."),
    "dynamite": ("Dynamite", "D23", "Cannot be rerolled; three or more cost you 1 life and end the rolling."),
    "shot1": ("Shot at distance 1", "D24", "A player at distance 1 loses 1 life."),
    "shot2": ("Shot at distance 2", "D24", "A player at distance 2 loses 1 life."),
    "beer": ("Beer", "D25", "Any living player you name regains 1 life."),
    "gatling": ("Gatling", "D26", "Three or more: drop your arrows and every other player loses 1 life."),
    "broken_arrow": ("Broken arrow", "D54", "A player you name returns one arrow to the pile."),
    "bullet": ("Bullet", "D55", "You lose 1 life at once."),
    "double_shot1": ("Double shot at distance 1", "D53", "Two shots at distance 1, each with its own target."),
    "double_shot2": ("Double shot at distance 2", "D53", "Two shots at distance 2, each with its own target."),
    "double_gatling": ("Double Gatling", "D53", "Counts as two Gatling symbols."),
    "double_beer": ("Double beer", "D53", "Two beers, each with its own target."),
}

_DICE: dict[str, tuple[str, str, int]] = {  # die kind -> (name, rule, how many a game uses at most)
    "base": ("Base die", "D2", 5),
    "loudmouth": ("Loudmouth", "D51", 1),
    "coward": ("Coward", "D51", 1),
}

#: character -> (rule, one sentence)
_CHARACTERS: dict[str, tuple[str, str]] = {
    "bart_cassidy": ("D34", "May take an arrow instead of losing a life point to a shot or the Gatling."),
    "black_jack": ("D35", "May reroll his dynamite while fewer than three show."),
    "calamity_janet": ("D36", "Each of her shots may count at distance 1 or 2."),
    "el_gringo": ("D37", "When the active player's shots or Gatling hurt him, that player takes an arrow."),
    "jesse_jones": ("D38", "With 4 life or less, each Beer he gives himself heals 2."),
    "jourdonnais": ("D39", "Loses at most 1 life in an Indian attack."),
    "kit_carlson": ("D40", "Each Gatling symbol lets him send one arrow back to the pile."),
    "lucky_duke": ("D41", "May reroll three times instead of two."),
    "paul_regret": ("D42", "Loses no life to the Gatling."),
    "pedro_ramirez": ("D43", "For each life point he loses he may return one of his arrows."),
    "rose_doolan": ("D44", "Her shots reach one player farther."),
    "sid_ketchum": ("D45", "At the start of his turn a player he names regains 1 life."),
    "slab_the_killer": ("D46", "Once a turn he may spend a Beer to make a shot cost 2 life."),
    "suzy_lafayette": ("D47", "Regains 2 life if her final dice show no shot."),
    "vulture_sam": ("D48", "Regains 2 life each time another player is eliminated."),
    "willy_the_kid": ("D49", "His Gatling fires with two Gatling symbols."),
}

_ROLES: dict[str, tuple[str, str]] = {
    "sheriff": ("Sheriff", "Eliminate every Outlaw and every Renegade."),
    "renegade": ("Renegade", "Be the last player alive."),
    "outlaw": ("Outlaw", "Eliminate the Sheriff."),
    "deputy": ("Deputy", "Help the Sheriff and win when he wins."),
}


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
        name, goal = _ROLES[kind]
        roles_out.append({
            "id": kind, "name": name, "cards": sorted(cards_of[kind]),
            "count_by_players": {str(n): dealt.count(kind) for n, dealt in ROLES.items()},
            "goal": goal, "rule": "D6", "three_player_target": TARGET_ROLE.get(kind),
        })
    return {
        "ruleset": "bang-dice", "cards": [],
        "characters": [{"id": cid, "name": _name(cid), "life": life, "text": _CHARACTERS[cid][1],
                        "rule": _CHARACTERS[cid][0]} for cid, life in CHARACTERS.items()],
        "roles": roles_out,
        "dice": [{"id": kind, "name": _DICE[kind][0], "faces": list(faces), "rule": _DICE[kind][1],
                  "count": _DICE[kind][2]} for kind, faces in DIE_FACES.items()],
        "faces": [{"id": face, "name": _FACES[face][0], "text": _FACES[face][2], "rule": _FACES[face][1]}
                  for face in FACES],
        "symbols": [], "maps": [],
    }
