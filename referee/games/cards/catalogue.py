"""The cards and characters of a catalogue (issue 24, item 2) as a table app
draws them, built from the kit's tables (``deck``, ``characters``) with the
names the rule texts print (R1, R3) and one sentence per entry citing its
rule: prose kept as data, ``catalogue.json`` beside this module, read once
through ``referee.engine.packagedata``. BANG!'s catalogue publishes them as
they are and adds its roles (R4); Face Off's (FO4) replaces the texts the
board changes. Pure: no I/O of its own."""
from __future__ import annotations

from typing import Any

from referee.engine.packagedata import package_tables
from referee.games.cards.characters import LIFE
from referee.games.cards.deck import ALL_CARDS, BLUE, KEY, RANK, SUIT, WEAPON_OF

_TEXTS = package_tables("referee.games.cards", "catalogue.json")
#: card key -> ``name`` as R1 prints it, ``rule``, ``text`` (one sentence)
CARD_TEXT: dict[str, dict[str, str]] = _TEXTS["cards"]
#: character -> ``rule``, ``text`` (one sentence); names come from the IDs (R3)
CHARACTER_TEXT: dict[str, dict[str, str]] = _TEXTS["characters"]

_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


def character_name(cid: str) -> str:
    """The printed name of a character ID (R3): ``slab_the_killer`` -> ``Slab the Killer``."""
    return " ".join(w if w == "the" else w.capitalize() for w in cid.split("_"))


def rank_name(card: str) -> str:
    """A card's printed rank (R2): ``2``…``10``, ``J``, ``Q``, ``K``, ``A``."""
    return _RANK_NAMES.get(RANK[card], str(RANK[card]))


def card_entries(texts: dict[str, dict[str, str]] | None = None) -> list[dict[str, Any]]:
    """One entry per physical card (R1, each its own ID, so ``copies`` is 1),
    in the R1 order; ``texts`` replaces a key's ``name``, ``rule`` and ``text``."""
    out: list[dict[str, Any]] = []
    for card in ALL_CARDS:
        key = KEY[card]
        said = (texts or CARD_TEXT).get(key, CARD_TEXT[key])
        entry: dict[str, Any] = {
            "id": card, "name": said["name"], "kind": key.lower(), "suit": SUIT[card], "rank": rank_name(card),
            "copies": 1, "border": "blue" if card in BLUE else "brown", "text": said["text"], "rule": said["rule"],
        }
        if card in WEAPON_OF:
            entry["range"] = WEAPON_OF[card]
        out.append(entry)
    return out


def character_entries(texts: dict[str, dict[str, str]] | None = None) -> list[dict[str, Any]]:
    """The 16 characters (R3) with their printed life; ``texts`` replaces a character's ``rule`` and ``text``."""
    out = []
    for cid, life in LIFE.items():
        said = (texts or CHARACTER_TEXT).get(cid, CHARACTER_TEXT[cid])
        out.append({"id": cid, "name": character_name(cid), "life": life, "text": said["text"], "rule": said["rule"]})
    return out
