"""Presence (issue 40 item 1): whether each person's seat is connected, shown
in every view; a seat away past its game's grace window taken over, and given
back when its person returns, each an event in the chain.

- **Seen.** A seat is seen whenever its token is used on its game: a view, a
  move, a page of events, and every few seconds while its event stream is
  open. The store keeps, per seat, when it was last seen and when its present
  stretch began (``referee.store.presence``; written at most every
  ``TOUCH_MS`` per seat by one process).
- **Shown.** A person's seat is ``connected`` while it was seen within the
  presence window (``REFEREE_PRESENCE_WINDOW_S``); ``since`` is when its
  present stretch began, or, away, when it went away (last seen plus the
  window); never seen: ``connected: false, since: null``. Bots' seats and
  seats still open show neither. Public, as at a real table.
- **Taken over.** A game's ``away_grace_s`` (default
  ``REFEREE_AWAY_GRACE_S``; ``null``: never) is how long a seat may stay away:
  after it (``since + away_grace_s``), ``seat_taken_over {seat, by}`` is
  appended and the seat is played by ``by``, the game's ``away_bot`` (a
  built-in bot, or ``default``: the rules' default move) — a worker looks at
  the games in ``referee:away`` when they are due. A seat never seen is never
  taken over (the turn clock covers it).
- **Returned.** The taken-over seat's token used again appends
  ``seat_returned {seat}`` first: the seat is its person's again."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from referee import settings
from referee.bots import BUILT_IN
from referee.engine import record
from referee.engine.platform import SEAT_RETURNED, SEAT_TAKEN_OVER
from referee.engine.protocol import Event, Json, Seat
from referee.errors import ApiError, not_found
from referee.service.changes import Changes
from referee.service.game import MAX_CONFLICT_RETRIES, Game
from referee.service.loading import Loader
from referee.service.seats import Seats
from referee.store.presence import Seen
from referee.store.redis_store import EventStore

#: ``away_bot``'s name for the rules' own default move (the turn clock's)
DEFAULT = "default"
#: the ``by.default`` a move played for an away seat by its default is recorded with
AWAY = "away"
#: a process writes a seat's presence at most this often (ms; a quarter of the window if that is less)
TOUCH_MS = 5000
#: how many (game, seat) a process remembers having written
_REMEMBERED = 20_000

#: what one seat shows: ``(connected, since)``; ``None``: no person's seat
Shown = tuple[bool, int | None] | None


def window_ms() -> int:
    """The presence window (``REFEREE_PRESENCE_WINDOW_S``), ms."""
    return int(float(settings.text("REFEREE_PRESENCE_WINDOW_S")) * 1000)


def default_grace_s() -> float | None:
    """``REFEREE_AWAY_GRACE_S`` (``None``: off)."""
    raw = settings.text("REFEREE_AWAY_GRACE_S").strip().lower()
    return None if raw in ("off", "none", "0", "") else float(raw)


def away_options(opts: dict[str, Any]) -> dict[str, Any]:
    """Pop and check a new game's ``away_grace_s`` (1..86400 seconds, or
    ``null``: never taken over) and ``away_bot`` (``default`` or a built-in
    bot); what the header records: only what was given."""
    out: dict[str, Any] = {}
    if "away_grace_s" in opts:
        grace = opts.pop("away_grace_s")
        if grace is not None and (isinstance(grace, bool) or not isinstance(grace, (int, float))
                                  or not 1 <= grace <= 86_400):
            raise ApiError(422, "invalid_options", "away_grace_s is a number of seconds from 1 to 86400, or null "
                           "(a seat away is never taken over)")
        out["away_grace_s"] = grace
    if "away_bot" in opts:
        bot = opts.pop("away_bot")
        if bot != DEFAULT and bot not in BUILT_IN:
            raise ApiError(422, "invalid_options", f"away_bot is {DEFAULT} (the rules' default move) or a built-in "
                           f"bot ({', '.join(BUILT_IN)}), not {bot!r}")
        out["away_bot"] = bot
    return out


def grace_ms(game: Game) -> int | None:
    """How long a seat of ``game`` may stay away before it is taken over (``None``: never)."""
    grace = game.header["away_grace_s"] if "away_grace_s" in game.header else default_grace_s()
    return None if grace is None else int(grace * 1000)


def away_bot(game: Game) -> str:
    """Who plays a seat of ``game`` taken over: its ``away_bot``, else ``default``."""
    return str(game.header.get("away_bot") or DEFAULT)


def shown(game: Game, seen: Seen, now: int, window: int) -> tuple[Shown, ...]:
    """Each seat's ``(connected, since)`` at ``now`` (``None`` for a seat no person holds)."""
    out: list[Shown] = []
    for seat in range(game.players):
        if not game.person(seat):
            out.append(None)
            continue
        span = seen.get(seat)
        if span is None:
            out.append((False, None))
        elif _present(span, now, window):
            out.append((True, span[0]))
        else:
            out.append((False, span[1] + window))
    return tuple(out)


def _present(span: tuple[int, int] | None, now: int, window: int) -> bool:
    """Whether a seat's stored ``(first, last)`` is a stretch still present at ``now``."""
    return span is not None and now - span[1] <= window


def seats_shown(game: Game, presence: tuple[Shown, ...]) -> list[Json]:
    """``game.seats()`` with each person's seat's ``connected`` and ``since``."""
    seats = game.seats()
    for seat, found in zip(seats, presence):
        if found is not None:
            seat["connected"], seat["since"] = found
    return seats


