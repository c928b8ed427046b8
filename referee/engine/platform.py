"""The platform's own event types in a game's stream (docs/design-notes.md);
every other type belongs to the ruleset."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: an accepted move as submitted: ``{move, rng, by?}``, recorded before the events it caused
MOVE = "move"
#: ``{seed, result}``: the last event of a finished game
SEED_REVEALED = "seed_revealed"
#: ``{commitments: {name: sha256_hex(salt + canonical(value))}}`` of the secrets the deal hides
SECRETS_SEALED = "secrets_sealed"
#: ``{secrets: {name: {value, salt}}}``: dealt secrets that became public
SECRETS_OPENED = "secrets_opened"
#: ``{seat, name}``: an open seat claimed by a player (its token handed to the claimant only)
SEAT_CLAIMED = "seat_claimed"
#: ``{seat}``: the game's creator gave a seat a new token; the old one stopped working
SEAT_REISSUED = "seat_token_reissued"
#: ``{seat, bot}``: an open seat nobody claimed by the start deadline, given to a built-in bot
SEAT_GIVEN = "seat_given_to_bot"
#: ``{seat, by}``: a person's seat away past the grace window (issue 40 item 1), played from now on by
#: ``by`` (a built-in bot, or ``default``: the rules' default) until it returns
SEAT_TAKEN_OVER = "seat_taken_over"
#: ``{seat}``: a taken-over seat's person is back; the seat is theirs again
SEAT_RETURNED = "seat_returned"
#: the events of a seat's presence (``referee.service.presence``)
PRESENCE_EVENTS = frozenset({SEAT_TAKEN_OVER, SEAT_RETURNED})
#: the events of a game's seats, not of its rules: between moves, caused by none
SEAT_EVENTS = frozenset({SEAT_CLAIMED, SEAT_REISSUED, SEAT_GIVEN}) | PRESENCE_EVENTS
#: ``{seat, said}``: a table chat message (issue 40 item 5; ``seat`` ``None``: a spectator's), whose text
#: enters the chain only as ``said = sha256_hex(salt + canonical(text))`` with a random salt (docs/chat.md)
CHAT_POSTED = "chat_posted"
#: ``{seq, by}``: chat message ``seq``'s text hidden from views by the game's creator or the admin
CHAT_HIDDEN = "chat_hidden"
#: the table's talk, not the game's: between moves, caused by none, never a change of the game's state
CHAT_EVENTS = frozenset({CHAT_POSTED, CHAT_HIDDEN})
PLATFORM_EVENTS = frozenset({MOVE, SEED_REVEALED, SECRETS_SEALED, SECRETS_OPENED}) | SEAT_EVENTS | CHAT_EVENTS
#: shown whole to everyone, always
PUBLIC_EVENTS = frozenset({SEED_REVEALED, SECRETS_SEALED, SECRETS_OPENED}) | SEAT_EVENTS | CHAT_EVENTS

#: the move a seat resigns with (issue 24), where its rules list it in ``legal_moves``
RESIGN = "resign"


def playing_moves(moves: Sequence[Any]) -> Sequence[Any]:
    """``moves`` less ``resign``, unless it is the only one: what a built-in
    bot (and the in-memory random chooser) picks among. A bot never gives a
    game up, and a ruleset adding ``resign`` changes no bot's choice."""
    playing = [m for m in moves if m.get("type") != RESIGN]
    return playing if playing and len(playing) != len(moves) else moves


def default_seat_name(seat: int) -> str:
    """A seat's name in a game's header when its creator gave it none."""
    return f"seat {seat}"
