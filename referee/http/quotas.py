"""A fair share for every client (issue 36 item 4): what one client may
hold and how fast it may take more, so that one address cannot take every
open seat, fill Redis with games or register bots without end.

The client is counted as the rate limiter counts an anonymous caller: by its
address (an IPv6 one by its /64, after ``REFEREE_TRUSTED_PROXIES``); a
request with the admin token is exempt. Each refusal is a 429 problem whose
``code`` names the quota, with its ``limit`` and ``Retry-After``:

- ``games_limit``: active games a client created (``REFEREE_GAMES_PER_CLIENT``).
  A game holds its place until it finishes, expires or goes
  :data:`GAME_IDLE_S` without a move; the places are recounted when they are
  all taken;
- ``game_creations_limit``: games created, a moving window
  (``REFEREE_GAME_CREATIONS_PER_CLIENT``); a well-formed creation counts even
  when the service then refuses it (counted before, so that racing requests
  never pass the limit);
- ``claims_limit``: open seats claimed, a moving window
  (``REFEREE_CLAIMS_PER_CLIENT``); a claim counts whether or not it gets the seat;
- ``bots_limit``: registered bots (``REFEREE_BOTS_PER_CLIENT``): a bot holds
  its place until its owner deletes it or it expires unused
  (``REFEREE_RETENTION_IDLE_S``).

What is kept, and where: ``referee.store.places`` (the places) and the rate
limiter's windows (``referee.store.windows``)."""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app

from referee import settings
from referee.errors import ApiError
from referee.http import ratelimit
from referee.http.context import bearer_token, is_admin, service
from referee.http.problems import problem
from referee.store.places import place_key
from referee.store.redis_store import EventStore

EXTENSION = "referee.http.quotas"
#: a game without a move for this long no longer holds its creator's place
GAME_IDLE_S = 3600
#: a place taken for a game not created yet is kept this long (ms): its creation is under way
CREATING_MS = 60_000
#: Retry-After when no place is known to free by itself (bots that never expire)
UNKNOWN_RETRY_S = 60


@dataclass(frozen=True, slots=True)
class ClientQuotas:
    """The quotas of one app: ``None`` is no limit."""

    games: int | None
    creations: ratelimit.Windows | None
    claims: ratelimit.Windows | None
    bots: int | None

    @classmethod
    def of_app(cls) -> ClientQuotas:
        """The app's quotas, read at its start (:func:`install`)."""
        found: ClientQuotas | None = current_app.extensions.get(EXTENSION)
        return found if found is not None else cls.of_config(current_app.config)

    @classmethod
    def of_config(cls, config: Mapping[str, Any]) -> ClientQuotas:
        """From an app's config (``GAMES_PER_CLIENT``, ...), else the environment."""
        def value(name: str) -> str:
            found = config.get(name)
            return str(found) if found is not None else settings.text(f"REFEREE_{name}")
        return cls(settings.count_limit(value("GAMES_PER_CLIENT"), "REFEREE_GAMES_PER_CLIENT"),
                   ratelimit.Windows.of(ratelimit.parse(value("GAME_CREATIONS_PER_CLIENT"))),
                   ratelimit.Windows.of(ratelimit.parse(value("CLAIMS_PER_CLIENT"))),
                   settings.count_limit(value("BOTS_PER_CLIENT"), "REFEREE_BOTS_PER_CLIENT"))


def install(app: Flask) -> None:
    """Read ``app``'s quotas once, at its start: a bad setting stops the
    start (``ValueError``) instead of failing every request."""
    app.extensions[EXTENSION] = ClientQuotas.of_config(app.config)


class OverQuota(ApiError):
    """A client past one of its quotas: 429 with ``limit`` and ``Retry-After`` (whole seconds)."""

    def __init__(self, code: str, detail: str, *, limit: int, retry_after: int, **extra: Any) -> None:
        super().__init__(429, code, detail, limit=limit, retry_after=retry_after, **extra)
        self.retry_after = retry_after


def over_quota(err: OverQuota) -> Response:
    """The problem response of a refusal, with its ``Retry-After`` header."""
    response = problem(err.status, err.code, err.detail, **err.extra)
    response.headers["Retry-After"] = str(err.retry_after)
    return response


def client() -> str | None:
    """Whose quotas the request counts in: its address (``addr:...``), or
    ``None`` for the admin token (exempt)."""
    if bearer_token() is not None and is_admin():
        return None
    return ratelimit.address_key()


def _wait_s(ms: float) -> int:
    return max(1, math.ceil(ms / 1000))


