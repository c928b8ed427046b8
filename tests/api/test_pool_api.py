"""The ladders' matchmaking pools through the API (issue 42 item 3), with the
pool's jobs run by a real RQ worker (burst) on the test Redis: an owner puts
a bot in, the workers deal it games with the built-in bots, a bot that
keeps failing is paused, two workers matching at once never book a bot
twice."""
from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import redis
from rq import Queue

import workers.pool as pool_jobs
from referee.engine.rng import Rng
from referee.ladder.pool import Limits, Pool
from referee.service import GameService
from referee.service.scheduling import QUEUE
from referee.store.redis_store import EventStore
from tests.api.helpers import auth, ndjson
from tests.conftest import BurstWorker
from tests.webhook_bot import WebhookBot

DEAD_URL = "http://127.0.0.1:9/turn"  # nothing listens: every turn is the bot's default


def _bot(client: Any, rulesets: list[str] | None = None, url: str = DEAD_URL, name: str = "b") -> dict[str, Any]:
    made = client.post("/v1/bots", json={"name": name, "url": url, "rulesets": rulesets or ["bluffaneer"]})
    assert made.status_code == 201, made.get_json()
    return dict(made.get_json())


def _put(client: Any, bot: dict[str, Any], key: str = "bluffaneer", **body: Any) -> Any:
    return client.put(f"/v1/ladder/{key}/pool/{bot['id']}", json=body, headers=auth(bot["secret"]))


def _pool(client: Any, key: str = "bluffaneer") -> dict[str, Any]:
    got = client.get(f"/v1/ladder/{key}/pool")
    assert got.status_code == 200, got.get_json()
    return dict(got.get_json())


def _entry(client: Any, bot_id: str, key: str = "bluffaneer") -> dict[str, Any]:
    return next(e for e in _pool(client, key)["entries"] if e["bot"]["id"] == bot_id)


def _work_until(redis_client: Any, done: Any, what: str, rounds: int = 60) -> None:
    """Run queued jobs a batch at a time until ``done()``: a pool never runs
    dry (each game's end deals the next), so no burst would end by itself."""
    queue = Queue(QUEUE, connection=redis_client)
    for _ in range(rounds):
        BurstWorker([queue], connection=redis_client).work(burst=True, max_jobs=40, logging_level="ERROR")
        if done():
            return
    raise AssertionError(f"{what}: not after {rounds} batches of jobs")


