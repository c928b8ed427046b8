"""Tournaments: bots play many games in workers; seats and public roles
rotate so every entrant plays every seat (or public role) equally, hidden
roles stay as the deal made them; standings carry wins,
win rate per role and an OpenSkill rating with its uncertainty.

Standings are folded in as each game finishes and stored, so reading a
tournament never recomputes them. A tournament can be cancelled (its cancel
token, or the admin token): no new game starts, the games already being
played finish and count.

Redis keys, all in the tournament's hash slot: ``tournament:{ID}`` (hash:
spec, status ``running|finished|cancelled``, seed, cancel_hash,
next = games launched, finished), ``…:games`` (hash: index -> game id),
``…:index`` (hash: game id -> index), ``…:results`` (hash: game id -> result
with entrants), ``…:winners`` (hash: game id -> winners' names) and
``…:standings`` (the :class:`Standings` fold, JSON).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

import redis
from openskill.models import PlackettLuce

from referee.bots import BUILT_IN
from referee.errors import ApiError
from referee.games import registry
from referee.engine.protocol import GameConfig, Json, fold
from referee.engine.rng import Rng
from referee.service import GameService
from referee.store import sha256_hex

MAX_GAMES = 10_000  # with the admin token; the schema's ceiling
MAX_PARALLEL = 64
DEFAULT_PARALLEL = 8
ANONYMOUS_MAX_GAMES = 1000

# claim the next game index while the tournament runs: -1 once cancelled or all launched
_CLAIM = """
if redis.call('hget', KEYS[1], 'status') ~= 'running' then return -1 end
local n = tonumber(redis.call('hget', KEYS[1], 'next') or '0')
if n >= tonumber(ARGV[1]) then return -1 end
redis.call('hset', KEYS[1], 'next', n + 1)
return n
"""
# running -> ARGV[1] (finished or cancelled); returns the status before
_CLOSE = """
local status = redis.call('hget', KEYS[1], 'status')
if status == 'running' then redis.call('hset', KEYS[1], 'status', ARGV[1]) end
return status
"""


@dataclass(frozen=True, slots=True)
class Caps:
    """What a tournament may ask for without the admin token (configurable:
    ``REFEREE_TOURNAMENT_MAX_GAMES``, ``REFEREE_TOURNAMENT_MAX_PARALLEL``)."""

    games: int = ANONYMOUS_MAX_GAMES
    parallel: int = DEFAULT_PARALLEL



def seating(index: int, entrants: int, players: int, public_roles: Sequence[str | None] | None = None,
            role_order: Sequence[str] = ()
            ) -> list[int]:
    """Entrant index for each seat of game ``index``.

    Entrants rotate through *slots*: slot ``k`` of game ``g`` goes to entrant
    ``(g + k) % entrants``, so over ``entrants`` consecutive games (when all
    play) everyone takes every slot once. Without roles a slot is a seat.
    With roles dealt by the game's secret seed, the seats whose role is
    public (BANG!'s Sheriff; every role in the 3-player game) come first, in
    role order, then the other seats clockwise from the first of them: the
    public roles rotate exactly, while a hidden role stays as random as the
    deal made it. (Rotating hidden roles by a fixed schedule would let any bot
    work out every other seat's role from the public game index.)"""
    order = list(range(players))
    public = [seat for seat in order if public_roles is not None and public_roles[seat] is not None]
    if public:
        rank = {role: i for i, role in enumerate(role_order)}  # the ruleset's rotation order
        public.sort(key=lambda seat: (rank.get(str(public_roles[seat]), len(rank)), seat))  # type: ignore[index]
        start = public[0]
        order = public + [(start + i) % players for i in range(1, players + 1)
                          if (start + i) % players not in public]
    out = [0] * players
    for k, seat in enumerate(order):
        out[seat] = (index + k) % entrants
    return out


class Tournaments:
    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        self.redis: Any = svc.store.redis

    @staticmethod
    def _key(tid: str, part: str = "") -> str:
        return f"tournament:{{{tid}}}" + (f":{part}" if part else "")

    #: every key of a tournament besides its hash
    PARTS = ("games", "index", "results", "standings", "winners")

    def _retain(self, tid: str, running: bool) -> None:
        """A tournament's keys live as long as its games do (README,
        Operations): the idle retention while it runs, refreshed as each game
        finishes, the finished retention once it is over; all expire together."""
        ttl = self.svc.store.retention.game_ttl_ms("active" if running else "finished")
        pipe = self.redis.pipeline(transaction=False)
        for key in (self._key(tid), *(self._key(tid, part) for part in self.PARTS)):
            if ttl:
                pipe.pexpire(key, ttl)
            else:
                pipe.persist(key)
        pipe.execute()

    # -- creation -------------------------------------------------------------
    def create(self, spec: Json, caps: Caps | None = None) -> Json:
        """Validate and store a tournament; the caller enqueues ``start``.
        ``caps`` bound the games and parallel games (``None``: the admin's
        ceiling). The 201 body carries the ``cancel_token``, shown once."""
        try:
            rs = registry.get(spec["ruleset"])
        except KeyError:
            raise ApiError(422, "unknown_ruleset", f"no ruleset {spec['ruleset']!r}") from None
        parallel = spec.get("parallel", min(DEFAULT_PARALLEL, caps.parallel if caps else DEFAULT_PARALLEL))
        if caps is not None and (spec["games"] > caps.games or parallel > caps.parallel):
            raise ApiError(422, "tournament_too_large",
                           f"at most {caps.games} games and {caps.parallel} in parallel without the admin token "
                           f"(asked {spec['games']} and {parallel})", max_games=caps.games,
                           max_parallel=caps.parallel)
        entrants = [self._entrant(e, rs.name) for e in spec["entrants"]]
        names: dict[str, int] = {}
        for entrant in entrants:  # unique display names: random, random#2, ...
            n = names[entrant["name"]] = names.get(entrant["name"], 0) + 1
            if n > 1:
                entrant["name"] = f"{entrant['name']}#{n}"
        players = spec.get("players") or min(max(len(entrants), rs.min_players), rs.max_players)
        if not rs.min_players <= players <= rs.max_players:
            raise ApiError(422, "bad_player_count", f"{rs.name} takes {rs.min_players}–{rs.max_players} players")
        if len(entrants) < players:
            raise ApiError(422, "too_few_entrants", f"{players}-player games need at least {players} entrants")
        options = dict(spec.get("options") or {})
        probe = dict(options)
        probe.pop("turn_timeout_s", None)
        rs.validate_options(probe, players)
        seed = spec.get("seed") or secrets.token_hex(32)
        tid = "t_" + secrets.token_hex(6)
        cancel_token = secrets.token_urlsafe(24)
        record = {"id": tid, "ruleset": rs.name, "entrants": entrants, "players": players,
                  "games": spec["games"], "options": options, "parallel": parallel,
                  "seed_commitment": sha256_hex(seed), "seeded_by_client": "seed" in spec,
                  "created_at": self.svc.clock()}
        empty = Standings([e["name"] for e in entrants])
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(self._key(tid, "standings"), empty.dumps())
        pipe.hset(self._key(tid), mapping={"spec": json.dumps(record), "status": "running", "seed": seed,
                                           "next": 0, "finished": 0, "cancel_hash": sha256_hex(cancel_token)})
        pipe.execute()
        self._retain(tid, running=True)
        return {**self.get(tid), "cancel_token": cancel_token}

    def _entrant(self, entrant: Any, ruleset: str) -> Json:
        bot, name = (entrant, None) if isinstance(entrant, str) else (entrant.get("bot"), entrant.get("name"))
        if bot not in BUILT_IN:
            found = self.svc.bots.get(str(bot))
            if found is None:
                raise ApiError(422, "unknown_bot", f"no built-in or registered bot {bot!r}")
            if ruleset not in found[0]["rulesets"]:
                raise ApiError(422, "bot_ruleset", f"bot {bot} does not play {ruleset}")
            name = name or found[0]["name"]
        return {"bot": bot, "name": name or bot}

    # -- cancelling -----------------------------------------------------------
    def cancel_token_matches(self, tid: str, token: str) -> bool:
        stored = self.redis.hget(self._key(tid), "cancel_hash")
        return stored is not None and hmac.compare_digest(sha256_hex(token), stored.decode())

    def cancel(self, tid: str, token: str | None, *, admin: bool) -> Json:
        """Stop launching games (status ``cancelled``); the games being played
        finish and count. Needs the cancel token or the admin token."""
        self._spec(tid)
        if not admin:
            if token is None:
                raise ApiError(401, "token_required", "cancelling needs the tournament's cancel_token (or the "
                               "admin token): Authorization: Bearer <token>")
            if not self.cancel_token_matches(tid, token):
                raise ApiError(401, "bad_token", "this is not the tournament's cancel token")
        before = self.redis.eval(_CLOSE, 1, self._key(tid), "cancelled")
        if before == b"finished":
            raise ApiError(409, "tournament_finished", "the tournament is over: nothing to cancel")
        return self.get(tid)

    # -- running --------------------------------------------------------------
    def start(self, tid: str) -> str:
        """Launch games up to ``parallel``: the first ones, or, when a start
        job is retried, the ones a failed run did not launch (never more)."""
        spec = self._spec(tid)
        wanted = min(spec["parallel"], spec["games"]) - int(self.redis.hget(self._key(tid), "next") or 0)
        launched = sum(1 for _ in range(max(0, wanted)) if self._launch_next(tid, spec))
        return f"launched {launched}"

    def _launch_next(self, tid: str, spec: Json) -> str | None:
        index = int(self.redis.eval(_CLAIM, 1, self._key(tid), spec["games"]))
        if index < 0:
            return None
        rs = registry.get(spec["ruleset"])
        seed = hmac.new(self.redis.hget(self._key(tid), "seed") or b"", f"game:{index}".encode(),
                        hashlib.sha256).hexdigest()
        options = dict(spec["options"])
        turn_timeout = options.pop("turn_timeout_s", None)
        public = None
        if rs.role_order:  # the deal this secret seed will make: who holds the public roles
            config = GameConfig(players=spec["players"], options=rs.validate_options(dict(options), spec["players"]))
            public = rs.public_roles(fold(rs, rs.setup(config, Rng(seed.encode()))))
        seats = [spec["entrants"][e] for e in seating(index, len(spec["entrants"]), spec["players"], public,
                                                       rs.role_order)]
        if turn_timeout is not None:
            options["turn_timeout_s"] = turn_timeout
        game = self.svc.create_game(rs.name, seats=[{"name": s["name"], "bot": s["bot"]} for s in seats],
                                    options=options, tournament=tid, tournament_seed=seed,
                                    tournament_custom=spec["seeded_by_client"])
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self._key(tid, "games"), str(index), game["id"])
        pipe.hset(self._key(tid, "index"), game["id"], index)
        pipe.execute()
        return str(game["id"])

    def game_finished(self, tid: str, game_id: str) -> str:
        """Record a finished game into the stored standings (once), then
        launch the next game while the tournament runs."""
        spec = self._spec(tid)
        game = self.svc.load(game_id)
        result = game.ruleset.result(game.state)
        if result is None:
            return "not_finished"
        entry = {"game": game_id, "result": result, "custom": game.header["custom"],
                 "entrants": [s["name"] for s in game.header["seats"]]}
        finished = self._record(tid, spec, entry)
        if finished is None:
            return "duplicate"
        self._launch_next(tid, spec)
        if finished >= spec["games"] and self.redis.eval(_CLOSE, 1, self._key(tid), "finished") == b"running":
            self._retain(tid, running=False)
            return "tournament_finished"
        self._retain(tid, running=self.redis.hget(self._key(tid), "status") == b"running")
        return "recorded"

    def _record(self, tid: str, spec: Json, entry: Json) -> int | None:
        """Add one result, its winners and its share of the standings in one
        transaction (optimistic: two workers finishing games at once retry);
        the number of games finished, or ``None`` if it was recorded before."""
        self._migrate(tid, spec)
        game_id = entry["game"]
        raw_index = self.redis.hget(self._key(tid, "index"), game_id)
        if raw_index is None:  # launched by a referee from before the index (a rolling upgrade)
            raw_index = next((k for k, v in self.redis.hgetall(self._key(tid, "games")).items()
                              if v.decode() == game_id), None)
            if raw_index is None:
                raise ApiError(404, "game_not_in_tournament", f"game {game_id} is not a game of {tid}")
        results, table_key = self._key(tid, "results"), self._key(tid, "standings")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(results, table_key)
                    if pipe.hexists(results, game_id):
                        return None
                    table = Standings.loads(pipe.get(table_key))
                    table.record(int(raw_index), entry)
                    pipe.multi()
                    pipe.hset(results, game_id, json.dumps(entry))
                    pipe.hset(self._key(tid, "winners"), game_id, json.dumps(_winners(entry)))
                    pipe.set(table_key, table.dumps())
                    pipe.hincrby(self._key(tid), "finished", 1)
                    return int(pipe.execute()[-1])
                except redis.WatchError:
                    continue

    def _migrate(self, tid: str, spec: Json) -> None:
        """Tournaments stored before standings were kept: build the game
        index, winners and standings from the results, once."""
        if self.redis.exists(self._key(tid, "standings")):
            return
        by_index = {int(k): v.decode() for k, v in self.redis.hgetall(self._key(tid, "games")).items()}
        results = {k.decode(): json.loads(v) for k, v in self.redis.hgetall(self._key(tid, "results")).items()}
        table = Standings([e["name"] for e in spec["entrants"]])
        for index, game_id in sorted(by_index.items()):
            self.redis.hset(self._key(tid, "index"), game_id, index)
            if game_id in results:
                table.record(index, results[game_id])
                self.redis.hset(self._key(tid, "winners"), game_id, json.dumps(_winners(results[game_id])))
        self.redis.set(self._key(tid, "standings"), table.dumps(), nx=True)

    # -- reading --------------------------------------------------------------
    def _spec(self, tid: str) -> Json:
        raw = self.redis.hget(self._key(tid), "spec")
        if raw is None:
            raise ApiError(404, "tournament_not_found", f"no tournament with id {tid!r}")
        spec: Json = json.loads(raw)
        return spec

    def get(self, tid: str) -> Json:
        """Progress, games and the stored standings: nothing is recomputed."""
        spec = self._spec(tid)
        self._migrate(tid, spec)
        status, seed, finished, launched = (v.decode() if v else None for v in self.redis.hmget(
            self._key(tid), "status", "seed", "finished", "next"))
        by_index = {int(k): v.decode() for k, v in self.redis.hgetall(self._key(tid, "games")).items()}
        winners = {k.decode(): json.loads(v) for k, v in self.redis.hgetall(self._key(tid, "winners")).items()}
        table = Standings.loads(self.redis.get(self._key(tid, "standings")))
        games = [{"index": i, "id": gid, "status": "finished" if gid in winners else "active",
                  "winners": winners.get(gid)} for i, gid in sorted(by_index.items())]
        n_finished, n_launched = int(finished or 0), min(int(launched or 0), spec["games"])
        # the seed derives every game's seed: open it only once no game it dealt is still being played
        over = status == "finished" or (status == "cancelled" and n_finished >= n_launched)
        return {
            "id": tid, "ruleset": spec["ruleset"], "status": status, "players": spec["players"],
            "games_total": spec["games"], "games_launched": n_launched, "games_finished": n_finished,
            "parallel": spec["parallel"], "options": spec["options"],
            "entrants": spec["entrants"], "seed_commitment": spec["seed_commitment"],
            "seed": seed if over else None, "created_at": spec["created_at"],
            "rated": not spec["seeded_by_client"],
            "games": games, "standings": table.table(),
        }


def _winners(entry: Json) -> list[str]:
    return [entry["entrants"][w] for w in entry["result"]["winners"]]


class Standings:
    """Per entrant: games, wins, win rate, win rate per role and an OpenSkill
    (Plackett–Luce) rating, folded in one finished game at a time and
    stored as JSON. Counts take a game at once; ratings fold in game order
    (a game's rating waits until every earlier game is in), so they do not
    depend on which worker finished first and equal :func:`standings` over
    the same results. Custom games never move a rating, nor does a game
    where one entrant holds two seats."""

    def __init__(self, names: list[str], state: Json | None = None) -> None:
        self.state: Json = state if state is not None else {
            "rows": {name: {"name": name, "games": 0, "wins": 0, "roles": {}} for name in names},
            "ratings": {}, "rated_upto": 0, "pending": {}}

    @classmethod
    def loads(cls, raw: bytes | str | None) -> Standings:
        return cls([], json.loads(raw)) if raw else cls([])

    def dumps(self) -> str:
        return json.dumps(self.state, separators=(",", ":"))

    def record(self, index: int, entry: Json) -> None:
        """Fold in the result of game ``index``."""
        result = entry["result"]
        winners = set(result["winners"])
        seats = sorted(result["seats"], key=lambda s: s["seat"])
        rows = self.state["rows"]
        for s in seats:
            row = rows[entry["entrants"][s["seat"]]]
            won = s["seat"] in winners
            row["games"] += 1
            row["wins"] += int(won)
            cell = row["roles"].setdefault(s.get("role") or "any", {"games": 0, "wins": 0})
            cell["games"] += 1
            cell["wins"] += int(won)
        names = [entry["entrants"][s["seat"]] for s in seats]
        rated = not entry.get("custom") and len(set(names)) == len(names)
        pending = self.state["pending"]
        pending[str(index)] = {"names": names, "ranks": [1 if s["seat"] in winners else 2 for s in seats]} \
            if rated else None
        while str(self.state["rated_upto"]) in pending:
            game = pending.pop(str(self.state["rated_upto"]))
            if game is not None:
                self._rate(game["names"], game["ranks"])
            self.state["rated_upto"] += 1

    def _rate(self, names: list[str], ranks: list[float]) -> None:
        model = PlackettLuce()
        ratings = self.state["ratings"]
        teams = [[model.rating(mu=ratings[n][0], sigma=ratings[n][1], name=n) if n in ratings
                  else model.rating(name=n)] for n in names]
        for name, team in zip(names, model.rate(teams, ranks=ranks)):
            ratings[name] = [team[0].mu, team[0].sigma]

    def table(self) -> list[Json]:
        """The rows, sorted by the rating's conservative ordinal (mu - 3
        sigma), then by wins."""
        model = PlackettLuce()
        out = []
        for name, stored in self.state["rows"].items():
            row = {**stored, "roles": {role: {**cell, "win_rate": cell["wins"] / cell["games"]}
                                       for role, cell in stored["roles"].items()}}
            row["win_rate"] = row["wins"] / row["games"] if row["games"] else 0.0
            mu, sigma = self.state["ratings"].get(name, (None, None))
            rating = model.rating(mu=mu, sigma=sigma)
            row["rating"] = {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}
            out.append(row)
        out.sort(key=lambda row: (-row["rating"]["ordinal"], -row["wins"]))
        return out


def standings(names: list[str], results: list[Json]) -> list[Json]:
    """The standings of ``results`` in game order, folded from scratch (the
    reference the stored, incremental :class:`Standings` must equal)."""
    table = Standings(names)
    for index, entry in enumerate(results):
        table.record(index, entry)
    return table.table()
