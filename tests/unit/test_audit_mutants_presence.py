"""Presence events in a log (issue 40 item 1; tests that would notice, as
issue 22 item 8 asks of every audit check: ``referee.audit.presence``):
``seat_taken_over {seat, by}`` only of a person's seat not taken over, by
the header's ``away_bot`` (``default`` when it names none), never where the
header says ``away_grace_s: null``; ``seat_returned {seat}`` only of a seat
taken over; while taken over, no move labelled the person's own, none
labelled another's. Logs are built offline as in
``test_audit_mutants_seats`` (``tests/api/test_presence.py`` plays the same
over HTTP)."""
from __future__ import annotations

from typing import Any

import pytest

from referee import bots
from referee.engine import bot_seed, header_hash
from referee.engine.protocol import Event, draw_default, seat_view
from referee.engine.rng import Rng
from referee.games import registry
from tests.forge import _recorded_table, rechain
from tests.unit.test_audit_mutants_by import played_game
from tests.unit.test_audit_mutants_seats import _audit, _header, _log, _move, _refused

TAKEN, BACK = "seat_taken_over", "seat_returned"


@pytest.fixture(scope="module")
def game() -> Any:
    """A finished 3-seat dice game, played offline (no bots, no turn clock)."""
    return played_game("bang-dice", 3, seed="presence-mutants")


def _next_move_of(game: Any, seat: int, after: int) -> int:
    """The index of ``seat``'s first move at or after index ``after`` of the original log."""
    return next(i for i, e in enumerate(game.envelopes) if i >= after and e["type"] == "move" and e["actor"] == seat)


def _gap(game: Any, seat: int) -> tuple[int, int]:
    """Two indices of moves, the second after the first, with no move of ``seat`` from the first up to the second."""
    moves = [i for i, e in enumerate(game.envelopes) if e["type"] == "move"]
    for a, b in zip(moves, moves[1:]):
        if game.envelopes[a]["actor"] != seat:
            return a, b
    raise AssertionError("no gap")


@pytest.mark.parametrize("bot", [None, "default", "random"])
def test_a_takeover_and_a_return_with_no_move_between_audit_clean(game: Any, bot: str | None) -> None:
    header = _header(game, open_seats=())
    if bot is not None:
        header["away_bot"] = bot
    header["away_grace_s"] = 30
    a, b = _gap(game, 0)
    events = _log(game, header, [(a, TAKEN, {"seat": 0, "by": bot or "default"}), (b, BACK, {"seat": 0}),
                                 (b, TAKEN, {"seat": 1, "by": bot or "default"}), (b, BACK, {"seat": 1})])
    report = _audit(header, events)
    assert report["ok"], report["divergence"]


@pytest.mark.parametrize("data", [None, [0], {}, {"seat": 0}, {"seat": 0, "by": "default", "x": 1},
                                  {"seat": "0", "by": "default"}, {"seat": 0.0, "by": "default"},
                                  {"by": "default"}])
def test_a_takeover_of_another_shape_is_refused(game: Any, data: Any) -> None:
    header = _header(game, open_seats=())
    n = _move(game, 1)
    d = _refused(header, _log(game, header, [(n, TAKEN, data)]), n + 1, "data")
    assert (d["expected"], d["found"]) == ("{by, seat}", data)


@pytest.mark.parametrize("data", [None, {}, {"seat": 0, "by": "default"}, {"seat": "0"}, {"seat": True}])
def test_a_return_of_another_shape_is_refused(game: Any, data: Any) -> None:
    header = _header(game, open_seats=())
    n = _move(game, 1)
    d = _refused(header, _log(game, header, [(n, TAKEN, {"seat": 0, "by": "default"}), (n, BACK, data)]), n + 2,
                 "data")
    assert (d["expected"], d["found"]) == ("{seat}", data)


def test_a_takeover_by_the_system_only(game: Any) -> None:
    header = _header(game, open_seats=())
    n = _move(game, 1)
    _refused(header, _log(game, header, [(n, TAKEN, {"seat": 0, "by": "default"})], actor=0), n + 1, "data")


@pytest.mark.parametrize("seat", [-1, 3, 7])
def test_a_takeover_of_no_seat_is_refused(game: Any, seat: int) -> None:
    header = _header(game, open_seats=())
    n = _move(game, 1)
    _refused(header, _log(game, header, [(n, TAKEN, {"seat": seat, "by": "default"})]), n + 1, "data.seat")


def test_a_takeover_of_a_bot_seat_or_an_open_seat_nobody_claimed_is_refused(game: Any) -> None:
    bot = _header(game, open_seats=(), s1={**game.header["seats"][1], "bot": "random"})
    n = _move(game, 0)
    _refused(bot, _log(game, bot, [(n, TAKEN, {"seat": 1, "by": "default"})]), n + 1, "data.seat")
    opened = _header(game, open_seats=(2,))
    _refused(opened, _log(game, opened, [(n, TAKEN, {"seat": 2, "by": "default"})]), n + 1, "data.seat")


def test_a_second_takeover_and_a_return_of_a_seat_not_taken_over_are_refused(game: Any) -> None:
    header = _header(game, open_seats=())
    a, b = _gap(game, 0)
    twice = _log(game, header, [(a, TAKEN, {"seat": 0, "by": "default"}), (a, TAKEN, {"seat": 0, "by": "default"})])
    _refused(header, twice, a + 2, "data.seat")
    _refused(header, _log(game, header, [(a, BACK, {"seat": 0})]), a + 1, "data.seat")
    again = _log(game, header, [(a, TAKEN, {"seat": 0, "by": "default"}), (b, BACK, {"seat": 0}),
                                (b, BACK, {"seat": 0})])
    _refused(header, again, b + 3, "data.seat")