# -- moving windows: creations and claims ---------------------------------------------
def _hit(windows: ratelimit.Windows | None, prefix: str, who: str | None, code: str, what: str) -> None:
    """Count one in ``who``'s windows, or refuse (nothing counted) when one is full."""
    if windows is None or who is None:
        return
    store = service().store.windows()
    allowed, reset_ms, now_ms = (int(x) for x in store.hit(windows.keys(prefix, who), windows.args("hit")))
    if allowed:
        return
    amount, window_ms = _full_window(store, windows, prefix, who)
    raise OverQuota(code, f"at most {amount} {what} per {window_ms // 1000} s from one client: retry in "
                    f"{_wait_s(reset_ms - now_ms)} s", limit=amount, window_s=window_ms // 1000,
                    retry_after=_wait_s(reset_ms - now_ms))


def _full_window(store: Any, windows: ratelimit.Windows, prefix: str, who: str) -> tuple[int, int]:
    """The window (amount, ms) that refused: the first with no room."""
    for item, key in zip(windows.items, windows.keys(prefix, who)):
        if not int(store.hit([key], ratelimit.Windows((item,)).args("test"))[0]):
            return item
    return windows.items[0]  # room again meanwhile: the first window is the one to name


def count_claim(quotas: ClientQuotas, who: str | None) -> None:
    """Count an open-seat claim, or refuse it: ``claims_limit``."""
    _hit(quotas.claims, "referee:claims", who, "claims_limit", "open-seat claims")


# -- places: games and bots -------------------------------------------------------------
@contextmanager
def game_place(quotas: ClientQuotas, who: str | None, game_id: str) -> Iterator[None]:
    """Hold a place for ``game_id`` among ``who``'s active games while the
    block creates it (freed if that fails); ``games_limit`` or
    ``game_creations_limit`` when the client may not create one now
    (``who`` ``None``: the admin, exempt)."""
    svc = service()
    places, key = svc.store.places, place_key(str(who), "games")
    held = quotas.games is not None and who is not None
    if held:
        assert quotas.games is not None
        keep_ms = svc.store.retention.idle_s * 1000
        if not places.take(key, game_id, quotas.games, svc.clock(), keep_ms):
            wait_ms = _recount_games(key)
            if not places.take(key, game_id, quotas.games, svc.clock(), keep_ms):
                raise OverQuota("games_limit", f"at most {quotas.games} active games created by one client: one "
                                f"frees its place when it finishes or goes {GAME_IDLE_S} s without a move",
                                limit=quotas.games, retry_after=_wait_s(wait_ms))
    try:
        _hit(quotas.creations, "referee:creations", who, "game_creations_limit", "games created")
        yield
    except BaseException:
        if held:
            places.free(key, game_id)
        raise


def _recount_games(key: str) -> int:
    """Free the places of games that finished, expired or went idle; the ms
    until the next live one goes idle."""
    svc = service()
    places, now = svc.store.places, svc.clock()
    taken = places.members(key)
    held = list(taken)
    heads = [EventStore.parse_head(raw) for raw in places.heads(held)]
    # a game not there yet is being created (its place taken first): it holds its place a while
    idle_at = {gid: head[4] + GAME_IDLE_S * 1000 if head is not None else taken[gid] + CREATING_MS
               for gid, head in zip(held, heads) if head is None or head[3] == "active"}
    places.free(key, *[gid for gid in held if idle_at.get(gid, now) <= now])
    return min((at - now for at in idle_at.values() if at > now), default=UNKNOWN_RETRY_S * 1000)


def bot_place(quotas: ClientQuotas, who: str | None, bot_id: str) -> str | None:
    """Take a place for ``bot_id`` among ``who``'s bots: the place's key
    (``None``: none taken, no quota), or ``bots_limit``."""
    if quotas.bots is None or who is None:
        return None
    svc = service()
    places, key, keep_ms = svc.store.places, place_key(who, "bots"), svc.store.retention.idle_s * 1000
    if places.take(key, bot_id, quotas.bots, svc.clock(), keep_ms):
        return key
    taken, now = places.members(key), svc.clock()
    held = list(taken)
    ttls = svc.bots.ttls_ms(held)
    # gone: deleted or expired (a bot not there yet is being registered: it keeps its place a while)
    places.free(key, *[bot for bot, ttl in zip(held, ttls) if ttl == -2 and taken[bot] + CREATING_MS <= now])
    if places.take(key, bot_id, quotas.bots, svc.clock(), keep_ms):
        return key
    wait_ms = min((ttl for ttl in ttls if ttl > 0), default=UNKNOWN_RETRY_S * 1000)
    raise OverQuota("bots_limit", f"at most {quotas.bots} registered bots per client: one frees its place when "
                    "its owner deletes it (DELETE /v1/bots/{id} with its secret) or it expires unused",
                    limit=quotas.bots, retry_after=_wait_s(wait_ms))


def free_bot_place(key: str | None, bot_id: str) -> None:
    """A deleted bot's place is free."""
    if key:
        service().store.places.free(key, bot_id)
