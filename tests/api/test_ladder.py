"""Issue 42: lasting ratings over the API, on a real Redis with real RQ
jobs and real webhook bots on loopback: a bot's owner at registration, the
``rated`` option, rated games (and tournament games) folded into the ladder
by the job their end enqueues, the anti-pumping rule, the ladder's pages
and a bot's profile; the Redis ledger equals the fold from scratch however
games arrive."""
from __future__ import annotations

import dataclasses
import random
import threading
from typing import Any

import pytest
from prometheus_client import REGISTRY

from referee.ladder import ledger
from referee.ladder.ratings import ANCHORS, RANKED_BY, entry_of, fold
from referee.ladder.service import Ladders
from referee.play.latency import seat_health
from referee.store.ladder import LadderBook
from tests.api.helpers import create, health_by_hand, view
from tests.webhook_bot import WebhookBot


def _register(client: Any, hook: WebhookBot, address: str = "10.0.0.1") -> dict[str, Any]:
    r = client.post("/v1/bots", json={"name": f"hook-{address}", "url": hook.url, "rulesets": ["bluffaneer"],
                                      "seating": "public"}, environ_base={"REMOTE_ADDR": address})
    assert r.status_code == 201, r.get_json()
    hook.secret = r.get_json()["secret"]
    return r.get_json()


def _rated(client: Any, bots: list[str]) -> dict[str, Any]:
    return create(client, seats=[{"bot": b} for b in bots], options={"rated": True})


# -- item 1: the owner ---------------------------------------------------------------
def test_a_bot_gets_an_opaque_owner_of_its_registering_client(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    with WebhookBot("first") as hook:
        one, two = _register(client, hook, "10.0.0.7"), _register(client, hook, "10.0.0.7")
        other = _register(client, hook, "10.0.0.8")
        admin = client.post("/v1/bots", json={"name": "a", "url": hook.url, "rulesets": ["bluffaneer"]},
                            headers={"Authorization": "Bearer admin-secret"}).get_json()
    assert one["owner"] == two["owner"] != other["owner"]
    assert len(one["owner"]) == 16 and int(one["owner"], 16) >= 0 and "10.0.0" not in one["owner"]
    assert admin["owner"] == "admin"
    listed = {b["id"]: b for b in client.get("/v1/bots").get_json()["bots"]}
    assert listed[one["id"]]["owner"] == one["owner"]
    record = client.get(f"/v1/bots/{one['id']}", headers={"Authorization": f"Bearer {one['secret']}"}).get_json()
    assert record["owner"] == one["owner"]


# -- item 2: the rated option ------------------------------------------------------------
def test_rated_is_refused_unless_every_seat_is_a_bot_and_with_a_seed_or_setup(client: Any) -> None:
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"bot": "random"}, {}, {"bot": "random"}],
                                       "options": {"rated": True}})
    assert r.status_code == 422 and r.get_json()["code"] == "invalid_options"
    assert "seat 1 is no bot's" in r.get_json()["detail"]
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"bot": "random"}] * 3,
                                       "options": {"rated": "yes"}})
    assert r.status_code == 422 and r.get_json()["detail"] == "rated is true or false"
    r = client.post("/v1/games", json={"ruleset": "bluffaneer", "seats": [{"bot": "random"}] * 3, "seed": "ab",
                                       "options": {"rated": True}})
    assert r.status_code == 422 and "no seed, no setup" in r.get_json()["detail"]
    game = _rated(client, ["random", "heuristic", "random"])
    log = client.get(f"/v1/games/{game['id']}/log", headers={"Authorization": "Bearer admin-secret"})
    assert '"rated":true' in log.get_data(as_text=True).splitlines()[0]


