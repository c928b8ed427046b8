"""The pool's speed (issue 42 item 6): built-in bots played through a
ladder's matchmaking pool by 2 real worker processes, next to the very same
games played in this process.

For every ruleset and each built-in bot it has (the rows, table sizes and
game counts of ``bench.tournament_bench.tables``), on one platform — Redis,
`referee serve` and 2 ``referee worker`` processes — the admin puts that bot
in the ruleset's ladder's pool (``PUT /v1/ladder/{key}/pool/{bot}``,
``games_at_once`` 8 as the tournaments' ``parallel``, ``same_table`` the
table's size: the bot fills its tables alone, docs/ladder.md "The pool"),
and the clock runs from that ``PUT`` to the first poll (every 50 ms) that
sees every game it started over, the bot taken out (``DELETE``) as soon as
``G`` have started (the pool may deal a few more before the ``DELETE``
lands: they are played and counted too) — as a tournament is timed, ramp
and tail included. Each game's log, read afterwards (untimed), gives its
seats, its seed (revealed at its end), its ``move`` records and their
receipt times, and
``bench.tournament_bench.play_game`` plays exactly those games again in
this process (given the receipt times: the rules read the clock), timed
over whole passes until ``MIN_TIMED_S``. Ratio: platform games/s over
in-process games/s of the same games (equal to the moves/s ratio: the same
moves). Target: >= 0.25. Each row starts on an idle platform.

Which games are the row's is read from Redis (the pool's ``started`` set
and its ``games`` booked and not over, ``referee.store.pool``): a poll of
the API's game listing would cost the 2 cores the workers use.

Run: ``python -m bench pool [G] [ROW ...]`` (default ``G`` = 40; fewer where
``GAMES_DIVISOR`` says, but never under ``MIN_GAMES``, 16). ``ROW``: only
the rows it names — a ruleset (``bluffaneer``), a bot (``random``) or both
(``bluffaneer:random``); every row without one.
"""
from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from typing import Any

import redis

from bench.server import live_platform
from bench.tournament_bench import MAX_PASSES, MIN_TIMED_S, Api, Played, play_game, tables
from referee.engine import sha256_hex
from referee.engine.protocol import Json
from referee.games import registry
from referee.ladder.ratings import ladder_key
from referee.store.pool import PoolStore

DEFAULT_GAMES = 40
GAMES_AT_ONCE = 8  # as the tournaments' parallel
#: the fewest games a row times: with one round of 8 a row would time mostly its longest game, played
#: alone at the end (a pool, which never stops, has no such tail)
MIN_GAMES = 2 * GAMES_AT_ONCE
WORKERS = 2
TARGET = 0.25
POLL_S = 0.05
STALL_S = 60.0  # a row that finishes no game for this long is stopped and reported
ADMIN = "bench-admin-" + secrets.token_hex(8)


def _ids(raw: Any) -> set[str]:
    return {r.decode() if isinstance(r, bytes) else str(r) for r in raw}


class PoolGames:
    """The games a ladder's pool started since ``open``, and which of them are over (read from Redis)."""

    def __init__(self, client: Any, key: str) -> None:
        self.client, self.key = client, key
        self.before = self.started()
        self.seen: set[str] = set()

    def started(self) -> set[str]:
        return _ids(self.client.zrange(PoolStore.key(self.key, "started"), 0, -1))

    def booked(self) -> set[str]:
        return _ids(self.client.hkeys(PoolStore.key(self.key, "games")))

    def finished(self) -> set[str]:
        """This row's games over (started since ``open``, no longer booked); kept
        across polls (the started set forgets games after ten minutes)."""
        self.seen |= self.started() - self.before
        return self.seen - self.booked()  # read after: one booked since is not in ``seen`` yet


def run_pool(api: Api, client: Any, name: str, kind: str, players: int, games: int) -> dict[str, Any]:
    """``kind`` put in ``name``'s pool and taken out once ``games`` of its
    games have started: timed from the ``PUT`` to the first poll that sees
    every game it started over (the ``DELETE`` races the pool: the few it
    dealt meanwhile are played and counted too); then (untimed) each game's log."""
    key = ladder_key(name, players)
    pool = PoolGames(client, key)
    path = f"/v1/ladder/{key}/pool/{kind}"
    start = time.perf_counter()
    api.json("PUT", path, {"games_at_once": GAMES_AT_ONCE, "same_table": players}, token=ADMIN)
    status, put_in, done, last_change = "finished", True, 0, start
    while True:
        time.sleep(POLL_S)
        over = pool.finished()
        now = time.perf_counter()
        if put_in and len(pool.seen) >= games:
            api.json("DELETE", path, token=ADMIN)
            put_in = False
        if not put_in and over == pool.seen:
            break
        if len(over) != done:
            done, last_change = len(over), now
        elif now - last_change > STALL_S:
            status = "stalled"
            if put_in:
                api.json("DELETE", path, token=ADMIN)
            break
    seconds = time.perf_counter() - start
    logs = [read_game(api, game_id) for game_id in sorted(pool.finished())]
    logs = [game for game in logs if game["seed"] is not None]  # over (a stalled row's others are not)
    moves = sum(len(g["moves"]) for g in logs)
    return {"key": key, "status": status, "seconds": seconds, "games": logs, "finished": len(logs),
            "moves": moves, "defaulted": sum(g["defaulted"] for g in logs),
            "games_per_s": len(logs) / seconds, "moves_per_s": moves / seconds}


