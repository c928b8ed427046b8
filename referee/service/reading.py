"""Reading games: events as each seat may see them, long-polls, Server-Sent
Events, replay at a version and the public log (DESIGN.md, Hidden
information). Everything here is derived from the stream; nothing writes."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING

from referee.engine import canonical
from referee.engine.jsonenc import dumps
from referee.engine.platform import CHAT_EVENTS, MOVE, SEAT_REISSUED
from referee.engine.presentation import shown
from referee.engine.protocol import Json, Seat
from referee.errors import ApiError
from referee.service import spectators
from referee.service.presence import window_ms

if TYPE_CHECKING:
    from referee.service import Game, GameService

def present(game: Game, env: Json, seat: Seat | None, status: str | None = None) -> Json:
    """An envelope of ``game`` as ``seat`` may see it (``referee.engine.presentation``)."""
    return shown(game.ruleset, env, seat, active=(status or game.status) == "active")


#: the longest single blocking read: between two, a stream or long-poll checks
#: whether its client has gone (and gives its slot back within this long)
WAIT_SLICE_S = 4.0
#: an outbound bot's stream blocks on Redis this long at a time (under the client's socket timeout)
BOT_SLICE_S = 1.0

#: a cap on open streams: entered for as long as a stream or long-poll waits
#: (referee.http.streams: 429/503 when full)
Slot = Callable[[], AbstractContextManager[None]]


#: whether the client has hung up (checked between waits, so that a stream
#: whose client left gives its slot back within one WAIT_SLICE_S)
Gone = Callable[[], bool]


def _no_cap() -> AbstractContextManager[None]:
    return contextlib.nullcontext()


def _never() -> bool:
    return False


def until_revoked(svc: GameService, game_id: str, envs: list[Json], seat: Seat | None,
                  token: str | None) -> tuple[list[Json], bool]:
    """``envs`` as far as ``token`` may read them: up to and including the
    first ``seat_token_reissued`` of its ``seat`` after which it no longer
    holds the seat (the event is public), and whether they were cut there.
    A reader authenticates once, when it opens; this is where it checks
    again, against the store, so that no event after a reissue reaches the
    old token as that seat (a reissue its own token came from passes)."""
    if seat is None or token is None:
        return envs, False
    for at, env in enumerate(envs):
        if env["type"] == SEAT_REISSUED and env["data"].get("seat") == seat and not svc.holds(game_id, seat, token):
            return envs[:at + 1], True
    return envs, False


def wait_for_event(svc: GameService, game_id: str, after: int, timeout_s: float, *, gone: Gone = _never) -> bool:
    """Block until the game has an event after ``after``, ``timeout_s``
    passes or the client is ``gone``; True if it has one. Waits in slices of
    at most ``WAIT_SLICE_S``."""
    deadline = time.monotonic() + timeout_s
    while True:
        head = svc.store.head(game_id)
        if head is None or head[0] > after:
            return head is not None
        left = deadline - time.monotonic()
        if left <= 0 or gone():
            return False
        svc.store.wait(game_id, after, min(left, WAIT_SLICE_S))


def events(svc: GameService, game_id: str, token: str | None, after: int, wait_s: float, *,
           slot: Slot = _no_cap, gone: Gone = _never) -> Json:
    """Events after ``after`` as the caller may see them; long-polls up to
    ``wait_s``, holding a ``slot`` while it waits. The page stops at the
    ``seat_token_reissued`` that took the token's seat away."""
    game = svc.load(game_id)
    seat = svc.seat_of(game, token)
    game, _ = svc.presence.seen(game, seat)  # a request of the seat's: it is here (issue 40 item 1)
    if seat is None and spectators.is_delayed(game):  # a spectator of a game shown late
        page = _late_page(svc, game, after, wait_s, slot=slot, gone=gone)
        if page is not None:
            return page
        game, wait_s = svc.load(game_id), 0  # it ended meanwhile: all of it is public
    if wait_s > 0 and game.version <= after and game.status == "active":
        with slot():
            wait_for_event(svc, game_id, after, wait_s, gone=gone)
        game = svc.load(game_id)
    envs, _ = until_revoked(svc, game_id, svc.store.read(game_id, after=after, upto=game.version), seat, token)
    return {"id": game_id, "version": game.version, "status": game.status,
            "events": [present(game, e, seat) for e in envs]}


def stream(svc: GameService, game_id: str, token: str | None, after: int, *, keepalive_s: float = 15.0,
           max_s: float | None = None, slot: Slot = _no_cap, gone: Gone = _never) -> Iterator[str]:
    """Server-Sent Events from ``after`` on; ends when the game is over (or
    after ``max_s``, for the client to resume with ``Last-Event-ID``, or right
    after the ``seat_token_reissued`` that took its token's seat away). The
    first item comes once the caller is authenticated and holds a ``slot``."""
    game = svc.load(game_id)
    seat = svc.seat_of(game, token)
    if seat is not None:  # a seat's open feed is seen at least twice a presence window (issue 40 item 1)
        keepalive_s = min(keepalive_s, window_ms() / 2000)
    with slot():
        started = time.monotonic()
        yield "retry: 500\n\n"
        while True:
            game = svc.load(game_id)
            if seat is not None and game.status == "active":  # an open feed: its seat is here (issue 40 item 1)
                game, _ = svc.presence.seen(game, seat)
            shown_as, envs, revoked = _stream_part(svc, game, seat, token, after)
            for env in envs:
                yield f"id: {env['seq']}\nevent: {env['type']}\ndata: {canonical(present(shown_as, env, seat))}\n\n"
                after = env["seq"]
            if revoked:  # the token is no longer the seat's: reconnecting with it is a 401
                yield ": token reissued\n\n"
                return
            if game.status != "active":
                yield f"event: end\ndata: {canonical({'status': game.status, 'version': game.version})}\n\n"
                return
            left = None if max_s is None else max_s - (time.monotonic() - started)
            if left is not None and left <= 0:
                return
            block = keepalive_s if left is None else min(keepalive_s, left)
            wait_for_event(svc, game_id, max(after, game.version), block, gone=gone)  # the head, not what was sent
            if gone():  # a write would only find out at the second keepalive, 30 s on
                return
            yield ": keepalive\n\n"


