"""Creating a game: validate (the ruleset, its seats, options and bots) →
deal (the seed, the setup's events, the secrets dealt) → store (header,
tokens, the opening envelopes) → respond (the 201 body, each seat's secret
token shown once)."""
from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine import LOG_FORMAT, canonical, header_hash, record, sha256_hex
from referee.engine.chain import keyed_hmac_sha256
from referee.engine.platform import default_seat_name
from referee.engine.protocol import Event, GameConfig, Json, Ruleset
from referee.engine.rng import Rng
from referee.engine.timing import Timing
from referee.errors import ApiError
from referee.games import registry
from referee.service.changes import Changes
from referee.service.game import NO_TOKEN, OPEN, Game, new_game_id
from referee.service.loading import Loader
from referee.service.metrics import GAMES_STARTED
from referee.service.options import Checks, GameOptions, open_seat_clock
from referee.service.spectator_options import header_fields
from referee.service.webhooks import Webhooks
from referee.store.redis_store import EventStore
from referee.tokens import new_token


@dataclass(frozen=True, slots=True)
class Rematch:
    """What a rematch (``referee.service.rematch``) adds to the game it deals:
    the finished game it follows (``of``), the seat each of its seats had
    there (``seats_from``; its people's seats are open, kept for them), its
    place in a series (the header's ``series``, ``None``: none) and the hash
    of the owner token it keeps (the finished game's: one creator, one token)."""

    of: str
    seats_from: list[int]
    series: Json | None
    owner_hash: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NewGame:
    """What a new game is asked for (``GameService.create_game``)."""

    ruleset: str
    players: int | None = None
    seats: list[Json] | None = None
    options: Mapping[str, Any] | None = None
    seed: str | None = None
    setup: Mapping[str, Any] | None = None
    tournament: str | None = None
    tournament_seed: str | None = None
    tournament_custom: bool = False
    game_id: str | None = None
    rematch: Rematch | None = None
    #: a tournament's game-end webhook, ``(url, secret)``: every game it deals is delivered there
    callback: tuple[str, str] | None = None
    #: the ladder whose pool deals the game (header ``pool``: a rated game, ``referee.ladder.pool``)
    pool: str | None = None


@dataclass(frozen=True, slots=True)
class Validated:
    """A new game's ruleset, seats and options, every one checked."""

    ruleset: Ruleset[Any]
    seats: list[Json]
    options: GameOptions
    #: each seat's registered bot's owner (``None``: a person's seat, a built-in bot's), in the header
    owners: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new game dealt: its seed, the opening events and what they leave."""

    seed: str
    custom: bool
    rng: int  # the generator's position after the deal
    produced: list[tuple[Any, Event]]
    state: Any
    secrets: Json  # the secrets dealt, by name
    opened: frozenset[str]


@dataclass(frozen=True, slots=True)
class Stored:
    """A new game as stored, with what only its creator is shown: each seat's token and the owner token."""

    game: Game
    tokens: list[str | None]
    owner: str | None  # None: a rematch's, which keeps the finished game's owner token
    callback_secret: str | None = None  # signs the game-end webhook's deliveries (referee.service.webhooks)


def _ruleset(name: str) -> Ruleset[Any]:
    try:
        return registry.get(name)
    except KeyError:
        raise ApiError(422, "unknown_ruleset", f"no ruleset {name!r}; see GET /v1/rulesets") from None


def _seat_specs(ruleset: Ruleset[Any], players: int | None, seats: list[Json] | None) -> list[Json]:
    """The seats asked for (``players`` empty ones, or ``seats`` listed; both: the same count), as many
    as the ruleset seats."""
    seat_specs = list(seats) if seats is not None else [{} for _ in range(players or 0)]
    if players is not None and seats is not None and players != len(seats):
        raise ApiError(422, "player_count_mismatch", f"players is {players} but {len(seats)} seats are listed")
    count = len(seat_specs)
    if not ruleset.min_players <= count <= ruleset.max_players:
        raise ApiError(422, "bad_player_count",
                       f"{ruleset.name} takes {ruleset.min_players}–{ruleset.max_players} players, not {count}",
                       rule=ruleset.platform_rules.get("player_count"))
    return seat_specs


