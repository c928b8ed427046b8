"""The failover run (issue 21, Deliver 4): the whole scaled-out topology —
a 3-master + 3-replica Redis Cluster for the games, a standalone queue Redis,
two ``referee serve`` processes behind haproxy, two ``referee worker``s —
plays 200 concurrent games of every ruleset: all-human games and games of
humans and built-in bots, driven by client threads through haproxy, and
all-bot games played by the workers. Mid-run one master (one that holds
unfinished games' slots), one referee and one worker are killed with
SIGKILL. Then:

- every game finishes (the bots' turns through the remaining worker, whose
  sweeper re-enqueues what the dead one held, after ``REFEREE_STALL_S``);
- every move a client saw acknowledged (201) is in its game's log, event
  for event (seq and hash), so the failover lost none;
- every log audits clean offline (``referee.audit.audit_lines``);
- no response was a 500: a 503 carries ``Retry-After`` and the client sends
  the same move again under the same ``Idempotency-Key`` after it; a 502 from
  haproxy (a referee killed while it held the request) and a connection error
  are retried the same way; a 409 makes the client read the view again.

The counts are printed (games, moves acknowledged, 503s seen, acknowledged
moves lost, time). Skipped, loudly, without haproxy. Nothing races the wall
clock: every wait polls until a generous deadline that only bounds a failure.

The run, here, is made twice, a file each (so two workers run them side by
side): ``test_failover_referee_retries.py`` (the referee rides the failover
out) and ``test_failover_client_retries.py`` (503s reach the clients)."""
from __future__ import annotations

import itertools
import json
import queue
import random
import re
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests

from referee.audit import audit_lines
from referee.engine.rng import Rng
from referee.games import registry
from referee.ops.topology import Topology
from tests.cluster.conftest import require_haproxy

ENV = {"REFEREE_RATE_LIMIT": "off", "REFEREE_STALL_S": "2"}
#: how long the referee itself retries a Redis call through a failover before it answers 503
#: (REFEREE_REDIS_FAILOVER_S): the default 5 s outlasts the failover (~2 s), so the referee rides it out and
#: the clients see no 503; 0.5 s lets 503s reach the clients, which send the move again under its key
FAILOVER_S = {"referee-retries": None, "client-retries": "0.5"}
THREADS = 24  # client threads, sharing every human-driven game
REQUEST_TIMEOUT_S = 30.0  # one HTTP request (haproxy's server timeout is 65 s)
RETRY_BOUND = 120  # attempts of one request through 503s, 502s and connection errors (each waits >= 0.5 s)
KILL_AT_MOVES = 2500  # human moves acknowledged before the kills: about a third of them
FINISH_DEADLINE_S = 300.0  # from the kills until every game is over (a bound on a failure only)
DRIVE_DEADLINE_S = 480.0  # from the start until the human drivers give up (likewise)
IDLE_POLL_S = 0.25  # a game that awaits no human seat (bots, a deadline) is looked at again after this

#: games whose every seat is a client; a client plays these (heuristic, else random) moves
HUMAN_CHOOSER = {"bang": "heuristic", "bang-faceoff": "heuristic", "bang-dice": "random", "bluffaneer": "random"}
PLAYERS = {"bang": [4, 5, 6, 7], "bang-faceoff": [2], "bang-dice": [3, 4, 5, 6, 7, 8], "bluffaneer": [3, 4, 5, 6]}
HUMAN_PLAYERS = {"bang": [4, 5], "bang-faceoff": [2], "bang-dice": [3, 4, 5, 6], "bluffaneer": [3, 4, 5, 6]}
#: (ruleset, games) of each kind: 200 in all
ALL_HUMAN = [("bang-faceoff", 12), ("bluffaneer", 20), ("bang-dice", 20), ("bang", 8)]
MIXED = [("bang-faceoff", 10), ("bluffaneer", 10), ("bang-dice", 10), ("bang", 10)]
BOTS_FIRST = [("bang-faceoff", 15), ("bluffaneer", 15), ("bang-dice", 15), ("bang", 15)]
BOTS_AT_KILL = [("bang-faceoff", 10), ("bluffaneer", 10), ("bang-dice", 10), ("bang", 10)]  # in flight at the kills
#: built-in bots of all-bot and mixed games (random Face Off games run to thousands of moves)
BOT_KINDS = {"bang": ["random", "heuristic"], "bang-faceoff": ["heuristic"], "bang-dice": ["random", "heuristic"],
             "bluffaneer": ["random", "heuristic"]}
