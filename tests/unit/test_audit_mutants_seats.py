"""Seat events in a log (issue 22, item 8: tests that would notice;
``referee.audit._check_seat_event``): ``seat_claimed {seat, name}`` of a seat
the header opened, once, before any move; ``seat_token_reissued {seat}`` of a
person's seat that holds a token. Logs with such events are built offline —
a finished game's events with seat events put in, renumbered, salted from the
seed and re-chained, as the service would have written them — and every
refusal is named by its ``seq`` and field (``tests/api/test_open_seats.py``
plays the same over HTTP)."""
from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import pytest

from referee.audit import CHECKS, audit_log
from referee.engine import canonical, event_salt, header_hash
from tests.forge import rechain
from tests.unit.test_audit_mutants_by import played_game

Events = list[dict[str, Any]]


@pytest.fixture(scope="module")
def game() -> Any:
    """A finished 3-seat dice game, played offline (no bots, no turn clock)."""
    return played_game("bang-dice", 3, seed="seat-mutants")


def _header(game: Any, *, open_seats: Sequence[int] = (1, 2), **seats: Any) -> dict[str, Any]:
    """The game's header, seats ``open_seats`` opened (``seats``: ``s<n>=`` another entry for seat n)."""
    header = copy.deepcopy(game.header)
    for seat in open_seats:
        header["seats"][seat]["open"] = True
    for name, entry in seats.items():
        header["seats"][int(name[1:])] = entry
    return header


def _move(game: Any, nth: int) -> int:
    """The index of the game's ``nth`` move (0: the first; -1: the last): a seat event goes before a move."""
    return [i for i, e in enumerate(game.envelopes) if e["type"] == "move"][nth]


def _first_move(game: Any) -> int:
    return _move(game, 0)


def _log(game: Any, header: dict[str, Any], inserts: Sequence[tuple[Any, ...]],
         actor: Any = None) -> Events:
    """The game's events with ``(index, type, data[, at])`` events put in before the event at ``index`` (of
    the original log; ``at`` by default the previous event's), renumbered, each salt the seed's, re-chained
    from ``header``'s hash."""
    original: Events = json.loads(canonical(game.envelopes))
    events: Events = []
    for index in range(len(original) + 1):
        for _, type_, data, *when in [i for i in inserts if i[0] == index]:  # in the order given
            at = when[0] if when else original[index - 1]["at"] if index else header["created_at"]
            events.append({"seq": 0, "type": type_, "actor": actor, "at": at, "commit": "", "prev": "",
                           "hash": "", "data": data, "salt": ""})
        events += original[index:index + 1]
    for seq, env in enumerate(events, start=1):
        env["seq"], env["salt"] = seq, event_salt(game.seed_text, seq)
    return rechain(header_hash(header), events)


def _audit(header: dict[str, Any], events: Events) -> dict[str, Any]:
    return audit_log(header, header_hash(header), events)


def _claims(game: Any, *seats: int) -> list[tuple[int, str, Any]]:
    return [(_first_move(game), "seat_claimed", {"seat": s, "name": f"player {s}"}) for s in seats]


def _refused(header: dict[str, Any], events: Events, seq: int, field: str, check: str = "replay") -> dict[str, Any]:
    report = _audit(header, events)
    assert not report["ok"], "the forgery went unseen"
    d = report["divergence"]
    assert (d["check"], d["seq"], d["field"]) == (check, seq, field), d
    names = [c["name"] for c in report["checks"]]
    assert names == [*CHECKS[:CHECKS.index("randomness")], check], names
    return d


def test_claims_of_the_open_seats_then_a_reissue_audit_clean(game: Any) -> None:
    header = _header(game)
    reissue = (_move(game, -1), "seat_token_reissued", {"seat": 0})
    events = _log(game, header, [*_claims(game, 2, 1), reissue, (_move(game, 3), "seat_token_reissued", {"seat": 1})])
    assert [e["type"] for e in events].count("seat_claimed") == 2
    report = _audit(header, events)
    assert report["ok"], report["divergence"]
    assert report["events"] == len(game.envelopes) + 4
    # no seat opened: a reissue of any person's seat, at the start or between moves
    plain = _header(game, open_seats=())
    events = _log(game, plain, [(_move(game, 0), "seat_token_reissued", {"seat": 2}),
                                (_move(game, 0), "seat_token_reissued", {"seat": 0}),
                                (_move(game, 1), "seat_token_reissued", {"seat": 2})])
    assert _audit(plain, events)["ok"]


@pytest.mark.parametrize("data", [
    None, [1, "ann"], "seat 1", {"seat": 1}, {"name": "ann"}, {"seat": 1, "name": "ann", "at": 0},
    {"seat": "1", "name": "ann"}, {"seat": True, "name": "ann"}, {"seat": 1.0, "name": "ann"},
    {"seat": None, "name": "ann"},
    {"seat": 1, "name": ""}, {"seat": 1, "name": 5}, {"seat": 1, "name": None}, {"seat": 1, "name": ["ann"]},
])
def test_a_claim_of_another_shape_is_refused(game: Any, data: Any) -> None:
    header = _header(game, open_seats=(1,))
    n = _first_move(game)
    events = _log(game, header, [(n, "seat_claimed", data)])
    d = _refused(header, events, n + 1, "data")
    assert (d["expected"], d["found"]) == ("{name, seat}", data)


