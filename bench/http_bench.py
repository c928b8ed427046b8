"""Issue 2's HTTP benchmark: moves/s and p50/p99 of the move endpoint next to
`/health` req/s in the same run, and the time to load a game's state at
versions 20, 200 and 2000."""
from __future__ import annotations

import http.client
import json
import multiprocessing as mp
import os
import resource
import statistics
import threading
import time
from typing import Any
from urllib.parse import urlparse

import redis

from bench.server import live_server
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table
from referee.service import GameService
from referee.store.redis_store import EventStore

PROCESSES, THREADS = 2, 4


class Conn:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, url: str) -> None:
        u = urlparse(url)
        self.conn = http.client.HTTPConnection(u.hostname or "127.0.0.1", u.port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             parse: bool = True) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data and parse else data)


def _health_worker(url: str, seconds: float, out: mp.Queue[list[float]]) -> None:
    def loop(samples: list[float]) -> None:
        conn = Conn(url)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t = time.perf_counter()
            conn.call("GET", "/health")
            samples.append(time.perf_counter() - t)
    _threads(loop, out)


def _move_worker(url: str, seconds: float, out: mp.Queue[list[float]]) -> None:
    rs = registry.get("bluffaneer")

    def loop(samples: list[float]) -> None:
        conn = Conn(url)
        end = time.perf_counter() + seconds
        game_no = 0
        pick = Rng(f"{threading.get_ident()}".encode())
        while time.perf_counter() < end:
            game_no += 1
            seed = f"bench-{threading.get_ident()}-{game_no}-{time.time_ns()}"
            options = {"claim_window_ms": 60000}
            status, game = conn.call("POST", "/v1/games", {"ruleset": "bluffaneer", "players": 4,
                                                           "seed": seed, "options": options})
            assert status == 201, game
            # a local mirror of the same seeded game picks legal moves without extra requests
            table = Table(rs, 4, options=options, seed=seed)
            while rs.result(table.state) is None and time.perf_counter() < end:
                seats = sorted(rs.to_act(table.state))
                seat = seats[pick.below(len(seats))]
                move = pick.choice(list(playing_moves(rs.legal_moves(table.state, seat, memo=table.memo))))
                t = time.perf_counter()
                status, body = conn.call("POST", f"/v1/games/{game['id']}/moves", {"move": move},
                                         game["seats"][seat]["token"])
                samples.append(time.perf_counter() - t)
                assert status == 201, body
                table.play(seat, move, now=body["events"][0]["at"])
    _threads(loop, out)


def _threads(loop: Any, out: mp.Queue[list[Any]]) -> None:
    samples: list[list[Any]] = [[] for _ in range(THREADS)]
    threads = [threading.Thread(target=loop, args=(s,)) for s in samples]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put([x for s in samples for x in s])


def _load(target: Any, url: str, seconds: float, *extra: Any) -> tuple[float, list[Any]]:
    ctx = mp.get_context("fork")
    out: mp.Queue[list[Any]] = ctx.Queue()
    procs = [ctx.Process(target=target, args=(url, seconds, out, *extra)) for _ in range(PROCESSES)]
    started = time.perf_counter()
    for p in procs:
        p.start()
    samples = [x for _ in procs for x in out.get()]
    for p in procs:
        p.join()
    return time.perf_counter() - started, samples


# -- issue 10: a trivial endpoint, 7-player BANG! seat views, a client's play loop --
def _trivial_worker(url: str, seconds: float, out: mp.Queue[list[Any]]) -> None:
    def loop(samples: list[float]) -> None:
        conn = Conn(url)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t = time.perf_counter()
            status, _ = conn.call("GET", "/", parse=False)
            samples.append(time.perf_counter() - t)
            assert status == 200
    _threads(loop, out)


def _seat_view_worker(url: str, seconds: float, out: mp.Queue[list[Any]], game_id: str,
                      tokens: list[str]) -> None:
    def loop(samples: list[float]) -> None:
        conn = Conn(url)
        end = time.perf_counter() + seconds
        i = threading.get_ident()
        while time.perf_counter() < end:
            i += 1
            t = time.perf_counter()
            status, _ = conn.call("GET", f"/v1/games/{game_id}", token=tokens[i % len(tokens)], parse=False)
            samples.append(time.perf_counter() - t)
            assert status == 200
    _threads(loop, out)


