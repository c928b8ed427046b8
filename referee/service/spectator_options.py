"""The spectator tiers' creation options (issue 40 item 6;
``referee.service.spectators``): ``spectator_delay`` (versions) and
``spectator_omniscient``, checked, recorded in the header and shown in every
view of a game that has them."""
from __future__ import annotations

from typing import Any, NamedTuple

from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.service.game import Game

#: the creation options (platform options, beside ``turn_timeout_s``)
DELAY_OPTION, OMNISCIENT_OPTION = "spectator_delay", "spectator_omniscient"
#: the bounds of ``spectator_delay`` (versions)
MIN_DELAY, MAX_DELAY = 1, 100_000
#: the least delay of an omniscient broadcast: a seat may watch it too (from a
#: second, anonymous connection), so every hand it shows must be old news —
#: several whole rounds of play at the largest table, not the turn before
MIN_OMNISCIENT_DELAY = 50


class SpectatorTiers(NamedTuple):
    """A game's spectator tiers: spectators see it ``delay`` versions late;
    ``omniscient``: every hand too, as late (``GET /v1/games/{id}/broadcast``)."""

    delay: int
    omniscient: bool


def tiers_option(opts: dict[str, Any]) -> SpectatorTiers | None:
    """The options ``spectator_delay`` and ``spectator_omniscient`` taken out
    of ``opts`` and checked (422 ``invalid_options``); ``None``: no delay."""
    delay = opts.pop(DELAY_OPTION, None)
    omniscient = opts.pop(OMNISCIENT_OPTION, None)
    if omniscient is not None and not isinstance(omniscient, bool):
        raise ApiError(422, "invalid_options", f"{OMNISCIENT_OPTION} is true or false")
    if delay is None:
        if omniscient:
            raise ApiError(422, "invalid_options", f"{OMNISCIENT_OPTION} shows every hand late: give "
                           f"{DELAY_OPTION} (at least {MIN_OMNISCIENT_DELAY} versions) too")
        return None
    if isinstance(delay, bool) or not isinstance(delay, int) or not MIN_DELAY <= delay <= MAX_DELAY:
        raise ApiError(422, "invalid_options", f"{DELAY_OPTION} is a whole number of versions from {MIN_DELAY} "
                       f"to {MAX_DELAY}")
    if omniscient and delay < MIN_OMNISCIENT_DELAY:
        raise ApiError(422, "invalid_options", f"{OMNISCIENT_OPTION} needs {DELAY_OPTION} of at least "
                       f"{MIN_OMNISCIENT_DELAY} versions: a seat may watch the broadcast too, so the delay is "
                       "what protects the hands it shows")
    return SpectatorTiers(delay, bool(omniscient))


def header_fields(tiers: SpectatorTiers | None) -> Json:
    """What a game's header records of its tiers (nothing without a delay)."""
    if tiers is None:
        return {}
    return {DELAY_OPTION: tiers.delay, **({OMNISCIENT_OPTION: True} if tiers.omniscient else {})}


def tiers_of(game: Game) -> SpectatorTiers | None:
    """``game``'s spectator tiers, from its header."""
    delay = game.header.get(DELAY_OPTION)
    return None if delay is None else SpectatorTiers(int(delay), bool(game.header.get(OMNISCIENT_OPTION)))


def shown_delay(game: Game) -> Json:
    """The field every view of a game with a delay carries (nothing without one)."""
    tiers = tiers_of(game)
    if tiers is None:
        return {}
    return {DELAY_OPTION: {"versions": tiers.delay, "omniscient": tiers.omniscient}}
