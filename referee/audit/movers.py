"""Who moved, and who sits where: a move record's ``by`` against the header
and the rules (``check_by``), and the seats' events between moves
(``check_seat_event``), each divergence a ``bots`` or ``replay`` one at the
event's ``seq``."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from referee import bots
from referee.audit.divergence import Diverged, same
from referee.audit.presence import AWAY, DEFAULT, mover
from referee.engine.legacy import current_move
from referee.engine.platform import SEAT_CLAIMED, SEAT_GIVEN
from referee.engine.protocol import Json, Ruleset, default_options

#: the keys of a move record's ``by``: which bot chose it, which default it is, how many moves it was drawn from
_BY_KEYS = frozenset({"bot", "default", "drawn_from"})
#: the default the turn clock applies (``workers.jobs.fire_turn_clock``)
TURN_CLOCK = "turn_clock"

#: a ``bots`` divergence of the move's ``by``: ``(field, expected, found, why)``
Refusal = Callable[[str, Any, Any, str], Diverged]


def _refused(seq: int, field: str, expected: Any, found: Any, why: str) -> Diverged:
    return Diverged("bots", seq, f"data.by{field}", expected, found, f"the move at event {seq} {why}")


def check_by(rs: Ruleset[Any], header: Json, state: Any, env: Json, last_at: Any) -> Json:
    """Who moved, as the move record's ``by`` says, agrees with the header and
    the rules (a ``bots`` divergence at the move's ``seq`` otherwise); ``by``
    (``{}`` for none). A move without ``by`` was sent by a seat (or is the
    system's ``timeout``). ``{"bot": B}``: only for a seat the header gives to
    bot ``B``; with ``"default": cause`` only a registered (webhook) bot's, as
    a built-in bot always chooses, and only with a cause the worker records
    (``bots.is_default_cause``: ``invalid_answer``, ``attempts_spent``, …).
    ``{"default": "turn_clock"}``: only in a game with ``turn_timeout_s``, at
    or after the deadline (the previous event's time plus the timeout), for
    the lowest awaited seat that owes a default; in a game with a ``clock``,
    at or after that seat's deadline (``referee.audit.clocks``).
    A default is a move the rules define as one (``default_options``): the one
    option, or one drawn from several (``drawn_from``, checked with the draw)."""
    seq, actor, data = env["seq"], env["actor"], env["data"]
    if "by" not in data:
        _check_unlabelled(header, seq, actor)
        return {}
    by = data["by"]
    refuse: Refusal = partial(_refused, seq)
    if type(by) is not dict or not by or not by.keys() <= _BY_KEYS:
        raise refuse("", "{bot?, default?, drawn_from?}", by, "names no mover the referee records")
    seats = header.get("seats")
    if type(actor) is not int or type(seats) is not list or not 0 <= actor < len(seats) \
            or type(seats[actor]) is not dict:
        raise refuse("", "(absent)", by, "is the system's own, which no bot or default makes")
    default = by.get("default")
    if "bot" in by:
        _check_bot(by, mover(seats[actor]), actor, refuse)
    elif default == AWAY:
        if seats[actor].get("away") != DEFAULT:
            raise refuse(".default", "(absent)", default, f"is labelled the default of seat {actor} taken over "
                         "while away, and the seat is not taken over by its default")
    elif default != TURN_CLOCK:
        raise refuse(".default", TURN_CLOCK, default, "is labelled neither a bot's nor the turn clock's")
    else:
        _check_turn_clock(rs, header, state, env, last_at, refuse)
    if "default" in by:
        _check_default(rs, state, env, by, refuse)
    elif "drawn_from" in by:
        raise refuse(".drawn_from", "(absent)", by["drawn_from"], "records a draw, and is no default")
    return by


def _check_unlabelled(header: Json, seq: int, actor: Any) -> None:
    """A move without ``by`` is no move at a seat the header gives to a bot."""
    seats = header.get("seats")
    record = seats[actor] if type(actor) is int and type(seats) is list and 0 <= actor < len(seats) \
        and type(seats[actor]) is dict else {}
    owner = record.get("bot") or record.get("away")  # a seat taken over while away (referee.audit.presence)
    if owner is not None:  # a bot's seat has no token: only the worker moves for it, and says so
        raise Diverged("bots", seq, "data.by", {"bot": owner}, "(missing)",
                       f"the move at event {seq} is labelled seat {actor}'s own, and the header gives seat "
                       f"{actor} to bot {owner!r}, whose seat has no token: only its bot moves there")


def _check_bot(by: Json, seat_bot: Any, actor: int, refuse: Refusal) -> None:
    """``{"bot": B}`` only at a seat of bot ``B``; with a default only a registered bot's, for a cause recorded."""
    bot, default = by.get("bot"), by.get("default")
    if type(bot) is not str or bot != seat_bot:
        raise refuse(".bot", seat_bot, bot, f"is labelled a bot's, and the header gives seat {actor} "
                     + (f"to {seat_bot!r}" if seat_bot is not None else "to no bot"))
    if "default" in by and (bot in bots.BUILT_IN or not bots.is_default_cause(default)):
        raise refuse(".default", "(absent)", default, f"is labelled a default of the {bot} bot, which "
                     + ("always chooses" if bot in bots.BUILT_IN else
                        "fails with one of the causes the referee records (referee.bots.DEFAULT_CAUSES)"))


def _check_turn_clock(rs: Ruleset[Any], header: Json, state: Any, env: Json, last_at: Any,
                      refuse: Refusal) -> None:
    """``{"default": "turn_clock"}`` only with a turn clock, at or after its deadline, for the seat it defaults."""
    actor, default = env["actor"], TURN_CLOCK
    if "clock" in header:  # a clocked game's: its deadline and seat are the clock check's (referee.audit.clocks)
        return
    timeout = header.get("turn_timeout_s")
    if timeout is None or isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise refuse(".default", "(absent)", default, "is labelled the turn clock's in a game without one")
    deadline = last_at + int(timeout * 1000) if type(last_at) is int else None
    if deadline is None or type(env["at"]) is not int or env["at"] < deadline:
        raise refuse(".default", "(absent)", default, f"is labelled the turn clock's before its deadline "
                     f"({deadline})")
    owing = [s for s in sorted(rs.to_act(state)) if default_options(rs, state, s)]
    if not owing or owing[0] != actor:
        raise refuse(".default", "(absent)", default, f"is labelled the turn clock's default for seat "
                     f"{actor}, and the clock defaults seat {owing[0] if owing else None}")


def _check_default(rs: Ruleset[Any], state: Any, env: Json, by: Json, refuse: Refusal) -> None:
    """A default is a move the rules define as one: the one option, or one drawn (``drawn_from``) from several."""
    seq, actor, data, default = env["seq"], env["actor"], env["data"], by.get("default")
    options = default_options(rs, state, actor)
    if not options:
        raise refuse(".default", "(absent)", default, f"is labelled a default, and seat {actor} owes none")
    if len(options) == 1 and "drawn_from" in by:
        raise refuse(".drawn_from", "(absent)", by["drawn_from"],
                     "records a draw, and the rules define one default")
    if len(options) == 1 and not same(options[0], current_move(rs, data["move"])):
        raise Diverged("bots", seq, "data.move", options[0], data["move"],
                       f"the move at event {seq} is labelled a default, and is not the rules' default")
    if len(options) > 1 and "drawn_from" not in by:
        raise refuse(".drawn_from", len(options), "(missing)",
                     "is labelled a default, and the rules draw it from several moves: no draw is recorded")


def check_seat_event(seats: list[Any], unclaimed: set[int], env: Json, header: Json | None = None) -> None:
    """A seat's event between moves (``referee.engine.platform.SEAT_EVENTS``):
    ``seat_claimed {seat, name}`` only of a seat the header opened and nobody
    claimed yet; ``seat_given_to_bot {seat, bot}`` likewise, and only of the
    header's ``start_bot``, at or after its start deadline (the seat is that
    bot's from then on: ``seats`` is updated); ``seat_token_reissued {seat}``
    only of a person's seat that holds a token (not a bot's, not an open one).
    None is anyone's move."""
    seq, data, type_ = env["seq"], env["data"], env["type"]
    given = type_ == SEAT_GIVEN
    claimed = type_ == SEAT_CLAIMED or given
    if given:
        _check_given(header or {}, env, data)
    seat = _seat_record(env, given, claimed)
    if claimed and seat not in unclaimed:
        raise Diverged("replay", seq, "data.seat", sorted(unclaimed), seat,
                       f"event {seq} claims seat {seat}, which is not an open seat nobody claimed")
    if not claimed and (not 0 <= seat < len(seats) or seat in unclaimed or type(seats[seat]) is not dict
                        or seats[seat].get("bot") is not None):
        raise Diverged("replay", seq, "data.seat", "a person's seat with a token", seat,
                       f"event {seq} reissues the token of seat {seat}, which has none")
    unclaimed.discard(seat)
    if given:
        seats[seat] = {**seats[seat], "bot": data["bot"]}


def _seat_record(env: Json, given: bool, claimed: bool) -> int:
    """The seat of a seat's event, whose data has that event's shape, by the system (a ``replay`` divergence
    otherwise)."""
    seq, data, type_ = env["seq"], env["data"], env["type"]
    shape = {"seat", "bot"} if given else {"seat", "name"} if claimed else {"seat"}
    seat = data.get("seat") if type(data) is dict else None
    if type(data) is not dict or data.keys() != shape or type(seat) is not int or env["actor"] is not None \
            or (type_ == SEAT_CLAIMED and (type(data["name"]) is not str or not data["name"])):
        raise Diverged("replay", seq, "data", "{" + ", ".join(sorted(shape)) + "}", data,
                       f"event {seq} is no {type_} record (by the system, of a seat)")
    return seat


def _check_given(header: Json, env: Json, data: Any) -> None:
    """``seat_given_to_bot``: of the header's ``start_bot``, at or after ``created_at + start_timeout_s``."""
    seq, timeout, bot = env["seq"], header.get("start_timeout_s"), header.get("start_bot")
    if type(data) is not dict or type(bot) is not str or data.get("bot") != bot:
        raise Diverged("bots", seq, "data.bot", bot, data.get("bot") if type(data) is dict else data,
                       f"event {seq} gives a seat to a bot the header does not name as its start_bot")
    created = header.get("created_at")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or type(created) is not int \
            or type(env["at"]) is not int or env["at"] < created + int(timeout * 1000):
        raise Diverged("bots", seq, "at", "the start deadline or later", env["at"],
                       f"event {seq} gives a seat to a bot before the header's start deadline (or with none)")
