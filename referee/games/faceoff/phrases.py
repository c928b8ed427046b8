"""Bang! Face Off's events in words for the watch page (issue 25); see
``referee.engine.phrases``. ``char`` is a character: 0 the Sheriff's, 1 the
Outlaw's, 2 the Renegade."""
from __future__ import annotations

PHRASES: dict[str, str] = {
    "game_setup": "the game was set up; seat {sheriff_seat} plays the Sheriff",
    "flow": "the game moved on",
    "bid_made": "seat {seat} made a bid",
    "bids_revealed": "the bids were revealed: {bids}; seat {winner} won",
    "moved": "character {char} moved along {path}",
    "nugget_placed": "seat {seat} placed a nugget on {square}",
    "nugget_taken": "character {char} took the nugget on {square}",
    "cards_drawn": "character {char} drew {count} card(s) ({reason})",
    "card_played": "character {char} played {card}",
    "card_discarded": "character {char} discarded {cards} ({reason})",
    "card_passed": "character {char} passed {card} to character {to}",
    "card_picked": "character {char} picked {card}",
    "card_shown": "character {char} showed {card} ({reason})",
    "card_taken": "character {char} took {card} from character {from} ({zone}, {reason})",
    "cards_inherited": "character {char} inherited the cards of character {from}",
    "cards_revealed": "character {char} revealed {cards} ({reason})",
    "deck_reshuffled": "the {deck} deck was reshuffled",
    "draw_checked": "character {char} drew {card} to check ({reason})",
    "life_changed": "character {char}: life {kind} of {amount}",
    "limbo_returned": "{count} card(s) came back from limbo",
    "character_eliminated": "character {char} ({character}) was eliminated",
    "character_replaced": "character {char} is now {character}, with {life} life",
    "game_over": "the game is over",
}
