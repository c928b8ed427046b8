"""Tournament throughput over the real platform next to the same games played
in one process, measured in one run.

**Built-in bots.** For every registered ruleset and each built-in bot
(``random``, ``heuristic``) one tournament of ``G`` games (fewer for random
Face Off, whose games run to thousands of moves), every seat that bot, over
the whole stack — Redis, `referee serve --workers 2` and ``referee worker``
processes — first with 1 worker, then with 2 (``parallel: 8``): games/s and
moves/s from the ``POST /v1/tournaments`` to the first poll (every 50 ms)
that sees the tournament no longer ``running``. Next to it the same games
(the tournament's fixed seed, each game's derived seed, the same seating,
the same bots) played in this process by :func:`play_game`, and the ratio
platform/in-process of the moves/s (the games/s ratio too, when the games
are the same). Target: ratio >= 0.25 with 2 workers.

*Moves* are the ``move`` records of a game's log: each accepted move — a
bot's, or the system ``timeout`` — appends exactly one platform event of
type ``move`` (``referee.engine.record.move``); *events* are all stored
events, the game's final ``version``. Both are read after the clock stops
(``GET /v1/games/{id}``, ``GET /v1/games/{id}/log``).

*Same games*: how many platform games ended at the in-process game's version
with its result (winners, seats, roles, reason). The rules read the clock —
a Bluffaneer claim window goes to the earliest claim, and claims in the same
millisecond tie and are settled by a flip from the game's generator (F19,
F32) — and the platform's bots answer within the same millisecond where the
in-process clock moves 1 ms a move, so such games part ways. *Replayed*
checks the in-process player itself: each platform game played again by
:func:`play_game` with the receipt times of its log must make the very same
moves by the same seats and end at the same version and result; where it
does not, the report says at which move (e.g. two workers racing for two
awaited seats, where in process the lowest seat always moves first).

**Webhook bots.** A local HTTP bot (:class:`SlowBot`: verifies the
signature, sleeps 50 ms, answers a legal move) is registered with
``POST /v1/bots`` and takes every seat of a BANG! The Dice Game tournament
(3 players, the quickest games), run with ``parallel: 1`` and with
``parallel: 8`` on one worker, with the same seed: games/s of each and the
ratio (target >= 6x: a worker that waits on 8 games' bots at once). Loopback
bot URLs need ``REFEREE_BOT_ALLOW_PRIVATE=1`` (``referee.bots.bot_url``),
set for the API and the workers, as is ``REFEREE_WEBHOOK_THREADS=16`` (the
worker's pool of webhook callers).

Run: ``python -m bench tournaments [G]`` (default ``G`` = 80).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests

from bench.server import live_platform
from referee import bots
from referee.bots.webhook import verify
from referee.engine import bot_seed, record, sha256_hex
from referee.engine.protocol import GameConfig, Json, Move, Ruleset, fold, seat_view
from referee.engine.rng import Rng
from referee.engine.statecache import Memo
from referee.games import registry
from referee.play.standings import seating
from referee.store.redis_server import free_port

#: one table per ruleset (every ruleset not named here: its smallest table)
PLAYERS = {"bang": 5, "bang-dice": 5, "bang-faceoff": 2, "bluffaneer": 4}
KINDS = ("random", "heuristic")
DEFAULT_GAMES = 80
#: rows whose games are far longer play G // n games (random Face Off: ~4000 moves a game; the
#: heuristic Face Off bot takes ~2 ms a decision)
GAMES_DIVISOR = {("bang-faceoff", "random"): 10, ("bang-faceoff", "heuristic"): 4}
SEED = "5eed" * 16  # the built-in bots' tournaments' fixed seed (64 hex digits)
WEBHOOK_SEED = "b0b5" * 16  # the webhook tournaments' (both: the same games)
PARALLEL = 8  # the most a tournament may ask without the admin token
TARGET = 0.25  # platform/in-process with 2 workers
POLL_S = 0.05
STALL_S = 60.0  # a tournament that finishes no game for this long is cancelled and reported
#: the in-process side replays its games until it has been timed this long (or MAX_PASSES times)
MIN_TIMED_S, MAX_PASSES = 1.0, 50

#: the quickest games (BANG! The Dice Game, 3 players: ~50 moves of random play)
WEBHOOK_RULESET, WEBHOOK_PLAYERS, WEBHOOK_GAMES = "bang-dice", 3, 16
WEBHOOK_DELAY_S = 0.05
WEBHOOK_PARALLEL = (1, 8)
WEBHOOK_TARGET = 6.0
WEBHOOK_THREADS = 16
#: for the API (registration) and the workers (each call): loopback bot URLs, the worker's webhook pool
PLATFORM_ENV = {"REFEREE_BOT_ALLOW_PRIVATE": "1", "REFEREE_WEBHOOK_THREADS": str(WEBHOOK_THREADS)}

TIMEOUT: Move = {"type": "timeout"}
START_MS = 1_700_000_000_000  # the in-process clock: a wall-clock-like start, 1 ms more per move


# -- the same games in one process ---------------------------------------------
def game_seed(tournament_seed: str, index: int) -> str:
    """Game ``index``'s secret seed, as ``Tournaments._launch_next`` derives it."""
    return hmac.new(tournament_seed.encode(), f"game:{index}".encode(), hashlib.sha256).hexdigest()