def _play_loop_worker(url: str, seconds: float, out: mp.Queue[list[Any]]) -> None:
    """Each thread plays 7-player BANG! games as a client would: the public
    view, the awaited seat's view, a move from its ``legal_moves`` (one that
    plays on: ``playing_moves``, never ``resign``, R85, so that the games are
    played out rather than given up)."""
    def loop(samples: list[tuple[str, float]]) -> None:
        conn = Conn(url)
        pick = Rng(f"loop-{os.getpid()}-{threading.get_ident()}".encode())
        end = time.perf_counter() + seconds
        game: Any = None
        while time.perf_counter() < end:
            if game is None:
                status, game = conn.call("POST", "/v1/games", {"ruleset": "bang", "players": 7})
                assert status == 201, game
            path = f"/v1/games/{game['id']}"
            t = time.perf_counter()
            status, public = conn.call("GET", path)
            t2 = time.perf_counter()
            samples.append(("public", t2 - t))
            if public["status"] != "active" or not public["to_act"]:  # over, or waiting on a clock
                game = None
                continue
            seats = public["to_act"]
            seat = seats[pick.below(len(seats))]
            token = game["seats"][seat]["token"]
            status, own = conn.call("GET", path, token=token)
            t3 = time.perf_counter()
            samples.append(("seat", t3 - t2))
            moves = playing_moves(own["legal_moves"])  # a client playing the game: never resigns (R85)
            if not moves:
                game = None
                continue
            status, body = conn.call("POST", path + "/moves",
                                     {"move": moves[pick.below(len(moves))], "expected_version": own["version"]},
                                     token)
            samples.append(("move", time.perf_counter() - t3))
            assert status == 201, body
    _threads(loop, out)


def _view_game(url: str, moves: int = 30) -> tuple[str, list[str]]:
    """A 7-player BANG! game ``moves`` random moves in, for the view bench."""
    conn = Conn(url)
    status, game = conn.call("POST", "/v1/games", {"ruleset": "bang", "players": 7, "seed": "bench-views"})
    assert status == 201, game
    tokens = [s["token"] for s in game["seats"]]
    pick = Rng(b"bench-views")
    for _ in range(moves):
        _, public = conn.call("GET", f"/v1/games/{game['id']}")
        if not public["to_act"]:
            break
        seat = public["to_act"][0]
        _, own = conn.call("GET", f"/v1/games/{game['id']}", token=tokens[seat])
        status, body = conn.call("POST", f"/v1/games/{game['id']}/moves",
                                 {"move": pick.choice(playing_moves(own["legal_moves"]))}, tokens[seat])
        assert status == 201, body
    return str(game["id"]), tokens


def _stats(samples: list[float], elapsed: float) -> dict[str, float]:
    return {"rps": len(samples) / elapsed, "p50_ms": _pct(samples, 0.5), "p99_ms": _pct(samples, 0.99)}