# -- item 3: rated games fold into the ladder ----------------------------------------------
def test_rated_games_of_registered_bots_fill_the_ladder_and_their_profiles(loopback_app: Any, work: Any) -> None:
    client = loopback_app.test_client()
    with WebhookBot("first") as first, WebhookBot("nonsense") as wrong:
        a, b = _register(client, first, "10.0.0.1")["id"], _register(client, wrong, "10.0.0.2")["id"]
        games = [_rated(client, [a, b, "random"]) for _ in range(3)]
        work()
    assert all(view(client, g)["status"] == "finished" for g in games)
    assert client.get("/v1/ladder").get_json() == {"ladders": [
        {"key": "bluffaneer", "ruleset": "bluffaneer", "players": None, "bots": 3, "games": 3}]}
    page = client.get("/v1/ladder/bluffaneer").get_json()
    assert page["ranked_by"] == RANKED_BY and page["provisional_below"] == 20 and page["next_cursor"] is None
    items = {item["bot"]["id"]: item for item in page["items"]}
    assert [item["rank"] for item in page["items"]] == [1, 2, 3]
    assert items["random"]["bot"] == {"id": "random", "name": "random", "kind": "builtin", "owner": "referee",
                                      "builtin": True}
    assert (items["random"]["rating"]["mu"], items["random"]["rating"]["sigma"]) == ANCHORS["random"]
    assert items[a]["bot"]["kind"] == "webhook" and items[a]["provisional"] and items[a]["games"] == 3
    assert items[a]["rating"]["sigma"] < 25 / 3 and len(items[a]["form"]) == 3
    assert items[a]["health"]["moves"] > 0 and items[a]["health"]["median_ms"] is not None
    assert items[b]["health"]["invalid"] > 0 and items[b]["health"]["moves"] == 0  # every answer refused
    profile = client.get(f"/v1/bots/{a}/profile").get_json()
    assert profile["bot"]["id"] == a and list(profile["ladders"]) == ["bluffaneer"]
    history = profile["ladders"]["bluffaneer"]["history"]
    assert len(history) == 3 and history[-1]["mu"] == items[a]["rating"]["mu"]
    assert sorted(g["id"] for g in profile["games"]) == sorted(g["id"] for g in games)
    assert all(g["rated"] and g["unrated_reason"] is None for g in profile["games"])
    assert [g["finished_at"] for g in profile["games"]] == sorted((g["finished_at"] for g in profile["games"]),
                                                                  reverse=True)
    # the pool matches by these: each bot's mu (an anchor's fixed), a bot not rated yet left out
    skills = Ladders(loopback_app.extensions["referee.service"]).skills("bluffaneer", [a, b, "heuristic", "bot_new"])
    assert skills == {a: items[a]["rating"]["mu"], b: items[b]["rating"]["mu"], "heuristic": ANCHORS["heuristic"][0]}
    one = client.get("/v1/ladder/bluffaneer?limit=1").get_json()
    assert len(one["items"]) == 1 and one["next_cursor"] == "1"
    second = client.get("/v1/ladder/bluffaneer?limit=1&cursor=1").get_json()
    assert second["items"][0]["rank"] == 2 and second["items"][0]["bot"] == page["items"][1]["bot"]


def test_two_bots_of_one_owner_move_no_rating(loopback_app: Any, work: Any) -> None:
    """Item 5, the anti-pumping rule: the game is recorded, unrated, ``same_owner``."""
    client = loopback_app.test_client()
    unrated = REGISTRY.get_sample_value("referee_rated_games_total", {"ladder": "bluffaneer", "rated": "false"})
    with WebhookBot("first") as hook:
        a, b = _register(client, hook, "10.0.0.3")["id"], _register(client, hook, "10.0.0.3")["id"]
        game = _rated(client, [a, b, "random"])
        work()
    assert view(client, game)["status"] == "finished"
    profile = client.get(f"/v1/bots/{a}/profile").get_json()
    assert profile["games"] == [{"id": game["id"], "ladder": "bluffaneer", "finished_at": profile["games"][0][
        "finished_at"], "won": profile["games"][0]["won"], "seat": 0, "rated": False, "unrated_reason": "same_owner"}]
    standing = profile["ladders"]["bluffaneer"]
    assert standing["games"] == 0 and standing["rating"]["mu"] == 25 and standing["history"] == []
    assert client.get("/v1/ladder").get_json()["ladders"][0]["games"] == 0
    assert REGISTRY.get_sample_value("referee_rated_games_total", {"ladder": "bluffaneer", "rated": "false"}) \
        == (unrated or 0) + 1


def test_an_unrated_game_goes_to_no_ladder(client: Any, work: Any) -> None:
    create(client, seats=[{"bot": "random"}] * 3)
    work()
    assert client.get("/v1/ladder").get_json() == {"ladders": []}


def test_tournament_games_are_rated(client: Any, work: Any) -> None:
    r = client.post("/v1/tournaments", json={"ruleset": "bluffaneer", "players": 3, "games": 3,
                                             "entrants": [{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}]})
    assert r.status_code == 201, r.get_json()
    work()
    assert client.get(f"/v1/tournaments/{r.get_json()['id']}").get_json()["status"] == "finished"
    ladders = client.get("/v1/ladder").get_json()["ladders"]
    assert ladders == [{"key": "bluffaneer", "ruleset": "bluffaneer", "players": None, "bots": 2, "games": 3}]
    items = client.get("/v1/ladder/bluffaneer").get_json()["items"]
    assert [i["bot"]["id"] for i in items] == ["heuristic", "random"]  # the anchors, fixed
    assert sum(i["games"] for i in items) == 9  # three seats a game


