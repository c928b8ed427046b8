"""The platform's events in words (issue 25): one template per event type of
``referee.engine.platform``, merged under every ruleset's own phrases by the
catalogue route (``GET /v1/rulesets/{name}/catalogue``, key ``phrases``).

A template's ``{key}`` is filled by the watch page with the event's (public)
data at ``key`` in words; a missing key shows as ``-``. The page names the
event's actor itself (``seat N (name): ``) before the phrase, and a seat
number in data is shown as a bare number, hence ``seat {seat}``."""
from __future__ import annotations

from collections.abc import Mapping

from referee.engine import platform

PHRASES: Mapping[str, str] = {
    platform.MOVE: "made a move ({move})",
    platform.SEAT_CLAIMED: "seat {seat} was claimed by {name}",
    platform.SEAT_REISSUED: "seat {seat} was given a new token",
    platform.SEAT_GIVEN: "seat {seat} was given to bot {bot}",
    platform.SEAT_TAKEN_OVER: "seat {seat} was away past its grace window: {by} plays it until it returns",
    platform.SEAT_RETURNED: "seat {seat} is back",
    platform.SECRETS_SEALED: "the dealt secrets were sealed",
    platform.SECRETS_OPENED: "dealt secrets were opened",
    platform.CHAT_POSTED: "said something at the table",
    platform.CHAT_HIDDEN: "chat message {seq} was hidden",
    platform.SEED_REVEALED: "the game is over; its seed was revealed",
}
