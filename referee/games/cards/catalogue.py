"""The cards and characters of a catalogue (issue 24, item 2) as a table app
draws them, built from the kit's tables (``deck``, ``characters``) with the
names the rule texts print (R1, R3) and one sentence per entry citing its
rule. BANG!'s catalogue publishes them as they are and adds its roles (R4);
Face Off's (FO4) replaces the texts the board changes. Pure: no I/O."""
from __future__ import annotations

from typing import Any

from referee.games.cards.characters import LIFE
from referee.games.cards.deck import ALL_CARDS, BLUE, KEY, RANK, SUIT, WEAPON_OF

#: card key -> (name as R1 prints it, rule, one sentence)
CARD_TEXT: dict[str, tuple[str, str, str]] = {
    "BANG": ("BANG!", "R23", "Shoot one player within your reach; he loses 1 life unless he misses it."),
    "MISSED": ("Missed!", "R24", "Cancel one shot aimed at you."),
    "BEER": ("Beer", "R25", "Regain 1 life, also to save yourself when dying (not with two players left)."),
    "PANIC": ("Panic!", "R30", "Take a card from the hand or the play area of a player at distance 1."),
    "CATBALOU": ("Cat Balou", "R31", "Make any other player discard a card from his hand or his play area."),
    "STAGECOACH": ("Stagecoach", "R27", "Draw 2 cards."),
    "WELLSFARGO": ("Wells Fargo", "R28", "Draw 3 cards."),
    "GENERALSTORE": ("General Store", "R29", "Turn up one card per living player; each takes one in turn."),
    "DUEL": ("Duel", "R32", "Challenge a player: you take turns discarding BANG! cards and the first who cannot "
                            "loses 1 life."),
    "INDIANS": ("Indians!", "R34", "Every other player discards a BANG! card or loses 1 life."),
    "GATLING": ("Gatling", "R33", "Shoot every other player at once."),
    "SALOON": ("Saloon", "R26", "Every living player regains 1 life."),
    "BARREL": ("Barrel", "R35", "When shot at, \"draw!\": a Heart cancels the shot."),
    "SCOPE": ("Scope", "R36", "You see every other player at 1 less distance."),
    "MUSTANG": ("Mustang", "R37", "Every other player sees you at 1 more distance."),
    "JAIL": ("Jail", "R38", "Put a player other than the Sheriff in jail: he skips his turn unless he "
                            "\"draw!\"s a Heart."),
    "DYNAMITE": ("Dynamite", "R39", "Passes from player to player; on a \"draw!\" of Spades 2 to 9 it explodes "
                                    "for 3 life."),
    "VOLCANIC": ("Volcanic", "R40", "Weapon of reach 1 that lets you play any number of BANG! cards."),
    "SCHOFIELD": ("Schofield", "R40", "Weapon of reach 2."),
    "REMINGTON": ("Remington", "R40", "Weapon of reach 3."),
    "CARABINE": ("Rev. Carabine", "R40", "Weapon of reach 4."),
    "WINCHESTER": ("Winchester", "R40", "Weapon of reach 5."),
}

#: character -> (rule, one sentence); names come from the IDs (R3)
CHARACTER_TEXT: dict[str, tuple[str, str]] = {
    "bart_cassidy": ("R61", "Draws a card for each life point he loses."),
    "black_jack": ("R62", "Shows his second card drawn; on a Heart or Diamond he draws one more."),
    "calamity_janet": ("R63", "Uses BANG! cards as Missed! and Missed! cards as BANG!."),
    "el_gringo": ("R64", "For each life point lost, takes a random hand card from whoever hurt him."),
    "jesse_jones": ("R65", "May draw his first card from another player's hand."),
    "jourdonnais": ("R66", "Has a Barrel of his own at all times."),
    "kit_carlson": ("R67", "Looks at the top 3 cards of the deck, keeps 2 and puts the other back."),
    "lucky_duke": ("R68", "Flips 2 cards for every \"draw!\" and picks the one he likes."),
    "paul_regret": ("R69", "Has a Mustang of his own: others see him at 1 more distance."),
    "pedro_ramirez": ("R70", "May draw his first card from the top of the discard pile."),
    "rose_doolan": ("R71", "Has a Scope of her own: she sees others at 1 less distance."),
    "sid_ketchum": ("R72", "May discard 2 cards to regain 1 life."),
    "slab_the_killer": ("R73", "His BANG! cards need two Missed! to be cancelled."),
    "suzy_lafayette": ("R74", "Draws a card whenever her hand becomes empty."),
    "vulture_sam": ("R75", "Takes every card of each eliminated player."),
    "willy_the_kid": ("R76", "May play any number of BANG! cards in his turn."),
}

_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


def character_name(cid: str) -> str:
    """The printed name of a character ID (R3): ``slab_the_killer`` -> ``Slab the Killer``."""
    return " ".join(w if w == "the" else w.capitalize() for w in cid.split("_"))


def rank_name(card: str) -> str:
    """A card's printed rank (R2): ``2``…``10``, ``J``, ``Q``, ``K``, ``A``."""
    return _RANK_NAMES.get(RANK[card], str(RANK[card]))


def card_entries(texts: dict[str, tuple[str, str, str]] | None = None) -> list[dict[str, Any]]:
    """One entry per physical card (R1, each its own ID, so ``copies`` is 1),
    in the R1 order; ``texts`` replaces a key's (name, rule, text)."""
    out: list[dict[str, Any]] = []
    for card in ALL_CARDS:
        key = KEY[card]
        name, rule, text = (texts or CARD_TEXT).get(key, CARD_TEXT[key])
        entry: dict[str, Any] = {
            "id": card, "name": name, "kind": key.lower(), "suit": SUIT[card], "rank": rank_name(card), "copies": 1,
            "border": "blue" if card in BLUE else "brown", "text": text, "rule": rule,
        }
        if card in WEAPON_OF:
            entry["range"] = WEAPON_OF[card]
        out.append(entry)
    return out


def character_entries(texts: dict[str, tuple[str, str]] | None = None) -> list[dict[str, Any]]:
    """The 16 characters (R3) with their printed life."""
    out = []
    for cid, life in LIFE.items():
        rule, text = (texts or CHARACTER_TEXT).get(cid, CHARACTER_TEXT[cid])
        out.append({"id": cid, "name": character_name(cid), "life": life, "text": text, "rule": rule})
    return out
