"""Bluffaneer's events in words for the watch page (issue 25); see ``referee.engine.phrases``."""
from __future__ import annotations

PHRASES: dict[str, str] = {
    "game_started": "the game started",
    "dice_rolled": "seat {seat} rolled {dice}",
    "card_drawn": "seat {seat} drew a card",
    "card_revealed": "seat {seat} revealed {card}",
    "claim_window_opened": "seat {seat} opened a claim window",
    "claimed": "seat {seat} claimed",
    "passed": "seat {seat} passed",
    "claim_window_closed": "the claim window closed ({reason}); winner: seat {winner}",
    "claim_accepted": "seat {seat} accepted the claim of seat {claimant}",
    "claim_challenged": "seat {seat} challenged the claim of seat {claimant}",
    "coins_moved": "coins moved: {transfers}",
    "deck_reshuffled": "the deck was reshuffled",
    "turn_ended": "seat {seat}'s turn ended; next: seat {next}",
    "resigned": "seat {seat} resigned",
    "game_ended": "the game ended ({reason}); winner: seat {winner}",
}
