"""Loading and caching a game: its header once, then only the events newer
than the version this process holds (a version-keyed state cache, bounded,
least recently used first out)."""
from __future__ import annotations

import hmac
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from referee.engine import LOG_FORMAT, record
from referee.engine.chain import keyed_hmac_sha256
from referee.engine.platform import CHAT_EVENTS, MOVE, SEAT_EVENTS, SECRETS_OPENED
from referee.engine.protocol import Json, Seat, fold
from referee.engine.timing import Timing, timing_after
from referee.errors import ApiError, not_found
from referee.games import registry
from referee.service.game import Game
from referee.service.presence_events import away_after
from referee.store.redis_store import EventStore, Head


class Loader:
    """The games this process has loaded, each at the newest version it knows."""

    def __init__(self, store: EventStore, cache_size: int = 4096) -> None:
        self.store = store
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        #: a game Redis does not have, written back from the archive: whether it was (``referee.service.archiving``)
        self.restore: Callable[[str], bool] | None = None

    def load(self, game_id: str, head: Head | None = None) -> Game:
        """The game at its latest version: cached state plus any newer events.
        ``head``: the game's head if the caller read it from Redis already in
        this request (the rate limiter reads it in its round trip) — never one
        known from before the request, which may be older than a move a client
        has seen acknowledged since (issue 36 item 7)."""
        version, last_hash, rng, status, last_at = self._head_of(game_id, head)
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is not None and cached.version >= version:
            # as new as the head, or newer (a move this process appended after the head was read):
            # a game's versions only grow, so the newest it knows is served
            return cached
        if cached is None:
            cached = self._load_header(game_id)
        tail = self.store.read(game_id, after=cached.version, upto=version)
        game = self._folded(cached, tail, version=version, last_hash=last_hash, rng=rng, status=status,
                            last_at=last_at)
        self.remember(game)
        return game

    def _folded(self, cached: Game, tail: list[Json], **head: Any) -> Game:
        """``cached`` with the events of ``tail`` folded in, at ``head``: its
        state, the secrets opened, the last version that is no chat, a clocked
        game's clock and, after a seat event, who holds each seat."""
        state = fold(cached.ruleset, record.ruleset_events(tail), cached.state)
        opened = cached.opened.union(*(e["data"]["secrets"] for e in tail if e["type"] == SECRETS_OPENED))
        played = next((e["seq"] for e in reversed(tail) if e["type"] not in CHAT_EVENTS), cached.play_version)
        game = replace(cached, state=state, opened=opened, played=played,
                       timing=timing_after(cached.timing, cached.version, tail, head["version"]), **head)
        clocked = [e["data"]["clock"] for e in tail if e["type"] == MOVE and "clock" in e["data"]]
        if clocked:  # a clocked game's clock, as its last move left it (referee.engine.clock)
            game = replace(game, clock=clocked[-1])
        if any(e["type"] in SEAT_EVENTS for e in tail):  # a seat claimed or a token reissued: who holds what
            game = replace(game, **self._seats_of(game.id), away=away_after(game, tail))
        return game

    def timing(self, game: Game) -> Timing:
        """The seats' timing of ``game`` at its version: as this process folded
        it appending or reading the game's events (``Game.timing_known``), else
        its log read now and folded. A tournament records a game's ``cells``, a
        ladder a rated game's ``Timing.health``: both read here (``Timing.latencies``)."""
        known = game.timing_known()
        if known is not None:
            return known
        return Timing.start(game.players).fold(self.store.read(game.id, 0, game.version), game.version)

    def _head_of(self, game_id: str, head: Head | None) -> Head:
        """The game's head as given, else as Redis has it, else (written back
        from the archive) as the archive had it; 404 when none has the game."""
        head = head if head is not None else self.store.head(game_id)
        if head is None and self.restore is not None and self.restore(game_id):
            head = self.store.head(game_id)
        if head is None:
            raise not_found(game_id)
        return head

    def _load_header(self, game_id: str) -> Game:
        """The game before its first event: its header, secrets and seats, as stored."""
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
                           f"format {LOG_FORMAT} only (docs/audit.md, \"The hash chain\")")
        seed, dealt = self.store.secret(game_id)
        return Game(game_id, ruleset, header, meta["header_hash"], tuple(json.loads(meta["tokens"])), seed, 0,
                    meta["header_hash"], 0, "active", None, 0, dealt,
                    names=tuple(json.loads(meta["names"])) if "names" in meta else (),
                    mac=keyed_hmac_sha256(seed.encode()), callback="callback_url" in meta,
                    timing=Timing.start(int(header["players"])))

    def _seats_of(self, game_id: str) -> dict[str, Any]:
        meta = self.store.meta(game_id) or {}
        return {"tokens": tuple(json.loads(meta.get("tokens", "[]"))),
                "names": tuple(json.loads(meta["names"])) if "names" in meta else ()}

    def cached(self, game_id: str) -> Game:
        """The cached game, possibly stale (the append's version check catches
        that); loads it if this process has never seen it."""
        with self._lock:
            game = self._cache.get(game_id)
        return game if game is not None else self.load(game_id)

    def remember(self, game: Game) -> None:
        """``game`` is the newest version of it this process knows."""
        with self._lock:
            self._cache[game.id] = game
            self._cache.move_to_end(game.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def holds_hash(self, game_id: str, seat: Seat, digest: str) -> bool:
        """Whether ``digest`` is ``seat``'s token hash right now, as the store
        has it (not this process's cache)."""
        meta = self.store.meta(game_id)
        held = json.loads(meta["tokens"]) if meta is not None else []
        return 0 <= seat < len(held) and hmac.compare_digest(digest, held[seat])

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

