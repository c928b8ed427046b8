"""Issue 21's scale-out benchmark: moves/s and views/s through haproxy with 1
and 2 ``referee serve`` processes, on a standalone games Redis and on a local
3-master + 3-replica Redis Cluster, and what waiting for a replica costs a
move — all measured in one run.

Every configuration is a whole :class:`referee.ops.topology.Topology` (games
Redis, queue Redis, N referees behind haproxy, no workers: no game here has
a clock), all of them started first and kept up side by side, so that the
measurement windows can alternate between them (``ROUNDS`` rounds, each
configuration's moves and views once per round) and machine noise hits every
configuration alike:

- ``standalone`` x 1 and 2 referees, ``cluster`` x 1 and 2 referees (the
  referee waits for a replica's confirmation of each game write, ``WAIT 1``:
  ``REFEREE_REDIS_WAIT_REPLICAS=auto``, the default on a cluster whose
  masters all have a replica);
- ``cluster`` x 1 referee with ``REFEREE_REDIS_WAIT_REPLICAS=0``: the same
  moves without the wait, for the WAIT cost.

*Moves/s*: ``PROCESSES`` x ``THREADS`` client threads, each on its own
keep-alive connection to haproxy, each playing its own 4-player Bluffaneer
games as a client would — the seat view of a seat it expects to act
(``GET /v1/games/{id}`` with that seat's token; when that seat is not in
``to_act``, the view of one that is), a random move of its ``legal_moves``,
``POST .../moves`` with ``expected_version`` — and a new game when one
ends; accepted moves (201) per second of the window, and the p50/p99 of the
``POST`` alone. *Views/s*: the same threads reading ``GET /v1/games/{id}``
of ``VIEW_GAMES`` running games (a few moves in), each request with another
seat's token. ``REFEREE_RATE_LIMIT=off``: capacity, not policy.

*WAIT cost*: moves/s and move p50/p99 with and without the wait, their
ratio, and the cost per move in µs three ways: of the machine's throughput
(1/moves-per-s with the wait minus without), of a move's p50 under that
load, and for one client thread alone (``LONE_S``, a window each round) that
makes a move on the cluster with the wait and one on the cluster without it in
turn: the median of each pair's difference, with no queueing and the
machine's moment cancelled out — the wait's own round trip; and ``WAIT 1``
by itself on a master (a SET and a WAIT pipelined next to a SET and a PING).
The nodes' ``INFO commandstats`` shows how many WAITs each configuration
really sent, per game write (accepted moves and created games): one with the
wait, none without.

The clients run on the same machine (this one has few cores): the referees,
haproxy, the Redis servers and the clients share its CPUs, so two referees
need not be faster than one; the report says what was measured, with the
ratio, and the load average before and after (anything else running on the
machine shows there, and in every figure: the WAIT has to wake the replica's
process, so on a busy machine it costs far more than its own round trip).

Run: ``python -m bench scale`` (needs haproxy: ``apt-get install haproxy``).
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

from bench.http_bench import Conn
from bench.server import QUOTAS_OFF
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from referee.ops.topology import HAPROXY_MISSING, Topology, TopologyError, haproxy_binary
from referee.store.cluster_server import ClusterError

PROCESSES, THREADS = 2, 4  # 8 client threads
RULESET, PLAYERS = "bluffaneer", 4
#: a claim window no client outlasts: no game here waits on a clock (no workers run)
OPTIONS = {"claim_window_ms": 60000}
MOVE_S = 8.0  # each configuration's moves, in all
VIEW_S = 6.0  # each configuration's views, in all
ROUNDS = 4  # windows of MOVE_S / ROUNDS and VIEW_S / ROUNDS
WARMUP_S = 0.5
VIEW_GAMES, VIEW_GAME_MOVES = 8, 12
WAIT_PROBES = 1000  # WAIT 1 by itself on a master, next to as many PINGs
LONE_S = 4.0  # one client thread's moves, with and without the WAIT, in all


@dataclass(frozen=True)
class Config:
    """One topology measured."""

    redis: str  # "standalone" or "cluster"
    referees: int
    wait: str = "auto"  # REFEREE_REDIS_WAIT_REPLICAS

    @property
    def name(self) -> str:
        extra = "" if self.wait == "auto" else f", WAIT_REPLICAS={self.wait}"
        return f"{self.redis}, {self.referees} referee{'s' if self.referees > 1 else ''}{extra}"


CONFIGS = (Config("standalone", 1), Config("standalone", 2), Config("cluster", 1), Config("cluster", 2),
           Config("cluster", 1, wait="0"))
NO_WAIT = Config("cluster", 1, wait="0")
WITH_WAIT = Config("cluster", 1)


@dataclass
class Tally:
    """What one configuration's windows added up to."""

    moves: list[float] = field(default_factory=list)  # each accepted move's POST, seconds
    move_s: float = 0.0
    views: list[float] = field(default_factory=list)
    view_s: float = 0.0
    games: int = 0  # games created by the move loops
    refused: Counter[str] = field(default_factory=Counter)  # moves not answered 201, by "status code"
    view_errors: int = 0


