"""The one place that joins the rules and the store (DESIGN.md, Architecture):
load → fold → decide → append → respond. Flask views and RQ jobs both call it,
so a bot can never do what a client cannot.
"""
from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Protocol

from referee.bots import BUILT_IN
from referee.errors import ApiError, game_over, not_found, version_conflict
from referee.games import registry
from referee.engine import LOG_FORMAT, canonical, canonical_bytes, header_hash, record, sha256_hex
from referee.engine.platform import SECRETS_OPENED
from referee.engine.encoded_views import encoded_view
from referee.engine.presentation import shown
from referee.engine.protocol import (GameConfig, Json, Move, RefereeError, Ruleset, Seat, draw_default, fold,
                                     seat_view)
from referee.engine.rng import Rng
from referee.scheduling import Change
from referee.store import EventStore
from referee.store.pushed import Pushed
from referee.store.redis_store import Appended, Head
from referee.store.bots import BotDirectory

#: the idempotency scope of every move a worker submits (timeouts, bots, turn
#: clocks); a client's keys live in its seat's scope, so it can never take one
WORKER_SCOPE = "worker"

MAX_CONFLICT_RETRIES = 8

#: the next move a run of worker moves makes (``GameService.play_run``): the
#: seat, its move (``None``: the rule-defined default), ``by``, and the
#: idempotency key in the worker's scope
Turn = tuple[Seat, "Move | None", Json, str]


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class Scheduler(Protocol):
    """What the service asks of the job queue after each change of a game."""

    def game_changed(self, change: Change, *, attempt: str = "") -> None: ...

    def start_tournament(self, tournament_id: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Decided:
    """A move decided and not yet written: the game after it, what its append
    stores, and the 201 body."""

    game: "Game"
    stored: Appended
    body: bytes


@dataclass(frozen=True, slots=True)
class Game:
    """A game loaded at one version: header facts plus the folded state."""

    id: str
    ruleset: Ruleset
    header: Json
    header_hash: str
    tokens: tuple[str, ...]  # sha256 of each seat's token
    seed: str
    version: int
    last_hash: str
    rng: int
    status: str
    state: Any
    last_at: int = 0
    dealt: Json = field(default_factory=dict)  # the secrets dealt at the start, by name
    opened: frozenset[str] = frozenset()  # names already opened in the log

    @property
    def players(self) -> int:
        return int(self.header["players"])

    @property
    def turn_timeout_ms(self) -> int | None:
        seconds = self.header.get("turn_timeout_s")
        return None if seconds is None else int(seconds * 1000)

    def turn_deadline(self) -> int | None:
        """When the turn clock applies the default move (``None``: no clock)."""
        timeout = self.turn_timeout_ms
        if timeout is None or self.status != "active" or not self.ruleset.to_act(self.state):
            return None
        return self.last_at + timeout

    def bot_of(self, seat: Seat) -> str | None:
        bot: str | None = self.header["seats"][seat].get("bot")
        return bot


def _turn_timeout(value: Any) -> float | None:
    """The platform option ``turn_timeout_s`` (1 s to 1 day), or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= 86_400:
        raise ApiError(422, "invalid_options", "turn_timeout_s is a number of seconds from 1 to 86400")
    return value


class GameService:
    """Games over an :class:`EventStore`, with a version-keyed state cache."""

    def __init__(self, store: EventStore, *, clock: Callable[[], int] = wall_ms,
                 scheduler: Scheduler | None = None, cache_size: int = 4096, pushed: Pushed | None = None) -> None:
        self.store = store
        #: heads pushed by Redis (``referee.store.pushed``): a view of a known game reads nothing
        self.pushed = pushed
        self.bots = BotDirectory(store.redis)
        self.clock = clock
        self.scheduler = scheduler
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # -- creation -------------------------------------------------------------
    def create_game(self, ruleset_name: str, *, players: int | None = None, seats: list[Json] | None = None,
                    options: Mapping[str, Any] | None = None, seed: str | None = None,
                    setup: Mapping[str, Any] | None = None, tournament: str | None = None,
                    tournament_seed: str | None = None, tournament_custom: bool = False) -> Json:
        """Deal a new game; returns the 201 body with each seat's secret token.

        ``tournament_seed`` is a seed the referee itself derived for a
        tournament game: unlike a client's ``seed`` it does not make the game
        custom (the tournament's own seed stays secret until it ends) — unless
        the tournament's seed came from a client (``tournament_custom``):
        whoever knows it knows every hand, so such games never count."""
        try:
            ruleset = registry.get(ruleset_name)
        except KeyError:
            raise ApiError(422, "unknown_ruleset", f"no ruleset {ruleset_name!r}; see GET /v1/rulesets") from None
        seat_specs = list(seats) if seats is not None else [{} for _ in range(players or 0)]
        if players is not None and seats is not None and players != len(seats):
            raise ApiError(422, "player_count_mismatch", f"players is {players} but {len(seats)} seats are listed")
        n = len(seat_specs)
        if not ruleset.min_players <= n <= ruleset.max_players:
            raise ApiError(422, "bad_player_count",
                           f"{ruleset.name} takes {ruleset.min_players}–{ruleset.max_players} players, not {n}",
                           rule=ruleset.platform_rules.get("player_count"))
        opts = dict(options or {})
        turn_timeout_s = _turn_timeout(opts.pop("turn_timeout_s", None))
        carry = opts.pop(ruleset.carry_option, None) if ruleset.carry_option else None
        if carry is not None:
            opts.update(self._carried_over(carry, ruleset, n))
        opts = ruleset.validate_options(opts, n)
        for spec in seat_specs:
            self._check_bot(spec.get("bot"), ruleset.name)
        custom = seed is not None or setup is not None or tournament_custom
        seed = seed if seed is not None else tournament_seed if tournament_seed is not None else secrets.token_hex(32)
        rng = Rng(seed.encode())
        ruleset.check_scenario(setup)  # the published setup schema, enforced
        events = ruleset.setup(GameConfig(players=n, options=opts, scenario=setup), rng)
        produced, state, dealt, opened = record.deal(ruleset, events, seed)
        game_id = secrets.token_hex(8)
        now = self.clock()
        header: Json = {
            "id": game_id, "ruleset": ruleset.name, "ruleset_version": ruleset.version,
            "players": n, "options": opts, "setup": setup,
            "seats": [{"seat": i, "name": s.get("name") or f"seat {i}", "bot": s.get("bot")}
                      for i, s in enumerate(seat_specs)],
            "seed_commitment": sha256_hex(seed), "created_at": now, "custom": custom,
            "log_format": LOG_FORMAT,
        }
        if turn_timeout_s is not None:
            header["turn_timeout_s"] = turn_timeout_s
        if tournament is not None:
            header["tournament"] = tournament
        first_prev = header_hash(header)
        envelopes, last_hash = record.chained(seed, first_prev, 0, produced, now)
        tokens = [secrets.token_urlsafe(24) for _ in range(n)]
        status = "finished" if ruleset.result(state) is not None else "active"
        meta = {"version": str(len(envelopes)), "last_hash": last_hash, "rng": str(rng.position),
                "status": status, "header": canonical(header), "header_hash": first_prev,
                "tokens": json.dumps([sha256_hex(t) for t in tokens]), "ruleset": ruleset.name,
                "last_at": str(now)}
        if not self.store.create(game_id, meta, {"seed": seed, "dealt": canonical(dealt)}, envelopes):
            raise ApiError(409, "game_exists", "a game with this id exists; try again")
        game = Game(game_id, ruleset, header, first_prev, tuple(json.loads(meta["tokens"])), seed,
                    len(envelopes), last_hash, rng.position, status, state, now, dealt, opened)
        self._remember(game)
        self._notify(game, None)
        return {
            "id": game_id, "ruleset": ruleset.name, "ruleset_version": ruleset.version,
            "version": game.version, "status": status, "custom": custom,
            "seed_commitment": header["seed_commitment"], "created_at": now,
            "seats": [{"seat": i, "token": tokens[i], "name": header["seats"][i]["name"],
                       "bot": header["seats"][i]["bot"]} for i in range(n)],
        }

    def _carried_over(self, game_id: Any, ruleset: Ruleset, players: int) -> dict[str, Any]:
        """The options a finished game of the same ruleset carries into a new
        one (the ruleset's ``carry_option``, e.g. BANG! R84)."""
        name = ruleset.carry_option
        if not isinstance(game_id, str):
            raise ApiError(422, "invalid_options", f"{name} is a game id")
        try:
            previous = self.load(game_id)
        except ApiError:
            raise ApiError(422, "invalid_options", f"{name}: no game {game_id!r}") from None
        if previous.ruleset.name != ruleset.name:
            raise ApiError(422, "invalid_options", f"{name} names a game of another ruleset")
        try:
            return ruleset.carry_over(previous.state, players)
        except RefereeError as err:
            raise ApiError(422, err.code, err.detail, rule=err.rule) from None

    def _check_bot(self, bot: str | None, ruleset: str) -> None:
        if bot == "heuristic" and registry.heuristic(ruleset) is None:
            raise ApiError(422, "no_heuristic", f"{ruleset} has no built-in heuristic bot; seat 'random' or a "
                           "registered bot instead")
        if bot is None or bot in BUILT_IN:
            return
        found = self.bots.get(bot)
        if found is None:
            raise ApiError(422, "unknown_bot", f"no built-in or registered bot {bot!r} (built-in: {', '.join(BUILT_IN)})")
        if ruleset not in found[0]["rulesets"]:
            raise ApiError(422, "bot_ruleset", f"bot {bot} is registered for {found[0]['rulesets']}, not {ruleset}")

    # -- loading --------------------------------------------------------------
    def load(self, game_id: str, head: Head | None = None) -> Game:
        """The game at its latest version: cached state plus any newer events.
        ``head``: the game's head if the caller read it already this request
        (the rate limiter reads it in its own round trip)."""
        head = head if head is not None else self.store.head(game_id)
        if head is None:
            raise not_found(game_id)
        version, last_hash, rng, status, last_at = head
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is not None and cached.version >= version:
            # newer than the head given: a move this process appended itself, whose pushed head
            # has not arrived yet; a game's versions only grow, so the newest it knows is served
            return cached
        if cached is None:
            cached = self._load_header(game_id)
        tail = self.store.read(game_id, after=cached.version, upto=version)
        state = fold(cached.ruleset, record.ruleset_events(tail), cached.state)
        opened = cached.opened.union(*(e["data"]["secrets"] for e in tail if e["type"] == SECRETS_OPENED))
        game = replace(cached, version=version, last_hash=last_hash, rng=rng, status=status, state=state,
                       last_at=last_at, opened=opened)
        self._remember(game)
        return game

    def pushed_head(self, game_id: str) -> Head | None:
        """The game's head without a round trip where what Redis pushed may be
        trusted (``referee.store.pushed``), else read with its keys' TTL and
        kept; ``None`` without a subscription (``load`` reads it)."""
        if self.pushed is None:
            return None
        epoch = self.pushed.sync()
        head = self.pushed.head(game_id, epoch)
        if head is None:
            asked_at = self.pushed.clock()
            head, ttl_ms = self.store.head_ttl(game_id)
            if head is None:
                raise not_found(game_id)
            self.pushed.learn_head(game_id, head, ttl_ms, epoch, asked_at)
        return head

    def _load_header(self, game_id: str) -> Game:
        meta = self.store.meta(game_id)
        if meta is None:
            raise not_found(game_id)
        header = json.loads(meta["header"])
        ruleset = registry.get(header["ruleset"])
        if ruleset.version != header["ruleset_version"]:  # replaying under other rules would silently diverge
            raise ApiError(409, "ruleset_version_changed",
                           f"this game was played under {ruleset.name} v{header['ruleset_version']}; this referee "
                           f"runs v{ruleset.version} and refuses to replay it under other rules")
        if header.get("log_format") != LOG_FORMAT:  # format 1's chain let anyone brute-force hidden cards
            raise ApiError(409, "log_format_changed",
                           f"this game's log is of format {header.get('log_format', 1)}; this referee serves "
                           f"format {LOG_FORMAT} only (README, \"The hash chain\")")
        seed, dealt = self.store.secret(game_id)
        return Game(game_id, ruleset, header, meta["header_hash"], tuple(json.loads(meta["tokens"])), seed, 0,
                    meta["header_hash"], 0, "active", None, 0, dealt)

    def state_at(self, game_id: str, version: int) -> tuple[Game, Any]:
        """The latest game and the state as it was at ``version`` (replay)."""
        game = self.load(game_id)
        if not 1 <= version <= game.version:  # version 1 is the deal: before it there is no game
            raise ApiError(422, "bad_version", f"version must be within 1..{game.version}")
        envs = self.store.read(game_id, after=0, upto=version)
        return game, fold(game.ruleset, record.ruleset_events(envs))

    def _remember(self, game: Game) -> None:
        with self._lock:
            self._cache[game.id] = game
            self._cache.move_to_end(game.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    # -- identity -------------------------------------------------------------
    @staticmethod
    def seat_of(game: Game, token: str | None) -> Seat | None:
        """The seat a token belongs to; ``None`` for no token; 401 for a wrong one."""
        if token is None:
            return None
        digest = sha256_hex(token)
        for seat, expected in enumerate(game.tokens):
            if hmac.compare_digest(digest, expected):
                return seat
        raise ApiError(401, "bad_token", "this token is not a seat of this game")

    # -- moves ----------------------------------------------------------------
    def submit_move(self, game_id: str, token: str | None, move: Move, *, expected_version: int | None = None,
                    idempotency_key: str | None = None) -> bytes:
        """Validate and record a seat's move; returns the 201 body (bytes, so
        an idempotent retry gets it back byte for byte)."""
        game = self.cached(game_id)
        if token is None:
            raise ApiError(401, "token_required", "moves need a seat token: Authorization: Bearer <token>")
        seat = self.seat_of(game, token)
        return self._submit(game, seat, move, expected_version, idempotency_key, scope=f"seat:{seat}")

    def submit_system(self, game_id: str, move: Move, *, expected_version: int, idempotency_key: str) -> bytes:
        """A system command (``timeout``) from a worker, through the same path."""
        return self._submit(self.cached(game_id), None, move, expected_version, idempotency_key, scope=WORKER_SCOPE)

    def submit_for_seat(self, game_id: str, seat: Seat, move: Move | None, *, expected_version: int,
                        idempotency_key: str, by: Json) -> bytes:
        """A move a worker makes for a seat, through the same path as a
        client's; ``by`` says who chose it and is recorded with the move.
        ``move=None`` applies the seat's rule-defined default, drawn from the
        game's generator where the rules make it a random choice (recorded as
        ``by.drawn_from``, so the audit re-derives it)."""
        return self._submit(self.cached(game_id), seat, move, expected_version, idempotency_key, by,
                            scope=WORKER_SCOPE)

    def cached(self, game_id: str) -> Game:
        """The cached game, possibly stale (the append's version check catches
        that); loads it if this process has never seen it."""
        with self._lock:
            game = self._cache.get(game_id)
        return game if game is not None else self.load(game_id)

    def _submit(self, game: Game, seat: Seat | None, move: Move | None, expected_version: int | None,
                idempotency_key: str | None, by: Json | None = None, *, scope: str) -> bytes:
        """Decide against the cached state and append with its version as the
        expectation; if another process moved the game on, reload and decide
        again (or 409 when the client stated the version it expects).
        ``scope`` is the caller's idempotency namespace (a seat's, or the worker's)."""
        now = self.clock()  # the receipt time: a retry after a conflict keeps it (a claim met its deadline)
        idem = (scope, idempotency_key) if idempotency_key is not None else None
        fingerprint = self._fingerprint(seat, move, expected_version)
        fresh = False
        for _ in range(MAX_CONFLICT_RETRIES):
            try:
                if expected_version is not None and expected_version != game.version:
                    raise version_conflict(game.version, expected_version)
                if game.status != "active":
                    raise game_over(game.version, game.ruleset.platform_rules.get("game_over"))
                body, appended = self._decide_and_append(game, seat, move, idem, fingerprint, by, now)
            except RefereeError:
                if idem is not None:  # a retry of a move that was already applied
                    record = self.store.idem_record(game.id, idem)
                    if record is not None:
                        return self._replay_idempotent(record, fingerprint)
                if not fresh:  # any refusal judged on a stale cache is judged again on the latest state
                    game, fresh = self.load(game.id), True
                    continue
                raise
            if appended is not None:
                return body
            game, fresh = self.load(game.id), True
        raise version_conflict(game.version, expected_version if expected_version is not None else game.version)

    @staticmethod
    def _fingerprint(seat: Seat | None, move: Move | None, expected_version: int | None) -> str:
        """What an idempotency record holds of the move it answers for: a
        retry under the same key must be this very move by this seat."""
        return sha256_hex(canonical({"seat": seat, "move": move, "expected_version": expected_version}))

    def _decide_and_append(self, game: Game, seat: Seat | None, move: Move | None,
                           idempotency_key: tuple[str, str] | None, fingerprint: str, by: Json | None,
                           now: int) -> tuple[bytes, Game | None]:
        """One attempt: ``(body, new game)``, or ``(b"", None)`` when the
        cached version was stale. ``now`` is the move's receipt time, stamped
        once when it arrived and kept across retries."""
        decided = self._decide(game, seat, move, idempotency_key, fingerprint, by, now)
        appended = self.store.append_moves(game.id, game.version, [decided.stored])
        if appended.outcome == "ok":
            self._remember(decided.game)
            self._notify(decided.game, game)
            return decided.body, decided.game
        if appended.outcome == "idem" and appended.record is not None:
            return self._replay_idempotent(appended.record, fingerprint), game
        if appended.outcome == "missing":
            raise not_found(game.id)
        return b"", None

    def _decide(self, game: Game, seat: Seat | None, move: Move | None, idempotency_key: tuple[str, str] | None,
                fingerprint: str, by: Json | None, now: int) -> Decided:
        """Decide one move on ``game`` and make everything its append stores:
        the rules' events, the platform's, the chained envelopes, the 201
        body and the idempotency record; nothing is written."""
        rng = Rng(game.seed.encode(), game.rng)
        if move is None:
            drawn = draw_default(game.ruleset, game.state, seat, rng) if seat is not None else None
            if drawn is None:
                raise ApiError(422, "nothing_owed", f"seat {seat} owes no move now")
            move, options = drawn
            by = {**(by or {}), "drawn_from": options} if options > 1 else by
        game.ruleset.check_move(move)  # the published move schema, enforced: the one check of its shape
        events, state = game.ruleset.decide_and_fold(game.state, seat, move, rng=rng, now=now, checked=True)
        entry: Json = {"move": move, "rng": game.rng}
        if by is not None:
            entry["by"] = by
        produced, result, opened = record.move(game.ruleset, state, seat, entry, events, game.dealt,
                                                      game.opened, game.seed)
        envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version, produced, now)
        status = "finished" if result is not None else "active"
        version = game.version + len(envelopes)
        body = canonical_bytes({"version": version, "status": status,
                                "events": [shown(game.ruleset, e, seat, active=status == "active") for e in envelopes]})
        new = replace(game, version=version, last_hash=last_hash, rng=rng.position, status=status, state=state,
                      last_at=now, opened=opened)
        return Decided(new, Appended(envelopes, last_hash, rng.position, status, now, idempotency_key,
                                     fingerprint.encode() + b"\n" + body), body)

    def play_run(self, game: Game, turn: Callable[[Game], Turn | None], *, batch: int,
                 settle: Callable[[Change], None] | None = None) -> tuple[str, int]:
        """Moves a worker makes for seats in a row (a run of built-in bots'
        turns, ``workers.jobs``), starting at ``game`` as loaded: ``turn``
        gives the next one on the game each move leaves (``None``: the run
        ends there). Each is decided on the state the one before left, with
        its own expected version (the version it is decided at), receipt
        time, ``by`` and idempotency key in the worker's scope, exactly as
        ``submit_for_seat`` would, and they are appended ``batch`` at a time
        in one round trip (``EventStore.append_moves``): all of a batch, or
        none of it if the game moved on meanwhile. No job is scheduled for a
        turn the run plays; the scheduler hears of the game once the run
        ends (the watch entry it had stays meanwhile, so a worker killed
        mid-run is swept up like one killed mid-job), or ``settle`` does,
        told of that change instead. Returns ``(outcome,
        moves appended)``: ``played``, ``stale`` (the game moved on: another
        mover took over), or the code of a refusal."""
        start = current = game  # start: the game as last appended
        pending: list[Decided] = []
        played = 0
        outcome = "played"

        def flush() -> bool:
            """Append what is pending after ``start`` in one step; ``False`` if the game moved on."""
            nonlocal start, pending, played
            appended = self.store.append_moves(start.id, start.version, [d.stored for d in pending])
            if appended.outcome == "missing":
                raise not_found(start.id)
            if appended.outcome != "ok":
                return False
            self._remember(current)
            start, played, pending = current, played + len(pending), []
            return True

        try:
            while (nxt := turn(current)) is not None:
                seat, move, by, key = nxt
                fingerprint = self._fingerprint(seat, move, current.version)
                try:
                    decided = self._decide(current, seat, move, (WORKER_SCOPE, key), fingerprint, by, self.clock())
                except RefereeError as err:
                    outcome = err.code
                    break
                pending.append(decided)
                current = decided.game
                if len(pending) >= batch and not flush():
                    return "stale", played
            if pending and not flush():
                return "stale", played
            return outcome, played
        finally:
            if played:
                # a deadline may have opened at a move the scheduler never heard of: a second job for it is harmless
                before = game if played == 1 else None
                if settle is None:
                    self._notify(start, before)
                else:
                    settle(self.change_of(start, before))

    @staticmethod
    def _replay_idempotent(record: bytes, fingerprint: str) -> bytes:
        stored_fp, _, body = record.partition(b"\n")
        if stored_fp.decode() != fingerprint:
            raise ApiError(422, "idempotency_key_reused",
                           "this Idempotency-Key was used for a different move or seat")
        return body

    def change_of(self, game: Game, before: Game | None = None) -> Change:
        """What the job queue must know of ``game`` now; the rules deadline is
        included only when ``before`` did not already have it open, and the
        game counts as watched only if a worker owed ``before`` something (or
        ``before`` is not known)."""
        active = game.status == "active"
        rs = game.ruleset
        to_act = frozenset(rs.to_act(game.state)) if active else frozenset()
        open_deadline = deadline = rs.deadline(game.state) if active else None
        if before is not None and before.status == "active" and rs.deadline(before.state) == deadline:
            deadline = None
        bots = {s: b for s in to_act if (b := game.bot_of(s)) is not None}
        watched = before is None or self.change_of(before).due() is not None
        return Change(game.id, game.version, active, game.last_at, to_act, bots, deadline,
                      game.turn_deadline(), game.header.get("tournament"), open_deadline, watched)

    def _notify(self, game: Game, before: Game | None) -> None:
        if self.scheduler is not None:
            self.scheduler.game_changed(self.change_of(game, before))

    # -- reading --------------------------------------------------------------
    def view(self, game_id: str, token: str | None, head: Head | None = None) -> bytes:
        """The encoded view ``token``'s seat (none: a spectator) is sent; the
        public part is encoded once per version for every reader
        (``referee.engine.encoded_views``). ``head`` as for ``load``."""
        game = self.load(game_id, head if head is not None else self.pushed_head(game_id))
        seat = self.seat_of(game, token)
        return encoded_view(game.ruleset, game.state, seat, active=game.status == "active",
                            envelope=self._envelope_of(game), key=(game.id, game.version, game.header_hash))

    @staticmethod
    def _envelope_of(game: Game) -> Json:
        rs = game.ruleset
        return {"id": game.id, "ruleset": rs.name, "ruleset_version": rs.version, "version": game.version,
                "status": game.status, "turn_deadline": game.turn_deadline(), "seats": game.header["seats"],
                "custom": game.header["custom"], "seed_commitment": game.header["seed_commitment"]}

    def view_of(self, game: Game, seat: Seat | None) -> Json:
        """The view as a JSON value (replays, tools): what ``view`` encodes."""
        return {**self._envelope_of(game),
                **seat_view(game.ruleset, game.state, seat, active=game.status == "active")}
