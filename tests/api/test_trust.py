"""Trust (issue 7): no client can occupy a key the worker will use, built-in
bots draw from a secret the audit re-derives, and a log of the old format is
refused with a clear message."""
from __future__ import annotations

import json
from typing import Any

from referee.audit import audit_lines, audit_log
from referee.engine import bot_seed, sha256_hex
from referee.engine.platform import playing_moves
from referee.engine.protocol import seat_view
from tests.api.helpers import auth, create, ndjson, view
from tests.forge import rechain
from workers.jobs import fire_timeout

BOT = 3


def _worker_keys(version: int) -> list[str]:
    """Every idempotency key the worker may use at ``version`` (workers/jobs.py)."""
    return [f"timeout:{version}", f"clock:{version}", *(f"bot:{version}:{s}" for s in range(4))]


def test_a_seat_that_plants_every_worker_key_cannot_stop_the_game(client: Any, clock: Any, service: Any,
                                                                   work: Any) -> None:
    game = create(client, seats=[{}, {}, {}, {"bot": "random"}], seed="plant", options={"turn_timeout_s": 30})
    gid = game["id"]
    planted: dict[str, int] = {}  # key -> the seat that took it first
    used: dict[int, set[str]] = {s: set() for s in range(3)}
    grows: dict[str, int] = {}  # how far each kind of move moves the version, as an attacker learns it
    for step in range(3000):
        work()
        spectator = view(client, game)
        if spectator["status"] != "active":
            break
        humans = [s for s in spectator["to_act"] if s != BOT]
        if not humans:
            clock.now = max(clock.now, spectator["deadline"] or clock.now)
            if spectator["deadline"] is not None:
                assert fire_timeout(gid, service) == "fired"
            continue
        seat = humans[step % len(humans)]
        v = spectator["version"]
        legal = list(playing_moves(view(client, game, seat)["legal_moves"]))  # nobody resigns
        chosen = legal[step % len(legal)]
        # the keys the worker would use right after this move (the bot's turn, a
        # timeout, the turn clock), then every other worker key of the next versions
        after = v + grows.get(chosen["type"], 2)
        guesses = [f"bot:{after}:{BOT}", f"timeout:{after}", f"clock:{after}",
                   *(k for d in range(1, 6) for k in _worker_keys(v + d))]
        key = next((k for k in guesses if k not in used[seat]), f"own:{step}")
        used[seat].add(key)
        r = client.post(f"/v1/games/{gid}/moves", json={"move": chosen},
                        headers={**auth(game["seats"][seat]["token"]), "Idempotency-Key": key})
        assert r.status_code == 201, r.get_json()
        grows[chosen["type"]] = r.get_json()["version"] - v
        planted.setdefault(key, seat)
        clock.advance(1)
    assert view(client, game)["status"] == "finished"
    log = ndjson(client.get(f"/v1/games/{gid}/log").get_data(as_text=True))[1:]
    worker_used = {f"timeout:{e['seq'] - 1}" for e in log if e["type"] == "move" and e["actor"] is None}
    worker_used |= {f"bot:{e['seq'] - 1}:{BOT}" for e in log if e["type"] == "move" and e["actor"] == BOT}
    taken = worker_used & set(planted)
    assert len(taken) >= 5, f"the test planted too few keys the worker then used: {sorted(taken)}"
    assert client.get(f"/v1/games/{gid}/audit").get_json()["ok"]


def test_built_in_bots_draw_from_the_secret_seed_and_the_audit_re_derives_them(client: Any, work: Any,
                                                                                service: Any) -> None:
    game = create(client, seats=[{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}])
    work()
    text = client.get(f"/v1/games/{game['id']}/log").get_data(as_text=True)
    report = audit_lines(text.splitlines())
    assert report["ok"], report
    bots = next(c for c in report["checks"] if c["name"] == "bots")
    assert bots["ok"] and int(bots["detail"].split()[0]) > 10
    lines = ndjson(text)
    head, events = lines[0], lines[1:]
    seed = events[-1]["data"]["seed"]
    # the public commitment no longer predicts anything: the bot's key is secret
    assert bot_seed(seed, 0, 5) != bot_seed(head["header"]["seed_commitment"], 0, 5)
    # a referee that swapped a bot's move for another legal one and rebuilt the chain is caught
    from referee.engine.platform import PLATFORM_EVENTS
    from referee.engine.protocol import Event
    rs = service.load(game["id"]).ruleset
    state: Any = None
    for env in events:
        if env["type"] == "move" and env["data"]["by"]["bot"] == "random":
            legal = seat_view(rs, state, env["actor"], active=True)["legal_moves"]
            others = [m for m in legal if m != env["data"]["move"]]
            if others:
                target = env
                break
        if env["type"] not in PLATFORM_EVENTS:
            state = rs.evolve(state, Event(env["type"], env["data"]))
    target["data"]["move"] = others[0]
    forged = audit_log(head["header"], head["hash"], rechain(head["hash"], events))
    assert not forged["ok"]
    assert forged["divergence"]["check"] == "bots" and forged["divergence"]["seq"] == target["seq"]


def test_a_log_of_format_1_is_refused_with_a_clear_message(client: Any, clock: Any, service: Any,
                                                            redis_client: Any) -> None:
    game = create(client, players=3, seed="old-format")
    meta_key = f"game:{{{game['id']}}}:meta"
    header = json.loads(redis_client.hget(meta_key, "header"))
    del header["log_format"]  # as format 1 wrote it
    report = audit_log(header, sha256_hex(json.dumps(header)), [])
    assert not report["ok"]
    assert report["divergence"] == {"check": "format", "seq": 0, "field": "header.log_format", "expected": 2,
                                    "found": 1}
    assert "format 1 is refused" in report["checks"][0]["detail"]
    # a game stored by a referee of format 1 is refused too, not served with a leaky chain
    redis_client.hset(meta_key, "header", json.dumps(header))
    fresh = type(service)(service.store)
    client.application.extensions["referee.service"] = fresh
    r = client.get(f"/v1/games/{game['id']}")
    assert r.status_code == 409 and r.get_json()["code"] == "log_format_changed"
