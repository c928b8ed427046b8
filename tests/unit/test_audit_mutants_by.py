"""Who moved, as a move record's ``by`` says (issue 22, item 8: tests that
would notice; ``referee.audit.movers.check_by``), in a game one of whose seats is
given to a registered (webhook) bot: its moves are labelled ``{"bot": B}``,
and the defaults played when it fails ``{"bot": B, "default": cause}``. Such
a log audits clean; every relabelling of a move to a mover the header or the
rules do not allow is refused at the move, by ``by``'s field, and the report
says why in words."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from referee.audit import audit_log
from referee.engine import canonical, header_hash, record
from referee.engine.platform import RESIGN
from referee.engine.protocol import default_options, fold
from referee.engine.rng import Rng
from referee.games import registry
from tests.forge import _recorded_table, rechain

Events = list[dict[str, Any]]
HOOK = "hook"  # a registered bot: not built in, so the audit does not re-derive its moves


def _playing(legal: Any) -> list[Any]:
    """The legal moves that play on (a resignation would end the game at once); none when only
    ``resign`` is left (then the deadline runs out), unlike ``engine.platform.playing_moves``."""
    return [m for m in legal if m.get("type") != RESIGN]


#: how a seat's move is recorded: ``(table, seat, legal, step, picks)``
Play = Callable[[Any, int, list[Any], int, Rng], None]


def _pick(table: Any, seat: int, legal: list[Any], step: int, picks: Rng) -> None:
    table.record(seat, legal[picks.below(len(legal))])


def played_game(ruleset: str, players: int, seed: str, *, seats_bots: dict[int, str] | None = None,
                play: Play = _pick) -> Any:
    """A finished game played offline by random seats that never resign (``tests.forge``'s
    ``RecordedTable``: ``header``, ``header_hash``, ``envelopes``, ``seed_text``), each seat's
    move recorded by ``play``; the other test_audit_mutants files use it too."""
    rs = registry.get(ruleset)
    table = _recorded_table()(rs, players, options=rs.options_for(players), seed=seed, seats_bots=seats_bots)
    picks = Rng(f"{seed}-picks".encode())
    for step in range(20_000):
        if rs.result(table.state) is not None:
            return table
        seats = sorted(rs.to_act(table.state))
        seat = seats[picks.below(len(seats))] if seats else None
        legal = _playing(rs.legal_moves(table.state, seat)) if seat is not None else []
        if seat is None or not legal:
            table.timeout()
        else:
            play(table, seat, legal, step, picks)
    raise AssertionError("the game did not end")


def _hook_fails_every_other_turn(table: Any, seat: int, legal: list[Any], step: int, picks: Rng) -> None:
    options = default_options(table.ruleset, table.state, seat)
    if seat == 2 and step % 2 and len(options) == 1:
        table.record(seat, options[0], by={"bot": HOOK, "default": "invalid_answer"})
    else:
        table.record(seat, legal[picks.below(len(legal))], by={"bot": HOOK} if seat == 2 else None)


@pytest.fixture(scope="module")
def game() -> Any:
    """A finished 3-seat bluffaneer game, seat 2 given to the registered bot ``hook``, which fails every
    other turn (its default then played, labelled with the cause)."""
    return played_game("bluffaneer", 3, "by-mutants", seats_bots={2: HOOK}, play=_hook_fails_every_other_turn)


def _events(game: Any) -> Events:
    return json.loads(canonical(game.envelopes))


def _moves(events: Events, which: Callable[[dict[str, Any]], bool]) -> list[int]:
    return [i for i, e in enumerate(events) if e["type"] == "move" and which(e)]


def _refused(game: Any, events: Events, index: int, field: str, header: dict[str, Any] | None = None,
             check: str = "bots") -> dict[str, Any]:
    header = game.header if header is None else header
    head = header_hash(header)
    report = audit_log(header, head, rechain(head, events))
    assert not report["ok"], "the forgery went unseen"
    d = report["divergence"]
    assert (d["check"], d["seq"], d["field"]) == (check, index + 1, field), d
    return {**d, "detail": report["checks"][-1]["detail"]}


def test_a_registered_bots_moves_and_defaults_audit_clean(game: Any) -> None:
    events = _events(game)
    bys = [e["data"].get("by") for e in events if e["type"] == "move"]
    assert {"bot": HOOK, "default": "invalid_answer"} in bys and {"bot": HOOK} in bys and None in bys
    report = game.audit()
    assert report["ok"], report["divergence"]
    assert "0 built-in bot moves" in next(c["detail"] for c in report["checks"] if c["name"] == "bots")


def test_a_registered_bots_default_is_named_by_a_cause_other_than_the_clock(game: Any) -> None:
    events = _events(game)
    i = _moves(events, lambda e: e["data"].get("by", {}).get("default") is not None)[0]
    # issue 36: exactly the causes the worker records (referee.bots.DEFAULT_CAUSES, http_<status>)
    for cause in (5, None, True, "turn_clock", "x", "webhook_failed", "Invalid_answer", "invalid_answer ", "http_",
                  "http_50", "http_5000", "http_099", "http_٥٠٠", "http_-50", "bot_turn", ""):
        forged = _events(game)
        forged[i]["data"]["by"]["default"] = cause
        d = _refused(game, forged, i, "data.by.default")
        assert (d["expected"], d["found"]) == ("(absent)", cause), d
        assert "causes the referee records" in d["detail"], d
    for cause in ("invalid_answer", "attempts_spent", "illegal_move", "timeout", "http_500", "http_404", "http_999"):
        forged = _events(game)
        forged[i]["data"]["by"]["default"] = cause
        report = audit_log(game.header, header_hash(game.header), rechain(header_hash(game.header), forged))
        assert report["ok"], (cause, report["divergence"])
    # a built-in bot always chooses: no default of its is a default
    header = json.loads(canonical(game.header))
    header["seats"][2]["bot"] = "random"
    first = _moves(events, lambda e: e["actor"] == 2)[0]
    forged = _events(game)
    forged[first]["data"]["by"] = {"bot": "random", "default": "invalid_answer"}
    d = _refused(game, forged, first, "data.by.default", header)
    assert "always chooses" in d["detail"], d


def test_a_move_labelled_a_default_where_the_seat_owes_none_is_refused(game: Any) -> None:
    events = _events(game)
    rs = game.ruleset
    for i in _moves(events, lambda e: e["actor"] == 0)[:3]:
        state = fold(rs, record.ruleset_events(events[:i]))
        assert default_options(rs, state, 2) == []  # seat 2 is not awaited there
        forged = _events(game)
        forged[i]["actor"] = 2
        forged[i]["data"]["by"] = {"bot": HOOK, "default": "invalid_answer"}
        d = _refused(game, forged, i, "data.by.default")
        assert (d["expected"], d["found"]) == ("(absent)", "invalid_answer")
        assert "owes none" in d["detail"]


def test_a_bot_label_names_the_seats_own_bot(game: Any) -> None:
    events = _events(game)
    hooked = _moves(events, lambda e: e["data"].get("by") == {"bot": HOOK})[0]
    forged = _events(game)
    forged[hooked]["data"]["by"] = {"bot": "random"}
    d = _refused(game, forged, hooked, "data.by.bot")
    assert (d["expected"], d["found"]) == (HOOK, "random") and "gives seat 2 to 'hook'" in d["detail"], d
    own = _moves(events, lambda e: e["actor"] == 1)[0]
    forged = _events(game)
    forged[own]["data"]["by"] = {"bot": HOOK}
    d = _refused(game, forged, own, "data.by.bot")
    assert (d["expected"], d["found"]) == (None, HOOK) and "gives seat 1 to no bot" in d["detail"], d


@pytest.mark.parametrize("actor", [-1, 3, 4, "2", 2.0, True])
def test_a_labelled_move_by_a_seat_the_header_does_not_have_is_refused(game: Any, actor: Any) -> None:
    events = _events(game)
    hooked = _moves(events, lambda e: e["data"].get("by") == {"bot": HOOK})[0]
    forged = _events(game)
    forged[hooked]["actor"] = actor
    d = _refused(game, forged, hooked, "data.by")
    assert (d["expected"], d["found"]) == ("(absent)", {"bot": HOOK}) and "system's own" in d["detail"], d


def _clock_game(forge: bool) -> Any:
    """A 3-seat BANG! game with a 30 s turn clock that defaults a seat every 3rd step; ``forge``: its first
    default drawn from several moves is recorded ``"drawn_from": null``, the last option played and no
    draw made (the game played on from there, every later draw the generator's)."""
    rs = registry.get("bang")
    table = _recorded_table()(rs, 4, options=rs.options_for(4), seed="by-clock", turn_timeout_s=30)
    picks = Rng(b"by-clock-picks")
    forged = False
    for step in range(1, 20_000):
        if rs.result(table.state) is not None:
            assert forged == forge
            return table
        seats = sorted(rs.to_act(table.state))
        owes = table.clock_owes() if step % 3 == 0 else None
        deadline = rs.deadline(table.state)
        if owes is not None and (deadline is None or deadline >= table.envelopes[-1]["at"] + 30_000):
            options = default_options(rs, table.state, owes)
            if forge and not forged and len(options) > 1:
                forged = True
                table.record(owes, options[-1], by={"default": "turn_clock", "drawn_from": None},
                             at=table.envelopes[-1]["at"] + 30_000)
            else:
                table.clock_default(owes)
            continue
        if not seats:
            table.timeout()
            continue
        seat = seats[picks.below(len(seats))]
        legal = _playing(rs.legal_moves(table.state, seat))
        if not legal:
            table.timeout()
        else:
            table.record(seat, legal[picks.below(len(legal))])
    raise AssertionError("the game did not end")


def test_a_default_recorded_as_drawn_from_null_is_no_draw_the_generator_made() -> None:
    """``"drawn_from": null`` is a draw's record all the same: the audit re-draws it (without the draw
    re-made, the move could be any of the options)."""
    assert _clock_game(False).audit()["ok"]
    game = _clock_game(True)
    i = _moves(game.envelopes, lambda e: e["data"].get("by", {}).get("drawn_from", 0) is None)[0]
    report = game.audit()
    assert not report["ok"], "the forgery went unseen"
    d = report["divergence"]
    assert (d["check"], d["seq"], d["field"], d["found"]) == ("randomness", i + 1, "data.by.drawn_from", None), d


def test_a_default_drawn_from_several_moves_records_its_draw() -> None:
    game = _clock_game(False)
    events = _events(game)
    i = _moves(events, lambda e: "drawn_from" in e["data"].get("by", {}))[0]
    count = events[i]["data"]["by"].pop("drawn_from")
    assert count > 1
    d = _refused(game, events, i, "data.by.drawn_from")
    assert (d["expected"], d["found"]) == (count, "(missing)") and "no draw is recorded" in d["detail"], d


def test_the_turn_clocks_deadline_runs_from_the_event_just_before_the_default() -> None:
    """A seat's event between two moves restarts the clock's count: a default at the previous move's
    deadline, after a reissue recorded 10 s later, is 10 s early."""
    from referee.engine import event_salt
    game = _clock_game(False)
    events = _events(game)
    i = _moves(events, lambda e: e["data"].get("by") == {"default": "turn_clock"} and e["actor"] != 0)[0]
    assert events[i]["at"] == events[i - 1]["at"] + 30_000
    reissue = {"seq": 0, "type": "seat_token_reissued", "actor": None, "at": events[i - 1]["at"] + 10_000,
               "commit": "", "prev": "", "hash": "", "data": {"seat": 0}, "salt": ""}
    forged = [*events[:i], reissue, *events[i:]]
    for seq, env in enumerate(forged, start=1):
        env["seq"], env["salt"] = seq, event_salt(game.seed_text, seq)
    d = _refused(game, forged, i + 1, "data.by.default")
    assert "before its deadline" in d["detail"], d
    # without the reissue the same default is on time
    assert game.audit()["ok"]
