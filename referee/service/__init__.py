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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from referee import keys, settings
from referee.bots import BUILT_IN
from referee.engine import LOG_FORMAT, canonical, canonical_bytes, header_hash, record, sha256_hex
from referee.engine.chain import keyed_hmac_sha256
from referee.engine.encoded_views import ViewCache, encoded_view
from referee.engine.frozen import copier
from referee.engine.platform import SEAT_CLAIMED, SEAT_EVENTS, SEAT_GIVEN, SEAT_REISSUED, SECRETS_OPENED
from referee.engine.presentation import shown
from referee.engine.protocol import (
    Event,
    GameConfig,
    Json,
    Move,
    RefereeError,
    Ruleset,
    Seat,
    draw_default,
    fold,
    seat_view,
)
from referee.engine.rng import Rng
from referee.engine.signature import Keyring
from referee.engine.statecache import Memo
from referee.errors import ApiError, game_over, not_found, token_reissued, version_conflict
from referee.games import registry
from referee.service.metrics import GAMES_FINISHED, GAMES_STARTED, MOVES
from referee.service.scheduling import Change
from referee.store.clients import (
    REDIS_UNAVAILABLE as REDIS_UNAVAILABLE,  # for the API: it talks to the service, not the store
)
from referee.store.listing import BadCursor, cursor_of, read_cursor
from referee.store.pushed import Pushed
from referee.store.redis_store import Appended, EventStore, Head
from referee.tokens import new_token

#: the idempotency scope of every move a worker submits (timeouts, bots, turn
#: clocks); a client's keys live in its seat's scope, so it can never take one
WORKER_SCOPE = "worker"
#: a seat's token hash while it is open (no token yet), and a bot seat's (none ever): no sha256 is either
OPEN, NO_TOKEN = "open", ""
#: the token "hash" of an open seat given to a built-in bot at the start deadline: ``bot:<name>``
GIVEN = "bot:"

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

    game: Game
    stored: Appended
    body: bytes


@dataclass(frozen=True, slots=True)
class Game:
    """A game loaded at one version: header facts plus the folded state."""

    id: str
    ruleset: Ruleset[Any]
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
    names: tuple[str, ...] = ()  # each seat's name now (a claimed seat's: its claimant's)
    #: ``keyed_hmac_sha256(seed)``, prepared once for the game: its generator, salts and bots' seeds
    mac: Callable[[bytes], bytes] | None = field(default=None, compare=False, repr=False)
    #: the game's memo (``referee.engine.statecache``): what the rules derive from its states, handed
    #: to every hook this service calls about the game; one per game, carried from one version of the
    #: game to the next by ``replace`` (so it lives in the service's cache, keyed by the game's id,
    #: beside the state of the version cached), never shared between games
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)

    @property
    def players(self) -> int:
        return int(self.header["players"])

    @property
    def open_seats(self) -> list[Seat]:
        """Seats still open for a player to claim: the game waits for every one."""
        return [seat for seat, token in enumerate(self.tokens) if token == OPEN]

    def seats(self) -> list[Json]:
        """The seats as everyone may see them: number, name, bot, open."""
        out = []
        for spec in self.header["seats"]:
            seat = {**spec}
            if self.names:
                seat["name"] = self.names[spec["seat"]]
            if spec.get("open"):
                seat["open"] = self.tokens[spec["seat"]] == OPEN
                seat["bot"] = self.bot_of(spec["seat"])
            out.append(seat)
        return out

    def start_deadline(self) -> int | None:
        """When the seats still open go to a built-in bot (``None``: no
        start deadline, or no seat open)."""
        seconds = self.header.get("start_timeout_s")
        if seconds is None or not self.open_seats or self.status != "active":
            return None
        return int(self.header["created_at"]) + int(seconds * 1000)

    @property
    def turn_timeout_ms(self) -> int | None:
        seconds = self.header.get("turn_timeout_s")
        return None if seconds is None else int(seconds * 1000)

    def turn_deadline(self) -> int | None:
        """When the turn clock applies the default move (``None``: no clock)."""
        timeout = self.turn_timeout_ms
        if timeout is None or self.status != "active" or self.open_seats \
                or not self.ruleset.to_act(self.state, memo=self.memo):
            return None
        return self.last_at + timeout

    def bot_of(self, seat: Seat) -> str | None:
        """The bot that plays ``seat``: the header's, or the one an open seat was given at the start deadline."""
        bot: str | None = self.header["seats"][seat].get("bot")
        if bot is None and self.tokens[seat].startswith(GIVEN):
            return self.tokens[seat][len(GIVEN):]
        return bot


