"""Tournaments: bots play many games in workers; seats and public roles
rotate so every entrant plays every seat (or public role) equally, hidden
roles stay as the deal made them; standings carry wins,
win rate per role and an OpenSkill rating with its uncertainty.

Redis keys: ``tournament:{ID}`` (hash: spec, status, seed, next, finished,
created_at), ``tournament:{ID}:games`` (hash: index -> game id) and
``tournament:{ID}:results`` (hash: game id -> result with entrants).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any, Sequence

from openskill.models import PlackettLuce

from referee.bots import BUILT_IN
from referee.errors import ApiError
from referee.games import registry
from referee.engine.protocol import GameConfig, Json, fold
from referee.engine.rng import Rng
from referee.service import GameService
from referee.store import sha256_hex

MAX_GAMES = 10_000


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

    # -- creation -------------------------------------------------------------
    def create(self, spec: Json) -> Json:
        """Validate and store a tournament; the caller enqueues ``start``."""
        try:
            rs = registry.get(spec["ruleset"])
        except KeyError:
            raise ApiError(422, "unknown_ruleset", f"no ruleset {spec['ruleset']!r}") from None
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
        record = {"id": tid, "ruleset": rs.name, "entrants": entrants, "players": players,
                  "games": spec["games"], "options": options, "parallel": spec.get("parallel", 8),
                  "seed_commitment": sha256_hex(seed), "seeded_by_client": "seed" in spec,
                  "created_at": self.svc.clock()}
        self.redis.hset(self._key(tid), mapping={"spec": json.dumps(record), "status": "running", "seed": seed,
                                                 "next": 0, "finished": 0})
        return self.get(tid)

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

    # -- running --------------------------------------------------------------
    def start(self, tid: str) -> str:
        spec = self._spec(tid)
        launched = sum(1 for _ in range(min(spec["parallel"], spec["games"])) if self._launch_next(tid, spec))
        return f"launched {launched}"

    def _launch_next(self, tid: str, spec: Json) -> str | None:
        index = int(self.redis.hincrby(self._key(tid), "next", 1)) - 1
        if index >= spec["games"]:
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
        self.redis.hset(self._key(tid, "games"), str(index), game["id"])
        return str(game["id"])

    def game_finished(self, tid: str, game_id: str) -> str:
        spec = self._spec(tid)
        game = self.svc.load(game_id)
        result = game.ruleset.result(game.state)
        if result is None:
            return "not_finished"
        entry = {"game": game_id, "result": result, "custom": game.header["custom"],
                 "entrants": [s["name"] for s in game.header["seats"]]}
        if not self.redis.hsetnx(self._key(tid, "results"), game_id, json.dumps(entry)):
            return "duplicate"
        finished = int(self.redis.hincrby(self._key(tid), "finished", 1))
        self._launch_next(tid, spec)
        if finished >= spec["games"]:
            self.redis.hset(self._key(tid), "status", "finished")
            return "tournament_finished"
        return "recorded"

    # -- reading --------------------------------------------------------------
    def _spec(self, tid: str) -> Json:
        raw = self.redis.hget(self._key(tid), "spec")
        if raw is None:
            raise ApiError(404, "tournament_not_found", f"no tournament with id {tid!r}")
        spec: Json = json.loads(raw)
        return spec

    def get(self, tid: str) -> Json:
        spec = self._spec(tid)
        status, seed, finished = (v.decode() if v else None for v in
                                  self.redis.hmget(self._key(tid), "status", "seed", "finished"))
        by_index = {int(k): v.decode() for k, v in self.redis.hgetall(self._key(tid, "games")).items()}
        results = {k.decode(): json.loads(v) for k, v in self.redis.hgetall(self._key(tid, "results")).items()}
        games = [{"index": i, "id": gid, "status": "finished" if gid in results else "active",
                  "winners": [results[gid]["entrants"][w] for w in results[gid]["result"]["winners"]]
                  if gid in results else None} for i, gid in sorted(by_index.items())]
        ordered = [results[g["id"]] for g in games if g["id"] in results]
        return {
            "id": tid, "ruleset": spec["ruleset"], "status": status, "players": spec["players"],
            "games_total": spec["games"], "games_finished": int(finished or 0), "options": spec["options"],
            "entrants": spec["entrants"], "seed_commitment": spec["seed_commitment"],
            "seed": seed if status == "finished" else None, "created_at": spec["created_at"],
            "rated": not spec["seeded_by_client"],
            "games": games, "standings": standings([e["name"] for e in spec["entrants"]], ordered),
        }


def standings(names: list[str], results: list[Json]) -> list[Json]:
    """Per entrant: games, wins, win rate, win rate per role and an OpenSkill
    (Plackett–Luce) rating, folded over the non-custom ``results`` in game
    order; sorted by the rating's conservative ordinal (mu - 3 sigma), then
    by wins."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    table: dict[str, Json] = {name: {"name": name, "games": 0, "wins": 0, "roles": {}} for name in names}
    for entry in results:
        result = entry["result"]
        winners = set(result["winners"])
        seats = sorted(result["seats"], key=lambda s: s["seat"])
        for s in seats:
            name = entry["entrants"][s["seat"]]
            row = table[name]
            won = s["seat"] in winners
            row["games"] += 1
            row["wins"] += int(won)
            role = s.get("role") or "any"
            cell = row["roles"].setdefault(role, {"games": 0, "wins": 0})
            cell["games"] += 1
            cell["wins"] += int(won)
        names_in_game = [entry["entrants"][s["seat"]] for s in seats]
        # custom games never count toward ratings; an entrant in two seats cannot be rated
        if not entry.get("custom") and len(set(names_in_game)) == len(names_in_game):
            teams = model.rate([[ratings[n]] for n in names_in_game],
                               ranks=[1 if s["seat"] in winners else 2 for s in seats])
            for n, team in zip(names_in_game, teams):
                ratings[n] = team[0]
    out = []
    for name, row in table.items():
        r = ratings[name]
        row["win_rate"] = row["wins"] / row["games"] if row["games"] else 0.0
        for cell in row["roles"].values():
            cell["win_rate"] = cell["wins"] / cell["games"]
        row["rating"] = {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        out.append(row)
    out.sort(key=lambda row: (-row["rating"]["ordinal"], -row["wins"]))
    return out
