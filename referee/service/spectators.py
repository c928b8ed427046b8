"""Spectator tiers (issue 40 item 6): a game created with
``spectator_delay: N`` shows spectators (no token) the game ``N`` versions
late while it is running — the view, the event pages and streams, replay and
the games list all stop at the *delayed version*: the newest version a client
could have been shown (``record.shown_versions``) that is at most the head's
version minus ``N``. Inside the delay (no such version yet) a spectator sees
the game's envelope at version 0 and nothing of its state. Once the game is
over everything is public, as in every game.

With ``spectator_omniscient: true`` as well (the creator opts in, for
broadcasts) ``GET /v1/games/{id}/broadcast`` shows every seat's view at that
same delayed version: never inside the delay, never to a seated token (403
``broadcast_not_for_seats``). A seat that opens a second, anonymous
connection is a spectator like any other: the delay is the protection, which
is why an omniscient broadcast needs a delay of at least
``MIN_OMNISCIENT_DELAY`` versions.

Built by replay: the delayed state is folded from the stream up to the
delayed version, never read from the live state."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from referee.engine import record
from referee.engine.protocol import Json, fold, seat_view
from referee.engine.statecache import Memo
from referee.errors import ApiError
from referee.service.game import Game, game_but
from referee.service.presence import Shown
from referee.service.spectator_options import DELAY_OPTION, OMNISCIENT_OPTION, tiers_of
from referee.service.viewing import envelope_of
from referee.store.redis_store import EventStore


def is_delayed(game: Game) -> bool:
    """Whether spectators see ``game`` late now: it has a delay and is running."""
    return game.status == "active" and DELAY_OPTION in game.header


def delayed_version(shown: list[int], version: int, delay: int) -> int:
    """The newest of the ``shown`` versions at most ``version - delay`` (0: inside the delay)."""
    return max((v for v in shown if v <= version - delay), default=0)


def listed_late(store: EventStore, entry: Json, header: Json) -> Json:
    """A game as ``GET /v1/games`` lists it, at the version its spectators
    see (a running game with a delay; whether it runs is public at once)."""
    if DELAY_OPTION not in header:
        return entry
    entry = {**entry, DELAY_OPTION: int(header[DELAY_OPTION])}
    if entry["status"] != "active":
        return entry
    types = [e["type"] for e in store.read(entry["id"], after=0, upto=int(entry["version"]))]
    return {**entry, "version": delayed_version(record.shown_versions(types), len(types), int(header[DELAY_OPTION]))}


@dataclass(frozen=True, slots=True)
class Delayed:
    """A running game as its delayed spectators see it: the game at the
    delayed version (``version`` 0 inside the delay, no state) and the
    versions shown up to it."""

    game: Game
    shown: list[int]

    @property
    def version(self) -> int:
        return self.game.version


@dataclass(frozen=True, slots=True)
class _Held:
    """One game as ``LateGames`` holds it: its events' types up to the head
    it last read, and its state folded at the delayed version then (with
    that version's receipt time)."""

    header_hash: str
    types: list[str]
    version: int
    state: Any
    last_at: int
    memo: Memo


class LateGames:
    """The running games with a delay this process has shown spectators, each
    folded at the newest delayed version it reached (the least recently
    shown first out): the next spectator's request reads only the events
    since and folds only up to the new delayed version, instead of the
    whole stream again. It holds each game's state and its events' types,
    not its events."""

    def __init__(self, store: EventStore, size: int = 256) -> None:
        self.store = store
        self._held: OrderedDict[str, _Held] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def delayed(self, game: Game) -> Delayed:
        """``game`` (running, with a delay) folded up to its delayed version,
        by replay of its stream: nothing newer is read into its state."""
        tiers = tiers_of(game)
        with self._lock:
            held = self._held.get(game.id)
        start = int(game.header["created_at"])
        if held is None or held.header_hash != game.header_hash or len(held.types) > game.version:
            held = _Held(game.header_hash, [], 0, None, start, Memo())  # new here, or a stale copy of the game
        types = held.types + [e["type"] for e in self.store.read(game.id, after=len(held.types), upto=game.version)]
        every = record.shown_versions(types)
        version = delayed_version(every, game.version, tiers.delay if tiers is not None else 0)
        if version < held.version:  # only a stale head goes back: fold again from the start
            held = _Held(game.header_hash, [], 0, None, start, Memo())
        state, last_at = held.state, held.last_at
        if version > held.version:
            envs = self.store.read(game.id, after=held.version, upto=version)
            state, last_at = fold(game.ruleset, record.ruleset_events(envs), held.state), int(envs[-1]["at"])
        self._remember(game.id, _Held(game.header_hash, types, version, state, last_at, held.memo))
        at = game_but(game, version=version, state=state, status="active", memo=held.memo, last_at=last_at)
        return Delayed(at, [v for v in every if v <= version])

    def envelopes(self, late: Delayed, after: int, upto: int | None = None) -> list[Json]:
        """The envelopes of ``late``'s game after ``after``, up to its delayed version (or ``upto``, below it)."""
        return self.store.read(late.game.id, after=after, upto=late.version if upto is None else upto)

    def _remember(self, game_id: str, held: _Held) -> None:
        with self._lock:
            self._held[game_id] = held
            self._held.move_to_end(game_id)
            while len(self._held) > self._size:
                self._held.popitem(last=False)


def spectator_view(delayed_game: Delayed, presence: tuple[Shown, ...] | None = None) -> Json:
    """The spectator's view at the delayed version: no turn clock (the clock
    runs at the head, which spectators do not see); inside the delay, the
    envelope and nothing of the state. ``presence``: each person's seat as
    the table sees it now (``referee.service.presence``: public, live, like
    the seats' names; it tells nothing of the game)."""
    game = delayed_game.game
    envelope = envelope_of(game, presence=presence, clock=False)
    if game.state is None:
        return {**envelope, "seat": None, "to_act": [], "legal_moves": [], "pending": None, "deadline": None,
                "result": None, "state": {}}
    return {**envelope, **seat_view(game.ruleset, game.state, None, active=True, memo=game.memo)}


def broadcast(late: LateGames, game: Game, seat: int | None) -> Json:
    """The delayed omniscient view: the spectator view plus every seat's view
    at the delayed version (none inside the delay); once the game is over,
    every seat's view at its end. 403 to a seated token, and for a game whose
    creator did not opt in."""
    tiers = tiers_of(game)
    if tiers is None or not tiers.omniscient:
        raise ApiError(403, "broadcast_not_offered", "this game's creator did not opt in to an omniscient "
                       f"broadcast (options {DELAY_OPTION} and {OMNISCIENT_OPTION}: true)")
    if seat is not None:
        raise ApiError(403, "broadcast_not_for_seats", "the omniscient broadcast shows every hand: a seated "
                       "token never sees it (a seat sees its own view: GET /v1/games/{id})")
    if game.status != "active":
        view = {**envelope_of(game), **seat_view(game.ruleset, game.state, None, active=False, memo=game.memo)}
        return {**view, "views": [game.ruleset.view(game.state, s) for s in range(game.players)]}
    at = late.delayed(game)
    views = [] if at.game.state is None else [at.game.ruleset.view(at.game.state, s) for s in range(game.players)]
    return {**spectator_view(at), "views": views}


def replay(late: LateGames, game: Game, version: int | None) -> Json:
    """Replay for a running game's delayed spectators: only the versions shown
    up to the delayed version (``latest_version``); inside the delay, the
    envelope at version 0 and no version to replay."""
    at = late.delayed(game)
    if version is None:
        version = at.version
    elif not 1 <= version <= at.version:
        raise ApiError(422, "bad_version", f"spectators see this game {game.header[DELAY_OPTION]} versions late: "
                       + (f"version must be within 1..{at.version}" if at.version else "no version yet"))
    elif version not in at.shown:
        raise ApiError(422, "not_a_shown_version", record.not_shown(version, at.shown))
    if version != at.version:
        state = fold(game.ruleset, record.ruleset_events(late.envelopes(at, 0, version)))
        at = Delayed(game_but(at.game, version=version, state=state, memo=Memo()), at.shown)
    return {**spectator_view(at), "latest_version": at.shown[-1] if at.shown else 0, "shown_versions": at.shown}