def entrant_names(entrants: list[str]) -> list[str]:
    """The entrants' unique display names, as ``Tournaments.create`` gives them
    (built-in bots: the bot's name, then ``name#2``, ``name#3`` …)."""
    seen: dict[str, int] = {}
    out = []
    for name in entrants:
        n = seen[name] = seen.get(name, 0) + 1
        out.append(name if n == 1 else f"{name}#{n}")
    return out


def seats_of(rs: Ruleset[Any], index: int, entrants: list[str], players: int, seed: str,
             options: Json | None = None) -> list[Json]:
    """The header seats ``{seat, name, bot}`` of tournament game ``index``, as
    ``Tournaments._launch_next`` seats them (public roles first, from the deal
    the game's seed makes)."""
    public = None
    if rs.role_order:
        config = GameConfig(players=players, options=rs.validate_options(dict(options or {}), players))
        public = rs.public_roles(fold(rs, rs.setup(config, Rng(seed.encode()))))
    names = entrant_names(entrants)
    order = seating(index, len(entrants), players, public, rs.role_order)
    return [{"seat": seat, "name": names[e], "bot": entrants[e]} for seat, e in enumerate(order)]


@dataclass(frozen=True, slots=True)
class Played:
    """One game played in process: its final version (events stored), its
    ``move`` records and its result."""

    version: int
    moves: int
    result: Json