def _late_page(svc: GameService, game: Game, after: int, wait_s: float, *, slot: Slot,
               gone: Gone) -> Json | None:
    """The events after ``after`` a spectator of ``game`` (running, shown
    late) may see: up to its delayed version; long-polls up to ``wait_s``
    for that version to pass ``after``. ``None`` if the game ends meanwhile."""
    late = svc.late.delayed(game)
    if wait_s > 0 and late.version <= after:
        deadline = time.monotonic() + wait_s
        with slot():
            while late.version <= after:
                left = deadline - time.monotonic()
                if left <= 0 or not wait_for_event(svc, game.id, game.version, left, gone=gone):
                    break
                game = svc.load(game.id)
                if not spectators.is_delayed(game):
                    return None
                late = svc.late.delayed(game)
    return {"id": game.id, "version": late.version, "status": "active",
            "events": [present(late.game, e, None) for e in svc.late.envelopes(late, after)]}


def _stream_part(svc: GameService, game: Game, seat: Seat | None, token: str | None,
                 after: int) -> tuple[Game, list[Json], bool]:
    """What a stream sends next: the game its events are shown as, the events
    after ``after`` (a spectator's of a game shown late: up to its delayed
    version) and whether the token's seat was taken away there."""
    if seat is None and spectators.is_delayed(game):
        late = svc.late.delayed(game)
        return late.game, svc.late.envelopes(late, after), False
    envs, revoked = until_revoked(svc, game.id, svc.store.read(game.id, after=after, upto=game.version), seat, token)
    return game, envs, revoked


def bot_turns(svc: GameService, bot_id: str, after: str, *, keepalive_s: float = 15.0, max_s: float | None = None,
              slot: Slot = _no_cap, gone: Gone = _never) -> Iterator[str]:
    """An outbound bot's open turns as Server-Sent Events from stream id
    ``after`` on (a turn answered or closed meanwhile is skipped); ends after
    ``max_s`` for the bot to resume with ``Last-Event-ID``. The first item
    comes once a ``slot`` is held. The caller has checked the bot's secret."""
    with slot():
        started = time.monotonic()
        quiet_since = started
        yield "retry: 500\n\n"
        while True:
            left = None if max_s is None else max_s - (time.monotonic() - started)
            if left is not None and left <= 0:
                return
            block = BOT_SLICE_S if left is None else max(0.01, min(BOT_SLICE_S, left))
            after, turns = svc.bots.turns_after(bot_id, after, int(block * 1000))
            for entry_id, _delivery, turn in turns:
                yield f"id: {entry_id}\nevent: turn\ndata: {turn.decode()}\n\n"
                quiet_since = time.monotonic()
            if gone():
                return
            if time.monotonic() - quiet_since >= keepalive_s:
                yield ": keepalive\n\n"
                quiet_since = time.monotonic()


def replay(svc: GameService, game_id: str, version: int | None) -> Json:
    """The spectator view at ``version`` (default: the latest); every seat's
    view too once the game is over."""
    latest = svc.load(game_id)
    if spectators.is_delayed(latest):  # replay is a spectator's view: as late as theirs
        return spectators.replay(svc.late, latest, version)
    game, state, shown = svc.state_at(game_id, version)
    rs = game.ruleset
    at = replace(game, version=version or game.version, state=state,
                 status="finished" if rs.result(state) is not None else "active")
    if "clock" in game.header and at.version != game.version:  # the clock as it was then (docs/clocks.md)
        envs = svc.store.read(game_id, 0, at.version)
        moves = [e["data"].get("clock") for e in envs if e["type"] == MOVE]
        talked = [e["at"] for e in envs if e["type"] not in CHAT_EVENTS]  # the table's talk stops no clock
        at = replace(at, clock=moves[-1] if moves else None, last_at=talked[-1] if talked else envs[-1]["at"])
    out = svc.view_of(at, None)
    if game.status != "active":
        out["views"] = [rs.view(state, s) for s in range(game.players)]
    out["latest_version"] = game.version
    out["shown_versions"] = shown
    return out


def broadcast(svc: GameService, game_id: str, token: str | None) -> bytes:
    """``GET /v1/games/{id}/broadcast``: every seat's view as late as the
    game's spectators see it (``spectators.broadcast``; a wrong token: 401)."""
    game = svc.load(game_id)
    return dumps(spectators.broadcast(svc.late, game, svc.seat_of(game, token)))


def log_lines(svc: GameService, game_id: str, admin: bool) -> Iterator[str]:
    """The full, unredacted log as NDJSON: the header first, then every event."""
    game = svc.load(game_id)
    if game.status == "active" and not admin:
        raise ApiError(403, "log_not_public", "the log is public once the game is over (or with the admin token)")
    yield canonical({"header": game.header, "hash": game.header_hash}) + "\n"
    for env in svc.store.iter_envelopes(game_id):
        yield canonical(env) + "\n"