#: the most games ``list_games`` looks at for one page
LIST_SCAN = 1000


_game_but = copier(Game)  # dataclasses.replace for a Game, several times faster (a worker copies one per move)


def new_game_id() -> str:
    """A new game's id: 16 random hex digits."""
    return secrets.token_hex(8)


def after_cursor(cursor: str | None) -> tuple[int, str] | None:
    """Where a page starts (``None``: at the newest); 422 for a cursor not of the shape ``<score>.<id>``."""
    try:
        return read_cursor(cursor) if cursor else None
    except BadCursor:
        raise ApiError(422, "invalid_cursor",
                       "cursor: `<created_at ms>.<id>`, the `next` of a page this referee served") from None


def _listed(game_id: str, header: Json, summary: Json) -> Json:
    """A game as ``GET /v1/games`` lists it: public facts only."""
    names = summary.get("names") or [s["name"] for s in header["seats"]]
    out: Json = {"id": game_id, "ruleset": header["ruleset"], "status": summary["status"],
                 "version": summary["version"], "players": header["players"], "created_at": header["created_at"],
                 "custom": header.get("custom", False), "open_seats": summary.get("open", []),
                 "seats": [{"seat": s["seat"], "name": names[s["seat"]],
                            "bot": summary.get("given", {}).get(s["seat"], s["bot"])} for s in header["seats"]]}
    if header.get("tournament") is not None:
        out["tournament"] = header["tournament"]
    return out


def _may_reissue(game: Game, seat: Seat, digest: str, *, owner: bool) -> None:
    """Whether the caller (its token's ``digest``; ``owner``: it is the
    game's ``owner_token``) may reissue ``seat``'s token: a claimed seat's,
    by its claimant's current token only (403 to the creator); any other
    seat's, by the creator (a seat with no token, still open or a bot's,
    is then refused 409 ``no_token_to_reissue``)."""
    held = game.tokens[seat]
    if game.header["seats"][seat].get("open") and held != OPEN and not held.startswith(GIVEN):
        if hmac.compare_digest(digest, held):
            return
        if owner:
            raise ApiError(403, "seat_belongs_to_claimant", f"seat {seat} was claimed: it is its claimant's, and "
                           "only the claimant's own token reissues it")
        raise ApiError(401, "bad_token", f"only seat {seat}'s claimant (its own token) reissues its token")
    if not owner:
        raise ApiError(401, "bad_token", f"only the game's creator (its owner_token) reissues seat {seat}'s token")