@pytest.mark.parametrize("data", [None, [1], {}, {"seat": 1, "name": "ann"}, {"seat": "1"}, {"seat": False},
                                  {"seat": 1.0}, {"at": 1}])
def test_a_reissue_of_another_shape_is_refused(game: Any, data: Any) -> None:
    header = _header(game, open_seats=())
    n = _move(game, 2)
    events = _log(game, header, [(n, "seat_token_reissued", data)])
    d = _refused(header, events, n + 1, "data")
    assert (d["expected"], d["found"]) == ("{seat}", data)


@pytest.mark.parametrize("kind", ["seat_claimed", "seat_token_reissued"])
def test_a_seat_event_is_the_systems_own(game: Any, kind: str) -> None:
    header = _header(game, open_seats=(1,))
    n = _first_move(game)
    for actor in (0, 1, "system", False):
        events = _log(game, header, [(n, kind, {"seat": 1, "name": "ann"} if kind == "seat_claimed" else {"seat": 1})],
                      actor=actor)
        if kind == "seat_claimed":
            _refused(header, events, n + 1, "data")
        else:  # (a reissue of the open seat 1 would be refused too: the actor is checked first)
            d = _refused(header, events, n + 1, "data")
            assert d["expected"] == "{seat}"


def test_a_claim_of_a_seat_that_is_not_open_or_claimed_already_is_refused(game: Any) -> None:
    header = _header(game)
    n = _first_move(game)
    for seat in (0, 3, -1, 7):
        events = _log(game, header, [(n, "seat_claimed", {"seat": seat, "name": "eve"})])
        d = _refused(header, events, n + 1, "data.seat")
        assert (d["expected"], d["found"]) == ([1, 2], seat)
    events = _log(game, header, [*_claims(game, 1), (_first_move(game), "seat_claimed", {"seat": 1, "name": "eve"})])
    d = _refused(header, events, n + 2, "data.seat")
    assert (d["expected"], d["found"]) == ([2], 1)
    # an open seat the header marks open in another way is no open seat
    odd = _header(game, open_seats=(), s1={**game.header["seats"][1], "open": 1})
    d = _refused(odd, _log(game, odd, _claims(game, 1)), n + 1, "data.seat")
    assert d["expected"] == []


def test_a_move_while_a_seat_is_open_is_refused(game: Any) -> None:
    header = _header(game)
    n = _first_move(game)
    events = _log(game, header, _claims(game, 1))
    d = _refused(header, events, n + 2, "type")
    assert (d["expected"], d["found"]) == ("seat_claimed", "move")
    # every seat open, none claimed: the first move is refused
    d = _refused(header, _log(game, header, []), n + 1, "type")
    assert (d["expected"], d["found"]) == ("seat_claimed", "move")


def test_a_reissue_of_a_seat_without_a_token_is_refused(game: Any) -> None:
    n = _first_move(game)
    header = _header(game, open_seats=(2,))
    for seat in (2, 3, -1, 10):  # an open seat (not claimed yet), seats the header does not have
        events = _log(game, header, [(n, "seat_token_reissued", {"seat": seat})])
        d = _refused(header, events, n + 1, "data.seat")
        assert (d["expected"], d["found"]) == ("a person's seat with a token", seat)
    # a bot's seat, and a seat the header writes as no object: no token either
    for entry in ({**game.header["seats"][1], "bot": "random"}, "seat 1", None):
        odd = _header(game, open_seats=(), s1=entry)
        events = _log(game, odd, [(n, "seat_token_reissued", {"seat": 1})])
        _refused(odd, events, n + 1, "data.seat")
    # claimed, the seat has a token: its reissue holds
    events = _log(game, header, [*_claims(game, 2), (n, "seat_token_reissued", {"seat": 2})])
    assert _audit(header, events)["ok"]


def test_a_seat_event_after_the_result_is_caused_by_no_move(game: Any) -> None:
    header = _header(game, open_seats=())
    last = len(game.envelopes)
    events = _log(game, header, [(last, "seat_token_reissued", {"seat": 0})])
    events.append({**copy.deepcopy(events[-2]), "seq": last + 2})  # the seed revealed again, at the end
    events[-1]["salt"] = event_salt(game.seed_text, last + 2)
    events = rechain(header_hash(header), events)
    d = _refused(header, events, last + 1, "type")
    assert (d["expected"], d["found"]) == ("(end of log)", "seat_token_reissued")


# -- seat_given_to_bot: an open seat given to the header's start_bot at its start deadline ----------
START = 60_000  # start_timeout_s 60, created at 0


def _started(game: Any, **change: Any) -> dict[str, Any]:
    header = _header(game)
    header.update({"start_bot": "hook", "start_timeout_s": 60, **change})
    return {k: v for k, v in header.items() if v is not None}


