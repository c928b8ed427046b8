"""The platform's own event types in a game's stream (README, design notes);
every other type belongs to the ruleset."""
from __future__ import annotations

#: an accepted move as submitted: ``{move, rng, by?}``, recorded before the events it caused
MOVE = "move"
#: ``{seed, result}``: the last event of a finished game
SEED_REVEALED = "seed_revealed"
#: ``{commitments: {name: sha256_hex(salt + canonical(value))}}`` of the secrets the deal hides
SECRETS_SEALED = "secrets_sealed"
#: ``{secrets: {name: {value, salt}}}``: dealt secrets that became public
SECRETS_OPENED = "secrets_opened"
PLATFORM_EVENTS = frozenset({MOVE, SEED_REVEALED, SECRETS_SEALED, SECRETS_OPENED})
#: shown whole to everyone, always
PUBLIC_EVENTS = frozenset({SEED_REVEALED, SECRETS_SEALED, SECRETS_OPENED})
