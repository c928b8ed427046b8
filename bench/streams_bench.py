"""Issue 8's stream benchmark: `/health`, a seat view and a move (p50/p99)
with no stream open, then the same while 1,000 idle Server-Sent Events
streams are open, against one `referee serve` in one run.

    python -m bench streams [N]      (N streams, default 1000)
    REFEREE_WORKER_CLASS=gthread python -m bench streams    (the old thread-per-request server)

The streams are held by a child process (asyncio, raw sockets, one address:
127.0.0.1); the timed requests come one at a time from this process over a
keep-alive connection. A request that takes longer than TIMEOUT_S counts as
TIMEOUT_S and as timed out, so the run stays bounded on a starved server.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import multiprocessing as mp
import os
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlparse

from bench.server import live_server
from referee.engine.platform import playing_moves
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table

STREAMS = 1000
STREAM_GAMES = 20
PHASE_S = 4.0
TIMEOUT_S = 5.0
ANSWER_S = 10.0  # how long the holder waits for the streams' first bytes


def raise_nofile(wanted: int) -> int:
    """Raise this process's soft open-files limit towards ``wanted`` (at most the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return int(soft)


@dataclass
class Held:
    """What the holder process reports once its streams are open."""
    attempted: int = 0
    answered: int = 0    # a 200 and the stream's first bytes
    refused: int = 0     # any other status (429, 503)
    waiting: int = 0     # connected, no answer within ANSWER_S
    failed: int = 0      # could not connect
    open_s: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)


async def _open_stream(host: str, port: int, path: str, gate: asyncio.Semaphore, held: Held,
                       conns: list[asyncio.StreamWriter]) -> None:
    async with gate:  # bounded connect rate, so the listen backlog never overflows
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), TIMEOUT_S)
        except (TimeoutError, OSError):
            held.failed += 1
            return
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    conns.append(writer)
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_S)
    except (TimeoutError, asyncio.IncompleteReadError, OSError, asyncio.LimitOverrunError):
        held.waiting += 1
        return
    status = head.split(b" ", 2)[1].decode()
    held.statuses[status] = held.statuses.get(status, 0) + 1
    if status != "200":
        held.refused += 1
        return
    try:
        await asyncio.wait_for(reader.readuntil(b"retry:"), ANSWER_S)
        held.answered += 1
    except (TimeoutError, asyncio.IncompleteReadError, OSError, asyncio.LimitOverrunError):
        held.waiting += 1


def _hold(url: str, paths: list[str], pipe: Connection) -> None:
    """Child process: open one stream per path, report, hold them until told to stop."""
    raise_nofile(len(paths) + 256)
    u = urlparse(url)
    host, port = u.hostname or "127.0.0.1", u.port or 80

    async def main() -> None:
        held, conns = Held(attempted=len(paths)), list[asyncio.StreamWriter]()
        gate = asyncio.Semaphore(100)
        started = time.perf_counter()
        await asyncio.gather(*(_open_stream(host, port, p, gate, held, conns) for p in paths))
        held.open_s = time.perf_counter() - started
        pipe.send(held)
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "stop"
        for writer in conns:
            writer.close()

    asyncio.run(main())