def play_game(rs: Ruleset[Any], seats: list[Json], seed: str, *, options: Json | None = None,
              game_id: str = "in-process", custom: bool = True, commitment: str | None = None,
              receipts: Sequence[int] | None = None, trace: list[tuple[int | None, Move]] | None = None
              ) -> Played:
    """Play one game of built-in bots as the platform does, without Redis.

    Mirrors ``GameService.create_game`` (``ruleset.setup`` with the game's
    generator, ``record.deal``), then, until there is a result, one move at a
    time as ``workers.jobs.play_bot_turn`` / ``workers.asking.bot_move`` and
    ``referee.service.deciding.decide`` make it: the bot of the **lowest**
    awaited seat decides (a worker's run of built-in bot turns plays the
    lowest awaited seat, and the scheduler enqueues a job for the lowest
    only) on the seat's view — the envelope of ``GameService.view_of`` plus
    ``seat_view(..., active=True)`` — with ``bot_seed(seed, seat, version)``;
    ``decide_and_fold`` applies it, and ``record.move`` gives the platform
    events the move adds to the version. When nobody is awaited and a rules
    deadline is open, the system ``timeout`` is applied at that deadline (as
    ``referee.games.sim.Table.timeout`` does). Time is a clock that moves
    1 ms per move, so no claim window or reaction deadline ever expires
    unless nobody is awaited. ``receipts``: the receipt time of each move
    instead (a platform game's, from its log: the rules judge a claim by the
    millisecond it arrived, so the clock is part of what makes a game).
    ``trace`` collects ``(actor, move)`` of every move.

    What a caller times: the rules, the views and the bots' choices
    (``bot_seed`` included) and ``record.move`` (it says how many events a
    move stores: needed for the versions the bots' seeds use); not the log's
    hash chain (``record.chained``), canonical JSON nor any storage.
    ``game_id``, ``custom`` and ``commitment`` only fill the view's envelope
    (no bot reads them)."""
    rng = Rng(seed.encode())
    players = len(seats)
    opts = rs.validate_options(dict(options or {}), players)
    produced, state, dealt, opened = record.deal(rs, rs.setup(GameConfig(players=players, options=opts), rng),
                                                 seed)
    version = len(produced)
    envelope = {"id": game_id, "ruleset": rs.name, "ruleset_version": rs.version, "version": version,
                "status": "active", "turn_deadline": None, "seats": seats, "custom": custom,
                "seed_commitment": commitment if commitment is not None else sha256_hex(seed)}
    now, moves = START_MS, 0
    memo = Memo()  # the game's, as the worker's (``referee.engine.statecache``)
    result = rs.result(state)
    while result is None:
        awaited = sorted(rs.to_act(state))
        entry: Json
        if awaited:
            seat: int | None = awaited[0]
            bot = seats[awaited[0]]["bot"]
            if bot == "random":  # as the worker: uniform over the legal moves, no view built
                view, legal = {}, list(rs.legal_moves(state, awaited[0], memo=memo))
            else:
                envelope["version"] = version
                view = {**envelope, **seat_view(rs, state, seat, active=True, memo=memo)}
                legal = view["legal_moves"]
            move = bots.choose(bot, rs.name, view, legal, seed=bot_seed(seed, awaited[0], version))
            now = receipts[moves] if receipts is not None else now + 1
            entry = {"move": move, "rng": rng.position, "by": {"bot": bot}}
        else:
            deadline = rs.deadline(state)
            if deadline is None:
                raise RuntimeError(f"{rs.name}: nobody is awaited and no deadline is open at version {version}")
            seat, move = None, TIMEOUT
            now = receipts[moves] if receipts is not None else max(now + 1, deadline)
            entry = {"move": move, "rng": rng.position}
        if trace is not None:
            trace.append((seat, move))
        events, state = rs.decide_and_fold(state, seat, move, rng=rng, now=now, memo=memo)
        produced, result, opened = record.move(rs, state, seat, entry, events, dealt, opened, seed)
        version += len(produced)
        moves += 1
    return Played(version, moves, result)


def run_in_process(name: str, kind: str, players: int, games: int,
                   tournament_seed: str = SEED) -> dict[str, Any]:
    """The ``games`` games of a tournament of ``kind`` bots, in this process:
    each game as :func:`play_game` plays it, and the rate, timed over whole
    passes over the games repeated until ``MIN_TIMED_S`` (seating and
    seeds are worked out before the clock starts)."""
    rs = registry.get(name)
    entrants = [kind] * players
    prepared = []
    for index in range(games):
        seed = game_seed(tournament_seed, index)
        prepared.append((seats_of(rs, index, entrants, players, seed), seed, sha256_hex(seed)))
    played: list[Played] = []
    passes, seconds = 0, 0.0
    while passes < 1 or (seconds < MIN_TIMED_S and passes < MAX_PASSES):
        start = time.perf_counter()
        played = [play_game(rs, seats, seed, commitment=commitment) for seats, seed, commitment in prepared]
        seconds += time.perf_counter() - start
        passes += 1
    moves, events = sum(p.moves for p in played), sum(p.version for p in played)
    return {"games": [{"version": p.version, "moves": p.moves, "result": p.result, "seats": seats, "seed": seed}
                      for p, (seats, seed, _) in zip(played, prepared)],
            "passes": passes, "seconds": seconds / passes, "games_per_s": games * passes / seconds,
            "moves_per_s": moves * passes / seconds, "events_per_s": events * passes / seconds,
            "moves": moves, "events": events}


