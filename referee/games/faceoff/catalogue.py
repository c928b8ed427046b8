"""The catalogue of BANG! Face Off (issue 24, item 2): the 80 cards and 16
characters of BANG! (FO4, the same IDs) with what they do on the board, the
three roles (FO2) and the built-in maps (FO6), built from the tables the
ruleset plays with (the cards kit's ``referee.games.cards.catalogue``, the maps
``board`` has read). Pure: no I/O beyond the maps the ruleset already loaded."""
from __future__ import annotations

from typing import Any

from referee.games.cards.catalogue import CARD_TEXT, CHARACTER_TEXT, card_entries, character_entries
from referee.games.faceoff.board import BUILTIN

#: card key -> (name, Face Off rule, one sentence) where the board changes the card
_CARDS: dict[str, tuple[str, str, str]] = {
    "BANG": ("BANG!", "FO18", "Shoot a character within your reach; any number per turn."),
    "MISSED": ("Missed!", "FO31", "Cancel one shot aimed at your character."),
    "BEER": ("Beer", "FO23", "Regain 1 life; it always works, also when dying."),
    "PANIC": ("Panic!", "FO27", "Take a card from a character at path distance 1."),
    "CATBALOU": ("Cat Balou", "FO27", "Make another character discard a card from its hand or play area."),
    "STAGECOACH": ("Stagecoach", "FO24", "Draw 2 cards from the brown deck."),
    "WELLSFARGO": ("Wells Fargo", "FO24", "Draw 3 cards from the brown deck."),
    "GENERALSTORE": ("General Store", "FO26", "Turn up 3 brown cards; each character takes one, the Renegade "
                                              "the last."),
    "DUEL": ("Duel", "FO28", "Challenge a character to discard BANG! cards in turn; the first who cannot "
                             "loses 1 life."),
    "INDIANS": ("Indians!", "FO22", "Every other character discards a BANG! card or loses 1 life."),
    "GATLING": ("Gatling", "FO22", "Shoot every other character at once."),
    "SALOON": ("Saloon", "FO22", "All three characters regain 1 life."),
    "BARREL": ("Barrel", "FO29", "When shot at, \"draw!\": a Heart cancels the shot."),
    "SCOPE": ("Scope", "FO29", "You see the other characters 1 square nearer."),
    "MUSTANG": ("Mustang", "FO29", "The other characters see you 1 square farther."),
    "JAIL": ("Jail", "FO19", "Jail any other character: unless it \"draw!\"s a Heart it only discards in "
                             "its next turn."),
    "DYNAMITE": ("Dynamite", "FO41", "Travels Sheriff, Outlaw, Renegade; on a \"draw!\" of Spades 2 to 9 it "
                                     "explodes for 3 life."),
    "VOLCANIC": ("Volcanic", "FO18", "Weapon of reach 1 (every BANG! is unlimited here anyway)."),
    "SCHOFIELD": ("Schofield", "FO29", "Weapon of reach 2 in path distance."),
    "REMINGTON": ("Remington", "FO29", "Weapon of reach 3 in path distance."),
    "CARABINE": ("Rev. Carabine", "FO29", "Weapon of reach 4 in path distance."),
    "WINCHESTER": ("Winchester", "FO29", "Weapon of reach 5 in path distance."),
}
assert set(_CARDS) == set(CARD_TEXT)

#: where Face Off changes a character (FO50–FO53); the others play as in BANG! (FO53)
_CHARACTERS: dict[str, tuple[str, str]] = {
    "kit_carlson": ("FO50", "When he draws, looks at the top 3 brown cards and takes as many as the slots he "
                            "spends."),
    "willy_the_kid": ("FO51", "Each phase-2 slot he does not draw with moves him up to 3 squares."),
    "black_jack": ("FO52", "Shows his first phase-2 draw; a Heart or Diamond gives him one more brown card."),
    "jesse_jones": ("FO53", "His first phase-2 draw may be a random card from another character's hand."),
    "pedro_ramirez": ("FO53", "His first phase-2 draw may be the top card of the brown discard."),
    "paul_regret": ("FO53", "The other characters see him 1 square farther."),
    "rose_doolan": ("FO53", "She sees the other characters 1 square nearer."),
    "vulture_sam": ("FO53", "Takes every card of any other character that dies."),
}
_SAME = {cid: ("FO53", text) for cid, (_rule, text) in CHARACTER_TEXT.items()}

_ROLES = (
    ("sheriff", "Sheriff", "The first player's character: score two kills (trophies) before the Outlaw does."),
    ("outlaw", "Outlaw", "The second player's character: score two kills (trophies) before the Sheriff does."),
    ("renegade", "Renegade", "Neutral: each round the player who wins the bid controls it for its turn."),
)
_ROLE_RULES = {"sheriff": "FO3", "outlaw": "FO3", "renegade": "FO32"}


def _map(m: dict[str, Any]) -> dict[str, Any]:
    rows: list[str] = list(m["rows"])
    marks = {c: [x, y] for y, r in enumerate(rows) for x, c in enumerate(r) if c in "SBR"}
    return {
        "id": m["id"], "name": m.get("name", m["id"]), "size": [len(rows[0]), len(rows)],
        "width": len(rows[0]), "height": len(rows), "rows": rows,
        "starts": {"sheriff": marks.get("S"), "outlaw": marks.get("B"), "renegade": marks.get("R")},
        "nuggets": sum(r.count("N") for r in rows), "nugget_tokens": m.get("nugget_tokens", 16), "rule": "FO6",
    }


def catalogue() -> dict[str, Any]:
    """Cards (FO4: R1's, in two decks by border), characters (FO4, FO50–FO53),
    roles (FO2) and the built-in maps (FO6); no dice or symbols."""
    cards = card_entries(_CARDS)
    for card in cards:
        card["deck"] = card["border"]  # FO24: brown and blue decks
    characters = character_entries({**_SAME, **_CHARACTERS})
    roles = [{"id": rid, "name": name, "count_by_players": {"2": 1}, "goal": goal, "rule": _ROLE_RULES[rid]}
             for rid, name, goal in _ROLES]
    return {
        "ruleset": "bang-faceoff", "cards": cards, "characters": characters, "roles": roles,
        "dice": [], "faces": [], "symbols": [], "maps": [_map(m) for m in BUILTIN.values()],
    }