def _turn_timeout(value: Any, name: str = "turn_timeout_s") -> float | None:
    """The platform option ``turn_timeout_s`` (or ``start_timeout_s``; 1 s to 1 day), or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= 86_400:
        raise ApiError(422, "invalid_options", f"{name} is a number of seconds from 1 to 86400")
    return value


def open_seat_clock() -> float | None:
    """The turn clock of a game with open seats that names none
    (``REFEREE_OPEN_SEAT_TURN_TIMEOUT_S``; ``None``: off). It runs once every
    seat is taken (``Game.turn_deadline``)."""
    raw = settings.text("REFEREE_OPEN_SEAT_TURN_TIMEOUT_S").strip().lower()
    if raw in ("off", "0", "none", ""):
        return None
    return _turn_timeout(float(raw), "REFEREE_OPEN_SEAT_TURN_TIMEOUT_S")


class GameService:
    """Games over an :class:`EventStore`, with a version-keyed state cache."""

    def __init__(self, store: EventStore, *, clock: Callable[[], int] = wall_ms,
                 scheduler: Scheduler | None = None, cache_size: int = 4096, pushed: Pushed | None = None,
                 keyring: Keyring | None = None) -> None:
        self.store = store
        #: the shared parts of the views this process serves (``referee.engine.encoded_views``)
        self.views = ViewCache()
        #: the referee's signing keys (``referee.keys``): receipts and final heads
        self.keyring = keyring if keyring is not None else keys.load()
        #: the process's subscription to what Redis pushes (``referee.store.pushed``): failed-authentication
        #: blocks, for the rate limiter; never a game's head (a view reads it: ``view``)
        self.pushed = pushed
        self.bots = store.bots
        self.clock = clock
        self.scheduler = scheduler
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # -- creation -------------------------------------------------------------
    def create_game(self, ruleset_name: str, *, players: int | None = None, seats: list[Json] | None = None,
                    options: Mapping[str, Any] | None = None, seed: str | None = None,
                    setup: Mapping[str, Any] | None = None, tournament: str | None = None,
                    tournament_seed: str | None = None, tournament_custom: bool = False,
                    scheduled: Callable[[Change], None] | None = None, game_id: str | None = None) -> Json:
        """Deal a new game; returns the 201 body with each seat's secret token.
        ``scheduled``: who hears of the new game instead of the scheduler (a
        worker that plays its first turns itself, ``workers.jobs``).
        ``game_id``: the new game's id, drawn by the caller (``new_game_id``;
        a tournament takes the game's slot under it before the game exists).

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
        opts, turn_timeout_s, start_timeout_s, start_bot = self.game_options(ruleset, options, seat_specs)
        for spec in seat_specs:
            if spec.get("open") and spec.get("bot"):
                raise ApiError(422, "open_seat_with_bot", "an open seat is for a person to claim: it has no bot")
            self._check_bot(spec.get("bot"), ruleset.name)
        if turn_timeout_s is None and any(s.get("open") for s in seat_specs):
            turn_timeout_s = open_seat_clock()  # a silent claimant cannot hold the table
        custom = seed is not None or setup is not None or tournament_custom
        seed = seed if seed is not None else tournament_seed if tournament_seed is not None else secrets.token_hex(32)
        rng = Rng(seed.encode())
        ruleset.check_scenario(setup)  # the published setup schema, enforced
        events = ruleset.setup(GameConfig(players=n, options=opts, scenario=setup), rng)
        produced, state, dealt, opened = record.deal(ruleset, events, seed)
        game_id = game_id if game_id is not None else new_game_id()
        now = self.clock()
        header: Json = {
            "id": game_id, "ruleset": ruleset.name, "ruleset_version": ruleset.version,
            "players": n, "options": opts, "setup": setup,
            "seats": [{"seat": i, "name": s.get("name") or f"seat {i}", "bot": s.get("bot"),
                       **({"open": True} if s.get("open") else {})} for i, s in enumerate(seat_specs)],
            "seed_commitment": sha256_hex(seed), "created_at": now, "custom": custom,
            "log_format": LOG_FORMAT,
        }
        if turn_timeout_s is not None:
            header["turn_timeout_s"] = turn_timeout_s
        if start_timeout_s is not None:
            header["start_timeout_s"], header["start_bot"] = start_timeout_s, start_bot
        if tournament is not None:
            header["tournament"] = tournament
        first_prev = header_hash(header)
        envelopes, last_hash = record.chained(seed, first_prev, 0, produced, now)
        # a bot's seat gets no token (its moves come from the worker, recorded with `by`): no person can
        # move for it, so the audit refuses a bot seat's move without `by`; "" is no token's hash
        tokens = [None if header["seats"][i]["bot"] or header["seats"][i].get("open") else new_token()
                  for i in range(n)]
        hashes = [sha256_hex(t) if t else OPEN if header["seats"][i].get("open") else NO_TOKEN
                  for i, t in enumerate(tokens)]
        owner = new_token()  # the creator's: reissues a seat's lost token
        status = "finished" if ruleset.result(state) is not None else "active"
        meta = {"version": str(len(envelopes)), "last_hash": last_hash, "rng": str(rng.position),
                "status": status, "header": canonical(header), "header_hash": first_prev,
                "tokens": json.dumps(hashes), "ruleset": ruleset.name, "owner": sha256_hex(owner),
                "names": json.dumps([s["name"] for s in header["seats"]]), "last_at": str(now)}
        if not self.store.create(game_id, meta, {"seed": seed, "dealt": canonical(dealt)}, envelopes):
            raise ApiError(409, "game_exists", "a game with this id exists; try again")
        self.store.index_game(game_id, now)
        GAMES_STARTED.labels(ruleset=ruleset.name).inc()
        game = Game(game_id, ruleset, header, first_prev, tuple(hashes), seed,
                    len(envelopes), last_hash, rng.position, status, state, now, dealt, opened,
                    tuple(s["name"] for s in header["seats"]), keyed_hmac_sha256(seed.encode()))
        self._remember(game)
        self._notify(game, None, scheduled)
        return {
            "id": game_id, "ruleset": ruleset.name, "ruleset_version": ruleset.version,
            "version": game.version, "status": status, "custom": custom,
            "seed_commitment": header["seed_commitment"], "created_at": now, "owner_token": owner,
            "seats": [{"seat": i, "token": tokens[i], "name": header["seats"][i]["name"],
                       "bot": header["seats"][i]["bot"], **({"open": True} if header["seats"][i].get("open") else {})}
                      for i in range(n)],
        }

    def game_options(self, ruleset: Ruleset[Any], options: Mapping[str, Any] | None, seat_specs: list[Json]
                     ) -> tuple[dict[str, Any], float | None, float | None, str | None]:
        """A new game's ``options`` checked (422 ``invalid_options``, or the
        ruleset's refusal) for ``seat_specs``: the ruleset's options with
        defaults filled in, then the platform's ``turn_timeout_s``,
        ``start_timeout_s`` and ``start_bot``. Games and tournaments (for
        every game they will deal) check options here, alike."""
        opts = dict(options or {})
        turn_timeout_s = _turn_timeout(opts.pop("turn_timeout_s", None))
        start_timeout_s = _turn_timeout(opts.pop("start_timeout_s", None), "start_timeout_s")
        start_bot = opts.pop("start_bot", None)
        carry = opts.pop(ruleset.carry_option, None) if ruleset.carry_option else None
        if carry is not None:
            opts.update(self._carried_over(carry, ruleset, len(seat_specs)))
        opts = ruleset.validate_options(opts, len(seat_specs))
        if (start_timeout_s is not None or start_bot is not None) and not any(s.get("open") for s in seat_specs):
            raise ApiError(422, "invalid_options", "start_timeout_s and start_bot are for a game with open seats")
        if start_bot is not None and start_timeout_s is None:
            raise ApiError(422, "invalid_options", "start_bot names who takes the seats left open at the start "
                           "deadline: give start_timeout_s too")
        if start_timeout_s is not None:
            start_bot = "random" if start_bot is None else start_bot
            if start_bot not in BUILT_IN:
                raise ApiError(422, "invalid_options", f"start_bot is a built-in bot ({', '.join(BUILT_IN)}), "
                               f"not {start_bot!r}")
            self._check_bot(start_bot, ruleset.name)
        return opts, turn_timeout_s, start_timeout_s, start_bot

    def _carried_over(self, game_id: Any, ruleset: Ruleset[Any], players: int) -> dict[str, Any]:
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
        found = self.bots.get(bot, touch=True)  # seated: in use
        if found is None:
            raise ApiError(422, "unknown_bot",
                           f"no built-in or registered bot {bot!r} (built-in: {', '.join(BUILT_IN)})")
        if ruleset not in found[0]["rulesets"]:
            raise ApiError(422, "bot_ruleset", f"bot {bot} is registered for {found[0]['rulesets']}, not {ruleset}")

    def check_seating(self, bot: str, secret: str | None) -> None:
        """A registered bot is seated only where its owner agrees: anyone may
        seat a ``public`` one, an ``owner`` one (the default) needs its secret
        (403 ``bot_not_public`` without it, ``bad_bot_secret`` when wrong). An
        unknown bot is ``_check_bot``'s 422."""
        found = None if bot in BUILT_IN else self.bots.get(bot)
        if found is None or found[0]["seating"] == "public":
            return
        if secret is None:
            raise ApiError(403, "bot_not_public", f"bot {bot} is seated only by its owner: give its secret as "
                           "bot_secret, or its owner registers it with seating \"public\"")
        if not hmac.compare_digest(sha256_hex(secret), sha256_hex(found[1])):
            raise ApiError(403, "bad_bot_secret", f"bot_secret is not bot {bot}'s secret")

    # -- loading --------------------------------------------------------------
    def load(self, game_id: str, head: Head | None = None) -> Game:
        """The game at its latest version: cached state plus any newer events.
        ``head``: the game's head if the caller read it from Redis already in
        this request (the rate limiter reads it in its round trip) — never one
        known from before the request, which may be older than a move a client
        has seen acknowledged since (issue 36 item 7)."""
        head = head if head is not None else self.store.head(game_id)
        if head is None:
            raise not_found(game_id)
        version, last_hash, rng, status, last_at = head
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is not None and cached.version >= version:
            # as new as the head, or newer (a move this process appended after the head was read):
            # a game's versions only grow, so the newest it knows is served
            return cached
        if cached is None:
            cached = self._load_header(game_id)
        tail = self.store.read(game_id, after=cached.version, upto=version)
        state = fold(cached.ruleset, record.ruleset_events(tail), cached.state)
        opened = cached.opened.union(*(e["data"]["secrets"] for e in tail if e["type"] == SECRETS_OPENED))
        game = replace(cached, version=version, last_hash=last_hash, rng=rng, status=status, state=state,
                       last_at=last_at, opened=opened)
        if any(e["type"] in SEAT_EVENTS for e in tail):  # a seat claimed or a token reissued: who holds what
            game = replace(game, **self._seats_of(game_id))
        self._remember(game)
        return game

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
                    meta["header_hash"], 0, "active", None, 0, dealt,
                    names=tuple(json.loads(meta["names"])) if "names" in meta else (),
                    mac=keyed_hmac_sha256(seed.encode()))

    def _seats_of(self, game_id: str) -> dict[str, Any]:
        meta = self.store.meta(game_id) or {}
        return {"tokens": tuple(json.loads(meta.get("tokens", "[]"))),
                "names": tuple(json.loads(meta["names"])) if "names" in meta else ()}

    # -- seats ----------------------------------------------------------------
    def claim_seat(self, game_id: str, seat: int, name: str) -> Json:
        """Give open seat ``seat`` to whoever claims it first: its token, once
        (recorded in the log as ``seat_claimed {seat, name}``). The game
        starts when no seat is open."""
        token = new_token()
        self._seat_event(game_id, seat, SEAT_CLAIMED, {"seat": seat, "name": name}, sha256_hex(token), name,
                         claim=True)
        return {"seat": seat, "name": name, "token": token}

    def give_open_seats(self, game_id: str) -> list[Seat]:
        """At the start deadline, every seat still open goes to the game's
        ``start_bot`` (recorded as ``seat_given_to_bot {seat, bot}``, one
        event per seat); the seats given. Nothing before the deadline."""
        given: list[Seat] = []
        while True:
            game = self.load(game_id)
            due = game.start_deadline()
            if due is None or self.clock() < due:
                return given
            seat, bot = game.open_seats[0], str(game.header["start_bot"])
            try:
                self._seat_event(game_id, seat, SEAT_GIVEN, {"seat": seat, "bot": bot}, GIVEN + bot,
                                 f"{bot} bot", claim=True)
            except ApiError as err:
                if err.code != "seat_taken":  # claimed meanwhile: the next one
                    raise
                continue
            given.append(seat)

    def reissue_token(self, game_id: str, seat: int, token: str | None) -> Json:
        """A new token for a person's seat; the old one stops working at once
        (recorded in the log as ``seat_token_reissued {seat}``; every stream
        and long-poll of the old token ends at that event, ``referee.service.reading``).
        The game's creator (its ``owner_token``) reissues the seats it seated;
        a claimed seat belongs to its claimant: only the claimant's own token
        reissues it (the creator gets 403 ``seat_belongs_to_claimant``), so a
        creator can never take over, and read, a seat a stranger claimed."""
        if token is None:
            raise ApiError(401, "token_required", "reissuing a token needs the game's owner_token (a claimed "
                           "seat's: its own token)")
        meta = self.store.meta(game_id)
        if meta is None:
            raise not_found(game_id)
        digest = sha256_hex(token)
        owner = hmac.compare_digest(digest, meta.get("owner", ""))
        fresh = new_token()
        self._seat_event(game_id, seat, SEAT_REISSUED, {"seat": seat}, sha256_hex(fresh), None, claim=False,
                         allowed=lambda game: _may_reissue(game, seat, digest, owner=owner))
        return {"seat": seat, "token": fresh}

    def holds(self, game_id: str, seat: Seat, token: str) -> bool:
        """Whether ``token`` is ``seat``'s token right now, as the store has it
        (not this process's cache): a stream re-checks its token with this when
        it meets its seat's ``seat_token_reissued``."""
        return self._holds_hash(game_id, seat, sha256_hex(token))

    def _holds_hash(self, game_id: str, seat: Seat, digest: str) -> bool:
        meta = self.store.meta(game_id)
        held = json.loads(meta["tokens"]) if meta is not None else []
        return 0 <= seat < len(held) and hmac.compare_digest(digest, held[seat])

    def _replay_for(self, game_id: str, seat: Seat | None, holder: str | None, record: bytes,
                    fingerprint: str) -> bytes:
        """An idempotent retry's answer (``_replay_idempotent``), to a client
        whose token (hash ``holder``) is still its seat's in the store: the
        answer shows what the seat was shown, and the key may be its new
        holder's, while this process's cache may predate the reissue."""
        if holder is not None and seat is not None and not self._holds_hash(game_id, seat, holder):
            raise token_reissued()
        return self._replay_idempotent(record, fingerprint)

    def _seat_event(self, game_id: str, seat: int, type_: str, data: Json, token_hash: str, name: str | None, *,
                    claim: bool, allowed: Callable[[Game], None] | None = None) -> None:
        """Append a seat's event at the game's latest version, retried on a
        conflict. ``allowed`` raises if the caller may not do this to the game
        as loaded: judged again at each attempt, so the seat cannot change
        hands between the check and the append (the store checks the version)."""
        for _ in range(MAX_CONFLICT_RETRIES):
            game = self.load(game_id)
            if not 0 <= seat < game.players:
                raise ApiError(404, "no_such_seat", f"seat {seat} is not a seat of this game (0..{game.players - 1})")
            if allowed is not None:
                allowed(game)
            if game.status != "active":
                raise game_over(game.version, game.ruleset.platform_rules.get("game_over"))
            held = game.tokens[seat]
            if claim and held != OPEN:
                if game.header["seats"][seat].get("open"):
                    raise ApiError(409, "seat_taken", f"seat {seat} was claimed already")
                raise ApiError(409, "seat_not_open", f"seat {seat} is not an open seat")
            if not claim and (held in (OPEN, NO_TOKEN) or held.startswith(GIVEN)):
                raise ApiError(409, "no_token_to_reissue", f"seat {seat} has no token to reissue (a bot's, or still "
                               "open: claim it)")
            now = self.clock()
            envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version,
                                                  [(None, Event(type_, data))], now)
            outcome = self.store.seat_event(game_id, game.version, seat, OPEN if claim else "", token_hash,
                                            name, envelopes[0], last_hash, now)
            if outcome == "ok":
                self._notify(self.load(game_id), game)
                return
            if outcome == "missing":
                raise not_found(game_id)
        raise version_conflict(game.version, game.version)

    def state_at(self, game_id: str, version: int | None) -> tuple[Game, Any, list[int]]:
        """The latest game, the state as it was at ``version`` (default: the
        latest) and the versions a client could have been shown (replay):
        a version inside a move is 422 ``not_a_shown_version``."""
        game = self.load(game_id)
        version = game.version if version is None else version
        if not 1 <= version <= game.version:  # version 1 is the deal: before it there is no game
            raise ApiError(422, "bad_version", f"version must be within 1..{game.version}")
        envs = self.store.read(game_id, after=0, upto=game.version)
        shown = record.shown_versions([e["type"] for e in envs])
        if version not in shown:
            raise ApiError(422, "not_a_shown_version", record.not_shown(version, shown))
        return game, fold(game.ruleset, record.ruleset_events(envs[:version])), shown

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
        try:
            seat = self.seat_of(game, token)
        except ApiError:  # a token this process's cache predates (reissued meanwhile, by another process)
            game = self.load(game_id)
            seat = self.seat_of(game, token)
        return self._submit(game, seat, move, expected_version, idempotency_key, scope=f"seat:{seat}",
                            holder=sha256_hex(token))

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
                idempotency_key: str | None, by: Json | None = None, *, scope: str,
                holder: str | None = None) -> bytes:
        """Decide against the cached state and append with its version as the
        expectation; if another process moved the game on, reload and decide
        again (or 409 when the client stated the version it expects).
        ``scope`` is the caller's idempotency namespace (a seat's, or the worker's).
        ``holder``: the client's token hash, checked again against each game
        reloaded, so a token reissued meanwhile moves no more (401)."""
        now = self.clock()  # the receipt time: a retry after a conflict keeps it (a claim met its deadline)
        idem = (scope, idempotency_key) if idempotency_key is not None else None
        fingerprint = self._fingerprint(seat, move, expected_version)
        fresh = False
        for _ in range(MAX_CONFLICT_RETRIES):
            if holder is not None and seat is not None and not hmac.compare_digest(game.tokens[seat], holder):
                raise token_reissued()
            try:
                if expected_version is not None and expected_version != game.version:
                    raise version_conflict(game.version, expected_version)
                if game.status != "active":
                    raise game_over(game.version, game.ruleset.platform_rules.get("game_over"))
                if game.open_seats:
                    raise ApiError(409, "seats_open", f"the game starts when every seat is taken: seats "
                                   f"{game.open_seats} are open (POST /v1/games/{game.id}/seats/<seat>/claim)")
                body, appended = self._decide_and_append(game, seat, move, idem, fingerprint, by, now,
                                                         client=scope != WORKER_SCOPE, holder=holder)
            except RefereeError:
                if idem is not None:  # a retry of a move that was already applied
                    record = self.store.idem_record(game.id, idem)
                    if record is not None:
                        return self._replay_for(game.id, seat, holder, record, fingerprint)
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
                           now: int, *, client: bool = True, holder: str | None = None) -> tuple[bytes, Game | None]:
        """One attempt: ``(body, new game)``, or ``(b"", None)`` when the
        cached version was stale. ``now`` is the move's receipt time, stamped
        once when it arrived and kept across retries. ``client``: the move
        came from a client, who gets a 201 body and a receipt (``_decide``);
        ``holder``: its token's hash, checked before a retry is answered."""
        decided = self._decide(game, seat, move, idempotency_key, fingerprint, by, now, client=client)
        self._watch_ahead(game, decided.game)
        appended = self.store.append_moves(game.id, game.version, [decided.stored])
        if appended.outcome == "ok":
            self._remember(decided.game)
            MOVES.labels(ruleset=game.ruleset.name, by="system" if seat is None else "bot" if by else "seat").inc()
            self._notify(decided.game, game)
            return decided.body, decided.game
        if appended.outcome == "idem" and appended.record is not None:
            return self._replay_for(game.id, seat, holder, appended.record, fingerprint), game
        if appended.outcome == "missing":
            raise not_found(game.id)
        return b"", None

    def _decide(self, game: Game, seat: Seat | None, move: Move | None, idempotency_key: tuple[str, str] | None,
                fingerprint: str, by: Json | None, now: int, *, client: bool = True) -> Decided:
        """Decide one move on ``game`` and make everything its append stores:
        the rules' events, the platform's, the chained envelopes (the last
        of a finished game signed) and the idempotency record; nothing is
        written. For a ``client``'s move, the 201 body too (with the seat's
        signed receipt), kept in the record: a retry gets the same receipt
        back. A worker's move (``client=False``: a bot's, a timeout, a
        default) has no body: nobody reads one (a retried job learns only
        that its move was applied), so its record is the fingerprint alone."""
        rng = Rng(game.seed.encode(), game.rng, mac=game.mac)
        if move is None:
            drawn = draw_default(game.ruleset, game.state, seat, rng) if seat is not None else None
            if drawn is None:
                raise ApiError(422, "nothing_owed", f"seat {seat} owes no move now")
            move, options = drawn
            by = {**(by or {}), "drawn_from": options} if options > 1 else by
        move = game.ruleset.canonical_move(move)  # the published move schema, enforced; 2.0 recorded as 2
        events, state = game.ruleset.decide_and_fold(game.state, seat, move, rng=rng, now=now, checked=True,
                                                     memo=game.memo)
        entry: Json = {"move": move, "rng": game.rng}
        if by is not None:
            entry["by"] = by
        produced, result, opened = record.move(game.ruleset, state, seat, entry, events, game.dealt,
                                                      game.opened, game.seed)
        envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version, produced, now, mac=game.mac)
        status = "finished" if result is not None else "active"
        version = game.version + len(envelopes)
        if result is not None:  # the final head, signed on the last event (seed_revealed)
            envelopes[-1]["signature"] = self.keyring.final(game.id, version, last_hash)
        body = b""
        if client:
            accepted: Json = {"version": version, "status": status,
                              "events": [shown(game.ruleset, e, seat, active=status == "active") for e in envelopes],
                              "receipt": self.keyring.receipt(game.id, version, last_hash, now)}
            body = canonical_bytes(accepted)
        new = _game_but(game, version=version, last_hash=last_hash, rng=rng.position, status=status, state=state,
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
            MOVES.labels(ruleset=current.ruleset.name, by="bot").inc(len(pending))
            start, played, pending = current, played + len(pending), []
            return True

        try:
            while (nxt := turn(current)) is not None:
                seat, move, by, key = nxt
                fingerprint = self._fingerprint(seat, move, current.version)
                try:
                    decided = self._decide(current, seat, move, (WORKER_SCOPE, key), fingerprint, by,
                                           self._received(current, by), client=False)
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

    def _received(self, game: Game, by: Json) -> int:
        """A run's move's receipt time: the clock's, but a built-in bot's move
        while a rules deadline is open (Bluffaneer's claim window, F18) is
        stamped with the receipt time of the game's last move. A built-in bot
        answers the moment it is asked, so its answer does not depend on how
        busy the workers are: built-in bots answering one window tie and the
        rules' seeded flip decides (F19), and a seeded tournament of built-in
        bots replays identically. The time is that of a move already recorded:
        never before it, always before the deadline."""
        if by.get("bot") in BUILT_IN and "default" not in by and game.ruleset.deadline(game.state) is not None:
            return game.last_at
        return self.clock()

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
        started = active and not game.open_seats  # a game with open seats owes no worker anything yet
        to_act = frozenset(rs.to_act(game.state, memo=game.memo)) if started else frozenset()
        open_deadline = deadline = rs.deadline(game.state) if started else None
        if before is not None and before.status == "active" and rs.deadline(before.state) == deadline:
            deadline = None
        bots = {s: b for s in to_act if (b := game.bot_of(s)) is not None}
        watched = before is None or self.change_of(before).due() is not None
        return Change(game.id, game.version, active, game.last_at, to_act, bots, deadline,
                      game.turn_deadline(), game.header.get("tournament"), open_deadline, game.start_deadline(),
                      watched)

    def _watch_ahead(self, before: Game, after: Game) -> None:
        """A move after which a worker will owe the game something (a bot's
        turn, a deadline) while nothing was owed before: the game goes into
        the sweeper's watch set *before* the append, so a process killed
        between the append and the jobs it would enqueue loses no turn (the
        sweeper finds the game after its stall period; if the append does
        not land, it finds nothing owed and lets the game go)."""
        watch = getattr(self.scheduler, "watch", None)
        if watch is None or self.change_of(after).due() is None or self.change_of(before).due() is not None:
            return
        watch(before.id, self.clock())

    def _notify(self, game: Game, before: Game | None,
                scheduled: Callable[[Change], None] | None = None) -> None:
        """The scheduler hears of the change (or ``scheduled``, instead)."""
        if game.status != "active" and (before is None or before.status == "active"):
            GAMES_FINISHED.labels(ruleset=game.ruleset.name).inc()
        if scheduled is not None:
            scheduled(self.change_of(game, before))
        elif self.scheduler is not None:
            self.scheduler.game_changed(self.change_of(game, before))

    # -- finding games -----------------------------------------------------------
    def list_games(self, *, ruleset: str | None = None, status: str | None = None, cursor: str | None = None,
                   limit: int = 50, open_seats: bool | None = None) -> Json:
        """Games newest first, as anyone may see them (their public header:
        no token, no seed), after ``cursor``, filtered by ``ruleset`` and
        ``status``; ``next`` is the cursor of the next page (``None``: the
        last). At most ``LIST_SCAN`` games are looked at per page, so a filter
        that matches few ends a page early (with a ``next``) rather than scan
        everything."""
        after = after_cursor(cursor)
        found: list[Json] = []
        scanned, last = 0, after
        while len(found) < limit and scanned < LIST_SCAN:
            ids = self.store.games_index.page(last, min(100, LIST_SCAN - scanned))
            if not ids:
                return {"games": found, "next": None}
            expired = []
            for (game_id, at), summary in zip(ids, self.store.summaries([i for i, _ in ids])):
                scanned, last = scanned + 1, (at, game_id)
                if summary is None:
                    expired.append(game_id)
                    continue
                header = summary["header"]
                if (ruleset is None or header["ruleset"] == ruleset) and (status is None or
                                                                          summary["status"] == status) \
                        and (open_seats is None or bool(summary["open"]) == open_seats):
                    found.append(_listed(game_id, header, summary))
                    if len(found) == limit:
                        break
            self.store.games_index.drop(*expired)
        return {"games": found, "next": cursor_of(*last) if last is not None else None}

    def list_bots(self, *, cursor: str | None = None, limit: int = 50) -> Json:
        """Registered bots newest first: id, name, kind, rulesets, seating, created_at (never a URL or a secret)."""
        page = self.store.bots.page(after_cursor(cursor), limit)
        bots = [{"id": bot_id, "name": r["name"], "kind": r.get("kind", "webhook"), "rulesets": r["rulesets"],
                 "seating": r["seating"], "created_at": at} for bot_id, at, r in page]
        return {"bots": bots, "next": cursor_of(page[-1][1], page[-1][0]) if len(page) == limit else None}

    # -- reading --------------------------------------------------------------
    def view(self, game_id: str, token: str | None, head: Head | None = None) -> bytes:
        """The encoded view ``token``'s seat (none: a spectator) is sent; the
        public part is encoded once per version for every reader
        (``referee.engine.encoded_views``). ``head`` as for ``load``: read
        from Redis in this request, so the view is never older than a move
        some client has seen acknowledged (issue 36 item 7)."""
        game = self.load(game_id, head)
        seat = self.seat_of(game, token)
        return encoded_view(game.ruleset, game.state, seat, active=game.status == "active",
                            envelope=self._envelope_of(game), key=(game.id, game.version, game.header_hash),
                            cache=self.views, memo=game.memo)

    @staticmethod
    def _envelope_of(game: Game) -> Json:
        rs = game.ruleset
        return {"id": game.id, "ruleset": rs.name, "ruleset_version": rs.version, "version": game.version,
                "status": game.status, "turn_deadline": game.turn_deadline(), "seats": game.seats(),
                "custom": game.header["custom"], "seed_commitment": game.header["seed_commitment"]}

    def view_of(self, game: Game, seat: Seat | None) -> Json:
        """The view as a JSON value (replays, tools): what ``view`` encodes."""
        return {**self._envelope_of(game),
                **seat_view(game.ruleset, game.state, seat, active=game.status == "active", memo=game.memo)}
