"""Where a request's time goes (issue 10, item 3): the README's table of the
steps of ``POST /v1/games/{id}/moves`` and ``GET /v1/games/{id}``.

The app runs in-process (Flask's test client: no sockets, no gunicorn) on a
throwaway Redis, rate limiting on as in production. Every Redis round trip is
counted at the connection (``Connection.send_packed_command``: one per
command or pipeline), and each step's time is its cumulative time under
cProfile per request — relative sizes, since cProfile slows pure Python more
than it slows waiting on a socket.

Then, without the profiler, each kind of request's CPU time in the app (a
WSGI call with a ready environ: no client, no socket), next to the trivial
app (``bench.trivial``) and an empty route of the referee's own app with its
hooks (limiter, metrics, CORS), and without its limiter: what Flask itself
costs, what the platform adds, what a view and a move add.

    python -m bench steps
"""
from __future__ import annotations

import cProfile
import io
import json
import pstats
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import redis
from flask import Flask, Response
from redis.connection import Connection
from werkzeug.test import EnvironBuilder

from bench import trivial
from bench.server import QUOTAS_OFF
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from referee.games import registry
from referee.http.app import create_app
from referee.store.redis_server import free_port, start

#: (step, how to find it in the profile: (file suffix, function name))
STEPS: dict[str, list[tuple[str, str, str]]] = {
    "move": [
        ("rate limiter: pushed blocks drained, a hit of the caller's lease (one round trip per "
         "lease: window script)", "referee/http/ratelimit.py", "before"),
        ("body parsed and its fields checked (a quick path; marshmallow names a refusal)",
         "referee/http/context.py", "json_body"),
        ("token checked (sha256, cached seat hashes)", "referee/service/game.py", "seat_of"),
        ("move checked once against its published schema (compiled: fastjsonschema)",
         "referee/engine/base.py", "check_move"),
        ("rules decide and fold", "referee/engine/base.py", "decide_and_fold"),
        ("platform events (record.move: seals opened, result)", "referee/engine/record.py", "move"),
        ("envelopes hashed (salts, commitments, chain)", "referee/engine/record.py", "chained"),
        ("append script (one EVALSHA: version check, events, head, idempotency)",
         "referee/store/redis_store.py", "append_moves"),
        ("the move's receipt signed (Ed25519)", "referee/engine/signature.py", "receipt"),
        ("events announced to waiters and bots (notify)", "referee/service/changes.py", "notify"),
        ("metrics (prometheus counters, histogram)", "referee/http/app.py", "record"),
    ],
    "view": [
        ("rate limiter and the game's head: pushed blocks drained, the head read (one round trip, with the "
         "window script once per lease)", "referee/http/ratelimit.py", "before"),
        ("cache check (the head came with the limiter)", "referee/service/loading.py", "load"),
        ("token checked (sha256, cached seat hashes)", "referee/service/game.py", "seat_of"),
        ("view encoded (public part once per version, seat part per request)",
         "referee/engine/encoded_views.py", "encoded_view"),
        ("metrics (prometheus counters, histogram)", "referee/http/app.py", "record"),
    ],
}


class _Counting:
    """Counts the commands written to Redis, by their first word."""

    def __init__(self) -> None:
        self.commands: Counter[str] = Counter()
        self.round_trips = 0
        self._original: Callable[..., None] = Connection.send_packed_command

    def __enter__(self) -> _Counting:
        counting = self

        def send(conn: Connection, command: Any, check_health: bool = True) -> None:
            counting.round_trips += 1
            parts = command if isinstance(command, list) else [command]
            for part in parts:
                raw = bytes(part)
                if raw.startswith(b"*"):  # RESP arrays: count each command of a pipeline
                    for chunk in raw.split(b"\r\n*")[0:]:
                        words = chunk.split(b"\r\n")
                        if len(words) > 2:
                            counting.commands[words[2].decode(errors="replace").upper()] += 1
            counting._original(conn, command, check_health)

        Connection.send_packed_command = send  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *exc: Any) -> None:
        Connection.send_packed_command = self._original  # type: ignore[method-assign]


def _empty() -> Response:
    return Response(b"{}", mimetype="application/json")