def test_unknown_ladders_bots_and_cursors_are_refused(client: Any) -> None:
    r = client.get("/v1/ladder/chess")
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_ladder"
    r = client.get("/v1/bots/bot_nobody/profile")
    assert r.status_code == 404 and r.get_json()["code"] == "bot_not_found"
    assert client.get("/v1/ladder/bang?cursor=x").status_code == 400
    assert client.get("/v1/ladder/bang?limit=0").status_code == 400
    profile = client.get("/v1/bots/heuristic/profile").get_json()
    assert profile == {"bot": {"id": "heuristic", "name": "heuristic", "kind": "builtin", "owner": "referee",
                               "builtin": True}, "ladders": {}, "games": []}


# -- the Redis ledger: any arrival order, racing workers ---------------------------------------
def _entries(n: int) -> list[dict[str, Any]]:
    rnd = random.Random(42)
    out = []
    for i in range(n):
        bots = rnd.sample(["bot_a", "bot_b", "bot_c", "random", "heuristic"], 3)
        header = {"ruleset": "bluffaneer", "players": 3, "rated": True, "custom": False,
                  "seats": [{"seat": s, "bot": bot, "owner": f"o-{bot}"} for s, bot in enumerate(bots)]}
        result = {"winners": [rnd.randrange(3)], "seats": [{"seat": s} for s in range(3)]}
        found = entry_of(f"g{i:03}", header, result, [], rnd.randrange(20))
        assert found is not None
        out.append(found)
    return out