def next_look(game: Game, seen: Seen, now: int, window: int) -> tuple[list[Seat], int | None]:
    """The seats of ``game`` away past its grace window at ``now`` (to take
    over), and when to look again (``None``: not until a seat is seen)."""
    grace = grace_ms(game)
    if grace is None or game.status != "active":
        return [], None
    due: list[Seat] = []
    later: list[int] = []
    for seat, span in sorted(seen.items()):
        if not 0 <= seat < game.players or not game.person(seat) or (game.away and game.away[seat]):
            continue
        at = span[1] + window + grace
        if at <= now:
            due.append(seat)
        else:
            later.append(at)
    if game.open_seats:  # not started: nothing is taken over before every seat is taken
        return [], (now + window + grace) if due or later else None
    return due, min(later) if later else None


class Presence:
    """Seats seen, shown, taken over and given back: through the game's
    ``Seats`` (its store, loader, change notices and clock), as seats' events."""

    def __init__(self, seats: Seats) -> None:
        self.store: EventStore = seats.store
        self.loader: Loader = seats.loader
        self.changes: Changes = seats.changes
        self.clock: Callable[[], int] = seats.clock
        #: when this process last wrote each (game, seat) seen
        self._written: dict[tuple[str, Seat], int] = {}
        self._lock = threading.Lock()

    def seen(self, game: Game, seat: Seat | None, known: Seen | None = None) -> tuple[Game, Seen | None]:
        """``seat`` (a token's: ``None`` for none) seen on ``game`` now: written
        (at most every ``TOUCH_MS``), and, if it was taken over, given back
        first; the game as it is then, and ``known`` (the presence read with
        its head) as it is now."""
        if seat is None or not game.person(seat):
            return game, known
        now, window = self.clock(), window_ms()
        if game.away and game.away[seat] is not None:
            game = self.give_back(game.id, seat)
        span = None if known is None else known.get(seat)
        # when what was read shows no present stretch, the seat is written
        # whatever this process remembers, and the answer shows the stretch as
        # stored: two requests that first see a seat at once show one ``since``
        unread = known is not None and not _present(span, now, window)
        stored = self._write(game, seat, now, window) if self._due(game.id, seat, now, window, unread) else None
        if known is None:
            return game, None
        if stored is not None:
            return game, {**known, seat: stored}
        first = span[0] if span is not None and _present(span, now, window) else now
        return game, {**known, seat: (first, max(now, span[1]) if span is not None else now)}

    def _due(self, game_id: str, seat: Seat, now: int, window: int, unread: bool) -> bool:
        """Whether this process writes ``seat`` seen now: not written by it
        well within the window (at most every ``TOUCH_MS``), or ``unread``."""
        key = (game_id, seat)
        with self._lock:
            last = self._written.get(key)
            if not unread and last is not None and 0 <= now - last < min(TOUCH_MS, window // 4):
                return False
            if len(self._written) >= _REMEMBERED:
                self._written.clear()
            self._written[key] = now
        return True

    def _write(self, game: Game, seat: Seat, now: int, window: int) -> tuple[int, int] | None:
        """``seat`` of ``game`` seen at ``now``, in the store; its stretch as stored (``None``: no such game)."""
        grace = grace_ms(game)
        look_at = now + window + grace if grace is not None and game.status == "active" else None
        return self.store.presence.touch(game.id, seat, now, window, look_at)

    def take_over(self, game_id: str, seat: Seat) -> bool:
        """Append ``seat_taken_over`` of ``seat`` if it is still away past the
        grace window and not taken over (False otherwise)."""
        def check(game: Game) -> Json | None:
            due, _ = next_look(game, self.store.presence.seen(game_id), self.clock(), window_ms())
            return {"seat": seat, "by": away_bot(game)} if seat in due else None
        return self._append(game_id, seat, SEAT_TAKEN_OVER, check) is not None

    def give_back(self, game_id: str, seat: Seat) -> Game:
        """Append ``seat_returned`` of ``seat`` if it is taken over; the game after."""
        def check(game: Game) -> Json | None:
            return {"seat": seat} if game.away and game.away[seat] is not None and game.status == "active" else None
        return self._append(game_id, seat, SEAT_RETURNED, check) or self.loader.load(game_id)

    def _append(self, game_id: str, seat: Seat, type_: str, check: Callable[[Game], Json | None]) -> Game | None:
        """Append a presence event (``check`` gives its data on the game as
        loaded, or ``None``: nothing to append) at the latest version,
        retried on a conflict; the game after it, or ``None``."""
        for _ in range(MAX_CONFLICT_RETRIES):
            game = self.loader.load(game_id)
            data = check(game)
            if data is None:
                return None
            now = max(self.clock(), game.last_at)
            envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version,
                                                  [(None, Event(type_, data))], now, mac=game.mac)
            outcome = self.store.seat_event(game_id, game.version, seat, "", game.tokens[seat], None,
                                            envelopes[0], last_hash, now)
            if outcome == "ok":
                after = self.loader.load(game_id)
                self.changes.notify(after, game)
                return after
            if outcome == "missing":
                raise not_found(game_id)
            if outcome == "seat":
                return None
        return None

    def look(self, game_id: str) -> int | None:
        """A worker's look at a game in ``referee:away``: its seats away past
        the grace window taken over; when to look again (``None``: not until a seat is seen)."""
        try:
            game = self.loader.load(game_id)
        except ApiError:
            return None
        due, again = next_look(game, self.store.presence.seen(game_id), self.clock(), window_ms())
        for seat in due:
            self.take_over(game_id, seat)
        return again