def _app(client: redis.Redis, **config: Any) -> Flask:
    """The referee's app, with an empty route (``/bench/empty``) beside its own."""
    quotas_off = {name.removeprefix("REFEREE_"): off for name, off in QUOTAS_OFF.items()}
    app = create_app({"REDIS": client, "ENQUEUE_JOBS": False, "RATE_LIMIT": "100000/100000", **quotas_off, **config})
    app.add_url_rule("/bench/empty", "bench_empty", _empty)
    return app


def _server() -> Iterator[tuple[Any, redis.Redis]]:
    port = free_port()
    proc = start(port, None)
    try:
        client = redis.Redis(port=port)
        yield _app(client), client
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _cumulative(profile: cProfile.Profile, suffix: str, name: str) -> float:
    stats = pstats.Stats(profile)
    total = 0.0
    for (path, _line, func), row in stats.stats.items():  # type: ignore[attr-defined]
        if func == name and path.endswith(suffix):
            total += row[3]
    return total


def run(requests: int = 300) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for app, client in _server():
        out = _measure(app, requests)
        out["cpu"] = _cpu_per_request(app, _app(client, RATE_LIMIT="off"))
    return out


class _Wsgi:
    """One request, ready to be served again and again straight through the
    WSGI interface (its environ copied, its body rewound)."""

    def __init__(self, app: Any, method: str, path: str, body: Any = None, token: str | None = None) -> None:
        headers = [("Host", "127.0.0.1:8000"), ("User-Agent", "bench")]
        if token is not None:
            headers.append(("Authorization", f"Bearer {token}"))
        built = EnvironBuilder(method=method, path=path, headers=headers,
                               data=json.dumps(body) if body is not None else None,
                               content_type="application/json" if body is not None else None).get_environ()
        self.app, self.environ, self.body = app, built, built["wsgi.input"].read()

    def __call__(self) -> tuple[str, bytes]:
        environ = dict(self.environ)
        environ["wsgi.input"] = io.BytesIO(self.body)
        status: list[str] = []
        served = self.app(environ, lambda line, headers, exc_info=None: status.append(line))
        try:
            return status[0], b"".join(served)
        finally:
            getattr(served, "close", lambda: None)()


