"""Bang's events in words for the watch page (issue 25); see ``referee.engine.phrases``."""
from __future__ import annotations

PHRASES: dict[str, str] = {
    "game_started": "the game started",
    "awaiting": "waiting for seats {to_act} ({phase} phase)",
    "turn_started": "seat {seat}'s turn began",
    "cards_drawn": "seat {seat} drew {cards} ({reason})",
    "card_played": "seat {seat} played {card}",
    "card_discarded": "seat {seat} discarded {cards} ({reason})",
    "card_passed": "seat {seat} passed {card} to seat {to}",
    "card_picked": "seat {seat} picked {card}",
    "card_shown": "seat {seat} showed {card} ({reason})",
    "card_taken": "seat {seat} took a card from seat {from} ({zone}, {reason})",
    "cards_inherited": "seat {seat} inherited the cards of seat {from}",
    "cards_revealed": "seat {seat} revealed {cards} ({reason})",
    "deck_reshuffled": "the discard pile was shuffled into the deck",
    "draw_checked": "seat {seat} drew {card} to check ({reason})",
    "kit_kept": "seat {seat} kept {kept} and returned {returned}",
    "life_gained": "seat {seat} gained {amount} life",
    "life_lost": "seat {seat} lost {amount} life",
    "player_eliminated": "seat {seat} was eliminated: {role}",
    "player_resigned": "seat {seat} resigned",
    "game_over": "the game is over",
}