def refusal(status: int, body: Any) -> str:
    """What a move not answered 201 was: its status and its problem's ``code``
    (``409 version_conflict``, ``422 illegal_move``, …)."""
    try:
        code = json.loads(body).get("code", "?") if body else "?"
    except (ValueError, AttributeError):
        code = "?"
    return f"{status} {code}"


# -- the client processes ------------------------------------------------------

class Player:
    """One client's games on one connection: seat view, a legal move, POST with expected_version."""

    def __init__(self, url: str, pick: Rng) -> None:
        self.conn, self.pick = Conn(url), pick
        self.game: Any = None
        self.seat = 0
        self.games = 0
        self.refused: Counter[str] = Counter()  # moves not answered 201, by "status code"

    def step(self) -> float | None:
        """One move (a new game first when there is none): the POST's seconds
        if it was accepted; None when the game ended or the move was refused."""
        conn, pick = self.conn, self.pick
        if self.game is None:
            status, self.game = conn.call("POST", "/v1/games", {"ruleset": RULESET, "players": PLAYERS,
                                                                "options": OPTIONS})
            assert status == 201, self.game
            self.games += 1
            self.seat = 0
        game = self.game
        path = f"/v1/games/{game['id']}"
        status, view = conn.call("GET", path, token=game["seats"][self.seat]["token"])
        assert status == 200, view
        if view["status"] != "active" or not view["to_act"]:  # over (or, never here, waiting on a clock)
            self.game = None
            return None
        if self.seat not in view["to_act"]:
            self.seat = view["to_act"][pick.below(len(view["to_act"]))]
            status, view = conn.call("GET", path, token=game["seats"][self.seat]["token"])
            assert status == 200, view
        moves = playing_moves(view["legal_moves"])  # a client playing the game: never resigns (R85)
        if not moves:
            self.game = None
            return None
        t = time.perf_counter()
        status, _ = conn.call("POST", path + "/moves",
                              {"move": moves[pick.below(len(moves))], "expected_version": view["version"]},
                              game["seats"][self.seat]["token"], parse=False)
        took = time.perf_counter() - t
        if status == 201:
            return took
        self.refused[refusal(status, _)] += 1
        return None

    def close(self) -> None:
        self.conn.conn.close()


def _pick() -> Rng:
    return Rng(f"scale-{os.getpid()}-{threading.get_ident()}-{time.time_ns()}".encode())


def _move_loop(url: str, seconds: float) -> dict[str, Any]:
    """One thread's games for ``seconds``."""
    player = Player(url, _pick())
    samples: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        took = player.step()
        if took is not None:
            samples.append(took)
    player.close()
    return {"samples": samples, "games": player.games, "refused": dict(player.refused)}


