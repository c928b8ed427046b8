"""``PUT /v1/ladder/{key}/pool/{bot_id}``'s body (docs/ladder.md, "The pool")."""
from __future__ import annotations

from marshmallow import RAISE, Schema, validate

from referee.http.schemas import WholeNumber


class PoolEntry(Schema):
    """A bot's entry in a ladder's pool: the games it plays at once (at most
    ``REFEREE_POOL_GAMES_PER_BOT``, checked by the service), the seats of one
    table it may hold (at most the ladder's largest table)."""

    class Meta:
        unknown = RAISE

    games_at_once = WholeNumber(load_default=None, validate=validate.Range(min=1))
    same_table = WholeNumber(load_default=None, validate=validate.Range(min=1))
