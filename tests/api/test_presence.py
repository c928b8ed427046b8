"""Issue 40 item 1 (presence): every view shows whether each person's seat is
connected and since when; a seat away past its game's grace window is taken
over (``seat_taken_over``) by the game's ``away_bot`` or its default, and
given back (``seat_returned``) as soon as its token is used again; the game
audits clean, and a forged takeover, return or move of a taken-over seat
does not. The clock is the service's injected one: nothing races the wall."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.audit import audit_log
from referee.service.presence import Presence, window_ms
from tests.api.helpers import auth, create, move, ndjson, view
from tests.forge import rechain
from workers.jobs import fire_timeout
from workers.presence import look_at_away

WINDOW = 30_000
GRACE_S = 10


def _log(client: Any, game: dict[str, Any]) -> list[dict[str, Any]]:
    return ndjson(client.get(f"/v1/games/{game['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))


def _presence(body: dict[str, Any]) -> list[Any]:
    return [(s.get("connected"), s.get("since")) for s in body["seats"]]


def _away_game(client: Any, **options: Any) -> dict[str, Any]:
    return create(client, ruleset="bluffaneer", seats=[{"name": "ann"}, {"name": "bob"}, {"bot": "random"}],
                  seed="presence", options=options)


def test_a_person_seat_shows_connected_since_it_was_seen_and_away_after_the_window(
        client: Any, clock: Any) -> None:
    """Issue 40 item 1: public, per seat; a bot's seat shows neither."""
    assert window_ms() == WINDOW
    game = _away_game(client)
    assert _presence(view(client, game)) == [(False, None), (False, None), (None, None)]
    seen_at = clock.now
    mine = view(client, game, 0)
    assert _presence(mine)[0] == (True, seen_at)
    clock.advance(WINDOW // 2)
    view(client, game, 0)  # seen again: still the same stretch
    assert _presence(view(client, game)) == [(True, seen_at), (False, None), (None, None)]
    last = clock.now
    clock.advance(WINDOW + 1)
    assert _presence(view(client, game))[0] == (False, last + WINDOW)
    back = clock.now
    assert _presence(view(client, game, 0))[0] == (True, back)  # a new stretch


@pytest.mark.parametrize("processes", [1, 2])
def test_requests_that_first_see_a_seat_at_once_show_the_one_since_that_was_kept(
        client: Any, clock: Any, service: Any, processes: int) -> None:
    """Issue 40 item 1: a page's view and its event stream read the game's
    head before either wrote the seat seen; each answer shows the stretch as
    stored, not its own clock, whether the two ran in one process or two."""
    game = _away_game(client)
    loaded = service.loader.load(game["id"])
    first = service.presence
    second = first if processes == 1 else Presence(service.seats)
    started = clock.now
    _, one = first.seen(loaded, 0, {})  # both read the head before either wrote
    clock.advance(16)
    _, other = second.seen(loaded, 0, {})
    assert one is not None and other is not None
    assert one[0][0] == other[0][0] == started
    assert _presence(view(client, game))[0] == (True, started)


def test_a_move_and_a_page_of_events_count_as_seen(client: Any, clock: Any) -> None:
    game = _away_game(client)
    seat = view(client, game)["to_act"][0]
    clock.advance(WINDOW * 3)
    assert client.get(f"/v1/games/{game['id']}/events?after=0",
                      headers=auth(game["seats"][seat]["token"])).status_code == 200
    assert _presence(view(client, game))[seat] == (True, clock.now)


def _taken_over_and_back(client: Any, clock: Any, service: Any, work: Any, bot: str | None) -> dict[str, Any]:
    """Seat 0 seen, then away past the window and the grace: taken over, played
    for while it is awaited, then back on its next request."""
    options = {"away_grace_s": GRACE_S, **({"away_bot": bot} if bot else {})}
    game = _away_game(client, **options)
    view(client, game, 0)
    view(client, game, 1)
    clock.advance(WINDOW + GRACE_S * 1000 - 1)
    view(client, game, 1)  # seat 1 stays
    assert look_at_away(service) == 0  # one ms early: not looked at yet
    assert "played_by" not in view(client, game)["seats"][0]
    clock.advance(1)
    assert look_at_away(service) == 1
    spectator = view(client, game)
    assert spectator["seats"][0]["played_by"] == (bot or "default") and "played_by" not in spectator["seats"][1]
    taken = [e for e in _log(client, game)[1:] if e["type"] == "seat_taken_over"]
    assert [e["data"] for e in taken] == [{"seat": 0, "by": bot or "default"}]
    for _ in range(20):  # the bot job plays seat 0 whenever it is awaited; seat 1 plays itself
        work()
        now = view(client, game, 1)
        if now["status"] != "active" or 0 in now["to_act"] and 1 not in now["to_act"]:
            break
        if 1 in now["to_act"]:
            legal = [m for m in now["legal_moves"] if m["type"] != "resign"]
            assert move(client, game, 1, legal[0]).status_code == 201
        clock.advance(1)
        if any(e["actor"] == 0 and e["type"] == "move" for e in _log(client, game)[len(taken):]):
            break
    played_for = [e for e in _log(client, game)[1:] if e["type"] == "move" and e["actor"] == 0]
    assert played_for, "the taken-over seat was never played for"
    assert all(e["data"]["by"] == ({"bot": bot} if bot else {"default": "away", **({"drawn_from": e["data"]["by"]
               ["drawn_from"]} if "drawn_from" in e["data"]["by"] else {})}) for e in played_for)
    returned = view(client, game, 0)  # the person is back
    assert "played_by" not in returned["seats"][0] and returned["seats"][0]["connected"] is True
    assert [e["data"] for e in _log(client, game)[1:] if e["type"] == "seat_returned"] == [{"seat": 0}]
    return game


@pytest.mark.parametrize("bot", ["random", None])
def test_a_seat_away_past_the_grace_is_taken_over_and_back_on_its_next_request_and_audits_clean(
        client: Any, clock: Any, service: Any, work: Any, bot: str | None) -> None:
    """Issue 40 item 1 and "Done when": taken over by the creator's bot (or
    the default), back on return; the audit re-derives the bot's moves."""
    game = _taken_over_and_back(client, clock, service, work, bot)
    _finish(client, game, clock, service, work)
    lines = _log(client, game)
    report = audit_log(lines[0]["header"], lines[0]["hash"], lines[1:], keys=service.keyring.public())
    assert report["ok"], report["divergence"]


def _finish(client: Any, game: dict[str, Any], clock: Any, service: Any, work: Any) -> None:
    """Play on to the end: the people's first move that is no resignation, the bots' jobs, the rules' timeouts."""
    for _ in range(3000):
        work()
        spectator = view(client, game)
        if spectator["status"] != "active":
            return
        people = [s for s in spectator["to_act"] if s in (0, 1) and "played_by" not in spectator["seats"][s]]
        if people:
            legal = view(client, game, people[0])["legal_moves"]
            assert move(client, game, people[0], next((m for m in legal if m["type"] != "resign"), legal[0])
                        ).status_code == 201
        elif not spectator["to_act"]:
            clock.now = max(clock.now, spectator["deadline"])
            assert fire_timeout(game["id"], service) == "fired"
        clock.advance(1)
    raise AssertionError("the game did not end")


def _forged(lines: list[dict[str, Any]], edit: Any) -> dict[str, Any]:
    events = copy.deepcopy(lines[1:])
    edit(events)
    return audit_log(lines[0]["header"], lines[0]["hash"], rechain(lines[0]["hash"], events))


def test_a_forged_takeover_or_return_or_a_person_move_while_taken_over_fails_the_audit(
        client: Any, clock: Any, service: Any, work: Any) -> None:
    game = _taken_over_and_back(client, clock, service, work, "random")
    _finish(client, game, clock, service, work)
    lines = _log(client, game)
    events = lines[1:]
    taken = next(i for i, e in enumerate(events) if e["type"] == "seat_taken_over")
    back = next(i for i, e in enumerate(events) if e["type"] == "seat_returned")

    def other_bot(ev: list[dict[str, Any]]) -> None:
        ev[taken]["data"]["by"] = "heuristic"

    def bot_seat(ev: list[dict[str, Any]]) -> None:
        ev[taken]["data"]["seat"] = 2

    def twice(ev: list[dict[str, Any]]) -> None:
        ev[back]["type"], ev[back]["data"] = "seat_taken_over", {"seat": 0, "by": "random"}

    def unlabelled(ev: list[dict[str, Any]]) -> None:
        played = next(e for e in ev[taken:back] if e["type"] == "move" and e["actor"] == 0)
        del played["data"]["by"]

    def no_return(ev: list[dict[str, Any]]) -> None:
        del ev[back]

    for edit, check in ((other_bot, "bots"), (bot_seat, "replay"), (twice, "replay"), (unlabelled, "bots"),
                        (no_return, None)):
        report = _forged(lines, edit)
        assert not report["ok"], edit.__name__
        if check is not None:
            assert report["divergence"]["check"] == check, (edit.__name__, report["divergence"])


def test_a_grace_window_of_null_never_takes_a_seat_over(client: Any, clock: Any, service: Any) -> None:
    game = _away_game(client, away_grace_s=None)
    view(client, game, 0)
    clock.advance(10 * 86_400_000)
    look_at_away(service)
    assert "played_by" not in view(client, game)["seats"][0]
    assert not [e for e in _log(client, game)[1:] if e["type"] == "seat_taken_over"]


def test_a_seat_never_seen_is_never_taken_over(client: Any, clock: Any, service: Any) -> None:
    game = _away_game(client, away_grace_s=1)
    view(client, game, 1)
    clock.advance(WINDOW + 2000)
    look_at_away(service)
    seats = view(client, game)["seats"]
    assert seats[0].get("played_by") is None and seats[1]["played_by"] == "default"


def test_a_move_by_a_seat_taken_over_gives_it_back_first(client: Any, clock: Any, service: Any, work: Any) -> None:
    """Its own return is no move it missed: an ``expected_version`` of the version before it still holds."""
    game = _away_game(client, away_grace_s=GRACE_S, away_bot="random")
    seat = view(client, game)["to_act"][0]
    legal = view(client, game, seat)["legal_moves"]
    before = view(client, game)["version"]
    clock.advance(WINDOW + GRACE_S * 1000)
    look_at_away(service)
    assert view(client, game)["seats"][seat]["played_by"] == "random"
    response = move(client, game, seat, [m for m in legal if m["type"] != "resign"][0],
                    expected_version=before + 1)
    assert response.status_code == 201, response.get_json()
    types = [e["type"] for e in _log(client, game)[1:]]
    assert types[before:before + 3] == ["seat_taken_over", "seat_returned", "move"]


@pytest.mark.parametrize("options, word", [({"away_grace_s": 0}, "away_grace_s"),
                                           ({"away_grace_s": True}, "away_grace_s"),
                                           ({"away_grace_s": "60"}, "away_grace_s"),
                                           ({"away_bot": "bot_x"}, "away_bot"),
                                           ({"away_bot": None}, "away_bot")])
def test_bad_presence_options_are_refused(client: Any, options: dict[str, Any], word: str) -> None:
    response = client.post("/v1/games", json={"ruleset": "bluffaneer", "players": 3, "options": options})
    assert response.status_code == 422 and response.get_json()["code"] == "invalid_options"
    assert word in response.get_json()["detail"]
