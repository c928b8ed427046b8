"""Issue 36 item 7: a view is never older than a move some client has seen
acknowledged. Many threads, each playing its own game over HTTP: a move is
sent to one referee and, as soon as its 201 is in, the spectator's and
another seat's view are read from every referee; a read whose version is
below the receipt's is stale (0 allowed), and so is one below the last
receipt of its game, whenever it comes.

``python -m bench fresh [MOVES]`` runs it against two `referee serve`
processes (2 gunicorn workers each, one with the rate limiter on, one
without) on one standalone Redis, then, where haproxy is installed, against
two referees on a Redis Cluster and haproxy in front
(``referee.ops.topology``). tests/e2e/test_fresh_views.py and
tests/cluster/test_fresh_views_cluster.py run it smaller."""
from __future__ import annotations

import contextlib
import os
import random
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import requests

from bench.http_bench import Conn
from bench.server import REFEREE, _stop
from referee.engine.platform import playing_moves
from referee.store.redis_server import free_port, start

#: the first referee's limiter: on, at a limit never reached (its round trip reads a view's head)
LIMITER = "1000000/1000000"
RULESET, PLAYERS = "bluffaneer", 3


@dataclass
class Tally:
    """What the threads saw: reads and how many were stale, by how much at worst."""
    moves: int = 0
    refused: int = 0  # a move answered other than 201 (another seat's window closed it first)
    ended: int = 0  # attempts that found their game over (a new one was made instead)
    reads: int = 0
    stale: int = 0
    worst_lag: int = 0
    examples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def read(self, url: str, version: int, acked: int) -> None:
        with self.lock:
            self.reads += 1
            if version < acked:
                self.stale += 1
                self.worst_lag = max(self.worst_lag, acked - version)
                if len(self.examples) < 5:
                    self.examples.append(f"{url}: version {version} after a receipt of {acked}")


class _Player:
    """One thread's client: its games, one keep-alive connection per referee."""

    def __init__(self, urls: list[str], tally: Tally, rng: random.Random) -> None:
        self.urls, self.tally, self.rng = urls, tally, rng
        self.conns = {url: Conn(url) for url in urls}
        self.game: dict[str, Any] = {}
        self.acked = 0

    def new_game(self) -> None:
        status, game = self.conns[self.urls[0]].call("POST", "/v1/games", {"ruleset": RULESET, "players": PLAYERS})
        assert status == 201, game
        self.game, self.acked = game, 0

    def view(self, url: str, seat: int | None) -> dict[str, Any]:
        """A view read and checked against the game's last receipt."""
        token = None if seat is None else self.game["seats"][seat]["token"]
        status, body = self.conns[url].call("GET", f"/v1/games/{self.game['id']}", token=token)
        assert status == 200, body
        self.tally.read(url, body["version"], self.acked)
        return dict(body)

    def step(self, n: int) -> None:
        """One move through one referee, then every referee's views of it."""
        writer = self.urls[n % len(self.urls)]
        spectator = self.view(writer, None)
        if spectator["result"] is not None:
            with self.tally.lock:
                self.tally.ended += 1
            self.new_game()
            return
        seat = sorted(spectator["to_act"])[0]
        mine = self.view(writer, seat)
        body = {"move": self.rng.choice(list(playing_moves(mine["legal_moves"]))),
                "expected_version": mine["version"]}
        status, sent = self.conns[writer].call("POST", f"/v1/games/{self.game['id']}/moves", body,
                                               token=self.game["seats"][seat]["token"])
        if status != 201:
            with self.tally.lock:
                self.tally.refused += 1
            return
        self.acked = max(self.acked, int(sent["version"]))
        with self.tally.lock:
            self.tally.moves += 1
        for url in self.rng.sample(self.urls, len(self.urls)):
            self.view(url, None)
            self.view(url, (seat + 1) % PLAYERS)


def hammer(urls: list[str], *, threads: int = 8, moves: int = 40, seed: int = 36) -> Tally:
    """``threads`` threads, each making ``moves`` attempts at a move (its
    own games, a new one when one ends), spread over ``urls``."""
    tally = Tally()
    errors: list[BaseException] = []

    def play(index: int) -> None:
        try:
            player = _Player(urls, tally, random.Random(seed * 1000 + index))
            player.new_game()
            for n in range(moves):
                player.step(n + index)
        except BaseException as err:  # noqa: BLE001 - handed to the caller, which raises it
            errors.append(err)

    workers = [threading.Thread(target=play, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise errors[0]
    return tally


def _healthy(url: str, procs: list[subprocess.Popen[bytes]]) -> None:
    for _ in range(600):
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}")
        with contextlib.suppress(requests.RequestException):
            if requests.get(url + "/health", timeout=1).status_code == 200:
                return
        threading.Event().wait(0.05)
    raise RuntimeError(f"{url} did not become healthy in 30 s")


@contextlib.contextmanager
def two_referees(workers: int = 2) -> Iterator[list[str]]:
    """Two `referee serve` processes (``workers`` gunicorn workers each; the
    first with the rate limiter on, the second without) on one throwaway
    standalone Redis, with Redis's pushes on (``REFEREE_PUSHED``); yields their URLs."""
    redis_port = free_port()
    redis_proc = start(redis_port, None)
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "REFEREE_PUSHED": "on"}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        urls = []
        for limit in (LIMITER, "off"):
            port = free_port()
            procs.append(subprocess.Popen([REFEREE, "serve", "--port", str(port), "--workers", str(workers)],
                                          env={**env, "REFEREE_RATE_LIMIT": limit}, stderr=subprocess.DEVNULL))
            urls.append(f"http://127.0.0.1:{port}")
        for url in urls:
            _healthy(url, procs)
        yield urls
    finally:
        for proc in procs:
            _stop(proc)
        _stop(redis_proc)


def run(moves: int = 250, threads: int = 8) -> dict[str, Tally]:
    """Two referees on a standalone Redis; and on a cluster behind haproxy where it is installed."""
    out: dict[str, Tally] = {}
    with two_referees() as urls:
        out["two referees, one Redis"] = hammer(urls, threads=threads, moves=moves)
    from referee.ops.topology import Topology, haproxy_binary
    if haproxy_binary() is not None:
        with Topology(referees=2, workers=0, env={"REFEREE_RATE_LIMIT": LIMITER}, gunicorn_workers=2) as topo:
            out["two referees on a Redis Cluster, and haproxy"] = hammer(
                [r.url for r in topo.referees] + [topo.url], threads=threads, moves=moves)
    return out


def report(r: dict[str, Tally]) -> None:
    print("Views after an acknowledged move (issue 36 item 7: stale reads, 0 allowed)")
    for name, t in r.items():
        print(f"  {name}: {t.moves} moves acknowledged ({t.refused} refused, {t.ended} games over), {t.reads} reads, "
              f"{t.stale} stale (worst {t.worst_lag} versions behind)")
        for example in t.examples:
            print(f"    {example}")
