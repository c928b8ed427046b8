"""Reading games: events as each seat may see them, long-polls, Server-Sent
Events, replay at a version and the public log (DESIGN.md, Hidden
information). Everything here is derived from the stream; nothing writes."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterator

from referee.engine import canonical, commitment, secret_salt
from referee.engine.platform import MOVE, PLATFORM_EVENTS, PUBLIC_EVENTS, SECRETS_OPENED, SECRETS_SEALED, SEED_REVEALED
from referee.engine.presentation import shown
from referee.errors import ApiError
from referee.engine.protocol import Json, Seat

if TYPE_CHECKING:
    from referee.service import Game, GameService

__all__ = ["MOVE", "PLATFORM_EVENTS", "PUBLIC_EVENTS", "SECRETS_OPENED", "SECRETS_SEALED", "SEED_REVEALED",
           "events", "log_lines", "present", "replay", "secret_commitment", "secret_salt", "stream"]


def secret_commitment(salt: str, value: Any) -> str:
    """``sha256_hex(salt + canonical(value))``: published at creation, opened
    with ``{value, salt}`` when the secret becomes public."""
    return commitment(salt, value)


def present(game: Game, env: Json, seat: Seat | None, status: str | None = None) -> Json:
    """An envelope of ``game`` as ``seat`` may see it (``referee.engine.presentation``)."""
    return shown(game.ruleset, env, seat, active=(status or game.status) == "active")


def events(svc: GameService, game_id: str, token: str | None, after: int, wait_s: float) -> Json:
    """Events after ``after`` as the caller may see them; long-polls up to ``wait_s``."""
    game = svc.load(game_id)
    seat = svc.seat_of(game, token)
    if wait_s > 0 and game.version <= after and game.status == "active":
        svc.store.wait(game_id, after, wait_s)
        game = svc.load(game_id)
    envs = svc.store.read(game_id, after=after, upto=game.version)
    return {"id": game_id, "version": game.version, "status": game.status,
            "events": [present(game, e, seat) for e in envs]}


def stream(svc: GameService, game_id: str, token: str | None, after: int, *, keepalive_s: float = 15.0,
           max_s: float | None = None) -> Iterator[str]:
    """Server-Sent Events from ``after`` on; ends when the game is over (or
    after ``max_s``, for the client to resume with ``Last-Event-ID``)."""
    game = svc.load(game_id)
    seat = svc.seat_of(game, token)
    started = time.monotonic()
    yield "retry: 500\n\n"
    while True:
        game = svc.load(game_id)
        for env in svc.store.read(game_id, after=after, upto=game.version):
            yield f"id: {env['seq']}\nevent: {env['type']}\ndata: {canonical(present(game, env, seat))}\n\n"
            after = env["seq"]
        if game.status != "active":
            yield f"event: end\ndata: {canonical({'status': game.status, 'version': game.version})}\n\n"
            return
        if max_s is not None and time.monotonic() - started > max_s:
            return
        svc.store.wait(game_id, after, min(keepalive_s, max_s) if max_s is not None else keepalive_s)
        yield ": keepalive\n\n"


def replay(svc: GameService, game_id: str, version: int | None) -> Json:
    """The spectator view at ``version`` (default: the latest); every seat's
    view too once the game is over."""
    latest = svc.load(game_id)
    game, state = svc.state_at(game_id, latest.version if version is None else version)
    rs = game.ruleset
    at = replace(game, version=version or game.version, state=state,
                 status="finished" if rs.result(state) is not None else "active")
    out = svc.view_of(at, None)
    if game.status != "active":
        out["views"] = [rs.view(state, s) for s in range(game.players)]
    out["latest_version"] = game.version
    return out


def log_lines(svc: GameService, game_id: str, admin: bool) -> Iterator[str]:
    """The full, unredacted log as NDJSON: the header first, then every event."""
    game = svc.load(game_id)
    if game.status == "active" and not admin:
        raise ApiError(403, "log_not_public", "the log is public once the game is over (or with the admin token)")
    yield canonical({"header": game.header, "hash": game.header_hash}) + "\n"
    for env in svc.store.iter_envelopes(game_id):
        yield canonical(env) + "\n"