def _paired_loop(url_a: str, url_b: str, seconds: float) -> dict[str, Any]:
    """One thread alone, a move on ``url_a`` and one on ``url_b`` (either
    first, in turn), for ``seconds``: each accepted pair's two POST latencies,
    taken a few ms apart (the same machine for both)."""
    a, b = Player(url_a, _pick()), Player(url_b, _pick())
    pairs: list[tuple[float, float]] = []
    accepted = [0, 0]
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        if len(pairs) % 2:  # either one first, in turn
            took_b = b.step()
            took_a = a.step()
        else:
            took_a = a.step()
            took_b = b.step()
        accepted[0] += took_a is not None
        accepted[1] += took_b is not None
        if took_a is not None and took_b is not None:
            pairs.append((took_a, took_b))
    a.close()
    b.close()
    return {"pairs": pairs, "games": [a.games, b.games], "moves": accepted,
            "refused": [dict(a.refused), dict(b.refused)]}


def _view_loop(url: str, seconds: float, readers: list[tuple[str, str]]) -> dict[str, Any]:
    """One thread's seat views of running games for ``seconds``, another (game, seat) each request."""
    conn = Conn(url)
    samples: list[float] = []
    errors = 0
    i = threading.get_ident() % len(readers)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        i = (i + 1) % len(readers)
        game_id, token = readers[i]
        t = time.perf_counter()
        status, _ = conn.call("GET", f"/v1/games/{game_id}", token=token, parse=False)
        if status == 200:
            samples.append(time.perf_counter() - t)
        else:
            errors += 1
    conn.conn.close()
    return {"samples": samples, "errors": errors}