def _pids(*needles: str) -> list[int]:
    """The processes whose command line holds every one of ``needles`` (Linux's
    ``/proc``; none elsewhere)."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    line = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if all(n in line for n in needles):
                found.append(int(entry))
    return found


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds (user and system) the processes ``pids`` have used so far."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat(5))
    return total / os.sysconf("SC_CLK_TCK")


def _clients_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the client processes, once joined
    return usage.ru_utime + usage.ru_stime


class _Cpu:
    """CPU seconds each side of a load spent: the server's gunicorn processes,
    Redis, and the client processes. On a shared machine, requests/s move with
    the neighbours; CPU per request much less, and on a quiet machine whose
    cores are all busy with the load, requests/s are the cores over it."""

    def __init__(self, url: str, redis_url: str | None) -> None:
        port = urlparse(url).port
        self.server = _pids("gunicorn", f"127.0.0.1:{port}")
        self.redis = _pids("redis", f":{urlparse(redis_url).port}") if redis_url else []

    def snapshot(self) -> tuple[float, float, float]:
        return _cpu_s(self.server), _cpu_s(self.redis), _clients_cpu_s()


def run_readers(seconds: float = 12.0, rounds: int = 4) -> dict[str, Any]:
    """Trivial endpoint, seat views and the play loop, alternating in
    ``rounds`` windows so that all three see the same machine. The referee runs
    with its rate limiter on (at a limit it never reaches), as in production."""
    with live_server(extra_args=["--app", "bench.trivial:app"], ready_path="/") as (trivial_url, _), \
            live_server(rate_limit=os.environ.get("BENCH_RATE_LIMIT", "1000000/1000000")) as (url, redis_url):
        cpu = {"trivial": _Cpu(trivial_url, None), "views": _Cpu(url, redis_url), "loop": _Cpu(url, redis_url)}
        game_id, tokens = _view_game(url)
        _load(_trivial_worker, trivial_url, 0.5)  # warm up
        _load(_seat_view_worker, url, 0.5, game_id, tokens)
        elapsed = {"trivial": 0.0, "views": 0.0, "loop": 0.0}
        got: dict[str, list[Any]] = {"trivial": [], "views": [], "loop": []}
        spent_cpu = {name: [0.0, 0.0, 0.0] for name in elapsed}
        for _ in range(rounds):
            for name, target, extra in (("trivial", _trivial_worker, ()), ("views", _seat_view_worker,
                                        (game_id, tokens)), ("loop", _play_loop_worker, ())):
                before = cpu[name].snapshot()
                spent, samples = _load(target, trivial_url if name == "trivial" else url, seconds / rounds / 3,
                                       *extra)
                after = cpu[name].snapshot()
                spent_cpu[name] = [total + b - a for total, a, b in zip(spent_cpu[name], before, after)]
                elapsed[name] += spent
                got[name] += samples
    out: dict[str, Any] = {name: _stats(got[name], elapsed[name]) for name in ("trivial", "views")}
    for name, (server, redis_s, client) in spent_cpu.items():
        n = max(1, len(got[name]))
        out[name + "_cpu_us"] = {"server": server / n * 1e6, "redis": redis_s / n * 1e6, "client": client / n * 1e6}
    loop = got["loop"]
    out["loop"] = _stats([x for _, x in loop], elapsed["loop"])
    for kind in ("public", "seat", "move"):
        out["loop_" + kind] = _stats([x for k, x in loop if k == kind], elapsed["loop"])
    out["views_vs_trivial"] = out["views"]["rps"] / out["trivial"]["rps"]
    out["loop_vs_trivial"] = out["loop"]["rps"] / out["trivial"]["rps"]
    return out


def report_readers(r: dict[str, Any]) -> None:
    server = os.environ.get("REFEREE_WORKER_CLASS", "gevent")
    print(f"HTTP next to a trivial Flask endpoint (both `referee serve`, {server}, 2 workers; "
          f"{PROCESSES} client processes x {THREADS} threads, keep-alive, interleaved windows; limiter on)")
    for name, label in (("trivial", "GET / (trivial Flask)"), ("views", "7-player BANG! seat views"),
                        ("loop", "play loop (public view, seat view, move)")):
        row = r[name]
        print(f"  {label:<42} {row['rps']:7.0f} req/s  p50 {row['p50_ms']:6.2f} ms  p99 {row['p99_ms']:6.2f} ms")
    for kind in ("public", "seat", "move"):
        row = r["loop_" + kind]
        print(f"    in the loop: {kind:<6} {row['rps']:7.0f} /s      "
              f"p50 {row['p50_ms']:6.2f} ms  p99 {row['p99_ms']:6.2f} ms")
    # issue 20's targets, re-scoped to what this machine can judge (the one-at-a-time p99s: ``http_steps``)
    views_p99 = r["views"]["p99_ms"] / r["trivial"]["p99_ms"]
    move_p99 = r["loop_move"]["p99_ms"] / r["trivial"]["p99_ms"]
    loop = r["loop_vs_trivial"]
    print(f"  views / trivial {r['views_vs_trivial']:.2f}; "
          f"p99 / trivial's: views {views_p99:.2f}, moves {move_p99:.2f} "
          f"(target <= {P99_VS_TRIVIAL}: {'met' if max(views_p99, move_p99) <= P99_VS_TRIVIAL else 'NOT MET'})")
    print(f"  loop / trivial {loop:.2f} "
          f"(target >= {LOOP_VS_TRIVIAL}: {'met' if loop >= LOOP_VS_TRIVIAL else 'NOT MET'})")
    if all(r.get(name + "_cpu_us") for name in ("trivial", "views", "loop")):
        print("  CPU per request (µs; server = gunicorn's processes, redis, client = the load's processes):")
        totals = {}
        for name in ("trivial", "views", "loop"):
            row = r[name + "_cpu_us"]
            totals[name] = sum(row.values())
            print(f"    {name:<8} server {row['server']:6.0f}  redis {row['redis']:5.0f}  client {row['client']:5.0f}"
                  f"  all {totals[name]:6.0f}")
        print(f"  as CPU alone would have it (trivial's CPU per request over theirs): views "
              f"{totals['trivial'] / totals['views']:.2f}, loop {totals['trivial'] / totals['loop']:.2f}")


#: issue 20: under the 8-thread load, a view's and a move's p99 at most this times the trivial endpoint's
P99_VS_TRIVIAL = 1.5
#: issue 20: the play loop's requests/s at least this share of the trivial endpoint's
LOOP_VS_TRIVIAL = 0.6


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _long_game(svc: GameService, target: int) -> str:
    """A custom Bluffaneer game pushed to at least ``target`` events: queued
    dice match nobody's card and everybody passes, so it never ends early."""
    setup = {"turn": 0, "dice": ["ship", "skull"] * (target // 4 + 10),
             "seats": [{"card": "CHEST-SWORD-1"}, {"card": "CHEST-SWORD-2"},
                       {"card": "CHEST-SWORD-3"}, {"card": "CHEST-SHIP-1"}]}
    game = svc.create_game("bluffaneer", players=4, setup=setup, options={"claim_window_ms": 60000})
    tokens = [s["token"] for s in game["seats"]]
    loaded = svc.load(game["id"])
    while loaded.version < target:
        seat = min(loaded.ruleset.to_act(loaded.state))
        moves = loaded.ruleset.legal_moves(loaded.state, seat)
        move = {"type": "pass"} if {"type": "pass"} in moves else moves[0]
        svc.submit_move(game["id"], tokens[seat], move)
        loaded = svc.load(game["id"])
    return str(game["id"])


def load_times(url: str, redis_url: str, versions: tuple[int, ...] = (20, 200, 2000)) -> dict[int, dict[str, float]]:
    """Median view latency per game version, requests interleaved round-robin
    across the games so that machine noise hits every version alike."""
    client = redis.Redis.from_url(redis_url)
    svc = GameService(EventStore(client), scheduler=None)
    games = {target: _long_game(svc, target) for target in versions}
    out: dict[int, dict[str, float]] = {}
    for target, game_id in games.items():
        t = time.perf_counter()
        GameService(EventStore(client), scheduler=None).load(game_id)
        out[target] = {"version": svc.load(game_id).version, "cold_replay_ms": (time.perf_counter() - t) * 1000}
    conn = Conn(url)
    samples: dict[int, list[float]] = {target: [] for target in versions}
    for round_no in range(510):
        for target, game_id in games.items():
            t = time.perf_counter()
            conn.call("GET", f"/v1/games/{game_id}")
            if round_no >= 10:  # the first rounds warm every server process's cache
                samples[target].append(time.perf_counter() - t)
    for target in versions:
        out[target]["view_ms_median"] = statistics.median(samples[target]) * 1000
    return out


def run(seconds: float = 8.0, rounds: int = 4) -> dict[str, Any]:
    """Health and moves alternate in ``rounds`` windows, so both see the same machine."""
    h: list[float] = []
    m: list[float] = []
    h_elapsed = m_elapsed = 0.0
    with live_server() as (url, redis_url):
        _load(_health_worker, url, 1.0)  # warm up
        for _ in range(rounds):
            elapsed, samples = _load(_health_worker, url, seconds / rounds)
            h_elapsed, h = h_elapsed + elapsed, h + samples
            elapsed, samples = _load(_move_worker, url, seconds / rounds)
            m_elapsed, m = m_elapsed + elapsed, m + samples
        loads = load_times(url, redis_url)
    health_rps = len(h) / h_elapsed
    moves_ps = len(m) / m_elapsed
    return {
        "health_rps": health_rps, "health_p50_ms": _pct(h, 0.5), "health_p99_ms": _pct(h, 0.99),
        "moves_per_s": moves_ps, "move_p50_ms": _pct(m, 0.5), "move_p99_ms": _pct(m, 0.99),
        "moves_vs_health": moves_ps / health_rps, "load": loads,
        "load_2000_vs_20": loads[2000]["view_ms_median"] / loads[20]["view_ms_median"],
    }


def report(r: dict[str, Any]) -> None:
    server = os.environ.get("REFEREE_WORKER_CLASS", "gevent")
    server = "gthread, 2 workers x 8 threads" if server == "gthread" else f"{server}, 2 workers"
    print(f"HTTP (`referee serve` {server}; {PROCESSES} client processes x {THREADS} threads, keep-alive)")
    print(f"  GET /health        {r['health_rps']:8.0f} req/s   "
          f"p50 {r['health_p50_ms']:.2f} ms  p99 {r['health_p99_ms']:.2f} ms")
    print(f"  POST .../moves     {r['moves_per_s']:8.0f} moves/s "
          f"p50 {r['move_p50_ms']:.2f} ms  p99 {r['move_p99_ms']:.2f} ms")
    print(f"  ratio moves/health {r['moves_vs_health']:.2f}   (target >= 0.40)")
    print("Loading a game's state (GET /v1/games/{id}, median of 500 interleaved, warm cache; cold = fold every event)")
    for row in r["load"].values():
        print(f"  version {row['version']:5d}: view {row['view_ms_median']:.2f} ms   "
              f"cold replay {row['cold_replay_ms']:.1f} ms")
    print(f"  ratio v2000/v20    {r['load_2000_vs_20']:.2f}   (target <= 1.20)")