class Timed:
    """One keep-alive connection; every call is timed, a timeout counts TIMEOUT_S."""

    def __init__(self, url: str) -> None:
        u = urlparse(url)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
        self.timeouts = self.errors = 0

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[float, int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.timeouts += 1
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
            return TIMEOUT_S, 0, None
        if response.status >= 500:
            self.errors += 1
        return time.perf_counter() - started, response.status, json.loads(data) if data else None


class Player:
    """Plays seeded Bluffaneer games through the API, one legal move per call,
    mirrored locally so that picking a move costs no request."""

    def __init__(self, timed: Timed) -> None:
        self.timed, self.rs, self.pick = timed, registry.get("bluffaneer"), Rng(b"streams-bench")
        self.games = 0
        self.new_game()

    def new_game(self) -> None:
        self.games += 1
        seed, options = f"streams-bench-{self.games}-{time.time_ns()}", {"claim_window_ms": 60000}
        _, status, game = self.timed.call("POST", "/v1/games", {"ruleset": "bluffaneer", "players": 4,
                                                                 "seed": seed, "options": options})
        if status != 201:
            raise RuntimeError(f"could not create a game: {status} {game}")
        self.game, self.table = game, Table(self.rs, 4, options=options, seed=seed)

    def seat(self) -> tuple[int, str]:
        seats = sorted(self.rs.to_act(self.table.state))
        seat = seats[self.pick.below(len(seats))]
        return seat, str(self.game["seats"][seat]["token"])

    def view(self) -> float:
        _, token = self.seat()
        elapsed, _, _ = self.timed.call("GET", f"/v1/games/{self.game['id']}", token=token)
        return elapsed

    def move(self) -> float:
        seat, token = self.seat()
        move = self.pick.choice(list(playing_moves(self.rs.legal_moves(self.table.state, seat, memo=self.table.memo))))
        elapsed, status, body = self.timed.call("POST", f"/v1/games/{self.game['id']}/moves", {"move": move}, token)
        if status == 201:
            self.table.play(seat, move, now=body["events"][0]["at"])
            if self.rs.result(self.table.state) is not None:
                self.new_game()
        elif status < 500 and status != 0:
            raise RuntimeError(f"move refused: {status} {body}")
        return elapsed


def _phase(timed: Timed, player: Player, seconds: float) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {"health": [], "view": [], "move": []}
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        samples["health"].append(timed.call("GET", "/health")[0])
        samples["view"].append(player.view())
        samples["move"].append(player.move())
    return samples


def _pct(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def _summary(samples: dict[str, list[float]], timed: Timed) -> dict[str, Any]:
    out: dict[str, Any] = {"timeouts": timed.timeouts, "errors": timed.errors}
    for kind, values in samples.items():
        out[kind] = {"n": len(values), "p50_ms": _pct(values, 0.5), "p99_ms": _pct(values, 0.99)}
    return out


def run(streams: int = STREAMS, *, worker_class: str | None = None, threads: int | None = None,
        phase_s: float = PHASE_S) -> dict[str, Any]:
    """Latency with no stream, then with ``streams`` idle streams, on one server
    (`referee serve`'s defaults unless ``worker_class``/``threads`` are given)."""
    raise_nofile(streams + 1024)
    extra = ["--worker-class", worker_class] if worker_class else []
    env = {"REFEREE_STREAMS_PER_CLIENT": "off"}  # every stream comes from 127.0.0.1: capacity, not policy
    with live_server(threads=threads, extra_args=extra, extra_env=env) as (url, _):
        timed = Timed(url)
        player = Player(timed)
        games = []
        for _ in range(STREAM_GAMES):  # idle games the streams follow; nobody moves in them
            _, _, game = timed.call("POST", "/v1/games", {"ruleset": "bluffaneer", "players": 4})
            games.append(game["id"])
        _phase(timed, player, 1.0)  # warm up every worker's cache
        timed.timeouts = timed.errors = 0
        quiet = _summary(_phase(timed, player, phase_s), timed)
        paths = [f"/v1/games/{games[i % len(games)]}/events/stream?after=1000" for i in range(streams)]
        ctx = mp.get_context("fork")
        ours, theirs = ctx.Pipe()
        holder = ctx.Process(target=_hold, args=(url, paths, theirs))
        holder.start()
        try:
            held: Held = ours.recv()
            timed.timeouts = timed.errors = 0
            busy = _summary(_phase(timed, player, phase_s), timed)
        finally:
            ours.send("stop")
            holder.join(timeout=30)
            if holder.is_alive():
                holder.kill()
    label = worker_class or os.environ.get("REFEREE_WORKER_CLASS", "gevent")
    return {"streams": streams, "worker_class": label, "held": held,
            "none": quiet, "open": busy}


def report(r: dict[str, Any]) -> None:
    held: Held = r["held"]
    print(f"Streams (`referee serve` {r['worker_class']} worker class, 2 workers; {r['streams']} idle SSE streams "
          f"from 127.0.0.1; timed requests one at a time, timeout {TIMEOUT_S:.0f} s)")
    print(f"  streams: {held.answered} answered, {held.refused} refused, {held.waiting} unanswered after "
          f"{ANSWER_S:.0f} s, {held.failed} failed to connect ({held.open_s:.1f} s to open)")
    print(f"  {'':22} {'no stream open':>28}   {str(r['streams']) + ' streams open':>28}")
    labels = {"health": "GET /health", "view": "GET /v1/games/{id}", "move": "POST .../moves"}
    for kind, label in labels.items():
        cells = []
        for phase in ("none", "open"):
            row = r[phase][kind]
            cells.append(f"p50 {row['p50_ms']:8.2f} p99 {row['p99_ms']:8.2f} ms")
        print(f"  {label:22} {cells[0]:>28}   {cells[1]:>28}")
    print(f"  timed out (> {TIMEOUT_S:.0f} s): {r['none']['timeouts']} with none open, {r['open']['timeouts']} "
          f"with {r['streams']} open; 5xx: {r['none']['errors']} and {r['open']['errors']}")
    ratio = max(r["open"][k]["p99_ms"] / r["none"][k]["p99_ms"] for k in labels)
    print(f"  worst p99 ratio open/none {ratio:.2f}")