@pytest.mark.parametrize("away_bot, by", [(None, "random"), ("random", "default"), ("random", "heuristic"),
                                          ("default", "random"), (None, None), (None, 0)])
def test_a_takeover_by_another_than_the_away_bot_is_refused(game: Any, away_bot: str | None, by: Any) -> None:
    header = _header(game, open_seats=())
    if away_bot is not None:
        header["away_bot"] = away_bot
    n = _move(game, 1)
    d = _refused(header, _log(game, header, [(n, TAKEN, {"seat": 0, "by": by})]), n + 1, "data.by", "bots")
    assert (d["expected"], d["found"]) == (away_bot or "default", by)


def test_a_takeover_where_the_header_says_never_is_refused(game: Any) -> None:
    header = _header(game, open_seats=())
    header["away_grace_s"] = None
    n = _move(game, 1)
    d = _refused(header, _log(game, header, [(n, TAKEN, {"seat": 0, "by": "default"})]), n + 1, "type", "bots")
    assert (d["expected"], d["found"]) == ("(none)", TAKEN)


@pytest.mark.parametrize("by", ["default", "random"])
def test_a_move_labelled_the_persons_own_while_taken_over_is_refused(game: Any, by: str) -> None:
    header = _header(game, open_seats=())
    header["away_bot"] = by
    n = _move(game, 1)
    played = _next_move_of(game, 0, n)
    events = _log(game, header, [(n, TAKEN, {"seat": 0, "by": by})])
    d = _refused(header, events, played + 2, "data.by", "bots")
    assert d["expected"] == {"bot": by}
    back = _log(game, header, [(n, TAKEN, {"seat": 0, "by": by}), (played, BACK, {"seat": 0})])
    assert _audit(header, back)["ok"]  # given back just before it: its own move again


def test_a_move_labelled_the_away_default_of_a_seat_not_taken_over_by_its_default_is_refused(game: Any) -> None:
    header = _header(game, open_seats=())
    played = _next_move_of(game, 0, _move(game, 1))
    events = _log(game, header, [])
    events[played]["data"]["by"] = {"default": "away"}
    d = _refused(header, rechain(header_hash(header), events), played + 1, "data.by.default", "bots")
    assert (d["expected"], d["found"]) == ("(absent)", "away")
    header["away_bot"] = "random"
    taken = _log(game, header, [(played, TAKEN, {"seat": 0, "by": "random"})])
    taken[played + 1]["data"]["by"] = {"default": "away"}
    _refused(header, rechain(header_hash(header), taken), played + 2, "data.by.default", "bots")


# -- a seat played for while taken over: a built-in bot's moves re-derived, or the rules' default ---------
def _played_with_a_takeover(by: str) -> Any:
    """A finished dice game whose seat 0 is taken over by ``by`` (the header's ``away_bot``) from its
    second move to its fifth, played for meanwhile as the worker plays it, then given back."""
    rs = registry.get("bang-dice")
    table = _recorded_table()(rs, 3, options=rs.options_for(3), seed=f"presence-{by}")
    table.header["away_bot"] = by
    table.header_hash = header_hash(table.header)
    rechain(table.header_hash, table.envelopes)
    table.last_hash = table.envelopes[-1]["hash"]
    picks, own = Rng(b"presence-picks"), 0
    for _ in range(20_000):
        if rs.result(table.state) is not None:
            return table
        seats = sorted(rs.to_act(table.state))
        seat = seats[picks.below(len(seats))] if seats else None
        legal = [m for m in rs.legal_moves(table.state, seat) if m.get("type") != "resign"] if seat is not None else []
        if seat is None or not legal:
            table.timeout()
            continue
        if seat == 0 and own in (1, 4):  # away, then back: the worker's and the person's events between moves
            table._write([(None, Event(TAKEN if own == 1 else BACK, {"seat": 0, "by": by} if own == 1
                                       else {"seat": 0}))], table.now)
        if seat == 0 and 1 <= own < 4 and by == "default":
            position = table.rng.position
            drawn = draw_default(rs, table.state, 0, table.rng)
            assert drawn is not None
            label: dict[str, Any] = {"default": "away", **({"drawn_from": drawn[1]} if drawn[1] > 1 else {})}
            table.record(0, drawn[0], by=label, position=position)
        elif seat == 0 and 1 <= own < 4:
            view = seat_view(rs, table.state, 0, active=True)
            table.record(0, bots.choose(by, rs.name, view, view["legal_moves"],
                                        seed=bot_seed(table.seed_text, 0, len(table.envelopes))), by={"bot": by})
        else:
            table.record(seat, legal[picks.below(len(legal))])
        own += seat == 0
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("by", ["random", "default"])
def test_a_seat_played_for_while_taken_over_audits_clean_and_not_as_another_s(by: str) -> None:
    table = _played_with_a_takeover(by)
    header, events = table.header, table.envelopes
    report = _audit(header, events)
    assert report["ok"], report["divergence"]
    taken = next(i for i, e in enumerate(events) if e["type"] == TAKEN)
    played = next(i for i, e in enumerate(events) if i > taken and e["type"] == "move" and e["actor"] == 0)
    assert events[played]["data"]["by"].get("bot" if by != "default" else "default") == \
        (by if by != "default" else "away")
    for label in ({"bot": "heuristic"}, {"bot": "default"}, {"default": "turn_clock"}):
        forged = [dict(e) for e in events]
        forged[played] = {**forged[played], "data": {**forged[played]["data"], "by": label}}
        report = _audit(header, rechain(header_hash(header), forged))
        assert not report["ok"] and report["divergence"]["seq"] == played + 1, (label, report["divergence"])