def deal(validated: Validated, request: NewGame) -> Dealt:
    """The seed (the client's, the tournament's, else a fresh secret one) and the opening events it deals.
    ``tournament_seed`` is one the referee derived for a tournament game: unlike a client's ``seed`` it does
    not make the game custom, unless the tournament's seed came from a client (``tournament_custom``)."""
    ruleset = validated.ruleset
    custom = request.seed is not None or request.setup is not None or request.tournament_custom
    seed = request.seed if request.seed is not None else request.tournament_seed \
        if request.tournament_seed is not None else secrets.token_hex(32)
    rng = Rng(seed.encode())
    ruleset.check_scenario(request.setup)  # the published setup schema, enforced
    config = GameConfig(players=len(validated.seats), options=validated.options.rules, scenario=request.setup)
    events = ruleset.setup(config, rng)
    produced, state, dealt, opened = record.deal(ruleset, events, seed)
    return Dealt(seed, custom, rng.position, produced, state, dealt, opened)


def header(game_id: str, validated: Validated, dealt: Dealt, request: NewGame, now: int) -> Json:
    """The new game's header: what its log commits to before any move."""
    ruleset, options = validated.ruleset, validated.options
    out: Json = {
        "id": game_id, "ruleset": ruleset.name, "ruleset_version": ruleset.version,
        "players": len(validated.seats), "options": options.rules, "setup": request.setup,
        "seats": [{"seat": i, "name": s.get("name") or default_seat_name(i), "bot": s.get("bot"),
                   **({"open": True} if s.get("open") else {}), **_owner(validated.owners, i)}
                  for i, s in enumerate(validated.seats)],
        "seed_commitment": sha256_hex(dealt.seed), "created_at": now, "custom": dealt.custom,
        "log_format": LOG_FORMAT,
    }
    if options.turn_timeout_s is not None:
        out["turn_timeout_s"] = options.turn_timeout_s
    if options.clock is not None:
        out["clock"] = options.clock
    if options.start_timeout_s is not None:
        out["start_timeout_s"], out["start_bot"] = options.start_timeout_s, options.start_bot
    if options.chat is not None:
        out["chat"] = options.chat
    if options.rated:
        out["rated"] = True
    out.update(header_fields(options.spectators))
    if request.tournament is not None:
        out["tournament"] = request.tournament
    if request.pool is not None:
        out["pool"] = request.pool
    if request.rematch is not None:
        out["rematch"] = {"of": request.rematch.of, "seats_from": request.rematch.seats_from}
    series = request.rematch.series if request.rematch is not None else None if options.series is None else {
        "id": game_id, **options.series, "game": 1, "players": list(range(len(validated.seats)))}
    if series is not None:
        out["series"] = series
    out.update(options.away)  # away_grace_s, away_bot: only when the creator gave them
    return out


def _owner(owners: tuple[str | None, ...], seat: int) -> Json:
    """A header seat's ``owner``: its registered bot's (the anti-pumping rule
    reads it from the log, ``referee.ladder.ratings``), nothing for any other seat."""
    owner = owners[seat] if seat < len(owners) else None
    return {} if owner is None else {"owner": owner}


def respond(stored: Stored) -> Json:
    """The 201 body: the game's public facts, each seat's token and the owner token (shown once)."""
    game, seats = stored.game, stored.game.header["seats"]
    return {
        "id": game.id, "ruleset": game.ruleset.name, "ruleset_version": game.ruleset.version,
        "version": game.version, "status": game.status, "custom": game.header["custom"],
        "seed_commitment": game.header["seed_commitment"], "created_at": game.header["created_at"],
        "owner_token": stored.owner,
        "seats": [{"seat": i, "token": stored.tokens[i], "name": seat["name"], "bot": seat["bot"],
                   **({"open": True} if seat.get("open") else {})} for i, seat in enumerate(seats)],
        **({"callback_secret": stored.callback_secret} if stored.callback_secret is not None else {}),
    }


def _seat_tokens(seats: list[Json]) -> tuple[list[str | None], list[str]]:
    """Each seat's new token (a bot's and an open seat's: none) and what the
    store keeps of it: its hash, ``OPEN`` or ``NO_TOKEN``. A bot's seat gets
    no token (its moves come from the worker, recorded with ``by``): no
    person can move for it, so the audit refuses a bot seat's move without
    ``by``."""
    tokens = [None if seat["bot"] or seat.get("open") else new_token() for seat in seats]
    hashes = [sha256_hex(token) if token else OPEN if seat.get("open") else NO_TOKEN
              for seat, token in zip(seats, tokens)]
    return tokens, hashes


