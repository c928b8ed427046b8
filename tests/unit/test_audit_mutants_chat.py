"""Chat events in a log (issue 40 item 5; ``referee.audit.chat``): a message
by a seat of the game (a spectator's only where the header's ``chat`` is
``everyone``, none where it is ``off``), committing to its text with a
SHA-256 hex ``said``; a hide of an earlier message, once, by the referee.
The turn clock's deadline runs from the last event that is no chat. Logs are
built offline, as the service would have written them, and every forgery is
named by its ``seq`` (``tests/api/test_chat.py`` plays the same over HTTP)."""
from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import pytest

from referee.audit import audit_log
from referee.engine import header_hash
from tests.forge import rechain
from tests.unit.test_audit_mutants_by import played_game
from tests.unit.test_audit_mutants_seats import _log as seat_log

SAID = "ab" * 32
Events = list[dict[str, Any]]


@pytest.fixture(scope="module")
def game() -> Any:
    """A finished 3-seat dice game, played offline."""
    return played_game("bang-dice", 3, seed="chat-mutants")


def _moves(game: Any) -> list[int]:
    return [i for i, e in enumerate(game.envelopes) if e["type"] == "move"]


def _log(game: Any, header: dict[str, Any], inserts: Sequence[tuple[int, Any, str, Any]]) -> Events:
    """The game's events with ``(index, actor, type, data)`` events put in before the event at ``index``
    (``test_audit_mutants_seats._log``'s, each with its own actor), re-chained."""
    events = seat_log(game, header, [(index, type_, data) for index, _, type_, data in inserts])
    inserted = [env for env in events if env["type"] in ("chat_posted", "chat_hidden")]
    for env, (_, actor, _, _) in zip(inserted, sorted(inserts, key=lambda i: i[0]), strict=True):
        env["actor"] = actor
    return rechain(header_hash(header), events)


def _report(header: dict[str, Any], events: Events) -> dict[str, Any]:
    return audit_log(header, header_hash(header), events)


def _header(game: Any, **extra: Any) -> dict[str, Any]:
    return {**copy.deepcopy(game.header), **extra}


def test_messages_and_a_hide_between_moves_audit_clean(game: Any) -> None:
    moves = _moves(game)
    events = _log(game, game.header, [(moves[1], 0, "chat_posted", {"seat": 0, "said": SAID}),
                                      (moves[1], 2, "chat_posted", {"seat": 2, "said": SAID}),
                                      (moves[3], None, "chat_hidden", {"seq": moves[1] + 1, "by": "owner"})])
    report = _report(game.header, events)
    assert report["ok"], report
    assert "2 chat messages" in json.dumps(report["checks"])


@pytest.mark.parametrize("actor, data, why", [
    (1, {"seat": 0, "said": SAID}, "a message posted in another seat's name"),
    (None, {"seat": None, "said": SAID}, "a spectator's message where the chat is the seats'"),
    (7, {"seat": 7, "said": SAID}, "no such seat"),
    (0, {"seat": 0, "said": "not hex"}, "no commitment"),
    (0, {"seat": 0, "said": SAID, "text": "leaked"}, "the text in the chain"),
])
def test_a_forged_message_is_refused_at_its_seq(game: Any, actor: Any, data: Any, why: str) -> None:
    at = _moves(game)[1]
    report = _report(game.header, _log(game, game.header, [(at, actor, "chat_posted", data)]))
    assert not report["ok"], why
    assert report["divergence"]["seq"] == at + 1, (why, report["divergence"])


def test_the_header_says_who_may_talk(game: Any) -> None:
    at = _moves(game)[1]
    spectator = [(at, None, "chat_posted", {"seat": None, "said": SAID})]
    assert _report(_header(game, chat="everyone"), _log(game, _header(game, chat="everyone"), spectator))["ok"]
    off = _header(game, chat="off")
    assert not _report(off, _log(game, off, [(at, 0, "chat_posted", {"seat": 0, "said": SAID})]))["ok"]


@pytest.mark.parametrize("data", [{"seq": 1, "by": "owner"}, {"seq": "x", "by": "owner"},
                                  {"seq": 0, "by": "someone"}])
def test_a_hide_of_no_message_is_refused(game: Any, data: Any) -> None:
    moves = _moves(game)
    posted = moves[1] + 1
    data = {**data, "seq": posted} if data["seq"] == 0 else data
    events = _log(game, game.header, [(moves[1], 0, "chat_posted", {"seat": 0, "said": SAID}),
                                      (moves[2], None, "chat_hidden", data)])
    assert not _report(game.header, events)["ok"], data


def test_a_message_hidden_twice_or_by_a_seat_is_refused(game: Any) -> None:
    moves = _moves(game)
    posted = moves[1] + 1
    twice = _log(game, game.header, [(moves[1], 0, "chat_posted", {"seat": 0, "said": SAID}),
                                     (moves[2], None, "chat_hidden", {"seq": posted, "by": "owner"}),
                                     (moves[2], None, "chat_hidden", {"seq": posted, "by": "admin"})])
    assert not _report(game.header, twice)["ok"]
    by_seat = _log(game, game.header, [(moves[1], 0, "chat_posted", {"seat": 0, "said": SAID}),
                                       (moves[2], 1, "chat_hidden", {"seq": posted, "by": "owner"})])
    assert not _report(game.header, by_seat)["ok"]


def test_no_message_follows_the_end(game: Any) -> None:
    end = len(game.envelopes)
    report = _report(game.header, _log(game, game.header, [(end, 0, "chat_posted", {"seat": 0, "said": SAID})]))
    assert not report["ok"]
