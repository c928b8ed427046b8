"""The ladders' matchmaking pools (issue 42 item 3; docs/ladder.md, "The
pool"): an owner puts a registered bot in a ladder's pool, and the workers
keep matching the pooled bots into games (``match``: the tables
``referee.ladder.matching`` proposes, each booked at once in Redis before it
is dealt, so two workers matching together never book a bot past its games
at once), until the owner takes it out or it is paused
(``referee.ladder.pause``) when its games show it timing out or answering
invalidly. The built-in bots sit in every pool as anchors of the ratings,
unless the admin puts one in explicitly (``put_builtin``): then the pool's
built-in bots play through their entries only, like registered bots — to
warm a pool, or to measure it (``python -m bench pool``).

A ladder's key is its ruleset's name (``bang``: every table size the ruleset
seats), or ``<ruleset>:<players>`` for one table size only (``bang:3``).
Every game a pool deals carries ``pool: <key>`` in its header: the ratings
count it. What is kept, and where, is ``referee.store.pool``'s.
"""
from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING, Any

from referee import settings
from referee.bots import BUILT_IN
from referee.engine.protocol import Json, RefereeError, Ruleset
from referee.engine.rng import Rng
from referee.errors import ApiError
from referee.games import registry
from referee.ladder import pause
from referee.ladder.matching import Anchor, Table, Waiting, propose
from referee.ladder.ratings import ladder_key, ladder_of
from referee.service.game import new_game_id
from referee.service.metrics import POOL_GAMES_STARTED, POOL_WAIT
from referee.store.pool import PoolState

if TYPE_CHECKING:
    from referee.service import GameService

#: bot ids -> each one's skill in the ladder ``key`` (its rating's ``mu``); one left out: ``DEFAULT_SKILL``
Ratings = Callable[[str, list[str]], Mapping[str, float]]
#: a bot's games at once when its owner does not say: an owner's 8 bots (its most) fit its 16 games at once
DEFAULT_GAMES_AT_ONCE = 2
#: the skill of a bot not rated yet: OpenSkill's start (mu 25), between the anchors (20 and 30)
DEFAULT_SKILL = 25.0
#: "games per minute" is the rate of games started over this long
RECENT_MS = 5 * 60 * 1000
#: a game booked this long ago that does not exist (its worker died before dealing it) is released
DEAL_LAPSE_MS = 60_000
#: the most a limit set ``off`` stands for
UNLIMITED = 1 << 30
#: the most games at once the admin may give a built-in bot's entry
BUILTIN_GAMES_MOST = 256
#: matching rounds one ``fill`` runs at most (each round seats a bot at one new table)
FILL_ROUNDS = 64


def no_ratings(key: str, bots: list[str]) -> Mapping[str, float]:
    """No ratings known: every bot at ``DEFAULT_SKILL`` (all similar)."""
    return {}


@dataclass(frozen=True, slots=True)
class Ladder:
    """A ladder's key, its ruleset and the table sizes its pool deals."""

    key: str
    ruleset: Ruleset[Any]
    sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Limits:
    """The pools' limits (``REFEREE_POOL_*``)."""

    games_per_bot: int
    bots_per_owner: int
    games_per_owner: int
    anchor_games: int

    @classmethod
    def from_settings(cls, config: Mapping[str, Any] | None = None) -> Limits:
        def limit(name: str) -> int:
            value = (config or {}).get(name)
            found = settings.count_limit(value if value is not None else settings.text(f"REFEREE_{name}"), name)
            return UNLIMITED if found is None else found
        return cls(limit("POOL_GAMES_PER_BOT"), limit("POOL_BOTS_PER_OWNER"), limit("POOL_GAMES_PER_OWNER"),
                   limit("POOL_BUILTIN_GAMES"))