#: refusals a client meets when its view went stale between its read and its move (re-read, go on)
STALE = {409}
#: a rule's refusal of a move sent after the rules' own deadline, which the workers' scheduler has not
#: yet fired (a Bluffaneer claim after its window, F18): the client waits and reads the view again
LATE = {"claim_window_expired"}


@dataclass
class Game:
    """One game of the run, as its client knows it."""

    kind: str  # human, mixed, bots
    ruleset: str
    seats: list[dict[str, Any]]  # the create body's seats
    id: str = ""
    tokens: list[str] = field(default_factory=list)
    humans: list[int] = field(default_factory=list)
    hint: int = 0  # the seat whose view is read next
    moves: int = 0  # moves of this client acknowledged
    done: bool = False
    result: Any = None
    rng: random.Random = field(default_factory=random.Random)


@dataclass
class Ack:
    """A 201 a client saw: the game, the seat, the version and every event it named."""

    game: str
    seat: int
    version: int
    events: list[tuple[int, str]]  # (seq, hash)
    attempts: int
    at: float  # time.monotonic() when it came


class Stats:
    """Everything the clients saw, counted under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[tuple[str, int]] = Counter()  # (request kind, status)
        self.conn_errors: Counter[tuple[str, str]] = Counter()  # (request kind, exception)
        self.conn_error_examples: dict[str, str] = {}
        self.conn_error_times: list[float] = []  # time.monotonic() of each
        self.unavailable_without_retry_after = 0
        self.acks: list[Ack] = []
        self.acked_after_retry = 0
        self.stale = 0
        self.late = 0
        self.latest_ms = 0  # how far past a deadline a LATE refusal came (the scheduler had not fired it yet)
        self.refused: list[str] = []  # unexpected 4xx: a client's bug or the referee's
        self.failures: list[str] = []  # 500s, exhausted retries, exceptions in a driver
        self.server_errors: list[str] = []

    def status(self, kind: str, response: requests.Response) -> None:
        with self.lock:
            self.statuses[(kind, response.status_code)] += 1
            if response.status_code == 503 and not response.headers.get("Retry-After"):
                self.unavailable_without_retry_after += 1
            if response.status_code == 500 or response.status_code > 504:
                self.server_errors.append(f"{kind} {response.request.method} {response.url} -> "
                                          f"{response.status_code}: {response.text[:500]}")

    def conn_error(self, kind: str, exc: Exception) -> None:
        with self.lock:
            self.conn_errors[(kind, type(exc).__name__)] += 1
            self.conn_error_examples.setdefault(type(exc).__name__, repr(exc)[:300])
            self.conn_error_times.append(time.monotonic())

    def count(self, status: int) -> int:
        return sum(n for (_, s), n in self.statuses.items() if s == status)

    @property
    def moves_acked(self) -> int:
        return len(self.acks)


_local = threading.local()


def _session() -> requests.Session:
    if not hasattr(_local, "session"):
        _local.session = requests.Session()
    session: requests.Session = _local.session
    return session


def call(stats: Stats, kind: str, method: str, url: str, *, token: str | None = None,
         retryable: bool = True, **kwargs: Any) -> requests.Response:
    """One request as a careful client sends it: a 503 (after its
    ``Retry-After``), a 502/504 from haproxy or a connection error is sent
    again, unchanged (a move keeps its Idempotency-Key), up to
    ``RETRY_BOUND`` times; any other answer is returned."""
    headers = dict(kwargs.pop("headers", {}))
    if token:
        headers["Authorization"] = f"Bearer {token}"
    last: str = ""
    for attempt in range(1, RETRY_BOUND + 1):
        try:
            response = _session().request(method, url, headers=headers, timeout=REQUEST_TIMEOUT_S, **kwargs)
        except requests.RequestException as exc:
            stats.conn_error(kind, exc)
            _local.session = requests.Session()  # a fresh connection pool
            last = repr(exc)
            if not retryable:
                raise
            time.sleep(0.5)
            continue
        stats.status(kind, response)
        response.attempts = attempt  # type: ignore[attr-defined]
        if response.status_code not in (502, 503, 504) or not retryable:
            return response
        last = f"{response.status_code} {response.text[:300]}"
        retry_after = response.headers.get("Retry-After")
        time.sleep(max(0.5, float(retry_after)) if retry_after and retry_after.isdigit() else 0.5)
    raise AssertionError(f"{method} {url}: still unavailable after {RETRY_BOUND} attempts (last: {last})")


# -- the games ---------------------------------------------------------------------------


def plan(rng: random.Random) -> tuple[list[Game], list[Game]]:
    """The games created at the start, and the all-bot games created at the kills."""
    first: list[Game] = []
    cycle = {name: itertools.cycle(sizes) for name, sizes in HUMAN_PLAYERS.items()}
    for ruleset, count in ALL_HUMAN:
        for _i in range(count):
            n = next(cycle[ruleset])
            first.append(Game("human", ruleset, [{"name": f"h{s}"} for s in range(n)]))
    cycle = {name: itertools.cycle(sizes) for name, sizes in PLAYERS.items()}
    for ruleset, count in MIXED:
        for _i in range(count):
            n = next(cycle[ruleset])
            humans = set(rng.sample(range(n), max(1, min(n - 1, rng.randint(1, 2)))))
            seats = [{"name": f"h{s}"} if s in humans else {"bot": rng.choice(BOT_KINDS[ruleset])} for s in range(n)]
            first.append(Game("mixed", ruleset, seats))

    def bots(spec: list[tuple[str, int]]) -> list[Game]:
        made = []
        for ruleset, count in spec:
            for _i in range(count):
                n = next(cycle[ruleset])
                made.append(Game("bots", ruleset, [{"bot": rng.choice(BOT_KINDS[ruleset])} for _ in range(n)]))
        return made

    return first + bots(BOTS_FIRST), bots(BOTS_AT_KILL)


def create(stats: Stats, base: str, game: Game, index: int) -> None:
    response = call(stats, "create", "POST", base + "/v1/games", retryable=False,
                    json={"ruleset": game.ruleset, "seats": game.seats, "seed": f"failover-{index}"})
    assert response.status_code == 201, f"creating {game.ruleset} {game.seats}: {response.status_code} {response.text}"
    body = response.json()
    game.id = body["id"]
    game.tokens = [seat["token"] for seat in body["seats"]]
    game.humans = [s for s, seat in enumerate(game.seats) if "bot" not in seat]
    game.hint = game.humans[0] if game.humans else 0
    game.rng = random.Random(game.id)


def choose(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """The client's move: the built-in heuristic where it is the chooser (Face
    Off and BANG!, whose random games run long), else one at random."""
    legal = view["legal_moves"]
    if HUMAN_CHOOSER[game.ruleset] == "heuristic":
        heuristic = registry.heuristic(game.ruleset)
        if heuristic is not None:
            move: dict[str, Any] = heuristic(view, legal, Rng(f"{game.id}:{view['version']}".encode()))
            return move
    picked: dict[str, Any] = game.rng.choice(legal)
    return picked


class Driver:
    """The client threads: each takes the next game that is ready from one
    queue, makes one move in it (or finds it waiting on bots), and puts it
    back; so every human-driven game is in flight at once."""

    def __init__(self, base: str, stats: Stats, games: list[Game], deadline: float) -> None:
        self.base, self.stats, self.deadline = base, stats, deadline
        self.ready: queue.PriorityQueue[tuple[float, int, Game]] = queue.PriorityQueue()
        self.order = itertools.count()
        self.left = len(games)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        for game in games:
            self.put(game, 0.0)
        self.threads = [threading.Thread(target=self.run, name=f"client-{i}", daemon=True) for i in range(THREADS)]

    def put(self, game: Game, delay: float) -> None:
        self.ready.put((time.monotonic() + delay, next(self.order), game))

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def finished(self) -> bool:
        with self.lock:
            return self.left == 0

    def _retire(self, game: Game) -> None:
        game.done = True
        with self.lock:
            self.left -= 1

    def run(self) -> None:
        while not self.stop.is_set() and not self.finished():
            try:
                at, _, game = self.ready.get(timeout=0.2)
            except queue.Empty:
                continue
            wait = at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            if time.monotonic() > self.deadline:
                with self.stats.lock:
                    self.stats.failures.append(f"{game.kind} {game.ruleset} game {game.id}: not over when the "
                                               f"drivers' deadline passed ({game.moves} moves)")
                self._retire(game)
                continue
            try:
                again = self.step(game)
            except Exception:
                with self.stats.lock:
                    self.stats.failures.append(f"{game.kind} {game.ruleset} game {game.id}:\n"
                                               f"{traceback.format_exc()}")
                self._retire(game)
                continue
            if again is None:
                self._retire(game)
            else:
                self.put(game, again)

    def view(self, game: Game, seat: int) -> dict[str, Any]:
        response = call(self.stats, "view", "GET", f"{self.base}/v1/games/{game.id}", token=game.tokens[seat])
        assert response.status_code == 200, f"view of {game.id} as seat {seat}: {response.status_code} {response.text}"
        body: dict[str, Any] = response.json()
        return body

    def step(self, game: Game) -> float | None:
        """One move of an awaited human seat; the delay before the next
        step, or None once the game is over."""
        view = self.view(game, game.hint)
        if view["result"] is not None:
            game.result = view["result"]
            return None
        awaited = [s for s in view["to_act"] if s in game.humans]
        if not awaited:
            return IDLE_POLL_S  # bots' turns (the workers play them) or a deadline the scheduler fires
        seat = game.rng.choice(awaited)
        if seat != view["seat"]:
            view = self.view(game, seat)
            if view["result"] is not None or seat not in view["to_act"]:
                return 0.0
        game.hint = game.rng.choice(game.humans)
        if not view["legal_moves"]:
            return IDLE_POLL_S
        key = f"{game.id}:{seat}:{view['version']}:{uuid.uuid4().hex[:12]}"
        response = call(self.stats, "move", "POST", f"{self.base}/v1/games/{game.id}/moves", token=game.tokens[seat],
                        headers={"Idempotency-Key": key},
                        json={"move": choose(game, view), "expected_version": view["version"]})
        attempts = getattr(response, "attempts", 1)
        if response.status_code == 201:
            body = response.json()
            ack = Ack(game.id, seat, int(body["version"]), [(int(e["seq"]), str(e["hash"])) for e in body["events"]],
                      attempts, time.monotonic())
            with self.stats.lock:
                self.stats.acks.append(ack)
                self.stats.acked_after_retry += attempts > 1
            game.moves += 1
            return 0.0
        if response.status_code in STALE:  # another seat, a bot or a deadline moved first: read it again
            with self.stats.lock:
                self.stats.stale += 1
            return 0.0
        if response.status_code == 410:  # over meanwhile (a bot's or a deadline's last move)
            return 0.0
        if response.status_code == 422 and response.json().get("code") in LATE:
            found = re.search(r"received at (\d+), the window's deadline was (\d+)", response.text)
            with self.stats.lock:
                self.stats.late += 1
                if found:
                    self.stats.latest_ms = max(self.stats.latest_ms, int(found[1]) - int(found[2]))
            return IDLE_POLL_S
        with self.stats.lock:
            self.stats.refused.append(f"{game.ruleset} {game.id} seat {seat} v{view['version']} "
                                      f"(attempt {attempts}): {response.status_code} {response.text[:400]}")
        return 0.0


def public_view(stats: Stats, base: str, game: Game) -> dict[str, Any]:
    response = call(stats, "view", "GET", f"{base}/v1/games/{game.id}")
    assert response.status_code == 200, f"view of {game.id}: {response.status_code} {response.text}"
    body: dict[str, Any] = response.json()
    return body


def wait_bots(stats: Stats, base: str, games: list[Game], until: Callable[[], bool], deadline: float) -> list[Game]:
    """Poll the all-bot games until each is over, ``until()`` holds for the
    rest of the run, or the deadline passes; the games still not over."""
    pending = [g for g in games if not g.done]
    while (pending or not until()) and time.monotonic() < deadline:
        still = []
        for game in pending:
            view = public_view(stats, base, game)
            if view["result"] is None:
                still.append(game)
            else:
                game.result, game.done = view["result"], True
        pending = still
        time.sleep(0.5)
    return pending


def slot_owner(topo: Topology, game: Game) -> int:
    assert topo.cluster is not None
    return topo.cluster.node_of_key(f"game:{{{game.id}}}:meta").port


def check_log(stats: Stats, base: str, game: Game, acks: list[Ack]) -> tuple[list[str], list[str]]:
    """The game's log, read through haproxy: (acknowledged events missing
    from it, the offline audit's complaints)."""
    response = call(stats, "log", "GET", f"{base}/v1/games/{game.id}/log")
    if response.status_code != 200:
        return [], [f"{game.id}: log answered {response.status_code} {response.text[:300]}"]
    lines = [line for line in response.text.splitlines() if line.strip()]
    by_seq: dict[int, str] = {}
    for line in lines:
        event = json.loads(line)
        if "seq" in event:  # the header has none
            by_seq[int(event["seq"])] = str(event["hash"])
    lost = [f"{game.ruleset} {game.id} seat {a.seat} v{a.version} seq {seq} (acked after {a.attempts} attempt(s)): "
            f"{'absent' if seq not in by_seq else 'another event'}"
            for a in acks for seq, digest in a.events if by_seq.get(seq) != digest]
    report = audit_lines(lines)
    problems = [] if report.get("ok") else [f"{game.ruleset} {game.id}: {json.dumps(report)[:1500]}"]
    return lost, problems