def test_the_redis_ledger_equals_the_fold_from_scratch_in_any_arrival_order(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(ledger, "CHECKPOINTS_KEPT", 2)
    monkeypatch.setattr(ledger, "SPARSE", 2)
    entries = _entries(30)
    arrival = entries[:]
    random.Random(7).shuffle(arrival)
    book = LadderBook(redis_client, "bluffaneer")
    for n, found in enumerate(arrival, 1):
        assert book.add(found) and not book.add(found)
        with book.locked():
            ledger.catch_up(book, "bluffaneer")
        scratch = fold("bluffaneer", arrival[:n])
        assert book.table() == scratch.state and book.after() == scratch.after
    assert sorted(book.checkpoints()) == [8, 16, 24, 28]  # the newest two, and every second
    assert all(k.startswith(b"{ladder:bluffaneer}:") or k == b"ladder:keys" for k in redis_client.keys("*"))


def test_workers_racing_on_one_ladder_leave_the_fold_from_scratch(
        redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four workers add games (without the lock) and fold (with it) at once:
    older games enter the ledger while another worker folds newer ones."""
    monkeypatch.setattr(ledger, "CHECKPOINT_EVERY", 5)
    entries = _entries(40)
    errors: list[BaseException] = []

    def record(part: list[dict[str, Any]]) -> None:
        book = LadderBook(redis_client.__class__(connection_pool=redis_client.connection_pool), "bluffaneer")
        try:
            for found in part:
                book.add(found)
                with book.locked():
                    ledger.catch_up(book, "bluffaneer")
        except BaseException as err:  # noqa: BLE001 -- reported below
            errors.append(err)
    threads = [threading.Thread(target=record, args=(entries[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    book, scratch = LadderBook(redis_client, "bluffaneer"), fold("bluffaneer", entries)
    assert book.table() == scratch.state and book.after() == scratch.after


def test_a_ladder_is_listed_once_its_table_is_saved_and_served_as_listed(client: Any, service: Any) -> None:
    """A game enters the ledger (and its ladder the keys) before the fold that saves the table, which
    may be another process's: between the two the ladder is neither listed nor served, never listed
    and then ``unknown_ladder``."""
    book = LadderBook(service.store.redis, "bluffaneer")
    assert book.add(_entries(1)[0])
    assert client.get("/v1/ladder").get_json() == {"ladders": []}
    assert client.get("/v1/ladder/bluffaneer").get_json()["code"] == "unknown_ladder"
    with book.locked():
        ledger.catch_up(book, "bluffaneer")
    assert client.get("/v1/ladder").get_json() == {"ladders": [
        {"key": "bluffaneer", "ruleset": "bluffaneer", "players": None, "bots": 3, "games": 1}]}
    assert len(client.get("/v1/ladder/bluffaneer").get_json()["items"]) == 3


def test_recording_a_game_twice_counts_it_once(loopback_app: Any, work: Any, service: Any) -> None:
    client = loopback_app.test_client()
    game = _rated(client, ["random", "heuristic", "random"])
    work()
    ladders = Ladders(service)
    assert ladders.record(game["id"]) == "duplicate"
    assert client.get("/v1/ladder").get_json()["ladders"][0]["games"] == 1


def test_the_sweeper_records_a_rated_game_whose_worker_died_as_it_finished(
        client: Any, work: Any, service: Any, redis_client: Any, clock: Any) -> None:
    """A worker killed between a game's last append and the jobs its end owes
    leaves the game in the watch set: the sweeper enqueues its ladder job too."""
    import workers.jobs as jobs
    game = _rated(client, ["random", "heuristic", "random"])
    work()
    for key in redis_client.keys("*ladder*"):  # as if its ladder job was never enqueued
        redis_client.delete(key)
    assert client.get("/v1/ladder").get_json() == {"ladders": []}
    service.scheduler.watch(game["id"], clock())
    clock.advance(60_000)
    jobs.sweep(service)
    work()
    assert client.get("/v1/ladder").get_json()["ladders"][0]["games"] == 1


def test_a_rated_games_health_is_its_logs_whether_folded_or_read(loopback_app: Any, work: Any, service: Any,
                                                                   redis_client: Any) -> None:
    """A seat's health in the ladder (moves, timeouts, invalid answers, the
    histogram of its moves' times) comes from the timing the recording
    process folded when it has it, else from the game's log: the same, for
    a bot whose every answer is refused and for built-in bots."""
    client = loopback_app.test_client()
    with WebhookBot("first") as first, WebhookBot("nonsense") as wrong:
        a, b = _register(client, first, "10.0.0.1")["id"], _register(client, wrong, "10.0.0.2")["id"]
        game = _rated(client, [a, b, "random"])
        work()
    found = service.load(game["id"])
    assert found.status == "finished" and found.timing_known() is not None
    logged = health_by_hand(service.store.read(game["id"]), 3)
    assert seat_health(service.store.read(game["id"]), 3) == logged
    unknown = dataclasses.replace(found, timing=None)  # as a process that never held it: its log folded
    assert service.loader.timing(found).health() == logged == service.loader.timing(unknown).health()
    assert logged[1]["invalid"] > 0 and sum(logged[0]["hist"].values()) == logged[0]["moves"] > 0
    entry = LadderBook(redis_client, "bluffaneer").entry(game["id"])
    assert entry is not None and entry["health"] == logged


def test_the_run_that_finishes_a_rated_game_records_it_without_a_job(client: Any, work: Any, service: Any,
                                                                      redis_client: Any) -> None:
    """A game of built-in bots is finished by a worker's run, which records it
    in its ladder there and then (``workers.ending``): no ladder job is queued,
    and the entry is the one its log gives."""
    game = _rated(client, ["random", "heuristic", "random"])
    work()
    assert client.get("/v1/ladder").get_json()["ladders"][0]["games"] == 1
    assert not redis_client.exists(f"rq:job:ladder-{game['id']}")
    entry = LadderBook(redis_client, "bluffaneer").entry(game["id"])
    assert entry is not None and entry["health"] == health_by_hand(service.store.read(game["id"]), 3)


def test_a_fold_landing_while_a_profile_is_read_leaves_it_consistent(
        client: Any, service: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's row and its rating history are read at once (``LadderBook.standing``): a game entered in
    the ledger and folded while the profile is being read is in both or in neither, never in the history
    alone (the race a live pool showed: a history of 13 games beside a row counting 12)."""
    ladders = Ladders(service)
    entries = [e for e in _entries(4) if "heuristic" in {s["bot"] for s in e["seats"]}]
    book = ladders.book("bluffaneer")
    for entry in entries[:-1]:
        book.add(entry)
    with book.locked():
        ledger.catch_up(book, "bluffaneer")
    book.add(entries[-1])  # in the ledger and the bot's indexes, not folded yet
    read = LadderBook.entries_of

    def folding_meanwhile(self: LadderBook, game_ids: list[str]) -> dict[str, Any]:
        with self.locked():
            ledger.catch_up(self, "bluffaneer")  # another worker's fold lands between the profile's reads
        return read(self, game_ids)
    monkeypatch.setattr(LadderBook, "entries_of", folding_meanwhile)
    standing = ladders.profile("heuristic")["ladders"]["bluffaneer"]
    assert len(standing["history"]) == standing["games"] == len(entries) - 1
    monkeypatch.setattr(LadderBook, "entries_of", read)
    standing = ladders.profile("heuristic")["ladders"]["bluffaneer"]
    assert len(standing["history"]) == standing["games"] == len(entries)