def read_game(api: Api, game_id: str) -> Json:
    """A finished game's header seats, seed, version, result and ``move`` records (``(actor, move, at)``)."""
    lines = [json.loads(line) for line in api.call("GET", f"/v1/games/{game_id}/log").text.splitlines()]
    header = lines[0].get("header", lines[0])
    view = api.json("GET", f"/v1/games/{game_id}")
    out: Json = {"id": game_id, "seats": header["seats"], "version": view["version"], "result": view["result"],
                 "seed": None, "moves": [], "defaulted": 0}
    for env in lines[1:]:
        if env["type"] == "move":
            out["moves"].append((env["actor"], env["data"]["move"], env["at"]))
            out["defaulted"] += "default" in (env["data"].get("by") or {})
        elif env["type"] == "seed_revealed":
            out["seed"] = env["data"]["seed"]
    return out


def run_in_process(name: str, logs: list[Json]) -> dict[str, Any]:
    """The pool's games played again in this process, each given its receipt
    times (so exactly that game), timed over whole passes until ``MIN_TIMED_S``;
    ``same``: how many ended at the platform game's version and result."""
    rs = registry.get(name)
    prepared = [([{"seat": s["seat"], "name": s["name"], "bot": s["bot"]} for s in g["seats"]], g["seed"],
                 sha256_hex(g["seed"]), [at for _, _, at in g["moves"]]) for g in logs]
    played: list[Played] = []
    passes, seconds = 0, 0.0
    while prepared and (passes < 1 or (seconds < MIN_TIMED_S and passes < MAX_PASSES)):
        started = time.perf_counter()
        played = [play_game(rs, seats, seed, commitment=commitment, custom=False, receipts=receipts)
                  for seats, seed, commitment, receipts in prepared]
        seconds += time.perf_counter() - started
        passes += 1
    moves = sum(p.moves for p in played)
    same = sum(1 for p, g in zip(played, logs) if (p.version, p.result) == (g["version"], g["result"]))
    return {"passes": passes, "seconds": seconds / max(passes, 1), "same": same,
            "games_per_s": len(logs) * passes / seconds if seconds else 0.0,
            "moves_per_s": moves * passes / seconds if seconds else 0.0}


def chosen(name: str, kind: str, only: Sequence[str]) -> bool:
    """Whether the row of ruleset ``name`` and bot ``kind`` is one ``only`` names (none: every row)."""
    return not only or any(pick in (name, kind, f"{name}:{kind}") for pick in only)


def rows_named(args: Sequence[str]) -> list[str]:
    """The row selectors among a command line's words: a ruleset, a built-in bot, or ``ruleset:bot``."""
    names, kinds = set(registry.names()), {kind for _, kind, _, _ in tables(1)}
    return [a for a in args if a in names or a in kinds or (a.partition(":")[0] in names
                                                              and a.partition(":")[2] in kinds)]


def run(games: int = DEFAULT_GAMES, only: Sequence[str] = ()) -> dict[str, Any]:
    """Every row (``only``: those it names, ``chosen``) through the pool of one
    platform with ``WORKERS`` workers, each followed at once by the same games
    in this process (its ratio's denominator)."""
    rows = []
    with live_platform(WORKERS, {"REFEREE_ADMIN_TOKEN": ADMIN}) as (url, redis_url):
        api, client = Api(url), redis.Redis.from_url(redis_url)
        try:
            for name, kind, players, n in [row for row in tables(games) if chosen(row[0], row[1], only)]:
                n = max(n, MIN_GAMES)
                pool = run_pool(api, client, name, kind, players, n)
                beside = run_in_process(name, pool["games"])
                ratio = pool["games_per_s"] / beside["games_per_s"] if beside["games_per_s"] else 0.0
                for game in pool["games"]:
                    del game["moves"]
                rows.append({"ruleset": name, "bot": kind, "players": players, "games": n, "pool": pool,
                             "in_process": beside, "ratio": ratio})
        finally:
            client.close()
    return {"rows": rows, "target": TARGET, "workers": WORKERS}


def report(result: dict[str, Any]) -> None:
    """One line a row: the pool's games/s and moves/s, the same games' in process, the ratio."""
    print(f"Built-in bots through a ladder's pool (referee serve + {result['workers']} referee worker + Redis; "
          f"games_at_once {GAMES_AT_ONCE}, the bot in every seat) vs the same games in one process")
    print("  ratio = pool g/s / in-process g/s of those very games (each replayed with its receipt times); "
          "same = in-process games ending at the pool game's version and result")
    print(f"  {'ruleset':12s} {'bots':9s} {'ladder':12s} {'players':>7s} {'games':>5s} | {'pool g/s':>9s} "
          f"{'mv/s':>7s} | {'in-process g/s':>14s} {'mv/s':>7s} | {'ratio':>6s}  {'target>=' + str(TARGET):>13s}"
          f"  {'same':>7s}")
    for row in result["rows"]:
        pool, ip = row["pool"], row["in_process"]
        met = "met" if row["ratio"] >= result["target"] else "NOT MET"
        line = (f"  {row['ruleset']:12s} {row['bot']:9s} {pool['key']:12s} {row['players']:7d} "
                f"{pool['finished']:5d} | {pool['games_per_s']:9.2f} {pool['moves_per_s']:7.0f} | "
                f"{ip['games_per_s']:14.1f} {ip['moves_per_s']:7.0f} | {row['ratio']:6.3f}  {met:>13s}"
                f"  {ip['same']:>3d}/{pool['finished']:<3d}")
        if pool["status"] != "finished":
            line += f"  (stalled: {pool['finished']}/{row['games']} games over)"
        if pool["defaulted"]:
            line += f"  {pool['defaulted']} default moves"
        print(line)


if __name__ == "__main__":
    report(run())
