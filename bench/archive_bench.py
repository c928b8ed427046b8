"""Redis keeps the hot set (issue 41 item 2): ``G`` bot games (Bluffaneer,
three random bots) played by real ``referee worker`` processes over a real
Redis, each archived to SQLite as it ends; then Redis's memory before the
games and after every one was archived and left Redis
(``REFEREE_RETENTION_ARCHIVED_S``, here 2 s), the archive's rows, its bytes
per game (compressed: what it stores; and the ``/log`` bytes they hold), and
Redis's bytes per game while the games were in it. Every game is fetched
back from the archive (its ``/log`` bytes, through the service's restore)
and its head checked. Games are made in batches of 200 so Redis never holds
more than a batch's worth of finished games.

Flat is shown, not assumed: Redis's memory is read once half the games
have left it and again once all have, and the difference over the second
half is reported a game; so is what the transparency log keeps of each game
in Redis (its leaf and subtree hashes: the one thing a finished game leaves
there for good, a few hundred bytes, also kept in the archive).

Run: ``python -m bench archive [G]`` (default ``G`` = 10,000); ``make
bench``'s default run plays ``DEFAULT_RUN_GAMES``."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from referee.archive import Archive
from referee.service import GameService
from referee.service.scheduling import ARCHIVE_PENDING, RqScheduler
from referee.store.redis_server import free_port, start
from referee.store.redis_store import EventStore
from referee.store.transparency import GAMES, LEAVES, NODES

DEFAULT_GAMES = 10_000
#: the games of ``make bench``'s default run: enough batches that a growth a game would show
DEFAULT_RUN_GAMES = 2_000
BATCH = 200
SEATS = [{"bot": "random", "name": "ann"}, {"bot": "random"}, {"bot": "random"}]


def _used(client: Any) -> int:
    return int(client.info("memory")["used_memory"])


def _settled(client: Any, queue_key: str = "rq:queue:referee") -> bool:
    return bool(client.zcard(ARCHIVE_PENDING) == 0 and client.llen(queue_key) == 0)


def _left(client: Any, ids: list[str]) -> int:
    """Redis's memory once the last batch's games have left it (their archived TTL, 2 s)."""
    time.sleep(3)  # the archived games' keys expire (2 s), and Redis's active expiry takes them
    while any(client.exists(f"game:{{{gid}}}:meta") for gid in ids[-BATCH:]):
        time.sleep(0.5)
    return _used(client)


def _tlog_bytes(client: Any) -> int:
    return sum(int(client.memory_usage(key) or 0) for key in (LEAVES, GAMES, NODES))


def run(games: int = DEFAULT_GAMES, workers: int = 2) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="referee-archive-bench-"))
    port = free_port()
    server = start(port, None)
    url = f"sqlite:///{work}/archive.sqlite3"
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{port}/0", "REFEREE_ARCHIVE_URL": url,
           "REFEREE_RETENTION_ARCHIVED_S": "2", "REFEREE_SIGNING_KEY_FILE": str(work / "signing.keys")}
    referee = str(Path(sys.executable).parent / "referee")
    procs = [subprocess.Popen([referee, "worker"], env=env, stdout=subprocess.DEVNULL) for _ in range(workers)]
    client = redis.Redis(port=port)
    archive = Archive(url)
    os.environ["REFEREE_SIGNING_KEY_FILE"] = env["REFEREE_SIGNING_KEY_FILE"]
    svc = GameService(EventStore(client), scheduler=RqScheduler(client), archive=archive)
    try:
        return _measure(svc, client, archive, games)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
        server.terminate()
        server.wait(timeout=30)


def _measure(svc: GameService, client: Any, archive: Archive, games: int) -> dict[str, Any]:
    time.sleep(1)  # the workers' registration keys in first
    before, peak, half = _used(client), 0, None
    ids: list[str] = []
    started = time.monotonic()
    while len(ids) < games:
        batch = [svc.create_game("bluffaneer", seats=list(SEATS))["id"] for _ in range(min(BATCH, games - len(ids)))]
        ids += batch
        while not _settled(client):
            peak = max(peak, _used(client))
            time.sleep(0.2)
        if half is None and len(ids) >= games // 2 and len(ids) < games:
            half = (len(ids), _left(client, ids))
    took = time.monotonic() - started
    after = _left(client, ids)
    sizes = archive.sizes()
    served = sum(1 for gid in ids if (row := archive.get(gid)) is not None and row.log and row.status == "finished")
    return {"games": games, "seconds": took, "redis_before": before, "redis_after": after, "redis_peak": peak,
            "redis_half": half, "tlog_bytes": _tlog_bytes(client), "archive": sizes, "served": served}


def report(found: dict[str, Any]) -> None:
    games, sizes = found["games"], found["archive"]
    print(f"archive: {games} games in {found['seconds']:.0f} s; Redis used_memory {found['redis_before']:,} B "
          f"before, {found['redis_after']:,} B after ({found['redis_after'] - found['redis_before']:+,} B), "
          f"peak {found['redis_peak']:,} B")
    if found["redis_half"] is not None:
        at, half = found["redis_half"]
        grown = found["redis_after"] - half
        print(f"archive: Redis after {at} games {half:,} B, after {games} {found['redis_after']:,} B: "
              f"{grown:+,} B over the last {games - at} games ({grown / max(1, games - at):+,.0f} B a game; "
              f"the transparency log keeps {found['tlog_bytes'] / games:,.0f} B a game in Redis)")
    print(f"archive: {sizes['games']} rows, {sizes['stored_bytes'] / max(1, sizes['games']):,.0f} B stored a game "
          f"(its /log: {sizes['log_bytes'] / max(1, sizes['games']):,.0f} B); "
          f"{found['served']}/{games} read back from the archive")
