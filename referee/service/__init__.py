"""The one place that joins the rules and the store (DESIGN.md, Architecture):
load → fold → decide → append → respond. Flask views and RQ jobs both call it,
so a bot can never do what a client cannot.

One module per use case; ``GameService`` is the façade its callers hold:

- ``game``: the ``Game`` value (a game loaded at one version), ``seat_of``;
- ``loading``: loading and caching a game (``Loader``);
- ``creation``: validate → deal → store → respond (``Creation``), its
  options and bots checked by ``options``;
- ``moves``: submitting moves, idempotency included (``Moves``), each
  decided by ``deciding``; a worker's run of bot moves decided and appended;
- ``seats``: seats claimed, given to a bot at the start deadline, reissued;
- ``chat``: the table chat, each message an event of the chain;
- ``changes``: what the job queue must know after each change (``change_of``)
  and telling it (``Changes``, through a ``Scheduler``);
- ``listing``: games and bots, a page at a time; ``viewing``: a seat's view;
- ``reading`` (events, streams, replay: it reads the service, never the
  reverse), ``scheduling`` (the RQ adapter), ``metrics``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee import keys
from referee.archive import from_env as archive_from_env
from referee.engine import sha256_hex
from referee.engine.encoded_views import ViewCache
from referee.engine.jsonenc import dumps
from referee.engine.protocol import Json, Move, Ruleset, Seat
from referee.engine.signature import Keyring
from referee.service import listing, spectators, viewing
from referee.service.archiving import Archiving
from referee.service.changes import Changes, Scheduler, change_of
from referee.service.chat import Chat
from referee.service.creation import Creation, NewGame
from referee.service.deciding import Decided
from referee.service.game import Game, new_game_id, seat_of, wall_ms
from referee.service.loading import Loader
from referee.service.moves import Moves
from referee.service.options import Checks, GameOptions
from referee.service.presence import Presence, shown, window_ms
from referee.service.rematch import Rematches, view_links
from referee.service.scheduling import Change
from referee.service.seats import Seats
from referee.service.transparency import Transparency
from referee.service.webhooks import Webhooks
from referee.store.clients import (
    REDIS_UNAVAILABLE as REDIS_UNAVAILABLE,  # for the API: it talks to the service, not the store
)
from referee.store.pushed import Pushed
from referee.store.redis_store import EventStore, Head

if TYPE_CHECKING:
    from referee.archive.db import Archive

__all__ = ["REDIS_UNAVAILABLE", "Decided", "Game", "GameService", "Scheduler", "new_game_id"]


class GameService:
    """Games over an :class:`EventStore`, with a version-keyed state cache."""

    def __init__(self, store: EventStore, *, clock: Callable[[], int] = wall_ms,
                 scheduler: Scheduler | None = None, cache_size: int = 4096, pushed: Pushed | None = None,
                 keyring: Keyring | None = None, archive: Archive | None = None) -> None:
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
        self.loader = Loader(store, cache_size)
        #: the running games spectators see late, each at its delayed version (``referee.service.spectators``)
        self.late = spectators.LateGames(store)
        self.changes = Changes(scheduler, self.now)
        #: the job queue (``NoScheduler`` when there is none: it hears every change and drops it)
        self.scheduler: Scheduler = self.changes.scheduler
        self.checks = Checks(self.loader, store.bots)
        #: games' end webhooks (option ``callback_url``, ``referee.service.webhooks``)
        self.webhooks = Webhooks(store, self.loader, self.now)
        self.creation = Creation(store, self.loader, self.changes, self.checks, self.now)
        self.moves = Moves(store, self.loader, self.changes, self.keyring, self.now)
        self.seats = Seats(store, self.loader, self.changes, self.now)
        #: the table chat in the chain (``referee.service.chat``)
        self.chat = Chat(self.loader, self.changes, self.now, self.late)
        #: rematches of finished games, and series (``referee.service.rematch``)
        self.rematches = Rematches(store, self.loader, self.creation, self.seats, self.now)
        #: each person's seat seen, shown in views, taken over while away (``referee.service.presence``)
        self.presence = Presence(self.seats)
        self.moves.seen = self.presence.seen
        #: the transparency log of final heads (issue 41 item 4, ``referee.service.transparency``)
        self.transparency = Transparency(store.transparency, self.keyring, self.loader)
        self.changes.on_finished = self.transparency.record
        #: finished games kept for good (``REFEREE_ARCHIVE_URL``; ``None``: no archive), and their way back
        self.archive = archive if archive is not None else archive_from_env()
        self.archiving = Archiving(store, self.loader, self.archive, self.now)
        self.archiving.leaf_of = self.transparency.leaf_of
        if self.archive is not None:
            self.changes.archiving = True
            self.loader.restore = self.archiving.restore

    def now(self) -> int:
        """The service's ``clock`` now (ms), read at each call: a tool or test may swap the clock."""
        return self.clock()

    # -- creation -------------------------------------------------------------
    def create_game(self, ruleset_name: str, *, players: int | None = None, seats: list[Json] | None = None,
                    options: Mapping[str, Any] | None = None, seed: str | None = None,
                    setup: Mapping[str, Any] | None = None, tournament: str | None = None,
                    tournament_seed: str | None = None, tournament_custom: bool = False,
                    held: bool = False, game_id: str | None = None,
                    callback: tuple[str, str] | None = None, pool: str | None = None) -> Json:
        """Deal a new game; returns the 201 body with each seat's secret token
        (``referee.service.creation``). ``held``: no job is queued for it (it
        is only watched): the worker that made it plays its first turns.
        ``game_id``: the new game's id, drawn by the caller (``new_game_id``;
        a tournament takes the game's slot under it before the game exists).
        ``tournament_seed``: a seed the referee derived for a tournament game
        (the game is not custom, unless ``tournament_custom``: the
        tournament's seed came from a client). ``callback``: a tournament's
        game-end webhook, ``(url, secret)`` (``referee.service.webhooks``). ``pool``: the
        ladder whose pool deals it (``referee.ladder.pool``)."""
        return self.creation.create_game(NewGame(
            ruleset=ruleset_name, players=players, seats=seats, options=options, seed=seed, setup=setup,
            tournament=tournament, tournament_seed=tournament_seed, tournament_custom=tournament_custom,
            game_id=game_id, callback=callback, pool=pool), held=held)

    def game_options(self, ruleset: Ruleset[Any], options: Mapping[str, Any] | None,
                     seat_specs: list[Json]) -> GameOptions:
        """A new game's options checked for ``seat_specs`` (``referee.service.options``)."""
        return self.checks.game_options(ruleset, options, seat_specs)

    def check_seating(self, bot: str, secret: str | None) -> None:
        """A registered bot is seated only where its owner agrees (``Checks.check_seating``)."""
        self.checks.check_seating(bot, secret)

    # -- loading --------------------------------------------------------------
    def load(self, game_id: str, head: Head | None = None) -> Game:
        """The game at its latest version (``Loader.load``)."""
        return self.loader.load(game_id, head)

    def cached(self, game_id: str) -> Game:
        """The cached game, possibly stale; loaded if this process has never seen it."""
        return self.loader.cached(game_id)

    def state_at(self, game_id: str, version: int | None) -> tuple[Game, Any, list[int]]:
        """The latest game, the state at ``version`` and the versions a client could have been shown."""
        return self.loader.state_at(game_id, version)

    # -- seats ----------------------------------------------------------------
    def claim_seat(self, game_id: str, seat: int, name: str) -> Json:
        """Give open seat ``seat`` to whoever claims it first (``Seats.claim_seat``)."""
        return self.seats.claim_seat(game_id, seat, name)

    def give_open_seats(self, game_id: str) -> list[Seat]:
        """At the start deadline, the seats still open go to the game's ``start_bot``."""
        return self.seats.give_open_seats(game_id)

    def reissue_token(self, game_id: str, seat: int, token: str | None) -> Json:
        """A new token for a person's seat; the old one stops working at once (``Seats.reissue_token``)."""
        return self.seats.reissue_token(game_id, seat, token)

    def holds(self, game_id: str, seat: Seat, token: str) -> bool:
        """Whether ``token`` is ``seat``'s token right now, as the store has it
        (not this process's cache): a stream re-checks its token with this when
        it meets its seat's ``seat_token_reissued``."""
        return self.loader.holds_hash(game_id, seat, sha256_hex(token))

    @staticmethod
    def seat_of(game: Game, token: str | None) -> Seat | None:
        """The seat a token belongs to; ``None`` for no token; 401 for a wrong one."""
        return seat_of(game, token)

    # -- moves ----------------------------------------------------------------
    def submit_move(self, game_id: str, token: str | None, move: Move, *, expected_version: int | None = None,
                    idempotency_key: str | None = None) -> bytes:
        """Validate and record a seat's move; returns the 201 body (``Moves.submit_move``)."""
        return self.moves.submit_move(game_id, token, move, expected_version=expected_version,
                                      idempotency_key=idempotency_key)

    def submit_system(self, game_id: str, move: Move, *, expected_version: int, idempotency_key: str) -> bytes:
        """A system command (``timeout``) from a worker, through the same path."""
        return self.moves.submit_system(game_id, move, expected_version=expected_version,
                                        idempotency_key=idempotency_key)

    def submit_for_seat(self, game_id: str, seat: Seat, move: Move | None, *, expected_version: int,
                        idempotency_key: str, by: Json) -> bytes:
        """A move a worker makes for a seat (``None``: its default), through the same path as a client's."""
        return self.moves.submit_for_seat(game_id, seat, move, expected_version=expected_version,
                                          idempotency_key=idempotency_key, by=by)

    # -- a worker's run of bot moves (workers.jobs owns the loop) -------------------
    def decide_for_seat(self, game: Game, seat: Seat, move: Move | None, by: Json, key: str) -> Decided:
        """A worker's move for ``seat`` decided on ``game``, nothing written (``Moves.decide_for_seat``)."""
        return self.moves.decide_for_seat(game, seat, move, by, key)

    def append_decided(self, start: Game, decided: Sequence[Decided]) -> Game | None:
        """Moves decided from ``start`` appended in one round trip: the game after them, or ``None`` if it moved on."""
        return self.moves.append_decided(start, decided)

    # -- changes --------------------------------------------------------------
    @staticmethod
    def change_of(game: Game, before: Game | None = None) -> Change:
        """What the job queue must know of ``game`` now (``referee.service.changes``)."""
        return change_of(game, before)

    def schedule(self, change: Change, *, attempt: str = "") -> None:
        """The job queue hears of ``change`` (``attempt``: a job id suffix, for a job scheduled again)."""
        self.scheduler.game_changed(self.changes.marked(change), attempt=attempt)

    # -- finding games --------------------------------------------------------
    def list_games(self, *, ruleset: str | None = None, status: str | None = None, cursor: str | None = None,
                   limit: int = 50, open_seats: bool | None = None, source: str | None = None) -> Json:
        """Games newest first, as anyone may see them (``referee.service.listing``)."""
        wanted = listing.GameFilter(ruleset, status, open_seats, source)
        page = listing.list_games(self.store, wanted, cursor, limit)
        return listing.with_archived(page, self.archive, wanted, cursor, limit)

    def list_bots(self, *, cursor: str | None = None, limit: int = 50) -> Json:
        """Registered bots newest first (never a URL or a secret)."""
        return listing.list_bots(self.store, cursor, limit)

    # -- reading --------------------------------------------------------------
    def view(self, game_id: str, token: str | None, head: Head | None = None) -> bytes:
        """The encoded view ``token``'s seat (none: a spectator) is sent.
        ``head`` as for ``load``: read from Redis in this request, so the view
        is never older than a move some client has seen acknowledged (issue 36
        item 7)."""
        head = head if head is not None else self.store.head(game_id)  # the seats' presence read with it
        game = self.loader.load(game_id, head)
        seat = seat_of(game, token)
        game, seen = self.presence.seen(game, seat, getattr(head, "seen", None) or {})
        now = self.now()
        if seat is None and spectators.is_delayed(game):  # a spectator of a game shown late: built by replay
            late = self.late.delayed(game)
            return dumps(spectators.spectator_view(late, shown(game, seen or {}, now, window_ms())))
        # a finished game links its rematch once asked (one read more, only for a game over)
        next_game = self.rematches.next_of(game_id) if game.status == "finished" else None
        return viewing.encoded(game, seat, self.views, view_links(game, next_game), now,
                               shown(game, seen or {}, now, window_ms()))

    # -- rematches and series -------------------------------------------------
    def rematch(self, game_id: str, token: str | None, proposed: str) -> tuple[Json, bool]:
        """The next game of a finished game, dealt by the first ask (``Rematches.rematch``)."""
        return self.rematches.rematch(game_id, token, proposed)

    def next_game(self, game_id: str) -> str | None:
        """The id of a finished game's next game, once a rematch was asked."""
        return self.rematches.next_of(game_id)

    def series(self, series_id: str) -> Json:
        """A series: its running score and games (``Rematches.series_of``)."""
        return self.rematches.series_of(series_id)

    def view_of(self, game: Game, seat: Seat | None, *, presence: bool = False) -> Json:
        """The view as a JSON value (replays, tools, bots): what ``view`` encodes;
        ``presence``: with each person's seat's presence as it is now (a
        registered bot's view, issue 40 item 1; a replay's has none: presence is
        no fact of a past version)."""
        now = self.now()
        seats = shown(game, self.store.presence.seen(game.id), now, window_ms()) if presence else None
        return viewing.view_of(game, seat, now, seats)