def ladder(key: str) -> Ladder:
    """The ladder called ``key`` (404 ``unknown_ladder``): the same keys as
    the ratings' (``referee.ladder.ratings.ladder_key``), so every game a
    pool deals counts in its own ladder — ``bang`` deals 4 to 7 players,
    ``bang:3`` three."""
    name, players = ladder_of(key)
    try:
        ruleset = registry.get(name)
    except KeyError:
        raise ApiError(404, "unknown_ladder", f"no ladder {key!r}: a ladder is a ruleset's name "
                       f"({', '.join(registry.names())}), or bang:3") from None
    sizes = tuple(size for size in range(ruleset.min_players, ruleset.max_players + 1)
                  if ladder_key(name, size) == key)
    if not sizes or (players is not None and key != f"{name}:{players}"):
        raise ApiError(404, "unknown_ladder", f"no ladder {key!r}: a ladder is a ruleset's name "
                       f"({', '.join(registry.names())}), or bang:3")
    return Ladder(key, ruleset, sizes)


def owner_of(record: Json) -> str:
    """A registered bot's owner (a bot registered before owners were kept: its own id)."""
    return str(record.get("owner") or record["id"])


class Pool:
    """The pools of ``svc``'s games, ranked by ``ratings``, under ``limits``;
    ``hold``: each game dealt is handed to it and no job is queued for it
    (a worker that plays its first turns itself, ``workers.jobs.Held``)."""

    def __init__(self, svc: GameService, ratings: Ratings = no_ratings, limits: Limits | None = None,
                 hold: Callable[[str], object] | None = None) -> None:
        self.svc = svc
        self.store = svc.store.pool
        self.ratings = ratings
        self.limits = limits if limits is not None else Limits.from_settings()
        self.hold = hold

    # -- entries -------------------------------------------------------------------
    def put(self, key: str, record: Json, games_at_once: int | None, same_table: int | None) -> Json:
        """Put the owner's bot (``record``: its owner proved) in ``key``'s
        pool, or update its entry; a paused bot plays again."""
        found = ladder(key)
        bot = str(record["id"])
        if found.ruleset.name not in record["rulesets"]:
            raise ApiError(422, "bot_ruleset", f"bot {bot} is registered for {record['rulesets']}, not "
                           f"{found.ruleset.name}: register it for {found.ruleset.name} first")
        games = min(DEFAULT_GAMES_AT_ONCE, self.limits.games_per_bot) if games_at_once is None else games_at_once
        if not 1 <= games <= self.limits.games_per_bot:
            raise ApiError(422, "games_at_once_limit", f"games_at_once is 1–{self.limits.games_per_bot} here")
        seats = _same_table(found, same_table)
        owner = owner_of(record)
        self._take_place(owner, f"{key} {bot}", games)
        entry = {"bot": bot, "name": record["name"], "owner": owner, "games_at_once": games, "same_table": seats,
                 "since": self.svc.clock(), "put": secrets.token_hex(8)}  # put: this put-in, told from the next
        try:
            self.store.put(key, bot, entry, entry["since"])
        except BaseException:
            self.store.free_places(owner, f"{key} {bot}")
            raise
        return self.entry(key, bot)

    def put_builtin(self, key: str, name: str, games_at_once: int | None, same_table: int | None) -> Json:
        """Put the built-in bot ``name`` in ``key``'s pool as an entry (the
        admin's call: no owner's limits); from then on the pool's built-in
        bots are no anchors there, only the entries put in play (``anchors_in``)."""
        found = ladder(key)
        if name not in anchors_of(found):
            raise ApiError(422, "bot_ruleset", f"the built-in bot {name} does not play {found.ruleset.name}")
        games = min(self.limits.anchor_games, BUILTIN_GAMES_MOST) if games_at_once is None else games_at_once
        if not 1 <= games <= BUILTIN_GAMES_MOST:
            raise ApiError(422, "games_at_once_limit", f"games_at_once is 1–{BUILTIN_GAMES_MOST} for a built-in bot")
        seats = _same_table(found, same_table)
        # its own owner: two built-in bots are two owners to the matcher (their games are rated, anchors unmoved)
        now = self.svc.clock()
        self.store.put(key, name, {"bot": name, "name": name, "owner": name, "builtin": True, "games_at_once": games,
                                   "same_table": seats, "since": now, "put": secrets.token_hex(8)}, now)
        return self.entry(key, name)

    def leave_builtin(self, key: str, name: str) -> Json:
        """Take the built-in bot ``name``'s entry out of ``key``'s pool (404 ``not_in_pool``)."""
        ladder(key)
        if self.store.entry(key, name) is None or not self.store.leave(key, name):
            raise ApiError(404, "not_in_pool", f"the built-in bot {name} was not put in the {key} pool")
        playing = self.store.state(key, self.svc.clock(), RECENT_MS).playing.get(name, 0)
        return {"key": key, "bot": name, "left": True, "playing": playing}

    def _take_place(self, owner: str, place: str, games: int) -> None:
        """The owner's place under the per-owner limits (409 past one); places
        whose entry is gone (a failed write, a bot deleted) are dropped first."""
        held = self.store.owner_places(owner)
        gone = [p for p in held if p != place and self._gone(p, owner)]
        self.store.free_places(owner, *gone)
        taken, which, besides = self.store.take_place(owner, place, games, self.limits.bots_per_owner,
                                                      self.limits.games_per_owner)
        if taken:
            return
        if which == "bots":
            raise ApiError(409, "pool_bots_limit", f"this owner has {besides} bots in the pools: at most "
                           f"{self.limits.bots_per_owner}; take one out first", limit=self.limits.bots_per_owner)
        raise ApiError(409, "pool_games_limit", f"this owner's pooled bots ask {besides} games at once besides this "
                       f"one: at most {self.limits.games_per_owner} in all", limit=self.limits.games_per_owner)

    def _gone(self, place: str, owner: str) -> bool:
        key, _, bot = place.partition(" ")
        entry = self.store.entry(key, bot)
        return entry is None or entry.get("owner") != owner or self.svc.bots.get(bot) is None

    def leave(self, key: str, record: Json) -> Json:
        """Take the bot out of ``key``'s pool; its games being played finish (404 ``not_in_pool``)."""
        ladder(key)
        bot = str(record["id"])
        entry = self.store.entry(key, bot)
        if entry is None or not self.store.leave(key, bot):
            raise ApiError(404, "not_in_pool", f"bot {bot} is not in the {key} pool")
        self.store.free_places(str(entry.get("owner") or owner_of(record)), f"{key} {bot}")
        playing = self.store.state(key, self.svc.clock(), RECENT_MS).playing.get(bot, 0)
        return {"key": key, "bot": bot, "left": True, "playing": playing}

    def entry(self, key: str, bot: str) -> Json:
        """One bot's entry as ``show`` lists it (404 ``not_in_pool``)."""
        for entry in self.show(key)["entries"]:
            if entry["bot"]["id"] == bot:
                return dict(entry)
        raise ApiError(404, "not_in_pool", f"bot {bot} is not in the {key} pool")

    def show(self, key: str) -> Json:
        """The pool: each registered bot's entry, the built-in bots', and the stats."""
        found = ladder(key)
        now = self.svc.clock()
        state = self.store.state(key, now, RECENT_MS)
        rows, waiting = [], dict(_waiting(state))
        for bot, entry in sorted(state.entries.items(), key=lambda item: (item[1]["since"], item[0])):
            playing = state.playing.get(bot, 0)
            status = "paused" if bot in state.paused else "waiting" if bot in waiting else "playing"
            rows.append({"bot": {"id": bot, "name": entry["name"], "builtin": bool(entry.get("builtin"))},
                         "status": status,
                         "paused_reason": state.paused.get(bot), "games_at_once": entry["games_at_once"],
                         "same_table": entry["same_table"], "playing": playing, "since": entry["since"],
                         "waiting_since": state.since.get(bot) if status == "waiting" else None})
        anchors_full = state.anchor_games >= self.limits.anchor_games
        for name in anchors_in(found, state):
            rows.append({"bot": {"id": name, "name": name, "builtin": True},
                         "status": "playing" if anchors_full else "waiting", "paused_reason": None,
                         "games_at_once": min(self.limits.anchor_games, UNLIMITED - 1), "same_table": 1,
                         "playing": state.playing.get(name, 0), "since": None, "waiting_since": None})
        return {"key": key, "ruleset": found.ruleset.name, "sizes": list(found.sizes), "entries": rows,
                "stats": {"queue": sum(1 for row in rows if row["status"] == "waiting" and not row["bot"]["builtin"]),
                          "playing_games": state.games,
                          "median_wait_ms": int(median(state.waited)) if state.waited else 0,
                          "games_per_minute": round(state.started * 60_000 / RECENT_MS, 2)}}

    # -- matching ------------------------------------------------------------------
    def match(self, key: str, rng: Rng | None = None) -> list[str]:
        """Deal the games the waiting bots make now (``referee.ladder.matching``);
        their ids. A table whose booking fails (another worker booked one of
        its bots first) is left: the next round matches again."""
        return self._round(key, rng)[0]

    def _round(self, key: str, rng: Rng | None = None) -> tuple[list[str], bool]:
        """``match``, and whether another round may deal more: a waiting bot
        still has a free slot after the tables booked here (as this round read
        the pool), or a booking was refused (the pool changed meanwhile)."""
        found = ladder(key)
        now = self.svc.clock()
        state = self.store.state(key, now, RECENT_MS)
        waiting = _waiting(state)
        if not waiting:
            return [], False
        anchors = anchors_in(found, state)
        skills = self.ratings(key, [bot for bot, _ in waiting] + anchors)
        tables = propose([Waiting(bot, skills.get(bot, DEFAULT_SKILL), entry["same_table"], entry["owner"],
                                  int(state.since.get(bot) or entry["since"])) for bot, entry in waiting],
                         [Anchor(name, skills.get(name, DEFAULT_SKILL)) for name in anchors], found.sizes,
                         self.limits.anchor_games - state.anchor_games, now,
                         rng if rng is not None else Rng(secrets.token_bytes(32)))
        dealt, refused, booked = [], False, Counter[str]()
        for table in tables:
            game_id = self._deal(found, table, state.entries, now)
            if game_id is None:
                refused = True
                continue
            dealt.append(game_id)
            booked.update({bot for bot in table.seats if bot in state.entries})
        free = any(state.playing.get(bot, 0) + booked[bot] < entry["games_at_once"] for bot, entry in waiting)
        return dealt, refused or free

    def fill(self, key: str, rounds: int = FILL_ROUNDS) -> list[str]:
        """Match rounds until one deals nothing (at most ``rounds``): every
        waiting bot's free slots taken at once, not one game a round. A round
        after which no bot it read waits with a free slot is the last (the
        pool read again would find none waiting: a slot freed since, or a bot
        put in since, is matched by the step that freed it or put it in)."""
        dealt: list[str] = []
        for _ in range(rounds):
            more, again = self._round(key)
            dealt += more
            if not more or not again:
                break
        return dealt

    def _deal(self, found: Ladder, table: Table, entries: Mapping[str, Json], now: int) -> str | None:
        """Book ``table`` and deal its game (``None``: not booked)."""
        registered = sorted({bot for bot in table.seats if bot in entries})  # a built-in bot put in too
        anchors = sorted({bot for bot in table.seats if bot not in entries})
        game_id = new_game_id()
        booked, waits = self.store.book(found.key, game_id, list(table.seats), registered, anchors,
                                        self.limits.anchor_games, now)
        if not booked:
            return None
        for waited in waits:
            POOL_WAIT.labels(ladder=found.key).observe(waited / 1000)
        names = _names([entries[bot]["name"] if bot in entries else bot for bot in table.seats])
        try:
            self.svc.create_game(found.ruleset.name, seats=[{"name": name, "bot": bot}
                                                            for name, bot in zip(names, table.seats)],
                                 game_id=game_id, pool=found.key, held=self.hold is not None)
        except RefereeError as err:
            self._undealt(found, game_id, registered, now, err)
            return None
        POOL_GAMES_STARTED.labels(ladder=found.key).inc()
        if self.hold is not None:
            self.hold(game_id)
        return game_id

    def _undealt(self, found: Ladder, game_id: str, registered: list[str], now: int, err: RefereeError) -> None:
        """A booked game the service refused to create: its booking released;
        a 422 for a bot deleted since it was put in takes that bot out of the
        pool, any other refusal is raised."""
        self.store.release(found.key, game_id, now, {}, pause.WINDOW_GAMES)
        if err.status != 422:
            raise err
        for bot in registered:
            if bot not in BUILT_IN and self.svc.bots.get(bot) is None:
                self.store.leave(found.key, bot)

    # -- games over ----------------------------------------------------------------
    def finished(self, key: str, game_id: str, cells: Sequence[Json] | None, seats: Sequence[str | None]) -> str:
        """A pool game is over (``cells``: each seat's moves, timeouts and
        invalid answers, ``referee.play.latency``; ``None``: unknown, a game
        gone): its bots' slots free, each registered bot's part kept in its
        health window, and a bot the window condemns paused."""
        booked = self.store.game(key, game_id)
        if booked is None:
            return "released before"
        health: dict[str, tuple[int, int]] = {}
        for seat, bot in enumerate(seats):
            if bot is None or bot in BUILT_IN or cells is None:
                continue
            played = pause.Played.of(cells[seat])
            turns, faults = health.get(bot, (0, 0))
            health[bot] = (turns + played.turns, faults + played.faults)
        if not self.store.release(key, game_id, self.svc.clock(), health, pause.WINDOW_GAMES):
            return "released before"
        paused = 0
        for bot in health:
            why = pause.reason([pause.Played(t, f) for t, f in self.store.health(key, bot)])
            if why is not None and self.store.pause(key, bot, why, str(booked.get("put", {}).get(bot))):
                paused += 1
        return f"released, {paused} paused"

    def overdue(self, key: str) -> list[tuple[str, str]]:
        """The games booked in ``key``'s pool whose end was not heard:
        ``(id, "over")`` for one finished (its pool step lost), ``(id,
        "gone")`` for one that does not exist (never dealt, or expired)."""
        now = self.svc.clock()
        booked = self.store.games(key)
        out = []
        for (game_id, game), raw in zip(booked.items(), self.svc.store.places.heads(list(booked))):
            head = self.svc.store.parse_head(raw)
            if head is None and now - int(game["at"]) >= DEAL_LAPSE_MS:
                out.append((game_id, "gone"))
            elif head is not None and head[3] != "active":
                out.append((game_id, "over"))
        return out

    def ladders(self) -> list[str]:
        """Every ladder that has (or had) a pool."""
        return list(self.store.ladders())

    def queue(self) -> int:
        """Registered bots waiting for a game, every pool's (the metric ``referee_pool_queue``)."""
        now, waiting = self.svc.clock(), 0
        for key in self.ladders():
            waiting += len(_waiting(self.store.state(key, now, RECENT_MS)))
        return waiting