# -- the platform ----------------------------------------------------------------
class Api:
    """A keep-alive session to the API; every call must succeed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.session = requests.Session()

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.session.request(method, self.url + path, json=body, headers=headers, timeout=30)
        if not response.ok:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response

    def json(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        return self.call(method, path, body, token).json()


def run_tournament(api: Api, ruleset: str, entrants: list[str], players: int, games: int, parallel: int,
                   seed: str = SEED) -> dict[str, Any]:
    """One tournament over the platform, timed from the POST to the first poll
    that sees it no longer ``running``; then (untimed) each game's final
    version and result (its spectator view) and its ``move`` records (its
    log). A tournament that finishes no game for ``STALL_S`` is cancelled
    and reported ``stalled``."""
    body = {"ruleset": ruleset, "entrants": entrants, "games": games, "parallel": parallel, "seed": seed,
            "players": players}
    start = time.perf_counter()
    created = api.json("POST", "/v1/tournaments", body)
    tid = created["id"]
    finished, last_change = -1, start
    while True:
        tournament = api.json("GET", f"/v1/tournaments/{tid}")
        now = time.perf_counter()
        if tournament["status"] != "running":
            break
        if tournament["games_finished"] != finished:
            finished, last_change = tournament["games_finished"], now
        elif now - last_change > STALL_S:
            api.call("DELETE", f"/v1/tournaments/{tid}", token=created["cancel_token"])
            tournament = api.json("GET", f"/v1/tournaments/{tid}")
            tournament["status"] = "stalled"
            break
        time.sleep(POLL_S)
    seconds = time.perf_counter() - start
    out: list[Json] = []
    for game in tournament["games"]:
        view = api.json("GET", f"/v1/games/{game['id']}")
        row = {"index": game["index"], "id": game["id"], "status": view["status"], "version": view["version"],
               "result": view["result"], "moves": 0, "defaulted": 0, "log_moves": []}
        if view["status"] == "finished":  # the log is public once the game is over
            for line in api.call("GET", f"/v1/games/{game['id']}/log").text.splitlines()[1:]:
                env = json.loads(line)
                if env["type"] == "move":
                    row["moves"] += 1
                    row["defaulted"] += "default" in (env["data"].get("by") or {})
                    row["log_moves"].append((env["actor"], env["data"]["move"], env["at"]))
        out.append(row)
    done = [g for g in out if g["status"] == "finished"]
    moves, events = sum(g["moves"] for g in done), sum(g["version"] for g in done)
    return {"id": tid, "status": tournament["status"], "seconds": seconds, "games": out,
            "finished": len(done), "moves": moves, "events": events,
            "defaulted": sum(g["defaulted"] for g in done),
            "games_per_s": len(done) / seconds, "moves_per_s": moves / seconds, "events_per_s": events / seconds}


def departure(rs: Ruleset[Any], seats: list[Json], seed: str, game: Json) -> str | None:
    """``None`` if :func:`play_game`, given the platform game's receipt times,
    plays exactly that game (the same moves by the same seats, the same
    version and result); else where it departs from it."""
    log_moves = game["log_moves"]
    trace: list[tuple[int | None, Move]] = []
    failure: Exception | None = None
    played: Played | None = None
    try:
        played = play_game(rs, seats, seed, receipts=[at for _, _, at in log_moves], trace=trace)
    except Exception as exc:  # a refusal or running out of receipts: a game that went elsewhere
        failure = exc
    for k, ((actor, move), (p_actor, p_move, _)) in enumerate(zip(trace, log_moves)):
        if (actor, move) != (p_actor, p_move):
            return f"move {k}: the platform's seat {p_actor} played {p_move}, in process seat {actor} played {move}"
    if failure is not None:
        return f"after the platform's {len(log_moves)} moves, in process: {failure!r}"
    if played is None or (played.version, played.result) != (game["version"], game["result"]):
        return (f"the same {len(log_moves)} moves, yet version {played and played.version} and result "
                f"{played and played.result} against {game['version']} and {game['result']}")
    return None


def same_games(rs: Ruleset[Any], in_process: dict[str, Any], platform: dict[str, Any]) -> dict[str, Any]:
    """``same``: how many platform games ended exactly as the in-process ones
    (version and result); ``replayed``: how many :func:`play_game` reproduces
    exactly when given the platform game's receipt times (the in-process
    player mirrors the platform; only the clock differs), and where the
    others depart. Drops the platform games' ``log_moves`` once used."""
    differ, replayed, departures = [], 0, {}
    for game in platform["games"]:
        mine = in_process["games"][game["index"]]
        if (game["version"], game["result"]) != (mine["version"], mine["result"]):
            differ.append(game["index"])
        where = departure(rs, mine["seats"], mine["seed"], game) if game["status"] == "finished" else "unfinished"
        if where is None:
            replayed += 1
        else:
            departures[game["index"]] = where
        del game["log_moves"]
    return {"same": len(platform["games"]) - len(differ), "of": len(in_process["games"]), "differ": differ,
            "replayed": replayed, "departures": departures}