def _cpu_per_request(app: Any, unlimited: Any, rounds: int = 5, each: int = 400) -> dict[str, float]:
    """CPU µs per request (this thread's time, the median of ``rounds``, kinds
    interleaved): the trivial app, the empty route with and without the
    limiter, a public and a seat view and a move of a 7-player BANG! game."""
    made = json.loads(_Wsgi(app, "POST", "/v1/games", {"ruleset": "bang", "players": 7, "seed": "cpu"})()[1])
    path = f"/v1/games/{made['id']}"
    calls = {"trivial": _Wsgi(trivial.app, "GET", "/"), "empty": _Wsgi(app, "GET", "/bench/empty"),
             "empty, limiter off": _Wsgi(unlimited, "GET", "/bench/empty"),
             "public view": _Wsgi(app, "GET", path),
             "seat view": _Wsgi(app, "GET", path, token=made["seats"][1]["token"])}
    times: dict[str, list[float]] = {name: [] for name in [*calls, "move"]}
    for call in calls.values():
        for _ in range(50):
            call()
    pick = Rng(b"cpu")
    for _ in range(rounds):
        for name, call in calls.items():
            started = time.thread_time()
            for _ in range(each):
                call()
            times[name].append((time.thread_time() - started) / each * 1e6)
        times["move"].append(_move_cpu(app, pick, each // 20))
    return {name: statistics.median(spent) for name, spent in times.items()}


def _move_cpu(app: Any, pick: Rng, count: int) -> float:
    """The median CPU µs of ``count`` moves, each a random legal one of the seat to act (new games as they end)."""
    spent: list[float] = []
    game: Any = None
    while len(spent) < count:
        if game is None:
            game = json.loads(_Wsgi(app, "POST", "/v1/games", {"ruleset": "bang", "players": 7})()[1])
        path = f"/v1/games/{game['id']}"
        public = json.loads(_Wsgi(app, "GET", path)()[1])
        if public["status"] != "active" or not public["to_act"]:
            game = None
            continue
        seat = public["to_act"][0]
        token = game["seats"][seat]["token"]
        own = json.loads(_Wsgi(app, "GET", path, token=token)()[1])
        move = pick.choice(playing_moves(own["legal_moves"]))
        call = _Wsgi(app, "POST", path + "/moves", {"move": move, "expected_version": own["version"]}, token)
        started = time.thread_time()
        status, body = call()
        spent.append((time.thread_time() - started) * 1e6)
        assert status.startswith("201"), body
    return statistics.median(spent)


def _measure(app: Any, requests: int) -> dict[str, Any]:
    """Each step's share of ``requests`` seat views and a third as many moves of a 7-player BANG! game."""
    rs = registry.get("bang")
    out: dict[str, Any] = {}
    http = app.test_client()
    game = http.post("/v1/games", json={"ruleset": "bang", "players": 7, "seed": "steps"}).get_json()
    tokens = [s["token"] for s in game["seats"]]
    pick = Rng(b"steps")

    def one_move() -> None:
        view = http.get(f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()
        seat = min(view["to_act"]) if view["to_act"] else None
        if seat is None:
            raise RuntimeError("the bench game ended or waits on a timeout")
        own = http.get(f"/v1/games/{game['id']}",
                       headers={"Authorization": f"Bearer {tokens[seat]}"}).get_json()
        r = http.post(f"/v1/games/{game['id']}/moves", json={"move": pick.choice(playing_moves(own["legal_moves"]))},
                      headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 201, r.get_json()

    for _ in range(5):
        one_move()
    seat_view = lambda: http.get(f"/v1/games/{game['id']}",  # noqa: E731
                                 headers={"Authorization": f"Bearer {tokens[1]}"})

    def prepared_move() -> Callable[[], Any]:
        view = http.get(f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()
        if not view["to_act"]:
            raise RuntimeError("the bench game waits on a timeout")
        seat = min(view["to_act"])
        own = http.get(f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {tokens[seat]}"}).get_json()
        move = pick.choice(playing_moves(own["legal_moves"]))
        return lambda: http.post(f"/v1/games/{game['id']}/moves", json={"move": move},
                                 headers={"Authorization": f"Bearer {tokens[seat]}"})

    for name, count in (("view", requests), ("move", requests // 3)):
        profile = cProfile.Profile()
        counting = _Counting()
        wall = 0.0
        done = 0
        for _ in range(count):
            call: Callable[[], Any] = seat_view if name == "view" else prepared_move()
            if name == "move" and rs.result(app.extensions["referee.service"].load(game["id"]).state):
                break
            with counting:
                t = time.perf_counter()
                profile.enable()
                call()
                profile.disable()
                wall += time.perf_counter() - t
            done += 1
            if name == "move" and app.extensions["referee.service"].load(game["id"]).status != "active":
                break
        total = _cumulative(profile, "flask/app.py", "wsgi_app")
        steps = [(label, _cumulative(profile, suffix, func) / done * 1e6) for label, suffix, func in STEPS[name]]
        out[name] = {"requests": done, "round_trips": counting.round_trips / done,
                     "commands": {k: v / done for k, v in counting.commands.most_common()},
                     "total_us": total / done * 1e6, "wall_us": wall / done * 1e6, "steps": steps}
    return out


def report(r: dict[str, Any]) -> None:
    print("Where a request's time goes (in-process, cProfile cumulative µs per request; Redis round trips counted)")
    for name, title in (("move", "POST /v1/games/{id}/moves (7-player BANG!)"),
                        ("view", "GET /v1/games/{id} with a seat token (7-player BANG!)")):
        row = r[name]
        commands = ", ".join(f"{k} {v:.2g}" for k, v in row["commands"].items())
        print(f"  {title}: {row['round_trips']:.2f} Redis round trips per request ({commands}); "
              f"{row['total_us']:.0f} µs in the app under the profiler")
        for label, us in row["steps"]:
            print(f"    {us:8.0f} µs  {label}")
        rest = row["total_us"] - sum(us for _, us in row["steps"])
        print(f"    {rest:8.0f} µs  the rest: Flask and werkzeug (request, routing, response), hooks, CORS")
    if "cpu" in r:
        print("CPU per request without the profiler (µs, in-process WSGI calls, median of 5 interleaved rounds):")
        print("  " + ", ".join(f"{name} {us:.0f}" for name, us in r["cpu"].items()))


if __name__ == "__main__":
    report(run())