def anchors_of(found: Ladder) -> list[str]:
    """The built-in bots of ``found``'s ruleset (``heuristic`` where it has one)."""
    return [name for name in BUILT_IN if name != "heuristic" or registry.heuristic(found.ruleset.name) is not None]


def _same_table(found: Ladder, same_table: int | None) -> int:
    """The seats of one table an entry may hold (default 1; 422 ``same_table_limit`` past the largest table)."""
    seats = 1 if same_table is None else same_table
    if not 1 <= seats <= max(found.sizes):
        raise ApiError(422, "same_table_limit", f"same_table is 1–{max(found.sizes)} in {found.key} (its largest "
                       "table)")
    return seats


def anchors_in(found: Ladder, state: PoolState) -> list[str]:
    """The anchors of a pool: its ruleset's built-in bots, none where the admin
    put a built-in bot in as an entry (there they play as entries put in)."""
    if any(entry.get("builtin") for entry in state.entries.values()):
        return []
    return anchors_of(found)


def _waiting(state: PoolState) -> list[tuple[str, Json]]:
    """The registered bots waiting for a game: in, not paused, with a free game slot."""
    return [(bot, entry) for bot, entry in state.entries.items()
            if bot not in state.paused and state.playing.get(bot, 0) < entry["games_at_once"]]


def _names(names: Sequence[str]) -> list[str]:
    """Seat names, a bot holding two seats named ``name#2`` at the second."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out
