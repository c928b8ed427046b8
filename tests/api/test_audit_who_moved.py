"""Issue 22 (Deliver 2): the audit checks who moved. A move record's ``by``
must agree with the header and the rules — a bot label only on a seat the
header gives to that bot, ``turn_clock`` only in a game with a turn clock and
at or after the seat's deadline, a default only where the rules define one —
so a log relabelled and re-chained fails at the relabelled ``seq``. Every edit
of ``by`` of every move of a real game (humans, built-in bots, the turn clock)
is tried, as ``test_offline_audit`` tries every other field."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from referee.audit import audit_log
from referee.engine.rng import Rng
from tests.api.helpers import auth, create, move, ndjson, play_to_end, view
from tests.forge import rechain, with_one_editable
from workers.jobs import fire_timeout, fire_turn_clock

HUMANS = (0, 1)
#: an edit that removes ``by`` altogether
DROPPED = object()
SEATS = [{}, {}, {"bot": "random"}, {"bot": "heuristic"}]


def _play(client: Any, clock: Any, service: Any, work: Any) -> tuple[list[dict[str, Any]], set[int]]:
    """A finished bluffaneer game of two humans, two built-in bots and a 30 s turn clock that runs out
    now and then; its log's lines, and the seqs of human moves made at or after a deadline."""
    game = create(client, seats=SEATS, seed="who-moved", options={"turn_timeout_s": 30})
    gid, pick, late = game["id"], Rng(b"who-moved-picks"), set()
    pushed = False
    for step in range(4000):
        work()
        spectator = view(client, game)
        if spectator["status"] != "active":
            break
        if not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"] or clock.now)
            assert fire_timeout(gid, service) == "fired"
            continue
        if step % 4 == 0 and spectator["turn_deadline"] is not None:
            clock.now = max(clock.now, spectator["turn_deadline"])
            pushed = True
            if fire_turn_clock(gid, spectator["version"], service) == "defaulted":
                pushed = False
                clock.advance(1)
                continue
        humans = [s for s in spectator["to_act"] if s in HUMANS]
        if humans:
            seat = humans[step % len(humans)]
            legal = [m for m in view(client, game, seat)["legal_moves"] if m["type"] != "resign"]  # F34: to the end
            r = move(client, game, seat, legal[pick.below(len(legal))])
            if r.status_code != 201:  # the clock pushed past a window's deadline: the window closes first
                assert r.get_json()["code"].endswith("expired"), r.get_json()
                assert fire_timeout(gid, service) == "fired"
                continue
            if pushed:
                late.add(spectator["version"] + 1)
                pushed = False
        clock.advance(1)
    assert view(client, game)["status"] == "finished"
    text = client.get(f"/v1/games/{gid}/log", headers=auth("admin-secret")).get_data(as_text=True)
    return ndjson(text), late


def _edits(by: Any, seat_bot: str | None) -> Iterator[Any]:
    """Every relabelling of a move's ``by`` (``by`` ``None``: it has none, a seat's own move)."""
    others = [b for b in ("random", "heuristic", "bot_x") if b != seat_bot]
    if by is None:
        yield from ({"bot": b} for b in others)
        yield {"default": "turn_clock"}
        yield {"default": "turn_clock", "drawn_from": 2}
        yield {"bot": "bot_x", "default": "unknown_bot"}
        yield from ({}, [], "x", None, {"drawn_from": 2}, {"who": 0})
        return
    # ``by`` dropped: a bot's seat has no token, so a move there is never a seat's own; on a person's
    # seat the turn clock's default dropped is a move the seat could have made itself (nothing to check)
    if "bot" in by:
        yield DROPPED
    yield from ({}, [], "x", {**by, "who": 0}, {**by, "drawn_from": 2})
    for key in by:
        yield {k: v for k, v in by.items() if k != key}
        for new in (None, 0, "x", [] if key != "drawn_from" else by[key] + 1):
            yield {**by, key: new}
    if "bot" in by:
        yield from ({**by, "bot": b} for b in others)
        yield {**by, "default": "turn_clock"}
        yield {**by, "default": "unknown_bot"}
        yield {"default": "turn_clock"}
    if by.get("default") == "turn_clock":
        yield from ({**by, "bot": b} for b in others)
        yield {"bot": "bot_x", "default": "unknown_bot"}


@pytest.mark.slow  # every edit of every move, each audited: its file starts with the long ones (tests/conftest.py)
def test_every_relabelling_of_who_moved_fails_at_its_seq(client: Any, clock: Any, service: Any, work: Any) -> None:
    lines, late = _play(client, clock, service, work)
    head, events = lines[0], lines[1:]
    assert audit_log(head["header"], head["hash"], events)["ok"]
    untouched = json.dumps(events)
    moves = [(i, e) for i, e in enumerate(events) if e["type"] == "move"]
    kinds = {"seat": 0, "bot": 0, "turn_clock": 0}
    tried = 0
    for index, env in moves:
        by = env["data"].get("by")
        kinds["seat" if by is None else "bot" if "bot" in by else by["default"]] += 1
        seat_bot = SEATS[env["actor"]].get("bot") if env["actor"] is not None else None
        for new in _edits(by, seat_bot):
            if by is None and env["seq"] in late and new == {"default": "turn_clock"}:
                continue  # a seat that moved after its deadline may have played the clock's default itself
            forged = with_one_editable(events, index)
            if new is DROPPED:
                del forged[index]["data"]["by"]
            else:
                forged[index]["data"]["by"] = new  # None: "by": null
            report = audit_log(head["header"], head["hash"], rechain(head["hash"], forged))
            assert not report["ok"], f"by {new!r} at event {env['seq']} (was {by!r}) went unseen"
            d = report["divergence"]
            assert d["seq"] == env["seq"], (new, by, d)
            tried += 1
    assert kinds["seat"] > 5 and kinds["bot"] > 5 and kinds["turn_clock"] >= 2, kinds
    assert tried > 10 * len(moves)
    assert json.dumps(events) == untouched, "a forgery shares what it changed with the log"


def test_a_bot_seat_has_no_token(client: Any) -> None:
    game = create(client, seats=SEATS)
    assert [s["token"] is None for s in game["seats"]] == [False, False, True, True]


def test_the_turn_clocks_default_in_a_game_without_a_clock_fails_at_its_seq(client: Any, clock: Any,
                                                                              service: Any) -> None:
    game = create(client, players=3, seed="no-clock")
    play_to_end(client, game, clock, service)
    lines = ndjson(client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True))
    head, events = lines[0], lines[1:]
    assert "turn_timeout_s" not in head["header"] and audit_log(head["header"], head["hash"], events)["ok"]
    for index, env in enumerate(events):
        if env["type"] == "move" and env["actor"] is not None:
            forged = with_one_editable(events, index)
            forged[index]["data"]["by"] = {"default": "turn_clock"}
            report = audit_log(head["header"], head["hash"], rechain(head["hash"], forged))
            assert not report["ok"] and report["divergence"]["seq"] == env["seq"]
            assert report["divergence"]["check"] == "bots"