@contextmanager
def topology(failover_s: str | None) -> Iterator[Topology]:
    """The topology of the run, the referee retrying a Redis call through a
    failover for ``failover_s`` (``REFEREE_REDIS_FAILOVER_S``; its default if None)."""
    require_haproxy()
    env = {**ENV, **({"REFEREE_REDIS_FAILOVER_S": failover_s} if failover_s else {})}
    with Topology(referees=2, workers=2, env=env) as started:
        yield started


def _tails(topo: Topology) -> str:
    children = [c for c in [topo.haproxy, *topo.referees, *topo.workers] if c is not None]
    return "\n".join(f"--- {c.describe()}\n{c.log_tail(4000)}" for c in children)


def ride_out(topo: Topology, capsys: pytest.CaptureFixture[str]) -> None:
    """The run: 200 games, the kills mid-run, then every check of the module's docstring."""
    started = time.monotonic()
    stats = Stats()
    rng = random.Random(21)
    first, at_kill = plan(rng)
    for index, game in enumerate(first):
        create(stats, topo.url, game, index)
    driven = [g for g in first if g.kind != "bots"]
    bot_games = [g for g in first if g.kind == "bots"]
    driver = Driver(topo.url, stats, driven, started + DRIVE_DEADLINE_S)
    driver.start()
    report: list[str] = [f"topology up: {topo.timings}", f"created {len(first)} games in "
                         f"{time.monotonic() - started:.1f} s; {len(at_kill)} all-bot games come at the kills"]

    # -- mid-run: the kills --------------------------------------------------------------
    deadline = started + DRIVE_DEADLINE_S
    while stats.moves_acked < KILL_AT_MOVES and not driver.finished() and time.monotonic() < deadline:
        time.sleep(0.1)
    moves_before = stats.moves_acked
    for index, game in enumerate(at_kill):
        create(stats, topo.url, game, len(first) + index)
    bot_games += at_kill
    assert topo.cluster is not None
    unfinished = Counter(slot_owner(topo, g) for g in driven + at_kill if not g.done)
    victim_port = unfinished.most_common(1)[0][0]
    victim_games = {g.id for g in driven + at_kill if slot_owner(topo, g) == victim_port}
    named = int(topo.games_url.rsplit(":", 1)[1].split("/")[0])
    killed_at = time.monotonic()
    victim = topo.kill_master(victim_port)
    referee = topo.kill_referee(0)
    worker = topo.kill_worker(0)
    report.append(f"at {killed_at - started:.1f} s, {moves_before} human moves acknowledged: SIGKILL to master "
                  f":{victim.port} (slots of {unfinished[victim_port]} unfinished games"
                  f"{', the node REDIS_URL names' if victim.port == named else ''}), {referee.name}, {worker.name}")
    failover_s = topo.wait_failover(60.0)
    report.append(f"failover: a replica took over {time.monotonic() - killed_at:.1f} s after the kill "
                  f"({failover_s:.1f} s of polling)")

    # -- every game finishes -------------------------------------------------------------
    finish_by = killed_at + FINISH_DEADLINE_S
    stuck_bots = wait_bots(stats, topo.url, bot_games, driver.finished, finish_by)
    if not driver.finished():
        driver.stop.set()
    for thread in driver.threads:
        thread.join(timeout=REQUEST_TIMEOUT_S * 2)
    all_over = time.monotonic()
    stuck = [g for g in driven + bot_games if not g.done]
    stuck_detail = []
    for game in stuck[:10]:
        view = public_view(stats, topo.url, game)
        stuck_detail.append(f"{game.kind} {game.ruleset} {game.id} seats {game.seats}: version {view['version']} "
                            f"to_act {view['to_act']} deadline {view['deadline']} pending "
                            f"{json.dumps(view.get('pending'))[:300]}")
    diagnostics = _tails(topo) if (stuck or stats.failures or stats.server_errors or stats.refused) else ""

    # -- every acknowledged move is in its log; every log audits clean -----------------------
    by_game: dict[str, list[Ack]] = {}
    for ack in stats.acks:
        by_game.setdefault(ack.game, []).append(ack)
    lost: list[str] = []
    unclean: list[str] = []
    for game in driven + bot_games:
        if game.done and game.result is not None:
            missing, problems = check_log(stats, topo.url, game, by_game.get(game.id, []))
            lost += missing
            unclean += problems
    finished = time.monotonic()

    games = driven + bot_games
    kinds = Counter(f"{g.kind} {g.ruleset}" for g in games)
    report += [
        f"games: {len(games)} ({len([g for g in games if g.result is not None])} finished): "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
        f"moves acknowledged to clients: {stats.moves_acked} ({moves_before} before the kills; "
        f"{stats.acked_after_retry} after a retry under the same Idempotency-Key)",
        f"moves acknowledged after the kills in the {len(victim_games)} games on the killed master's slots: "
        f"{sum(1 for a in stats.acks if a.at > killed_at and a.game in victim_games)}",
        f"503s seen: {stats.count(503)} (without Retry-After: {stats.unavailable_without_retry_after}); "
        f"502s {stats.count(502)}, 504s {stats.count(504)}; connection errors: "
        f"{dict(stats.conn_errors) or 0}; 409s (view re-read): {stats.stale}; claims after their window "
        f"(422 claim_window_expired, up to {stats.latest_ms} ms late): {stats.late}",
        f"statuses: {dict(sorted(stats.statuses.items()))}",
        f"connection errors, e.g.: {stats.conn_error_examples}, at "
        f"{sorted(round(t - killed_at, 2) for t in stats.conn_error_times)} s from the kills",
        f"500s: {len(stats.server_errors)}; unexpected refusals: {len(stats.refused)}; driver failures: "
        f"{len(stats.failures)}; games not over: {len(stuck)}",
        f"acknowledged moves lost: {len(lost)}; logs not clean: {len(unclean)} of {len(games)}",
        f"time: {finished - started:.1f} s (kills at {killed_at - started:.1f} s, every game over "
        f"{all_over - killed_at:.1f} s after them, logs read and audited in {finished - all_over:.1f} s)",
    ]
    with capsys.disabled():
        print("\nfailover run:\n  " + "\n  ".join(report), flush=True)

    detail = "\n".join(report)
    assert not stats.server_errors, "\n".join(stats.server_errors[:10]) + "\n" + diagnostics
    assert not stats.failures, "\n".join(stats.failures[:5]) + "\n" + diagnostics
    assert not stuck, f"{len(stuck)} games never finished:\n" + "\n".join(stuck_detail) + "\n" + diagnostics
    assert not stuck_bots
    assert lost == [], f"{len(lost)} acknowledged moves lost:\n" + "\n".join(lost[:20]) + "\n" + detail
    assert unclean == [], "\n".join(unclean[:5])
    assert not stats.refused, "\n".join(stats.refused[:10]) + "\n" + diagnostics
    assert stats.unavailable_without_retry_after == 0, detail
    assert stats.moves_acked > KILL_AT_MOVES and moves_before >= KILL_AT_MOVES, detail  # the kills came mid-run
    assert not referee.alive and not worker.alive and not victim.alive