def test_an_owner_puts_a_bot_in_updates_it_and_takes_it_out(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    bot = _bot(client)
    put = _put(client, bot, games_at_once=2)
    assert put.status_code == 200, put.get_json()
    entry = put.get_json()
    assert entry["bot"] == {"id": bot["id"], "name": "b", "builtin": False}
    assert (entry["status"], entry["games_at_once"], entry["same_table"], entry["playing"]) == ("waiting", 2, 1, 0)
    pool = _pool(client)
    assert [e["bot"]["id"] for e in pool["entries"]] == [bot["id"], "random", "heuristic"]
    assert pool["stats"]["queue"] == 1 and pool["sizes"] == [3, 4, 5, 6]
    again = _put(client, bot, games_at_once=3, same_table=2).get_json()
    assert (again["games_at_once"], again["same_table"]) == (3, 2)
    assert len(_pool(client)["entries"]) == 3  # updated, not added twice
    left = client.delete(f"/v1/ladder/bluffaneer/pool/{bot['id']}", headers=auth(bot["secret"]))
    assert left.status_code == 200 and left.get_json() == {"key": "bluffaneer", "bot": bot["id"], "left": True,
                                                           "playing": 0}
    assert [e["bot"]["id"] for e in _pool(client)["entries"]] == ["random", "heuristic"]
    gone = client.delete(f"/v1/ladder/bluffaneer/pool/{bot['id']}", headers=auth(bot["secret"]))
    assert gone.status_code == 404 and gone.get_json()["code"] == "not_in_pool"


def test_only_the_owner_of_a_bot_registered_for_the_ruleset_may_pool_it(loopback_app: Any) -> None:
    client = loopback_app.test_client()
    bot = _bot(client)
    url = f"/v1/ladder/bluffaneer/pool/{bot['id']}"
    assert client.put(url, json={}).get_json()["code"] == "token_required"
    assert client.put(url, json={}, headers=auth("wrong")).status_code == 401
    assert client.delete(url, headers=auth("wrong")).status_code == 401
    assert client.put("/v1/ladder/bluffaneer/pool/bot_none", json={}, headers=auth("x")).get_json()["code"] == \
        "bot_not_found"
    for key in ("chess", "bang:9", "bang:x", "bang:", "bang:03", "bang:3:3", "bang:4", "bluffaneer:4"):
        got = client.put(f"/v1/ladder/{key}/pool/{bot['id']}", json={}, headers=auth(bot["secret"]))
        assert got.status_code == 404 and got.get_json()["code"] == "unknown_ladder", key
        assert client.get(f"/v1/ladder/{key}/pool").get_json()["code"] == "unknown_ladder"
    assert _put(client, bot, key="bang").get_json()["code"] == "bot_ruleset"
    refused = {"games_at_once": 5, "same_table": 7}  # REFEREE_POOL_GAMES_PER_BOT is 4; bluffaneer seats 6 at most
    assert _put(client, bot, games_at_once=5).get_json()["code"] == "games_at_once_limit"
    assert _put(client, bot, same_table=refused["same_table"]).get_json()["code"] == "same_table_limit"
    for bad in ({"games_at_once": 0}, {"games_at_once": "2"}, {"same_table": 1.5}, {"other": 1}):
        got = _put(client, bot, **bad)
        assert got.status_code == 400, bad
    empty = client.put(url, headers=auth(bot["secret"]))  # no body: the defaults
    assert empty.status_code == 200 and empty.get_json()["games_at_once"] == 2


def _owned_by(redis_client: Any, bot: dict[str, Any], owner: str) -> None:
    """The bot's record with an ``owner`` (as registration gives it once owners are kept: the ratings' part)."""
    key = f"bot:{{{bot['id']}}}"
    record = json.loads(redis_client.hget(key, "record"))
    redis_client.hset(key, "record", json.dumps({**record, "owner": owner}))


def test_an_owners_bots_in_all_pools_are_held_to_the_per_owner_limits(loopback_app: Any, redis_client: Any) -> None:
    loopback_app.config.update(POOL_BOTS_PER_OWNER="2", POOL_GAMES_PER_OWNER="5")
    client = loopback_app.test_client()
    first, second, third = (_bot(client, ["bluffaneer", "bang"]) for _ in range(3))
    for bot in (first, second, third):
        _owned_by(redis_client, bot, "owner-1")
    assert _put(client, _bot(client), games_at_once=4).status_code == 200  # another owner's: not counted
    assert _put(client, first, games_at_once=3).status_code == 200
    over = _put(client, second, key="bang", games_at_once=3)
    assert over.status_code == 409 and over.get_json()["code"] == "pool_games_limit"
    assert _put(client, second, key="bang", games_at_once=2).status_code == 200
    assert _put(client, first, games_at_once=3).status_code == 200  # its own place is not counted twice
    full = _put(client, third)
    assert full.status_code == 409 and full.get_json()["code"] == "pool_bots_limit" and full.get_json()["limit"] == 2
    client.delete(f"/v1/ladder/bang/pool/{second['id']}", headers=auth(second["secret"]))
    assert _put(client, third, games_at_once=3).status_code == 409  # games: 3 + 3 > 5
    assert _put(client, third).status_code == 200  # its default, 2: 3 + 2


def test_pooled_bots_are_dealt_games_with_the_built_in_bots_and_a_failing_one_is_paused(
        loopback_app: Any, service: Any, work: Any, redis_client: Any) -> None:
    client = loopback_app.test_client()
    dead = _bot(client, name="dead")
    with WebhookBot("first") as hook:
        good = _bot(client, url=hook.url, name="good")
        hook.secret = good["secret"]
        assert _put(client, dead, games_at_once=1).status_code == 200
        assert _put(client, good, games_at_once=1).status_code == 200
        # the match job the PUTs queued, the games' bot turns, their ends' pool steps (each matching again)
        _work_until(redis_client, lambda: _entry(client, dead["id"])["status"] == "paused"
                    and len(service.store.pool.state("bluffaneer", service.clock(), 10**9).waited) >= 3,
                    "the dead bot paused after games")
    games = [g for g in client.get("/v1/games?limit=50").get_json()["games"]]
    assert games, "the pool dealt no game"
    for summary in games:
        log = ndjson(client.get(f"/v1/games/{summary['id']}/log", headers=auth("admin-secret")).get_data(as_text=True))
        header = log[0]["header"] if "header" in log[0] else log[0]
        assert header["pool"] == "bluffaneer" and not header["custom"]
        bots = [seat["bot"] for seat in header["seats"]]
        assert 3 <= len(bots) <= 6 and set(bots) - {"random", "heuristic"}, bots
        # an anchor holds a second seat only to make the smallest table (docs/ladder.md, "How the pool matches")
        assert Counter(b for b in bots if b in ("random", "heuristic")).most_common(1)[0][1] <= 1 or len(bots) == 3
    entry = _entry(client, dead["id"])
    assert entry["status"] == "paused" and "invalid answers" in entry["paused_reason"], entry
    assert _entry(client, good["id"])["status"] in ("waiting", "playing")
    back = _put(client, dead, games_at_once=1).get_json()
    assert back["status"] == "waiting" and back["paused_reason"] is None
    stats = _pool(client)["stats"]
    assert stats["games_per_minute"] > 0 and stats["playing_games"] >= 0


def test_a_paused_bot_is_matched_no_more(loopback_app: Any, service: Any) -> None:
    client = loopback_app.test_client()
    bot = _bot(client)
    put = _put(client, bot).get_json()
    booked = service.store.pool.book("bluffaneer", "g_1", [bot["id"], "random", "heuristic"], [bot["id"]],
                                     ["random", "heuristic"], 8, service.clock())
    assert booked[0]
    record = service.store.pool.games("bluffaneer")["g_1"]
    assert service.store.pool.pause("bluffaneer", bot["id"], "tested", record["put"][bot["id"]])
    service.store.pool.release("bluffaneer", "g_1", service.clock(), {}, 10)
    assert _entry(client, bot["id"])["paused_reason"] == "tested" and put["status"] == "waiting"
    assert Pool(service).match("bluffaneer", Rng(b"seed")) == []
    _put(client, bot)  # its owner puts it in again
    assert len(Pool(service).match("bluffaneer", Rng(b"seed"))) == 1


def test_two_workers_matching_at_once_never_book_a_bot_past_its_games_at_once(
        redis_port: int, loopback_app: Any, service: Any) -> None:
    client = loopback_app.test_client()
    bots = [_bot(client, name=f"b{i}") for i in range(7)]
    for i, bot in enumerate(bots):
        _put(client, bot, games_at_once=1 + i % 2)
    pools = [Pool(GameService(EventStore(redis.Redis(port=redis_port)), clock=service.clock),
                  limits=Limits(4, 100, 100, 3)) for _ in range(2)]
    start = threading.Barrier(2)
    dealt: list[list[str]] = [[], []]

    def worker(i: int) -> None:
        start.wait()
        for round_ in range(6):
            dealt[i] += pools[i].match("bluffaneer", Rng(f"{i}:{round_}".encode()))
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    booked = service.store.pool.games("bluffaneer")
    assert booked and sorted(booked) == sorted(dealt[0] + dealt[1])
    per_bot = Counter(bot for game in booked.values() for bot in set(game["seats"]))
    limit = {bot["id"]: 1 + i % 2 for i, bot in enumerate(bots)}
    for bot_id, games in per_bot.items():
        assert games <= limit.get(bot_id, 3), (bot_id, games)  # the built-in bots: 3 games at most here
    assert sum(1 for game in booked.values() if game["anchors"]) <= 3
    state = service.store.pool.state("bluffaneer", service.clock(), 1)
    assert state.playing == dict(per_bot)
    for game_id in booked:  # each booking was dealt, with the pool in its header
        assert json.loads(service.store.meta(game_id)["header"])["pool"] == "bluffaneer"


def test_a_game_booked_and_never_dealt_is_released_by_the_tick(loopback_app: Any, service: Any, clock: Any) -> None:
    client = loopback_app.test_client()
    bot = _bot(client)
    _put(client, bot, games_at_once=1)
    booked, _ = service.store.pool.book("bluffaneer", "g_lost", [bot["id"], "random", "heuristic"], [bot["id"]],
                                        ["random", "heuristic"], 8, clock())
    assert booked and _entry(client, bot["id"])["status"] == "playing"  # a worker died before dealing it
    assert pool_jobs.tick(service) == 0  # not yet lapsed: it may be being dealt
    clock.advance(61_000)
    assert pool_jobs.tick(service) == 1  # released, and the bot dealt a game at once
    assert "g_lost" not in service.store.pool.games("bluffaneer")


def test_a_game_booked_before_the_owner_put_the_bot_in_again_never_pauses_it(loopback_app: Any,
                                                                             service: Any) -> None:
    client = loopback_app.test_client()
    bot = _bot(client)
    _put(client, bot, games_at_once=2)
    store, pool, seats = service.store.pool, Pool(service), [bot["id"], "random", "heuristic"]
    silent = [{"moves": 0, "timeouts": 20, "invalid": 0}, {"moves": 20}, {"moves": 20}]
    assert store.book("bluffaneer", "g_old", seats, [bot["id"]], seats[1:], 8, service.clock())[0]
    _put(client, bot, games_at_once=2)  # put in again (its owner fixed it) while that game is played
    assert pool.finished("bluffaneer", "g_old", silent, seats) == "released, 0 paused"
    assert store.health("bluffaneer", bot["id"]) == []  # the old game is no measure of the bot as it is now
    assert store.book("bluffaneer", "g_new", seats, [bot["id"]], seats[1:], 8, service.clock())[0]
    assert pool.finished("bluffaneer", "g_new", silent, seats) == "released, 1 paused"
    assert pool.finished("bluffaneer", "g_new", silent, seats) == "released before"  # a retried step: nothing
    assert "20 of its 20 turns" in str(_entry(client, bot["id"])["paused_reason"])


def test_a_pool_game_whose_end_step_was_lost_is_settled_by_the_tick(loopback_app: Any, service: Any,
                                                                     work: Any) -> None:
    client = loopback_app.test_client()
    game = service.create_game("bluffaneer", seats=[{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}],
                               pool="bluffaneer")
    work()  # played to its end; its pool step finds no booking of it (none was made)
    assert service.load(game["id"]).status == "finished"
    bot = _bot(client)
    _put(client, bot, games_at_once=1)  # its match job is left unrun: only the tick matches here
    # as if this finished game had been booked for the bot and its end's step lost with its job
    assert service.store.pool.book("bluffaneer", game["id"], [bot["id"], "random", "heuristic"], [bot["id"]],
                                   ["random", "heuristic"], 8, service.clock())[0]
    assert _entry(client, bot["id"])["status"] == "playing"
    assert pool_jobs.tick(service) == 1  # settled (the bot's slot free again), then the bot dealt its next game
    assert game["id"] not in service.store.pool.games("bluffaneer")
    assert service.store.pool.health("bluffaneer", bot["id"]) == []  # it held no seat of that game: no measure
