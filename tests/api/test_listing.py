"""Games, bots and tournaments to find (issue 24, item 3): newest first, a
page at a time after a cursor (no repeat, no skip while items are added),
filtered, with nothing hidden in them; an expired record drops out."""
from __future__ import annotations

import json
from typing import Any

from tests.api.helpers import auth, create


def _all(client: Any, path: str, key: str, **params: Any) -> list[dict[str, Any]]:
    items, cursor = [], None
    for _ in range(50):
        page = client.get(path, query_string={**params, **({"cursor": cursor} if cursor else {})})
        assert page.status_code == 200, page.get_json()
        body = page.get_json()
        items += body[key]
        cursor = body["next"]
        if cursor is None:
            return items
    raise AssertionError("the pages never ended")


def test_games_are_listed_newest_first_a_page_at_a_time_with_public_facts_only(client: Any, clock: Any) -> None:
    made = []
    for i in range(7):
        made.append(create(client, ruleset="bluffaneer" if i % 2 else "bang-dice", players=3)["id"])
        clock.advance(1)
    listed = _all(client, "/v1/games", "games", limit=3)
    assert [g["id"] for g in listed] == made[::-1]
    text = json.dumps(listed)
    assert "token" not in text and "seed" not in text
    assert {g["ruleset"] for g in _all(client, "/v1/games", "games", ruleset="bluffaneer")} == {"bluffaneer"}
    assert len(_all(client, "/v1/games", "games", ruleset="bluffaneer", limit=1)) == 3
    assert _all(client, "/v1/games", "games", status="finished") == []
    first = client.get("/v1/games", query_string={"limit": 2}).get_json()
    clock.advance(1)
    newer = create(client, ruleset="bluffaneer", players=3)["id"]  # added while a reader pages
    rest = _all(client, "/v1/games", "games", cursor=first["next"])
    assert [g["id"] for g in first["games"] + rest] == made[::-1] and newer not in [g["id"] for g in rest]


def test_games_of_one_millisecond_page_without_repeat_or_gap(client: Any) -> None:
    made = {create(client, players=3)["id"] for _ in range(5)}  # the clock does not move: one score
    listed = [g["id"] for g in _all(client, "/v1/games", "games", limit=2)]
    assert sorted(listed) == sorted(made) and len(listed) == 5


def test_a_cursor_the_referee_did_not_give_is_422_and_limits_are_bounded(client: Any) -> None:
    for bad in ("x", "0", "bm90OmFjdXJzb3I", "MTox!"):
        r = client.get("/v1/games", query_string={"cursor": bad})
        assert r.status_code == 422 and r.get_json()["code"] == "invalid_cursor", bad
    assert client.get("/v1/games", query_string={"limit": 101}).status_code == 400
    assert client.get("/v1/games", query_string={"limit": 0}).status_code == 400
    assert client.get("/v1/bots", query_string={"cursor": "x"}).status_code == 422


def test_an_expired_game_drops_out_of_the_list(client: Any, redis_client: Any, clock: Any) -> None:
    gone = create(client, players=3)["id"]
    clock.advance(1)
    kept = create(client, players=3)["id"]
    for key in redis_client.keys(f"game:{{{gone}}}*"):
        redis_client.delete(key)
    assert [g["id"] for g in _all(client, "/v1/games", "games")] == [kept]
    assert redis_client.zscore("index:{games}", gone) is None


def test_bots_and_tournaments_are_listed_without_secrets(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    hook = client.post("/v1/bots", json={"name": "h", "url": "http://127.0.0.1:9/", "rulesets": ["bluffaneer"]}
                       ).get_json()
    out = client.post("/v1/bots", json={"name": "o", "rulesets": ["bluffaneer"]}).get_json()
    bots = _all(client, "/v1/bots", "bots", limit=1)
    assert {b["id"]: b["kind"] for b in bots} == {hook["id"]: "webhook", out["id"]: "outbound"}
    assert "secret" not in json.dumps(bots) and "127.0.0.1" not in json.dumps(bots)
    made = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "games": 2, "entrants": ["random"] * 3})
    assert made.status_code == 201
    listed = _all(client, "/v1/tournaments", "tournaments")
    assert [t["id"] for t in listed] == [made.get_json()["id"]] and listed[0]["games_total"] == 2
    assert "cancel" not in json.dumps(listed)
    assert _all(client, "/v1/tournaments", "tournaments", status="finished") == []
    cancel = client.delete(f"/v1/tournaments/{made.get_json()['id']}", headers=auth(made.get_json()["cancel_token"]))
    assert cancel.status_code == 200
    assert [t["status"] for t in _all(client, "/v1/tournaments", "tournaments")] == ["cancelled"]


def test_games_are_filtered_by_who_started_them_and_a_pool_game_names_its_ladder(
        client: Any, clock: Any, service: Any) -> None:
    """A busy pool or tournament starts a game every second or so: ``source``
    keeps the games people started apart (the watch page's index lists those)."""
    bots = [{"name": f"b{i}", "bot": "random"} for i in range(3)]
    mine = create(client, ruleset="bluffaneer", players=3)["id"]
    clock.advance(1)
    pooled = service.create_game("bluffaneer", seats=bots, pool="bluffaneer", held=True)["id"]
    clock.advance(1)
    arranged = service.create_game("bluffaneer", seats=bots, tournament="t-1", held=True)["id"]
    every = _all(client, "/v1/games", "games")
    assert [g["id"] for g in every] == [arranged, pooled, mine]
    assert [(g.get("tournament"), g.get("pool")) for g in every] == [("t-1", None), (None, "bluffaneer"), (None, None)]
    assert [(source, [g["id"] for g in _all(client, "/v1/games", "games", source=source)])
            for source in ("people", "pool", "tournament")] == [("people", [mine]), ("pool", [pooled]),
                                                                  ("tournament", [arranged])]
    bad = client.get("/v1/games", query_string={"source": "bots"})
    assert bad.status_code == 400 and "source" in json.dumps(bad.get_json())