@dataclass(eq=False)
class Creation:
    """Deals and stores new games."""

    store: EventStore
    loader: Loader
    changes: Changes
    checks: Checks
    clock: Callable[[], int]

    def create_game(self, request: NewGame, *, held: bool = False) -> Json:
        """Deal a new game; returns the 201 body with each seat's secret token.
        ``held``: the scheduler queues nothing for the new game (only
        watches it): its creator, a worker, plays its first turns itself."""
        validated = self.validate(request)
        dealt = deal(validated, request)
        stored = self.store_game(request.game_id if request.game_id is not None else new_game_id(),
                                 validated, dealt, request)
        self.loader.remember(stored.game)
        if held:
            self.changes.hold(stored.game)
        else:
            self.changes.notify(stored.game, None)
        return respond(stored)

    def validate(self, request: NewGame) -> Validated:
        """The ruleset, the seat count, the options (``Checks.game_options``), then each seat."""
        ruleset = _ruleset(request.ruleset)
        seat_specs = _seat_specs(ruleset, request.players, request.seats)
        options = self.checks.game_options(ruleset, request.options, seat_specs)
        owners = self.checks.check_seats(seat_specs, ruleset.name)
        if options.rated and (request.seed is not None or request.setup is not None):
            raise ApiError(422, "invalid_options", "a rated game is dealt by the referee: no seed, no setup "
                           "(a chosen deal makes the game custom, and custom games move no rating)")
        if options.series is not None and request.tournament is not None:
            raise ApiError(422, "invalid_options", "series is for a game, not a tournament's games")
        # a rematch's seats are open for the people who played: its clock is the finished game's
        unclocked = options.turn_timeout_s is None and options.clock is None
        if unclocked and request.rematch is None and any(s.get("open") for s in seat_specs):
            options = options._replace(turn_timeout_s=open_seat_clock())  # a silent claimant cannot hold the table
        return Validated(ruleset, seat_specs, options, tuple(owners))

    def store_game(self, game_id: str, validated: Validated, dealt: Dealt, request: NewGame) -> Stored:
        """Header, tokens and opening envelopes written in one step (409 if the id is taken), and indexed."""
        now = self.clock()
        ruleset, head = validated.ruleset, header(game_id, validated, dealt, request, now)
        first_prev = header_hash(head)
        envelopes, last_hash = record.chained(dealt.seed, first_prev, 0, dealt.produced, now)
        seats = head["seats"]
        tokens, hashes = _seat_tokens(seats)
        # the creator's: reissues a seat's lost token (a rematch keeps the finished game's)
        owner = new_token() if request.rematch is None else None
        owner_hash = request.rematch.owner_hash if request.rematch is not None else sha256_hex(str(owner))
        status = "finished" if ruleset.result(dealt.state) is not None else "active"
        meta = {"version": str(len(envelopes)), "last_hash": last_hash, "rng": str(dealt.rng),
                "status": status, "header": canonical(head), "header_hash": first_prev,
                "tokens": json.dumps(hashes), "ruleset": ruleset.name, "owner": owner_hash,
                "names": json.dumps([seat["name"] for seat in seats]), "last_at": str(now)}
        secret = {"seed": dealt.seed, "dealt": canonical(dealt.secrets)}
        callback = request.callback or (None if validated.options.callback_url is None
                                        else (validated.options.callback_url, Webhooks.new_secret()))
        if callback is not None:  # never in the header: the creator's to know, not the log's
            meta["callback_url"], secret["callback_secret"] = callback
        if not self.store.create(game_id, meta, secret, envelopes):
            raise ApiError(409, "game_exists", "a game with this id exists; try again")
        self.store.index_game(game_id, now)
        GAMES_STARTED.labels(ruleset=ruleset.name).inc()
        game = Game(game_id, ruleset, head, first_prev, tuple(hashes), dealt.seed,
                    len(envelopes), last_hash, dealt.rng, status, dealt.state, now, dealt.secrets, dealt.opened,
                    tuple(seat["name"] for seat in seats), keyed_hmac_sha256(dealt.seed.encode()),
                    callback=callback is not None,
                    timing=Timing.start(int(head["players"])).fold(envelopes, len(envelopes)))
        return Stored(game, tokens, owner, secret.get("callback_secret"))
