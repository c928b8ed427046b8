"""Tournaments: bots play many games in workers; seats and public roles
rotate so every entrant plays every seat (or public role) equally, hidden
roles stay as the deal made them; standings carry wins,
win rate per role and an OpenSkill rating with its uncertainty.

Standings are folded in as each game finishes and stored, so reading a
tournament never recomputes them. A tournament can be cancelled (its cancel
token, or the admin token): no new game starts, the games already being
played finish and count.

Quotas (issue 22), so that tournaments cannot starve the games people play:
a caller without the admin token (counted by address, as the rate limiter
counts an anonymous caller) may have at most ``REFEREE_TOURNAMENTS_PER_CLIENT``
unfinished tournaments (429 past it), and the deployment plays at most
``REFEREE_TOURNAMENT_GAMES_MAX`` tournament games at once: a new tournament
is refused (503) while that many are being played, and a running one whose
next game finds no slot waits in line for one (FIFO), launched as games
finish. Both are leases in Redis, renewed as the tournament's games finish
and freed when it finishes or is cancelled (its slot) or when a game
finishes (a game slot); a lease a crashed worker never freed lapses after
``REFEREE_TOURNAMENT_LEASE_S``, and a caller's slots are recounted against
their tournaments' status before each creation.

What is kept, and where, is ``referee.store.tournaments``'s.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from referee.bots import BUILT_IN
from referee.engine import sha256_hex
from referee.engine.protocol import GameConfig, Json, RefereeError, Ruleset, fold
from referee.engine.rng import Rng
from referee.errors import ApiError
from referee.games import registry
from referee.play.standings import (  # noqa: F401 (pure: shared with the arena)
    DuplicateName,
    Standings,
    seating,
    standings,
    unique_names,
)
from referee.play.tournament_quotas import DEFAULT_PARALLEL, Caps, Quotas, admit, free_quota
from referee.service import GameService, new_game_id, webhooks
from referee.service.listing import after_cursor
from referee.service.spectator_options import DELAY_OPTION, OMNISCIENT_OPTION
from referee.store.listing import cursor_of
from referee.store.tournaments import IN_FLIGHT, TournamentStore
from referee.tokens import new_token

#: a game claimed and not dealt this long after its tournament was cancelled never will be: the seed opens
CLAIM_LAPSE_MS = 60_000
#: the platform's options a tournament passes to each game it deals, beside the ruleset's (which the
#: ruleset checks alone, to see the deal: ``_launch``)
PLATFORM_OPTIONS = ("turn_timeout_s", "clock", DELAY_OPTION, OMNISCIENT_OPTION)
#: the most tournaments one look at the line of those waiting for a game slot launches games of
KICK_ROUNDS = 64


class _Full(Exception):
    """No game slot is free in the deployment: the tournament waits in line."""


class Tournaments:
    """Tournaments over the games of ``svc``, kept in ``kept``, under ``quotas``
    (``None``: the environment's). ``hold``: the games this launches are
    held for their launcher (no job queued for them, only watched): a worker
    that plays their first bot turns itself (``workers.jobs``), and finds
    their ids in ``launched``."""

    def __init__(self, svc: GameService, kept: TournamentStore, quotas: Quotas | None = None, *,
                 hold: bool = False) -> None:
        self.svc = svc
        self.kept = kept
        self.quotas = quotas if quotas is not None else Quotas.from_settings()
        self.hold = hold
        #: the games launched so far, held (``hold``) for whoever made this object
        self.launched: list[str] = []
        #: the specs read so far: a tournament's spec never changes once stored
        self._specs: dict[str, Json] = {}

    def _retain(self, tid: str, running: bool) -> None:
        """A tournament's keys live as long as its games do (docs/operations.md):
        the idle retention while it runs, refreshed as each game finishes,
        the finished retention once it is over; all expire together."""
        self.kept.retain(tid, self.kept.ttl_ms(running=running))

    # -- creation -------------------------------------------------------------
    def create(self, spec: Json, caps: Caps | None = None, caller: str | None = None) -> Json:
        """Validate and store a tournament; the caller enqueues ``start``.
        ``caps`` bound the games and parallel games (``None``: the admin's
        ceiling); ``caller``: whose quota it counts in (``None``: the admin,
        exempt). The 201 body carries the ``cancel_token``, shown once."""
        rs = _ruleset(spec["ruleset"])
        parallel = _parallel(spec, caps)
        entrants = _named([self._entrant(e, rs.name) for e in spec["entrants"]])
        players = _players(spec, rs, len(entrants))
        options = dict(spec.get("options") or {})
        if "callback_url" in options:  # options are public (GET /v1/tournaments/{id}); a game's secret, unknown
            raise ApiError(422, "invalid_options", "a tournament's games are delivered to its own callback_url")
        # every game it deals is created with these options: refused now, as a game's would be, not in a worker
        if self.svc.game_options(rs, options, [{"bot": e["bot"]} for e in entrants[:players]]).series:
            raise ApiError(422, "invalid_options", "series is for a game, not a tournament's games")
        hook = None if "callback_url" not in spec else {
            "url": webhooks.callback_option(spec["callback_url"]), "secret": webhooks.Webhooks.new_secret()}
        seed = spec.get("seed") or secrets.token_hex(32)
        tid = "t_" + secrets.token_hex(6)
        cancel_token = new_token()
        record = {"id": tid, "ruleset": rs.name, "entrants": entrants, "players": players,
                  "games": spec["games"], "options": options, "parallel": parallel,
                  "seed_commitment": sha256_hex(seed), "seeded_by_client": "seed" in spec,
                  "created_at": self.svc.clock(), **({"callback": hook} if hook else {})}
        fields = {"spec": json.dumps(record), "status": "running", "seed": seed, "next": 0,
                  "finished": 0, "cancel_hash": sha256_hex(cancel_token)}
        self._store(tid, fields, Standings([e["name"] for e in entrants]), caller)
        self._retain(tid, running=True)
        secret = {"callback_secret": hook["secret"]} if hook else {}  # shown once, as the cancel token
        return {**self.get(tid), "cancel_token": cancel_token, **secret}

    def _store(self, tid: str, fields: dict[str, Any], empty: Standings, caller: str | None) -> None:
        """Store a new tournament, counted in its caller's quota (``admit``;
        the caller's slot freed again if the write fails)."""
        counted = admit(self.kept, self.quotas, tid, caller, self.svc.clock())
        if counted:
            fields["quota"] = str(caller)
        try:
            self.kept.create(tid, fields, empty.dumps())
        except BaseException:
            if counted:
                self.kept.free(self.kept.quota_key(str(caller)), tid)
            raise

    def _entrant(self, entrant: Any, ruleset: str) -> tuple[Json, bool]:
        """``({bot, name}, whether the client chose the name)``; a name not
        given is the bot's (a registered bot's own name, else its id)."""
        bot, name = (entrant, None) if isinstance(entrant, str) else (entrant.get("bot"), entrant.get("name"))
        given = name is not None
        if bot not in BUILT_IN:
            found = self.svc.bots.get(str(bot))
            if found is None:
                raise ApiError(422, "unknown_bot", f"no built-in or registered bot {bot!r}")
            if ruleset not in found[0]["rulesets"]:
                raise ApiError(422, "bot_ruleset", f"bot {bot} does not play {ruleset}")
            self.svc.check_seating(str(bot), None if isinstance(entrant, str) else entrant.get("bot_secret"))
            name = name or found[0]["name"]
        return {"bot": bot, "name": name or bot}, given

    # -- cancelling -----------------------------------------------------------
    def cancel_token_matches(self, tid: str, token: str) -> bool:
        stored = self.kept.field(tid, "cancel_hash")
        return stored is not None and hmac.compare_digest(sha256_hex(token), stored)

    def cancel(self, tid: str, token: str | None, *, admin: bool) -> Json:
        """Stop launching games (status ``cancelled``); the games being played
        finish and count; the caller's slot is free. Needs the cancel token or
        the admin token (without either: 401 before anything is read)."""
        if not admin and token is None:
            raise ApiError(401, "token_required", "cancelling needs the tournament's cancel_token (or the "
                           "admin token): Authorization: Bearer <token>")
        self._spec(tid)
        if not admin and not self.cancel_token_matches(tid, str(token)):
            raise ApiError(401, "bad_token", "this is not the tournament's cancel token")
        before = self.kept.close(tid, "cancelled", self.svc.clock())
        if before == "finished":
            raise ApiError(409, "tournament_finished", "the tournament is over: nothing to cancel")
        if before == "running":
            free_quota(self.kept, tid)
        return self.get(tid)

    # -- running --------------------------------------------------------------
    def start(self, tid: str) -> str:
        """Launch games until ``parallel`` of them are being played: the
        first ones, or, when a start job is retried, the ones a failed run did
        not launch (never more); while tournaments wait for a game slot, or
        when none is free, it waits in line (FIFO) instead."""
        spec = self._spec(tid)
        if self.quotas.games_max is not None and self.kept.waiting():  # behind those already in line
            self.kept.wait(tid, self.svc.clock())
            self._kick()
            return "in line"
        launched, _ = self._fill(tid, spec)
        return f"launched {launched}"

    def _fill(self, tid: str, spec: Json) -> tuple[int, bool]:
        """Launch games until ``parallel`` are being played or none is left:
        how many, and whether a full deployment stopped it (it waits in line)."""
        launched = 0
        for _ in range(spec["parallel"]):
            try:
                game = self._launch_next(tid, spec)
            except _Full:
                return launched, True
            if game is None:
                return launched, False
            launched += 1
            if not game[1]:  # its claim found no game to launch after it: no slot taken to be freed
                return launched, False
        return launched, False

    def _kick(self, rounds: int = KICK_ROUNDS, waits: tuple[str, int] | None = None) -> None:
        """Game slots may be free: launch the games of the tournaments waiting
        for one, longest waiting first, until one finds none. ``waits``: a
        tournament and since when, put in line first (in the same round trip
        as the first look at the line)."""
        for i in range(rounds):
            waiting = self.kept.wait_then_next(*waits) if i == 0 and waits is not None else self.kept.next_waiting()
            if waiting is None:
                return
            tid, since = waiting
            try:
                spec = self._spec(tid)
            except ApiError:  # expired while it waited
                continue
            if self._fill(tid, spec)[1]:
                self.kept.wait(tid, since)  # still first in line
                return

    def _launch_next(self, tid: str, spec: Json) -> tuple[str, bool] | None:
        """Launch the next game: its id and whether another could be launched
        now (``_launch``); ``None`` when there is none to launch now; raises
        ``_Full`` (the tournament now waits) when the deployment plays its
        most tournament games."""
        # the game's id is drawn first: its game slot is taken under it, and freed when that game finishes
        slot, cap, game_id = None, self.quotas.games_max, new_game_id()
        if cap is not None:
            now = self.svc.clock()
            if not self.kept.take(IN_FLIGHT, game_id, cap, now, self.quotas.lease_ms)[0]:
                self.kept.wait(tid, now)
                raise _Full(tid)
            slot = game_id
        try:
            launched = self._launch(tid, spec, game_id)
        except BaseException:
            if slot is not None:
                self.kept.free(IN_FLIGHT, slot)
            raise
        if slot is not None and launched is None:
            self.kept.free(IN_FLIGHT, slot)
        return launched

    def _launch(self, tid: str, spec: Json, game_id: str) -> tuple[str, bool] | None:
        """Claim the next game index and create its game under ``game_id``:
        its id, and whether the claim left another to launch now; ``None`` if
        none is to be launched."""
        index, tournament_seed, more = self.kept.claim(tid, spec["games"], spec["parallel"])
        if index < 0:
            return None
        rs = registry.get(spec["ruleset"])
        seed = hmac.new(tournament_seed, f"game:{index}".encode(), hashlib.sha256).hexdigest()
        options = dict(spec["options"])
        platform = {name: options.pop(name) for name in PLATFORM_OPTIONS if name in options}
        public = None
        if rs.role_order:  # the deal this secret seed will make: who holds the public roles
            config = GameConfig(players=spec["players"], options=rs.validate_options(dict(options), spec["players"]))
            public = rs.public_roles(fold(rs, rs.setup(config, Rng(seed.encode()))))
        seats = [spec["entrants"][e] for e in seating(index, len(spec["entrants"]), spec["players"], public,
                                                       rs.role_order)]
        options.update(platform)
        try:
            game = self.svc.create_game(rs.name, seats=[{"name": s["name"], "bot": s["bot"]} for s in seats],
                                        options=options, tournament=tid, tournament_seed=seed,
                                        tournament_custom=spec["seeded_by_client"], held=self.hold,
                                        game_id=game_id, callback=_callback(spec))
        except RefereeError as err:
            if err.status != 422:  # a conflict, Redis: the job is retried
                raise
            self._stop(tid, err)
            return None
        if self.hold:
            self.launched.append(str(game["id"]))
        self.kept.add_game(tid, index, str(game["id"]))
        return str(game["id"]), more

    def _stop(self, tid: str, err: RefereeError) -> None:
        """A game is refused for good (a registered bot deleted since, options
        stored before they were checked at creation): the tournament stops,
        as if cancelled, with the refusal as ``stopped``; its caller's slot is
        free, and its seed opens once the games being played are over."""
        if self.kept.stop(tid, json.dumps({"code": err.code, "detail": err.detail}), self.svc.clock()) == "running":
            free_quota(self.kept, tid)
            self._retain(tid, running=False)

    def game_finished(self, tid: str, game_id: str) -> str:
        """Record a finished game into the stored standings (once), then
        launch the next game while the tournament runs."""
        spec = self._spec(tid)
        game = self.svc.cached(game_id)
        if game.status == "active":  # a copy this process holds may be behind; a finished game never changes
            game = self.svc.load(game_id)
        result = game.ruleset.result(game.state)
        if result is None:
            return "not_finished"
        entry = {"game": game_id, "result": result, "custom": game.header["custom"],
                 "entrants": [s["name"] for s in game.header["seats"]], "events": game.version}
        entry["latency"] = self.svc.loader.timing(game).latencies()
        recorded = self._record(tid, spec, entry)
        finished = recorded[0] if recorded is not None else None
        self.kept.free(IN_FLIGHT, game_id)  # its game slot (again, if this is a retry)
        if finished is not None and finished >= spec["games"] and self._close_finished(tid):
            return "tournament_finished"
        # as the recording left them (a retry's: read now)
        owner, status = recorded[1:] if recorded is not None else self.kept.fields(tid, "quota", "status")
        running = status == "running"
        if running and finished is not None and owner:  # the caller's quota slot, renewed
            self.kept.renew(self.kept.quota_key(owner), tid, self.svc.clock(), self.quotas.lease_ms)
        self._next_games(tid, spec, running)
        if finished is None:
            return "duplicate"
        if not running:  # recording it gave the keys the retention of a running tournament (_record)
            self._retain(tid, running=False)
        return "recorded"

    def _close_finished(self, tid: str) -> bool:
        """Its last game recorded: the tournament is over (whether this closed
        it): the caller's slot freed, the finished retention, and the game
        slot it leaves goes to a tournament waiting for one."""
        if self.kept.close(tid, "finished", self.svc.clock()) != "running":
            return False
        free_quota(self.kept, tid)
        self._retain(tid, running=False)
        self._kick()
        return True

    def _next_games(self, tid: str, spec: Json, running: bool) -> None:
        """Launch the next games after one finished (a retry too: a run that
        recorded the game may have died before launching them); with a cap
        on the deployment's games, in line behind the tournaments already
        waiting for a game slot."""
        if self.quotas.games_max is None:
            self._fill(tid, spec)
        else:
            self._kick(KICK_ROUNDS, (tid, self.svc.clock()) if running else None)

    def _record(self, tid: str, spec: Json, entry: Json) -> tuple[int, str | None, str | None] | None:
        """Add one result, its winners and its share of the standings in one
        step (optimistic: two workers finishing games at once retry); the
        number of games finished and the tournament's ``quota`` and
        ``status`` then, or ``None`` if it was recorded before."""
        game_id = entry["game"]
        has_standings, index = self.kept.recording(tid, game_id)
        if not has_standings:  # stored before standings were kept: built now, the game index with them
            self._migrate(tid, spec)
            index = self.kept.index_of(tid, game_id)
        if index is None:  # launched by a referee from before the index (a rolling upgrade)
            index = next((i for i, gid in self.kept.games(tid).items() if gid == game_id), None)
            if index is None:
                raise ApiError(404, "game_not_in_tournament", f"game {game_id} is not a game of {tid}")

        def fold(stored: bytes | None) -> str:
            table = Standings.loads(stored)
            table.record(int(index), entry)
            return table.dumps()
        return self.kept.record(tid, game_id, json.dumps(entry), json.dumps(_winners(entry)), fold,
                                events=int(entry.get("events", 0)), ttl_ms=self.kept.ttl_ms(running=True))

    def _migrate(self, tid: str, spec: Json) -> None:
        """Tournaments stored before standings were kept: build the game
        index, winners and standings from the results, once."""
        if self.kept.has_standings(tid):
            return
        by_index = self.kept.games(tid)
        results = {k: json.loads(v) for k, v in self.kept.results(tid).items()}
        table = Standings([e["name"] for e in spec["entrants"]])
        winners = {}
        for index, game_id in sorted(by_index.items()):
            if game_id in results:
                table.record(index, results[game_id])
                winners[game_id] = json.dumps(_winners(results[game_id]))
        self.kept.migrate(tid, {gid: i for i, gid in by_index.items()}, winners, table.dumps())

    # -- reading --------------------------------------------------------------
    def _spec(self, tid: str) -> Json:
        """The tournament's spec, read once by this object (a game finished
        reads it, then the launch of the next game: one round trip)."""
        spec = self._specs.get(tid)
        if spec is None:
            raw = self.kept.field(tid, "spec")
            if raw is None:
                raise ApiError(404, "tournament_not_found", f"no tournament with id {tid!r}")
            spec = self._specs[tid] = json.loads(raw)
        return spec

    def _lapsed(self, closed_at: str | None) -> bool:
        """Whether a cancelled tournament stopped running long enough ago
        that a game claimed before then and not dealt never will be (its
        worker died, or a referee from before refused games were counted,
        ``failed``); closed by such a referee: no time kept, long ago."""
        return closed_at is None or self.svc.clock() - int(closed_at) >= CLAIM_LAPSE_MS

    def list(self, *, status: str | None = None, cursor: str | None = None, limit: int = 50) -> Json:
        """Tournaments newest first (their public facts), after ``cursor``, filtered by ``status``."""
        after, found = after_cursor(cursor), []
        for _ in range(20):  # a page of a rare status ends early (with a next) rather than scan everything
            page = self.kept.page(after, limit)
            for tid, at, fields in page:
                after = (at, tid)
                spec = json.loads(fields["spec"] or "{}")
                if status is None or fields["status"] == status:
                    found.append({"id": tid, "ruleset": spec.get("ruleset"), "status": fields["status"],
                                  "players": spec.get("players"), "games_total": spec.get("games"),
                                  "games_finished": int(fields["finished"] or 0), "created_at": at,
                                  "entrants": [e["name"] for e in spec.get("entrants", [])]})
                    if len(found) == limit:
                        return {"tournaments": found, "next": cursor_of(at, tid)}
            if len(page) < limit:
                return {"tournaments": found, "next": None}
        return {"tournaments": found, "next": cursor_of(*after) if after else None}

    def get(self, tid: str) -> Json:
        """Progress, games and the stored standings: nothing is recomputed."""
        spec = self._spec(tid)
        self._migrate(tid, spec)
        status, seed, finished, launched, events, failed, stopped, closed_at = self.kept.fields(
            tid, "status", "seed", "finished", "next", "events", "failed", "stopped", "closed_at")
        by_index = self.kept.games(tid)
        winners = {k: json.loads(v) for k, v in self.kept.winners(tid).items()}
        table = Standings.loads(self.kept.standings(tid))
        games = [{"index": i, "id": gid, "status": "finished" if gid in winners else "active",
                  "winners": winners.get(gid)} for i, gid in sorted(by_index.items())]
        n_finished, n_launched = int(finished or 0), min(int(launched or 0), spec["games"])
        # the seed derives every game's seed: open it only once no game it dealt is being played, nor will be
        # (a claimed game is accounted for once dealt, or refused: ``failed``; or, never dealt, once lapsed)
        over = status == "finished" or (status == "cancelled" and all(g["status"] == "finished" for g in games) and (
            n_finished + int(failed or 0) >= n_launched or self._lapsed(closed_at)))
        return {
            "id": tid, "ruleset": spec["ruleset"], "status": status, "players": spec["players"],
            "games_total": spec["games"], "games_launched": n_launched, "games_finished": n_finished,
            "events_recorded": int(events or 0), "parallel": spec["parallel"], "options": spec["options"],
            "entrants": spec["entrants"], "seed_commitment": spec["seed_commitment"],
            "seed": seed if over else None, "created_at": spec["created_at"],
            "rated": not spec["seeded_by_client"], "stopped": json.loads(stopped) if stopped else None,
            "games": games, "standings": table.table(),
        }


def _callback(spec: Json) -> tuple[str, str] | None:
    """The tournament's game-end webhook, ``(url, secret)``, for each game it deals."""
    hook = spec.get("callback")
    return (hook["url"], hook["secret"]) if hook else None


def _ruleset(name: str) -> Ruleset[Any]:
    try:
        return registry.get(name)
    except KeyError:
        raise ApiError(422, "unknown_ruleset", f"no ruleset {name!r}") from None


def _parallel(spec: Json, caps: Caps | None) -> int:
    """The games played at once; without the admin token (``caps``) a
    tournament asks at most its caps (403: the request is well-formed, the
    caller lacks the admin token a tournament this large needs)."""
    parallel: int = spec.get("parallel", min(DEFAULT_PARALLEL, caps.parallel if caps else DEFAULT_PARALLEL))
    if caps is not None and (spec["games"] > caps.games or parallel > caps.parallel):
        raise ApiError(403, "tournament_too_large",
                       f"at most {caps.games} games and {caps.parallel} in parallel without the admin token "
                       f"(asked {spec['games']} and {parallel})", max_games=caps.games,
                       max_parallel=caps.parallel)
    return parallel


def _players(spec: Json, ruleset: Ruleset[Any], entrants: int) -> int:
    """Each game's seats (default: every entrant, as the ruleset allows), no more than the entrants."""
    players: int = spec.get("players") or min(max(entrants, ruleset.min_players), ruleset.max_players)
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise ApiError(422, "bad_player_count",
                       f"{ruleset.name} takes {ruleset.min_players}–{ruleset.max_players} players")
    if entrants < players:
        raise ApiError(422, "too_few_entrants", f"{players}-player games need at least {players} entrants")
    return players


def _named(entrants: list[tuple[Json, bool]]) -> list[Json]:
    """The entrants under names unique in the tournament (``unique_names``):
    two names given alike are 422 ``duplicate_entrant_name``."""
    try:
        names = unique_names([(entrant["name"], given) for entrant, given in entrants])
    except DuplicateName as err:
        raise ApiError(422, "duplicate_entrant_name", str(err), name=err.name) from None
    return [{**entrant, "name": name} for (entrant, _), name in zip(entrants, names)]


def _winners(entry: Json) -> list[str]:
    return [entry["entrants"][w] for w in entry["result"]["winners"]]
