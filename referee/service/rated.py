"""Which games are rated (issue 42; docs/ladder.md, "Ratings"), decided
from the game's header alone, so the live ladder and ``referee ratings
recompute`` over the archive agree: a game created with the option
``rated: true``, a game the matchmaking pool dealt (``pool``), or a
tournament's game that is not custom. And whose a registered bot is: its
``owner``, an opaque id of the client that registered it."""
from __future__ import annotations

from typing import Any

from referee.engine import sha256_hex
from referee.engine.protocol import Json
from referee.errors import ApiError

#: the owner of bots registered with the admin token
ADMIN_OWNER = "admin"


def owner_id(client: str | None) -> str:
    """The owner a bot registered by ``client`` (the quota's client key,
    ``referee.http.quotas.client``; ``None``: the admin) is shown with: the
    first 16 hex digits of the key's SHA-256, never the address itself."""
    return ADMIN_OWNER if client is None else sha256_hex(client)[:16]


def rated_option(value: Any, seat_specs: list[Json]) -> bool:
    """The platform option ``rated``: a boolean; ``true`` only when every
    seat is a bot's (built-in or registered): a person's game moves no bot's rating."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(422, "invalid_options", "rated is true or false")
    if value and not all(spec.get("bot") and not spec.get("open") for spec in seat_specs):
        people = [i for i, spec in enumerate(seat_specs) if not spec.get("bot") or spec.get("open")]
        raise ApiError(422, "invalid_options", f"a rated game is played by bots only: seat {people[0]} is no "
                       "bot's (give every seat a built-in or registered bot)")
    return value


def is_rated(header: Json) -> bool:
    """Whether a finished game with this header goes to the ladder: asked
    for (``rated``), dealt by the pool (``pool``), or a tournament's game
    that is not custom."""
    return header.get("rated") is True or bool(header.get("pool")) or (
        header.get("tournament") is not None and not header.get("custom"))
