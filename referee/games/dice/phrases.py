"""Bang! The Dice Game's events in words for the watch page (issue 25); see ``referee.engine.phrases``."""
from __future__ import annotations

PHRASES: dict[str, str] = {
    "game_started": "the game started",
    "awaiting": "waiting for seat {seat}: {kind}",
    "turn_started": "seat {seat}'s turn began",
    "dice_rolled": "seat {seat} rolled {dice}",
    "arrow_taken": "seat {seat} took {count} arrow(s)",
    "arrows_discarded": "seat {seat} discarded arrows",
    "arrows_returned": "seat {seat}'s arrows went back to the pile",
    "shots_planned": "shots planned at seats {targets}",
    "shot_declared": "a shot at seat {target}",
    "token_given": "seat {seat} gave seat {target} a {face} token",
    "life_gained": "seat {seat} gained {amount} life",
    "life_lost": "life lost (seat, amount): {losses}",
    "player_eliminated": "seat {seat} was eliminated: {role}",
    "player_resigned": "seat {seat} resigned",
    "game_ended": "the game ended ({reason}); winners: seats {winners}",
}