def _given_log(game: Any, header: dict[str, Any], data: Any = None, at: Any = START, hooked: bool = True,
               actor: Any = None) -> Events:
    """Seat 2 claimed, then seat 1 given to the bot, before the first move; seat 1's moves labelled its bot's."""
    given = {"seat": 1, "bot": "hook"} if data is None else data
    events = _log(game, header, [*_claims(game, 2), (_first_move(game), "seat_given_to_bot", given, at)])
    if actor is not None:
        events[_first_move(game) + 1]["actor"] = actor
    for env in events[:_first_move(game) + 1]:  # the deal and the claim: at the header's creation
        env["at"] = header.get("created_at")
    for env in events:
        if hooked and env["type"] == "move" and env["actor"] == 1:
            env["data"]["by"] = {"bot": "hook"}
    return rechain(header_hash(header), events)


def test_an_open_seat_given_to_the_start_bot_at_its_deadline_audits_clean(game: Any) -> None:
    assert game.header["created_at"] == 0
    header = _started(game)
    for at in (START, START + 1, 10**9):
        report = _audit(header, _given_log(game, header, at=at))
        assert report["ok"], report["divergence"]
    half = _started(game, start_timeout_s=0.5)
    assert _audit(half, _given_log(game, half, at=500))["ok"]
    # the seat is the bot's from then on: a move of its own is refused, and so is a reissue of its token
    first = next(i for i, e in enumerate(_given_log(game, header)) if e["type"] == "move" and e["actor"] == 1)
    d = _refused(header, _given_log(game, header, hooked=False), first + 1, "data.by", check="bots")
    assert d["expected"] == {"bot": "hook"}
    n = _first_move(game)
    events = _log(game, header, [*_claims(game, 2), (n, "seat_given_to_bot", {"seat": 1, "bot": "hook"}, START),
                                 (_move(game, 1), "seat_token_reissued", {"seat": 1})])
    for env in events:
        if env["type"] == "move" and env["actor"] == 1:
            env["data"]["by"] = {"bot": "hook"}
    events = rechain(header_hash(header), events)
    reissue = next(i for i, e in enumerate(events) if e["type"] == "seat_token_reissued")
    _refused(header, events, reissue + 1, "data.seat")


def test_a_seat_given_before_the_start_deadline_or_without_one_is_refused(game: Any) -> None:
    seq = _first_move(game) + 2
    cases = [(_started(game), START - 1), (_started(game, start_timeout_s=0.5), 499),
             (_started(game, start_timeout_s=None), START), (_started(game, start_timeout_s=True), START),
             (_started(game, start_timeout_s="60"), START), (_started(game, created_at=0.0), START),
             (_started(game, created_at=None), START), (_started(game), float(START)), (_started(game), str(START))]
    for header, at in cases:
        d = _refused(header, _given_log(game, header, at=at), seq, "at", check="bots")
        assert (d["expected"], d["found"]) == ("the start deadline or later", at), (header, at)
    late = _started(game, created_at=5)
    _refused(late, _given_log(game, late, at=START + 4), seq, "at", check="bots")
    assert _audit(late, _given_log(game, late, at=START + 5))["ok"]


def test_a_seat_given_to_another_bot_than_the_start_bot_is_refused(game: Any) -> None:
    seq = _first_move(game) + 2
    for header, data, expected, found in [
            (_started(game), {"seat": 1, "bot": "other"}, "hook", "other"),
            (_started(game), {"seat": 1}, "hook", None),
            (_started(game, start_bot=None), {"seat": 1, "bot": "hook"}, None, "hook"),
            (_started(game, start_bot=5), {"seat": 1, "bot": 5}, 5, 5),
            (_started(game), ["seat", 1], "hook", ["seat", 1])]:
        d = _refused(header, _given_log(game, header, data), seq, "data.bot", check="bots")
        assert (d["expected"], d["found"]) == (expected, found), d


def test_a_seat_given_is_a_claim_of_an_open_seat_by_the_system(game: Any) -> None:
    header = _started(game)
    seq = _first_move(game) + 2
    for data in ({"seat": 1, "bot": "hook", "name": "x"}, {"seat": "1", "bot": "hook"}):
        d = _refused(header, _given_log(game, header, data), seq, "data")
        assert d["expected"] == "{bot, seat}"
    _refused(header, _given_log(game, header, actor=1), seq, "data")
    for seat in (0, 2, 3):  # not open, claimed already, none
        d = _refused(header, _given_log(game, header, {"seat": seat, "bot": "hook"}), seq, "data.seat")
        assert d["expected"] == [1]


def test_the_only_seat_event_a_seat_given_makes_the_seat_the_bots(game: Any) -> None:
    header = _started(game)
    header["seats"][2].pop("open")
    events = _log(game, header, [(_first_move(game), "seat_given_to_bot", {"seat": 1, "bot": "hook"}, START)])
    for env in events:
        if env["type"] == "move" and env["actor"] == 1:
            env["data"]["by"] = {"bot": "hook"}
    report = _audit(header, rechain(header_hash(header), events))
    assert report["ok"], report["divergence"]
