"""A seat taken over while its person was away, and given back (issue 40
item 1): ``seat_taken_over {seat, by}`` only of a person's seat not taken
over already, by the game's ``away_bot`` (``default`` when it names none), in
a game whose grace window is not off; ``seat_returned {seat}`` only of a seat
taken over. While taken over, the seat's moves are its taker's alone
(``referee.audit.movers``: a built-in bot's, re-derived like any, or the
rules' default labelled ``{"default": "away"}``); its person's own moves
only after it returned. Neither is anyone's move."""
from __future__ import annotations

from typing import Any

from referee.audit.divergence import Diverged
from referee.engine.platform import SEAT_TAKEN_OVER
from referee.engine.protocol import Json

#: ``away_bot``'s name for the rules' own default, and the ``by.default`` of its moves
DEFAULT, AWAY = "default", "away"


def check_presence_event(seats: list[Any], unclaimed: set[int], env: Json, header: Json) -> None:
    """Check a presence event against the seats as the log left them, and
    record it there (``seats[seat]["away"]``: who plays the seat while taken over)."""
    seq, data = env["seq"], env["data"]
    seat = _person_seat(seats, unclaimed, env)
    away = seats[seat].get("away")
    if env["type"] != SEAT_TAKEN_OVER:
        if away is None:
            raise Diverged("replay", seq, "data.seat", "a seat taken over", seat,
                           f"event {seq} gives back seat {seat}, which was not taken over")
        seats[seat] = {k: v for k, v in seats[seat].items() if k != "away"}
        return
    if away is not None:
        raise Diverged("replay", seq, "data.seat", "a seat not taken over", seat,
                       f"event {seq} takes over seat {seat}, taken over already")
    _check_taker(header, seq, seat, data["by"])
    seats[seat] = {**seats[seat], "away": data["by"]}


def _person_seat(seats: list[Any], unclaimed: set[int], env: Json) -> int:
    """The seat of a presence event whose data has its shape, by the system, and a person's (else a divergence)."""
    seq, data, taken = env["seq"], env["data"], env["type"] == SEAT_TAKEN_OVER
    shape = {"seat", "by"} if taken else {"seat"}
    seat = data.get("seat") if type(data) is dict else None
    if type(data) is not dict or data.keys() != shape or type(seat) is not int or env["actor"] is not None:
        raise Diverged("replay", seq, "data", "{" + ", ".join(sorted(shape)) + "}", data,
                       f"event {seq} is no {env['type']} record (by the system, of a seat)")
    if not 0 <= seat < len(seats) or seat in unclaimed or type(seats[seat]) is not dict \
            or seats[seat].get("bot") is not None:
        raise Diverged("replay", seq, "data.seat", "a person's seat", seat,
                       f"event {seq} is about seat {seat}, which no person holds")
    return seat


def _check_taker(header: Json, seq: int, seat: int, by: Any) -> None:
    """A takeover only where the header allows one, by the header's ``away_bot``."""
    if "away_grace_s" in header and header["away_grace_s"] is None:
        raise Diverged("bots", seq, "type", "(none)", SEAT_TAKEN_OVER,
                       f"event {seq} takes over a seat in a game whose header says no seat is taken over")
    expected = header.get("away_bot") or DEFAULT
    if by != expected:
        raise Diverged("bots", seq, "data.by", expected, by,
                       f"event {seq} gives seat {seat} to another than the header's away_bot")


def mover(seat: Json) -> Any:
    """Who moves for a seat record (``check_by`` has found it a dict): its
    bot, else the bot it was given while away (never ``default``)."""
    away = seat.get("away")
    return seat.get("bot") if seat.get("bot") is not None or away == DEFAULT else away