def _client_process(loop: Callable[..., dict[str, Any]], args: tuple[Any, ...], threads_n: int,
                    out: mp.Queue[list[dict[str, Any]]]) -> None:
    results: list[dict[str, Any]] = [{} for _ in range(threads_n)]

    def run(i: int) -> None:
        try:
            results[i] = loop(*args)
        except Exception as exc:  # reported, not hidden: the window's figures would be wrong
            results[i] = {"error": f"{type(exc).__name__}: {exc}"}

    threads = [threading.Thread(target=run, args=(i,)) for i in range(threads_n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(results)


def _window(loop: Callable[..., dict[str, Any]], *args: Any, processes: int = PROCESSES,
            threads: int = THREADS) -> tuple[float, list[dict[str, Any]]]:
    """``processes`` client processes of ``threads`` threads running ``loop(*args)``;
    the wall time and every thread's result."""
    ctx = mp.get_context("fork")
    out: mp.Queue[list[dict[str, Any]]] = ctx.Queue()
    procs = [ctx.Process(target=_client_process, args=(loop, args, threads, out)) for _ in range(processes)]
    started = time.perf_counter()
    for p in procs:
        p.start()
    results = [r for _ in procs for r in out.get()]
    elapsed = time.perf_counter() - started
    for p in procs:
        p.join()
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError(f"a client thread failed: {errors[0]}")
    return elapsed, results


# -- the topologies --------------------------------------------------------------

def _topology(config: Config) -> Topology:
    return Topology(referees=config.referees, workers=0, standalone=config.redis == "standalone",
                    env={"REFEREE_RATE_LIMIT": "off", "REFEREE_REDIS_WAIT_REPLICAS": config.wait, **QUOTAS_OFF})


def _view_games(url: str) -> list[tuple[str, str]]:
    """``VIEW_GAMES`` running games, each ``VIEW_GAME_MOVES`` moves in: every (game id, seat token)."""
    conn = Conn(url)
    pick = Rng(b"scale-views")
    readers: list[tuple[str, str]] = []
    while len(readers) < VIEW_GAMES * PLAYERS:
        status, game = conn.call("POST", "/v1/games", {"ruleset": RULESET, "players": PLAYERS, "options": OPTIONS})
        assert status == 201, game
        path, tokens = f"/v1/games/{game['id']}", [s["token"] for s in game["seats"]]
        for _ in range(VIEW_GAME_MOVES):
            _, public = conn.call("GET", path)
            if public["status"] != "active" or not public["to_act"]:
                break
            seat = public["to_act"][0]
            _, own = conn.call("GET", path, token=tokens[seat])
            status, body = conn.call("POST", path + "/moves",
                                     {"move": pick.choice(playing_moves(own["legal_moves"])),
                                      "expected_version": own["version"]}, tokens[seat])
            assert status == 201, body
        _, public = conn.call("GET", path)
        if public["status"] == "active":  # views of running games only
            readers += [(str(game["id"]), token) for token in tokens]
    conn.conn.close()
    return readers


def _waits(topo: Topology) -> int:
    """The WAIT commands every node of the games' Redis has served."""
    total = 0
    for port in topo.redis_ports():
        client = redis.Redis(host="127.0.0.1", port=port)
        try:
            stats: dict[str, Any] = client.info("commandstats")  # type: ignore[assignment]
            total += int(stats.get("cmdstat_wait", {}).get("calls", 0))
        finally:
            client.close()
    return total


def _wait_round_trip(topo: Topology, n: int = WAIT_PROBES) -> dict[str, float]:
    """``WAIT 1 1000`` by itself, on a master of ``topo``'s cluster: a SET and
    a WAIT pipelined next to a SET and a PING, ``n`` of each in turn; the
    medians and the median of each pair's difference, µs (the key deleted after)."""
    assert topo.cluster is not None
    master = topo.cluster.masters[0]
    client = master.client()
    try:
        key = next(k for k in (f"bench:wait:{i}" for i in range(100000))
                   if any(lo <= int(client.execute_command("CLUSTER", "KEYSLOT", k)) <= hi  # type: ignore[no-untyped-call]
                          for lo, hi in master.slots))
        times: dict[str, list[float]] = {"wait": [], "ping": []}
        for i in range(2 * n):
            kind = ("wait", "ping")[i % 2]
            pipe = client.pipeline(transaction=False)
            pipe.set(key, i)
            if kind == "wait":
                pipe.execute_command("WAIT", 1, 1000)  # type: ignore[no-untyped-call]
            else:
                pipe.ping()
            t = time.perf_counter()
            replies = pipe.execute()
            times[kind].append(time.perf_counter() - t)
            assert kind == "ping" or int(replies[1]) >= 1, replies
        client.delete(key)
    finally:
        client.close()
    return {"wait_us": statistics.median(times["wait"]) * 1e6, "ping_us": statistics.median(times["ping"]) * 1e6,
            "cost_us": statistics.median(w - p for w, p in zip(times["wait"], times["ping"])) * 1e6, "n": n}


def _pct(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run(move_s: float = MOVE_S, view_s: float = VIEW_S, rounds: int = ROUNDS) -> dict[str, Any]:
    """Every configuration's moves and views, in alternating windows."""
    if haproxy_binary() is None:
        return {"skipped": HAPROXY_MISSING}
    topologies: dict[Config, Topology] = {}
    tallies = {config: Tally() for config in CONFIGS}
    readers: dict[Config, list[tuple[str, str]]] = {}
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    try:
        for config in CONFIGS:
            topologies[config] = _topology(config).start()
        for config, topo in topologies.items():  # warm every process's caches, then the games to read
            _window(_move_loop, topo.url, WARMUP_S)
            readers[config] = _view_games(topo.url)
            _window(_view_loop, topo.url, WARMUP_S, readers[config])
        pairs: list[tuple[float, float]] = []
        paired = {config: {"games": 0, "moves": 0} for config in (WITH_WAIT, NO_WAIT)}
        waits_before = {config: _waits(topo) for config, topo in topologies.items() if config.redis == "cluster"}
        order = list(topologies.items())
        for round_no in range(rounds):
            # each round starts at another configuration: none is always first after a pause
            for config, topo in order[round_no % len(order):] + order[:round_no % len(order)]:
                tally = tallies[config]
                elapsed, results = _window(_move_loop, topo.url, move_s / rounds)
                tally.move_s += elapsed
                for r in results:
                    tally.moves += r["samples"]
                    tally.games += r["games"]
                    tally.refused.update(r["refused"])
                elapsed, results = _window(_view_loop, topo.url, view_s / rounds, readers[config])
                tally.view_s += elapsed
                for r in results:
                    tally.views += r["samples"]
                    tally.view_errors += r["errors"]
            # one client alone, a move with the wait then one without: what the wait adds to a move
            _, results = _window(_paired_loop, topologies[WITH_WAIT].url, topologies[NO_WAIT].url,
                                 LONE_S / rounds, processes=1, threads=1)
            pairs += results[0]["pairs"]
            for side, config in enumerate((WITH_WAIT, NO_WAIT)):
                paired[config]["games"] += results[0]["games"][side]
                paired[config]["moves"] += results[0]["moves"][side]
                tallies[config].refused.update(results[0]["refused"][side])
        waits = {config: _waits(topo) - waits_before[config] for config, topo in topologies.items()
                 if config.redis == "cluster"}
        probe = _wait_round_trip(topologies[WITH_WAIT])
    except (TopologyError, ClusterError) as exc:
        return {"skipped": f"the topology did not start: {exc}"}
    finally:
        for topo in topologies.values():
            topo.stop()
    rows: dict[Config, dict[str, Any]] = {}
    for config, t in tallies.items():
        rows[config] = {"moves_per_s": len(t.moves) / t.move_s, "move_p50_ms": _pct(t.moves, 0.5),
                        "move_p99_ms": _pct(t.moves, 0.99), "views_per_s": len(t.views) / t.view_s,
                        "view_p50_ms": _pct(t.views, 0.5), "view_p99_ms": _pct(t.views, 0.99),
                        "moves": len(t.moves), "games": t.games, "refused": dict(t.refused),
                        "view_errors": t.view_errors, "waits": waits.get(config),
                        "lone_moves": 0}
    with_, without = rows[WITH_WAIT], rows[NO_WAIT]
    for config, extra in paired.items():  # the paired moves' writes (a WAIT each on the waiting side)
        rows[config]["lone_moves"] = extra["moves"]
        rows[config]["games"] += extra["games"]
    on, off = [p[0] for p in pairs], [p[1] for p in pairs]
    wait = {"with": with_, "without": without,
            "ratio": with_["moves_per_s"] / without["moves_per_s"],
            "us_per_move_throughput": (1 / with_["moves_per_s"] - 1 / without["moves_per_s"]) * 1e6,
            "us_per_move_p50": (with_["move_p50_ms"] - without["move_p50_ms"]) * 1000,
            "lone_pairs": len(pairs), "lone_with_p50_ms": _pct(on, 0.5), "lone_with_p99_ms": _pct(on, 0.99),
            "lone_without_p50_ms": _pct(off, 0.5), "lone_without_p99_ms": _pct(off, 0.99),
            # the median of each pair's difference: the machine's moment cancels out
            "us_per_move_lone": statistics.median(x - y for x, y in pairs) * 1e6 if pairs else float("nan"),
            "probe": probe}
    scaling = {kind: {what: rows[Config(kind, 2)][f"{what}_per_s"] / rows[Config(kind, 1)][f"{what}_per_s"]
                      for what in ("moves", "views")}
               for kind in ("standalone", "cluster")}
    cluster_vs = {what: rows[Config("cluster", 1)][f"{what}_per_s"] / rows[Config("standalone", 1)][f"{what}_per_s"]
                  for what in ("moves", "views")}
    return {"rows": rows, "wait": wait, "scaling": scaling, "cluster_vs_standalone": cluster_vs,
            "wall_s": time.perf_counter() - started, "move_s": move_s, "view_s": view_s, "rounds": rounds,
            "cpus": os.cpu_count(), "load": (load_before, os.getloadavg()[0])}


def _per_write(row: dict[str, Any]) -> str:
    """WAITs per game write (accepted moves and created games), as text."""
    writes = row["moves"] + row["lone_moves"] + row["games"]
    return "-" if row["waits"] is None else f"{row['waits'] / max(1, writes):.2f}"


def report(r: dict[str, Any]) -> None:
    if "skipped" in r:
        print(f"Scale-out (haproxy, 1 and 2 referees, standalone vs cluster): skipped — {r['skipped']}")
        return
    print(f"Scale-out through haproxy ({PROCESSES} client processes x {THREADS} threads on the same "
          f"{r['cpus']} CPUs; {RULESET} {PLAYERS} players; each referee `serve --workers 1`; "
          f"limiter off; {r['rounds']} alternating rounds, {r['move_s']:g} s of moves and {r['view_s']:g} s "
          f"of views per row; cluster = 3 masters + 3 replicas, a replica's WAIT on every game write)")
    print(f"  {'games Redis':<12} {'referees':>8} {'moves/s':>9} {'move p50':>9} {'move p99':>9} "
          f"{'views/s':>9} {'view p50':>9} {'view p99':>9}  WAITs/write")
    for config, row in r["rows"].items():
        if config.wait != "auto":
            continue
        print(f"  {config.redis:<12} {config.referees:>8} {row['moves_per_s']:9.0f} {row['move_p50_ms']:7.2f}ms "
              f"{row['move_p99_ms']:7.2f}ms {row['views_per_s']:9.0f} {row['view_p50_ms']:7.2f}ms "
              f"{row['view_p99_ms']:7.2f}ms  {_per_write(row)}")
    for kind, ratio in r["scaling"].items():
        print(f"  {kind}: 2 referees / 1: moves {ratio['moves']:.2f}x, views {ratio['views']:.2f}x")
    cv = r["cluster_vs_standalone"]
    print(f"  cluster / standalone (1 referee): moves {cv['moves']:.2f}x, views {cv['views']:.2f}x")
    w = r["wait"]
    on, off = w["with"], w["without"]
    print("  WAIT for a replica (cluster, 1 referee), with (auto: WAIT 1) vs without (REFEREE_REDIS_WAIT_REPLICAS=0):")
    for label, row in (("with", on), ("without", off)):
        print(f"    {label:<8} {row['moves_per_s']:6.0f} moves/s  p50 {row['move_p50_ms']:6.2f} ms  "
              f"p99 {row['move_p99_ms']:6.2f} ms   one client alone: p50 {w[f'lone_{label}_p50_ms']:.2f} ms  "
              f"p99 {w[f'lone_{label}_p99_ms']:6.2f} ms   WAITs/write {_per_write(row)}")
    print(f"    ratio with/without {w['ratio']:.2f} moves/s; cost per move: {w['us_per_move_throughput']:.0f} µs "
          f"of throughput (1/moves-per-s), {w['us_per_move_p50']:.0f} µs of p50 under load, "
          f"{w['us_per_move_lone']:.0f} µs for one client alone (median of {w['lone_pairs']} paired moves)")
    pr = w["probe"]
    print(f"    WAIT 1 by itself on a master (redis-py, SET+WAIT vs SET+PING pipelined, {pr['n']} of each in turn): "
          f"{pr['wait_us']:.0f} vs {pr['ping_us']:.0f} µs, median difference {pr['cost_us']:.0f} µs")
    for config, row in r["rows"].items():
        if row["refused"] or row["view_errors"]:
            why = ", ".join(f"{n} {what}" for what, n in sorted(row["refused"].items()))
            print(f"  ! {config.name}: {sum(row['refused'].values())} moves not accepted"
                  + (f" ({why})" if why else "") + f", {row['view_errors']} views not 200")
    print(f"  ({sum(row['games'] for row in r['rows'].values())} games played, wall {r['wall_s']:.0f} s; "
          f"1-minute load average {r['load'][0]:.1f} before, {r['load'][1]:.1f} after, on {r['cpus']} CPUs)")
