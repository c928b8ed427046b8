"""Issue 40 item 5: table chat in the chain. A seat's message is an event of
the game's log whose data commits to the text with a salt of its own; the
text is served beside the log, hidden by the creator or the admin while its
commitment stays in the chain, and the game still audits. Chat changes no
state: a move's ``expected_version`` older only by chat is not stale, and
the turn clock runs from the last move. Real Redis throughout; over real
processes in ``tests/e2e/test_http_chat.py``."""
from __future__ import annotations

import json
from typing import Any

import pytest

from referee.audit.chat import opens
from referee.engine import commitment
from tests.api.helpers import auth, create, move, ndjson, play_to_end, view

SECRET = "<b>meet</b> at <script>alert(1)</script> noon"


def _post(client: Any, game: dict[str, Any], seat: int | None, text: str) -> Any:
    headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
    return client.post(f"/v1/games/{game['id']}/chat", json={"text": text}, headers=headers)


def _messages(client: Any, game: dict[str, Any], token: str | None = None) -> list[dict[str, Any]]:
    answer = client.get(f"/v1/games/{game['id']}/chat", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.get_json()
    out: list[dict[str, Any]] = answer.get_json()["messages"]
    return out


def test_a_seats_message_is_a_chained_event_whose_commitment_opens_with_its_text(client: Any) -> None:
    """Item 5: each message is an event of the chain (salted): the event holds
    ``said``, the opening served beside it opens it, and the text is plain, as sent."""
    game = create(client, ruleset="bang", players=4, seed="chat-1")
    answer = _post(client, game, 2, "  " + SECRET + "  ")
    assert answer.status_code == 201, answer.get_json()
    posted = answer.get_json()
    assert posted["text"] == SECRET and posted["seat"] == 2 and not posted["hidden"]
    assert opens(posted["said"], posted["text"], posted["salt"])
    events = client.get(f"/v1/games/{game['id']}/events?after={posted['seq'] - 1}").get_json()["events"]
    assert events[0]["type"] == "chat_posted" and events[0]["actor"] == 2
    assert events[0]["data"] == {"seat": 2, "said": posted["said"]}
    assert events[0]["commit"] == commitment(events[0]["salt"], events[0]["data"])
    assert SECRET not in json.dumps(events)
    assert _messages(client, game) == [posted]


def test_a_move_expecting_a_version_older_only_by_chat_is_accepted(client: Any) -> None:
    """Item 5: chat advances the log's seq; a move's expected_version is not
    stale for it (docs/chat.md), while a move in between still makes it stale."""
    game = create(client, ruleset="bang", players=4, seed="chat-2")
    before = view(client, game)
    seat = before["to_act"][0]
    legal = view(client, game, seat)["legal_moves"]
    for text in ("hello", "good luck"):
        assert _post(client, game, (seat + 1) % 4, text).status_code == 201
    assert view(client, game)["version"] == before["version"] + 2
    made = move(client, game, seat, legal[0], expected_version=before["version"])
    assert made.status_code == 201, made.get_json()
    stale = move(client, game, seat, legal[0], expected_version=before["version"])
    assert stale.status_code in (409, 403, 422)
    if stale.status_code == 409:
        assert stale.get_json()["code"] == "version_conflict"


def test_chat_does_not_move_the_turn_clock(client: Any, clock: Any) -> None:
    """The turn clock runs from the last move: a seat cannot stall by talking."""
    game = create(client, ruleset="bang", players=4, seed="chat-3", options={"turn_timeout_s": 60})
    deadline = view(client, game)["turn_deadline"]
    clock.advance(30_000)
    assert _post(client, game, 0, "thinking...").status_code == 201
    assert view(client, game)["turn_deadline"] == deadline


def test_a_turn_clock_default_after_a_message_audits_clean(client: Any, clock: Any, service: Any) -> None:
    """The audit times the turn clock from the last event that is no chat, as the service does."""
    from workers.jobs import fire_turn_clock
    game = create(client, ruleset="bang", players=4, seed="chat-12", options={"turn_timeout_s": 60})
    clock.advance(30_000)
    assert _post(client, game, 1, "hurry up").status_code == 201
    spectator = view(client, game)
    clock.now = spectator["turn_deadline"]
    assert fire_turn_clock(game["id"], spectator["version"], service) == "defaulted"
    play_to_end(client, game, clock, service)
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report


@pytest.mark.parametrize("text, code", [("", "chat_empty"), ("   ", "chat_empty"), ("x" * 281, "chat_too_long"),
                                        ("two\nlines", "chat_not_plain_text"), ("bell\x07", "chat_not_plain_text"),
                                        ("rtl \u202e override", "chat_not_plain_text"),
                                        ("private \ue000", "chat_not_plain_text")])
def test_a_message_is_one_short_line_of_plain_text(client: Any, text: str, code: str) -> None:
    """Item 5: length-limited, plain text only (controls, bidi overrides, private use refused)."""
    game = create(client, ruleset="bang", players=4, seed="chat-4")
    answer = _post(client, game, 0, text)
    assert (answer.status_code, answer.get_json()["code"]) == (422, code)
    assert _messages(client, game) == []


def test_the_limits_hold_at_their_edges(client: Any) -> None:
    """280 characters after NFC normalisation pass; an emoji sequence with its joiner is text."""
    game = create(client, ruleset="bang", players=4, seed="chat-5")
    assert _post(client, game, 0, "e\u0301" * 280).status_code == 201  # NFC: 280 characters, not 560
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert _post(client, game, 1, family).get_json()["text"] == family


def test_each_seat_is_rate_limited_in_its_own_window(client: Any, clock: Any) -> None:
    """Item 5: rate-limited per seat: the sixth message in 10 s is 429 with
    Retry-After, another seat still talks, and the window frees (the injected clock)."""
    game = create(client, ruleset="bang", players=4, seed="chat-6")
    for i in range(5):
        assert _post(client, game, 0, f"m{i}").status_code == 201
        clock.advance(1000)
    refused = _post(client, game, 0, "one too many")
    assert refused.status_code == 429 and refused.get_json()["code"] == "chat_rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    assert _post(client, game, 1, "my turn to talk").status_code == 201
    clock.advance(int(refused.headers["Retry-After"]) * 1000)
    assert _post(client, game, 0, "back").status_code == 201


def test_spectators_post_only_where_the_creator_allows_and_nobody_where_chat_is_off(client: Any) -> None:
    """Item 5: spectators only with the creation option ``chat: everyone``; ``off`` closes it to seats too."""
    seats_only = create(client, ruleset="bang", players=4, seed="chat-7")
    assert _post(client, seats_only, None, "hi").get_json()["code"] == "token_required"
    everyone = create(client, ruleset="bang", players=4, seed="chat-7", options={"chat": "everyone"})
    posted = _post(client, everyone, None, "hi from the rail")
    assert posted.status_code == 201 and posted.get_json()["seat"] is None
    off = create(client, ruleset="bang", players=4, seed="chat-7", options={"chat": "off"})
    assert (_post(client, off, 0, "hi").status_code, _post(client, off, None, "hi").status_code) == (403, 403)
    bad = client.post("/v1/games", json={"ruleset": "bang", "players": 4, "options": {"chat": "all"}})
    assert (bad.status_code, bad.get_json()["code"]) == (422, "invalid_options")
    stranger = client.post(f"/v1/games/{seats_only['id']}/chat", json={"text": "hi"}, headers=auth("not-a-token"))
    assert stranger.status_code == 401


def test_every_view_says_who_may_talk_where_the_creator_said(client: Any) -> None:
    """Item 5 (found by a new user's trial: the page could not know to give a spectator the box): every
    view of a game created with ``chat`` carries it, a seat's and a spectator's; a game without, nothing."""
    for mode in ("seats", "everyone", "off"):
        game = create(client, ruleset="bang", players=4, seed="chat-7", options={"chat": mode})
        assert view(client, game)["chat"] == view(client, game, 0)["chat"] == mode
    assert "chat" not in view(client, create(client, ruleset="bang", players=4, seed="chat-7"))


def test_only_the_creator_or_the_admin_hides_and_the_text_leaks_nowhere(client: Any, clock: Any,
                                                                        service: Any) -> None:
    """Item 5 and Done when: a hidden message's text (and its salt) is in no
    view, feed, log or chat list a non-admin reads, during the game and after
    it; its commitment stays in the chain and the game audits clean."""
    game = create(client, ruleset="bang", players=4, seed="chat-8")
    posted = _post(client, game, 1, SECRET).get_json()
    kept = _post(client, game, 2, "gg in advance").get_json()
    url = f"/v1/games/{game['id']}/chat/{posted['seq']}/hide"
    for token in (game["seats"][1]["token"], game["seats"][0]["token"], "junk"):
        assert client.post(url, headers=auth(token)).status_code == 401
    assert client.post(f"/v1/games/{game['id']}/chat/{kept['seq'] - 1}/hide",
                       headers=auth(game["owner_token"])).status_code in (200, 404)
    hidden = client.post(url, headers=auth(game["owner_token"]))
    assert hidden.status_code == 200 and hidden.get_json() == {"seq": posted["seq"], "hidden": True}
    assert client.post(url, headers=auth("admin-secret")).status_code == 200  # twice: nothing more
    listed = {m["seq"]: m for m in _messages(client, game, game["seats"][1]["token"])}
    assert listed[posted["seq"]]["hidden"] and listed[posted["seq"]]["text"] is None
    assert listed[kept["seq"]]["text"] == "gg in advance"
    admin = {m["seq"]: m for m in _messages(client, game, "admin-secret")}
    assert admin[posted["seq"]]["text"] == SECRET and admin[posted["seq"]]["hidden"]
    play_to_end(client, game, clock, service)
    readable = [client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True),
                client.get(f"/v1/games/{game['id']}/events").get_data(as_text=True),
                client.get(f"/v1/games/{game['id']}/chat").get_data(as_text=True),
                client.get(f"/v1/games/{game['id']}/replay").get_data(as_text=True),
                client.get(f"/v1/games/{game['id']}/audit").get_data(as_text=True)]
    readable += [client.get(f"/v1/games/{game['id']}", headers=auth(s["token"])).get_data(as_text=True)
                 for s in game["seats"]]
    for text in readable:
        assert SECRET not in text and posted["salt"] not in text and "meet" not in text
    log = ndjson(readable[0])
    types = [e["type"] for e in log[1:]]
    assert types.count("chat_posted") == 2 and types.count("chat_hidden") == 1
    report = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert report["ok"], report
    assert "2 chat messages" in json.dumps(report)