# -- a slow webhook bot ------------------------------------------------------------
class SlowBot:
    """A local webhook bot on a free loopback port: each request's signature
    is verified (the secret is set once registered), then the bot sleeps
    ``delay_s`` and answers the ``random`` policy's move, seeded by the
    game's seed commitment, the seat and the version: a retry gets the same
    answer, and two tournaments with the same seed play the same games.
    Counts the calls and the most it was answering at once."""

    def __init__(self, delay_s: float = WEBHOOK_DELAY_S) -> None:
        self.delay_s = delay_s
        self.secret = ""
        self.calls = self.refused = self.in_flight = self.peak = 0
        self._lock = threading.Lock()
        bot = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                if not verify(bot.secret, self.headers.get("X-Referee-Timestamp", ""), body,
                              self.headers.get("X-Referee-Signature", "")):
                    with bot._lock:
                        bot.refused += 1
                    self._send(401, b'{"error": "bad signature"}')
                    return
                with bot._lock:
                    bot.calls += 1
                    bot.in_flight += 1
                    bot.peak = max(bot.peak, bot.in_flight)
                try:
                    time.sleep(bot.delay_s)
                    turn = json.loads(body)
                    seed = f"{turn['view']['seed_commitment']}:{turn['seat']}:{turn['version']}"
                    move = bots.choose("random", turn["ruleset"], turn["view"], turn["legal_moves"], seed=seed)
                    self._send(200, json.dumps({"move": move}).encode())
                finally:
                    with bot._lock:
                        bot.in_flight -= 1

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 128  # 8 games' calls at once must not wait on the listen backlog

        self.port = free_port()
        self.server = Server(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def reset(self) -> None:
        with self._lock:
            self.calls = self.refused = self.peak = 0

    def __enter__(self) -> SlowBot:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def makespan(lengths: list[int], slots: int) -> int:
    """How long games of ``lengths`` moves take, a move a unit of time, when a
    tournament plays ``slots`` at once and launches the next game (in order)
    as each one ends: ``sum(lengths) / makespan`` is the most ``parallel:
    slots`` can gain over ``parallel: 1`` on these very games."""
    ends = [0] * min(slots, len(lengths))
    for length in lengths:
        first = min(range(len(ends)), key=ends.__getitem__)
        ends[first] += length
    return max(ends, default=0)


def run_webhook(api: Api, games: int = WEBHOOK_GAMES) -> dict[str, Any]:
    """The slow webhook bot in every seat: a tournament of ``games`` with
    ``parallel`` 1, then 8, with the same seed (the same games), on the
    platform ``api`` fronts."""
    out: dict[str, Any] = {"ruleset": WEBHOOK_RULESET, "players": WEBHOOK_PLAYERS, "games": games,
                           "delay_ms": WEBHOOK_DELAY_S * 1000, "runs": {}}
    with SlowBot() as bot:
        registered = api.json("POST", "/v1/bots", {"name": "slow-bot", "url": bot.url,
                                                   "rulesets": [WEBHOOK_RULESET], "seating": "public"})
        bot.secret = registered["secret"]
        for parallel in WEBHOOK_PARALLEL:
            bot.reset()
            run = run_tournament(api, WEBHOOK_RULESET, [registered["id"]] * WEBHOOK_PLAYERS, WEBHOOK_PLAYERS,
                                 games, parallel, seed=WEBHOOK_SEED)
            run.update(calls=bot.calls, refused=bot.refused, peak=bot.peak)
            for game in run["games"]:
                del game["log_moves"]
            out["runs"][parallel] = run
    low, high = (out["runs"][p]["games_per_s"] for p in WEBHOOK_PARALLEL)
    out["ratio"] = high / low if low else float("inf")
    ended = [{g["index"]: (g["version"], g["result"]) for g in out["runs"][p]["games"]} for p in WEBHOOK_PARALLEL]
    out["same"] = sum(1 for index, end in ended[0].items() if ended[1].get(index) == end)
    lengths = [g["moves"] for g in sorted(out["runs"][WEBHOOK_PARALLEL[0]]["games"], key=lambda g: g["index"])]
    out["ceiling"] = sum(lengths) / makespan(lengths, WEBHOOK_PARALLEL[1]) if lengths else 0.0
    return out


# -- the benchmark -------------------------------------------------------------------
def tables(games: int) -> list[tuple[str, str, int, int]]:
    """(ruleset, bot, players, games) of every row: each ruleset with each
    built-in bot it has, ``games`` games (fewer where ``GAMES_DIVISOR`` says)."""
    rows = []
    for name in registry.names():
        rs = registry.get(name)
        players = PLAYERS.get(name, rs.min_players)
        for kind in KINDS:
            if kind == "heuristic" and registry.heuristic(name) is None:
                continue
            rows.append((name, kind, players, max(1, games // GAMES_DIVISOR.get((name, kind), 1))))
    return rows


def run(games: int = DEFAULT_GAMES, workers: tuple[int, ...] = (1, 2)) -> dict[str, Any]:
    """Every row in process, then over the platform with each worker count
    (one platform per count: Redis, the API, the workers), each tournament
    right after the same games played in process again (its ratio's
    denominator); the webhook tournaments on the 1-worker platform."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for name, kind, players, n in tables(games):
        rows[(name, kind)] = {"ruleset": name, "bot": kind, "players": players, "games": n,
                              "in_process": run_in_process(name, kind, players, n), "platform": {}}
    webhook: dict[str, Any] | None = None
    for count in workers:
        with live_platform(count, PLATFORM_ENV) as (url, _redis_url):
            api = Api(url)
            for (name, kind), row in rows.items():
                # the rate in process again, just before: on a shared machine it moves by a fifth within
                # minutes, so each ratio compares two rates measured side by side
                beside = run_in_process(name, kind, row["players"], row["games"])
                platform = run_tournament(api, name, [kind] * row["players"], row["players"], row["games"],
                                          min(PARALLEL, row["games"]))
                platform["same"] = same_games(registry.get(name), row["in_process"], platform)
                platform["in_process_moves_per_s"] = beside["moves_per_s"]
                platform["ratio"] = platform["moves_per_s"] / beside["moves_per_s"]
                row["platform"][count] = platform
            if count == 1:
                webhook = run_webhook(api)
    return {"workers": list(workers), "rows": list(rows.values()), "webhook": webhook,
            "target": TARGET, "webhook_target": WEBHOOK_TARGET}


def _met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def _fraction(counts: dict[str, Any], key: str) -> str:
    return f"{counts[key]}/{counts['of']}"


def report(result: dict[str, Any]) -> None:
    """The built-in rows (in process | each worker count), notes on games that
    differ, then the webhook rows."""
    counts = result["workers"]
    print("Tournaments over the platform (referee serve + N referee worker + Redis) vs the same games in one "
          "process")
    print(f"  parallel {PARALLEL}; mv = the logs' `move` records (bot moves and system timeouts); "
          "beside = in-process mv/s of the same games measured just before that tournament; "
          "ratio = platform mv/s / beside")
    print("  same games: ended at the in-process game's version and result; replayed: reproduced move for move "
          "in process given the log's receipt times")
    head = f"  {'ruleset':12s} {'bots':9s} {'players':>7s} {'games':>5s}  {'in-process g/s':>14s} {'mv/s':>7s}"
    for count in counts:
        label = f"{count} worker{'s' if count > 1 else ''} g/s"
        head += f" | {label:>15s} {'mv/s':>6s} {'beside':>6s} {'ratio':>6s}"
    target = f"target>={result['target']}"
    head += f"  {target:>12s}  {'same games':>{6 * len(counts)}s}  replayed"
    print(head)
    last = counts[-1]
    for row in result["rows"]:
        ip = row["in_process"]
        line = (f"  {row['ruleset']:12s} {row['bot']:9s} {row['players']:7d} {row['games']:5d}  "
                f"{ip['games_per_s']:14.1f} {ip['moves_per_s']:7.0f}")
        for count in counts:
            p = row["platform"][count]
            line += (f" | {p['games_per_s']:15.2f} {p['moves_per_s']:6.0f} {p['in_process_moves_per_s']:6.0f}"
                     f" {p['ratio']:6.3f}")
        line += f"  {_met(row['platform'][last]['ratio'] >= result['target']):>12s}  "
        line += f"{' '.join(_fraction(row['platform'][c]['same'], 'same') for c in counts):>{6 * len(counts)}s}  "
        line += " ".join(_fraction(row["platform"][c]["same"], "replayed") for c in counts)
        print(line)
    for row in result["rows"]:
        for count in counts:
            p = row["platform"][count]
            same = p["same"]
            notes = []
            if p["status"] != "finished":
                notes.append(f"tournament {p['status']} ({p['finished']}/{row['games']} games finished)")
            if same["differ"]:
                reproduced = [i for i in same["differ"] if i not in same["departures"]]
                notes.append(f"games {same['differ']} ended otherwise than in process"
                             + (f" ({len(reproduced)} of them reproduced with the platform's receipt times: "
                                "the clock made the difference)" if reproduced else ""))
            for index, where in sorted(same["departures"].items())[:3]:
                notes.append(f"game {index} not reproduced: {where}")
            if p["defaulted"]:
                notes.append(f"{p['defaulted']} default moves")
            if notes:
                print(f"    {row['ruleset']} {row['bot']}, {count} worker{'s' if count > 1 else ''}: "
                      + "; ".join(notes))
    webhook = result["webhook"]
    if webhook is None:
        return
    print(f"Webhook bot tournaments: a local bot answering after {webhook['delay_ms']:.0f} ms in every seat, "
          f"{webhook['ruleset']} {webhook['players']} players, {webhook['games']} games, 1 worker "
          f"(REFEREE_WEBHOOK_THREADS={WEBHOOK_THREADS})")
    print(f"  {'parallel':>8s} {'seconds':>8s} {'g/s':>7s} {'mv/s':>7s} {'bot calls':>9s} {'peak at once':>12s} "
          f"{'defaults':>8s}")
    for parallel, run_ in webhook["runs"].items():
        print(f"  {parallel:8d} {run_['seconds']:8.2f} {run_['games_per_s']:7.2f} {run_['moves_per_s']:7.1f} "
              f"{run_['calls']:9d} {run_['peak']:12d} {run_['defaulted']:8d}"
              + (f"  tournament {run_['status']}" if run_["status"] != "finished" else "")
              + (f"  {run_['refused']} requests with a bad signature" if run_["refused"] else ""))
    low, high = WEBHOOK_PARALLEL
    print(f"  parallel {high} / parallel {low}: {webhook['ratio']:.2f}x games/s (target >= "
          f"{result['webhook_target']:.0f}x: {_met(webhook['ratio'] >= result['webhook_target'])}); "
          f"the same games in both: {webhook['same']}/{webhook['games']}")
    print(f"  (the ceiling for these {webhook['games']} games, were every move as long: {webhook['ceiling']:.2f}x; "
          "their lengths differ and the last ones run alone)")


if __name__ == "__main__":
    report(run())