def test_a_message_hidden_after_the_end_is_marked_and_the_final_log_is_unchanged(client: Any, clock: Any,
                                                                                  service: Any) -> None:
    """Once the game is over its log is final (seed_revealed last): hiding appends nothing."""
    game = create(client, ruleset="bang", players=4, seed="chat-9")
    posted = _post(client, game, 3, SECRET).get_json()
    play_to_end(client, game, clock, service)
    before = client.get(f"/v1/games/{game['id']}/log").get_data()
    assert _post(client, game, 3, "late").status_code == 410
    assert client.post(f"/v1/games/{game['id']}/chat/{posted['seq']}/hide",
                       headers=auth(game["owner_token"])).status_code == 200
    assert client.get(f"/v1/games/{game['id']}/log").get_data() == before
    assert _messages(client, game)[0]["text"] is None
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]


def test_messages_survive_a_reissue_and_the_old_token_posts_no_more(client: Any) -> None:
    """Done when: chat survives a reissue; the reissued token is refused at once."""
    game = create(client, ruleset="bang", players=4, seed="chat-10")
    _post(client, game, 1, "before")
    fresh = client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(game["owner_token"])).get_json()
    assert _post(client, game, 1, "stale token").status_code == 401
    answer = client.post(f"/v1/games/{game['id']}/chat", json={"text": "after"}, headers=auth(fresh["token"]))
    assert answer.status_code == 201
    assert [m["text"] for m in _messages(client, game)] == ["before", "after"]


def test_bots_play_on_while_the_table_talks(client: Any, work: Any) -> None:
    """Bots may ignore chat: a game of bots and one person finishes although
    messages arrive between the bots' turns (their jobs are scheduled again)."""
    seats = [{"name": "ann"}, *({"bot": "random"} for _ in range(3))]
    game = create(client, ruleset="bang", seats=seats, seed="chat-11")
    for step in range(400):
        spectator = view(client, game)
        if spectator["status"] != "active":
            break
        assert _post(client, game, 0, f"step {step}").status_code in (201, 429)
        if 0 in spectator["to_act"]:
            assert move(client, game, 0, view(client, game, 0)["legal_moves"][0]).status_code == 201
        work()
    assert view(client, game)["status"] == "finished"
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"]
