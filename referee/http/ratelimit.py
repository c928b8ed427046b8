"""Rate limiting (HTTP 429): moving windows counted in the app's Redis so the
limit holds across referee processes and machines. The settings use the
`limits` library's notation and its moving-window algorithm; the window is
one Lua script (``store/window.lua``) so that the check, the count and a
view's read of the game's head share one round trip (docs/performance.md, "Performance":
Flask-Limiter took two round trips before the handler's own).

Who is counted is the caller's *verified* identity: a seat token of the game
in the URL, a bot's secret on that bot's route, a tournament's cancel token
on that tournament, or the admin token. Anything else — no credential, or one
that does not verify — is counted by client address (an IPv6 address by its
/64), so a fresh junk token per request is limited exactly like no token.

Failed authentication (a 401, or a token refused as the admin token) is also
counted per address against its own, tighter limit. Once that is spent, every
request from the address that carries a credential is refused with 429, a
good one too (a 429 that only wrong guesses got would tell a guesser which
guess was right); requests without a credential are served as usual.

Settings (app config, else the environment):

- ``RATE_LIMIT`` / ``REFEREE_RATE_LIMIT``: ``<per second>/<burst>`` (default
  ``50/100``: a moving window of ``burst`` requests per ``ceil(burst/rate)``
  seconds), or the limits notation (``600/minute``, ``20/second;600/minute``),
  or ``off`` (no limiting at all);
- ``AUTH_FAIL_LIMIT`` / ``REFEREE_AUTH_FAIL_LIMIT``: the failed-authentication
  limit per address (default ``10/minute``), same notations, or ``off``;
- ``TRUSTED_PROXIES`` / ``REFEREE_TRUSTED_PROXIES``: how many reverse proxies
  in front of the referee append to ``X-Forwarded-For`` (default ``0``: the
  socket's address is the client's). See :func:`trust_proxies`.
"""
from __future__ import annotations

import functools
import hmac
import ipaddress
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import limits
from flask import Flask, Request, Response, current_app, g, request
from werkzeug.middleware.proxy_fix import ProxyFix

from referee import settings
from referee.engine import sha256_hex
from referee.engine.protocol import RefereeError
from referee.http.context import QUERY_TOKEN_ENDPOINTS
from referee.http.problems import problem

DEFAULT = "50/100"
DEFAULT_AUTH_FAIL = "10/minute"
#: probes, the contract and the watch page's own files are never limited: the page (``/watch/...``) is
#: some forty unchanging files read from memory (its HTML, its modules, the JavaScript client's), which
#: a browser asks for all at once on every load; counted, opening the index and then one's seat filled
#: the default window (100 requests in 2 s) and the table's scripts came back 429 (issue 38). What the
#: page then asks of the API (``/v1/...``) is counted as usual.
UNLIMITED = frozenset({"meta.health", "meta.metrics", "meta.openapi",
                       "watch.root", "watch.index", "watch.page", "watch.asset"})
#: routes that need a credential and refuse a request without one (401)
#: before reading anything: that 401 is answered before the rate limit (a
#: 429 would hide that a credential is due, and the 401 costs no round trip)
CREDENTIAL_FIRST = frozenset({"bots.cancel_tournament", "bots.get_bot", "bots.delete_bot", "bots.bot_turns",
                              "bots.answer_turn", "games.submit_move", "games.reissue_token",
                              "rematch.rematch", "webhooks.deliveries", "pool.put_in_pool", "pool.leave_pool"})
_LEGACY = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:/\s*(\d+(?:\.\d+)?))?\s*")


def parse(setting: str | None) -> str | None:
    """A setting as a limits string (``None`` for ``off``): ``"50/100"`` ->
    ``"100 per 2 second"``, ``"5"`` (burst twice the rate) -> ``"10 per 2
    second"``; the limits notation passes through once it parses."""
    if setting is None or setting.strip().lower() in ("off", "0", "none", ""):
        return None
    legacy = _LEGACY.fullmatch(setting)
    if legacy:
        rate = float(legacy[1])
        burst = float(legacy[2]) if legacy[2] else 2 * rate
        if rate <= 0 or burst < 1:
            raise ValueError(f"bad rate limit {setting!r}: use <per second>/<burst>, e.g. 50/100, or off")
        return f"{int(burst)} per {max(1, math.ceil(burst / rate))} second"
    try:
        items = limits.parse_many(setting)
    except ValueError:
        items = []
    if not items or any(item.amount < 1 for item in items):
        raise ValueError(f"bad rate limit {setting!r}: use <per second>/<burst> (50/100), "
                         "the limits notation (600/minute) or off")
    return setting.strip()


def trust_proxies(app: Flask) -> None:
    """Behind ``n`` reverse proxies, the client's address is the ``n``-th
    entry from the right of ``X-Forwarded-For`` (werkzeug's ProxyFix). Set
    it to the real number of proxies: with more, a client could name any
    address it likes; with 0 (default) the header is ignored."""
    hops = int(_setting(app, "TRUSTED_PROXIES", "0") or 0)
    if hops < 0:
        raise ValueError("REFEREE_TRUSTED_PROXIES is a number of proxies, 0 or more")
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


def _setting(app: Flask, name: str, default: str) -> str:
    value = app.config.get(name)
    found = settings.get(f"REFEREE_{name}")
    return str(value if value is not None else found if found is not None else default)


# -- who is asking --------------------------------------------------------------
def _bound() -> Request:
    """The request itself: each read through Flask's ``request`` proxy looks
    the request up again, and the limiter reads it a dozen times a request."""
    req: Request = request._get_current_object()  # type: ignore[attr-defined]
    return req


def client_address(req: Request | None = None) -> str:
    """The client's address (after ProxyFix); an IPv6 client by its /64, the
    smallest block a single host is usually given."""
    return _counted_as((req if req is not None else _bound()).remote_addr or "?")


@functools.lru_cache(maxsize=4096)
def _counted_as(raw: str) -> str:
    """The address ``raw`` is counted as (parsing one costs more than the rest of the limiter)."""
    try:
        ip = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def presented_token(req: Request | None = None) -> str | None:
    """The credential the request carries, if well formed (no verification)."""
    req = req if req is not None else _bound()
    header = req.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        return token.strip() or None if scheme.lower() == "bearer" else None
    if req.endpoint in QUERY_TOKEN_ENDPOINTS:
        return req.args.get("token") or None
    return None


def carries_credential(req: Request | None = None) -> bool:
    req = req if req is not None else _bound()
    return "Authorization" in req.headers or (req.endpoint in QUERY_TOKEN_ENDPOINTS and "token" in req.args)


class Credentials(Protocol):
    """What the limiter asks to learn who a token proves to be: it reads no
    store itself (an import contract), the app hands it this
    (``referee.http.credentials``)."""

    #: what a lookup raises when it cannot answer now (Redis down): the caller is then counted by address
    unavailable: tuple[type[Exception], ...]

    def seat_token_hashes(self, game_id: str) -> tuple[str, ...]: ...

    def bot_secret(self, bot_id: str) -> str | None: ...

    def tournament_token_matches(self, tournament_id: str, token: str) -> bool: ...


class Pushes(Protocol):
    """A process's subscription to what Redis pushes (``referee.store.pushed.Pushed``)."""

    channel: str
    clock: Callable[[], float]

    def sync(self) -> int | None: ...

    def blocked_for(self, who: str, epoch: int | None) -> float | None: ...

    def learn_clean(self, who: str, epoch: int | None) -> None: ...

    def learn_blocked(self, who: str, wait_ms: int) -> None: ...


class TokenHashes:
    """The seat-token hashes of games, by id: they never change, so a small
    per-process LRU saves the lookup (one HGETALL on a miss)."""

    def __init__(self, credentials: Credentials, size: int = 4096) -> None:
        self.credentials, self.size = credentials, size
        self._hashes: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, game_id: str) -> tuple[str, ...]:
        with self._lock:
            found = self._hashes.get(game_id)
            if found is not None:
                self._hashes.move_to_end(game_id)
                return found
        hashes = self.credentials.seat_token_hashes(game_id)
        if hashes:
            with self._lock:
                self._hashes[game_id] = hashes
                while len(self._hashes) > self.size:
                    self._hashes.popitem(last=False)
        return hashes


def _seat_identity(token: str, digest: str, args: dict[str, Any], hashes: TokenHashes) -> str | None:
    """``seat:<game>:<seat>`` when ``token`` is a seat token of the game in the URL."""
    for seat, expected in enumerate(hashes.of(str(args["game_id"]))):
        if hmac.compare_digest(digest, expected):
            return f"seat:{args['game_id']}:{seat}"
    return None


def _bot_identity(token: str, digest: str, args: dict[str, Any], hashes: TokenHashes) -> str | None:
    """``bot:<id>`` when ``token`` is the secret of the bot in the URL."""
    secret = hashes.credentials.bot_secret(str(args["bot_id"]))
    if secret is not None and hmac.compare_digest(digest, sha256_hex(secret)):
        return f"bot:{args['bot_id']}"
    return None


def _tournament_identity(token: str, digest: str, args: dict[str, Any], hashes: TokenHashes) -> str | None:
    """``tournament:<id>`` when ``token`` is the cancel token of the tournament in the URL."""
    if hashes.credentials.tournament_token_matches(str(args["tournament_id"]), token):
        return f"tournament:{args['tournament_id']}"
    return None


#: who a token can prove to be, by the route's argument: the first the route has decides
_IDENTITIES: tuple[tuple[str, Callable[[str, str, dict[str, Any], TokenHashes], str | None]], ...] = (
    ("game_id", _seat_identity), ("bot_id", _bot_identity), ("tournament_id", _tournament_identity))


def verified_identity(token: str, hashes: TokenHashes, req: Request | None = None) -> str | None:
    """``admin``, ``seat:<game>:<seat>``, ``bot:<id>`` or ``tournament:<id>``
    when ``token`` proves it on this route; ``None`` otherwise."""
    admin = current_app.config.get("ADMIN_TOKEN")
    if admin and hmac.compare_digest(token.encode(), str(admin).encode()):
        return "admin"
    args = (req if req is not None else _bound()).view_args or {}
    digest = sha256_hex(token)
    for name, identity in _IDENTITIES:
        if name in args:
            return identity(token, digest, args, hashes)
    return None


def caller_key(hashes: TokenHashes) -> Callable[[Request | None], str]:
    def key(req: Request | None = None) -> str:
        cached: str | None = g.get("rate_limit_caller")
        if cached is None:
            req = req if req is not None else _bound()
            token = presented_token(req)
            identity = None
            if token is not None:
                unknowable: tuple[type[Exception], ...] = (RefereeError, ValueError, *hashes.credentials.unavailable)
                try:
                    identity = verified_identity(token, hashes, req)
                except unknowable:
                    identity = None  # cannot verify now: count by address
            cached = g.rate_limit_caller = identity or "addr:" + client_address(req)
        return cached
    return key


def address_key(req: Request | None = None) -> str:
    return "addr:" + client_address(req)


def auth_failed(response: Response) -> bool:
    """The request's credential verified as nothing and was refused for it: a
    401, or a 403 where it was tried as the admin token (``is_admin``)."""
    unverified = str(g.get("rate_limit_caller", "addr:")).startswith("addr:")
    refused = response.status_code == 401 or (response.status_code == 403 and bool(g.get("admin_token_refused")))
    return unverified and refused


# -- the limiter ------------------------------------------------------------------
@dataclass(frozen=True)
class Windows:
    """Moving windows of one setting (``20/second;600/minute`` is two), as
    the script's arguments."""

    items: tuple[tuple[int, int], ...]  # (amount, window in ms)

    @classmethod
    def of(cls, setting: str | None) -> Windows | None:
        if setting is None:
            return None
        return cls(tuple((item.amount, int(item.get_expiry() * 1000)) for item in limits.parse_many(setting)))

    def keys(self, prefix: str, who: str) -> list[str]:
        # one hash tag per caller: a caller's windows live in one cluster slot
        return [f"{prefix}:{{{who}}}:{amount}:{ms}" for amount, ms in self.items]

    def args(self, mode: str, cost: int = 1, publish: tuple[str, str] = ("", "")) -> list[Any]:
        """``window.lua``'s ARGV: count up to ``cost`` hits; ``publish``: the
        channel and name to announce a window filled by this hit on."""
        return [mode, cost, *publish, *(n for pair in self.items for n in pair)]

    @property
    def lease(self) -> int:
        """Hits one round trip takes for later requests of the same caller
        in this process: a twentieth of the smallest window, 1 to 16."""
        return max(1, min(16, min(amount for amount, _ in self.items) // 20))

    @property
    def shortest_s(self) -> float:
        return min(ms for _, ms in self.items) / 1000


class Leases:
    """Hits a process took in Redis ahead for a caller and spends locally:
    each was counted in every window when taken, so spending it before the
    shortest window has passed since never lets a caller past the limit (a
    caller spread over processes may be refused up to ``lease - 1`` hits
    early per process)."""

    def __init__(self, size: int = 65536, clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.clock = size, clock
        self._left: OrderedDict[str, tuple[int, float]] = OrderedDict()  # hits left, spend before
        self._lock = threading.Lock()

    def take(self, caller: str) -> bool:
        """Spend one hit of ``caller``'s lease, if it has one still good."""
        with self._lock:
            found = self._left.get(caller)
            if found is None:
                return False
            left, until = found
            if self.clock() >= until:
                del self._left[caller]
                return False
            if left <= 1:
                del self._left[caller]
            else:
                self._left[caller] = (left - 1, until)
            return True

    def give(self, caller: str, hits: int, until: float) -> None:
        with self._lock:
            if hits <= 0:
                return
            self._left[caller] = (hits, until)
            self._left.move_to_end(caller)
            while len(self._left) > self.size:
                self._left.popitem(last=False)


@dataclass(frozen=True, slots=True)
class _AddressTest:
    """An address whose failed-authentication windows this request tests in
    Redis, and the epoch of what Redis had pushed when it asked."""

    who: str
    epoch: int | None


class RateLimiter:
    """The caller's windows hit, the address's failed-authentication windows
    tested (when the request carries a credential), and — for a game's view —
    the game's head read, all in one round trip (a pipeline of the window
    script and an ``HMGET``). Only a view always makes it: its head is read
    in the request, never known from before (issue 36 item 7); another
    request makes none when the process knows enough (docs/performance.md):
    a hit left of the caller's lease (``Leases``) and the
    address known unblocked, from what Redis pushed
    (``referee.store.pushed``). A failed authentication is counted after the
    response, in a round trip of its own; the hit that fills the address's
    window is pushed to every process, and known at once in its own."""

    def __init__(self, windows: Any, general: Windows, auth: Windows | None, credentials: Credentials,
                 pushed: Pushes | None = None) -> None:
        #: ``referee.store.windows.WindowStore``: the windows in Redis
        self.windows, self.general, self.auth, self.pushed = windows, general, auth, pushed
        self.hashes = TokenHashes(credentials)
        self.caller = caller_key(self.hashes)
        self.leases = Leases(clock=pushed.clock if pushed is not None else time.monotonic)

    def before(self) -> Response | None:
        req = _bound()
        endpoint = req.endpoint
        if endpoint in UNLIMITED:
            return None
        credential = carries_credential(req)
        if endpoint in CREDENTIAL_FIRST and not credential:
            return None  # the handler's 401
        tested: _AddressTest | None = None
        if self.auth is not None and credential:
            tested, blocked = self._address_test(req)
            if blocked:
                return _refused_for(blocked)
        caller = self.caller(req)
        hit = not self.leases.take(caller)
        game_id = (req.view_args or {}).get("game_id") if endpoint in PREFETCH_HEAD else None
        if not (tested or hit or game_id is not None):
            return None  # no round trip
        return self._ask(tested, caller if hit else None, game_id)

    def _address_test(self, req: Request) -> tuple[_AddressTest | None, float | None]:
        """Whether the request's address must be tested in Redis (``None``
        when this process knows it unblocked), and the seconds it stays
        blocked when this process knows that."""
        pushed = self.pushed
        epoch = pushed.sync() if pushed is not None else None  # blocks: only a credential needs them
        who = address_key(req)
        blocked = pushed.blocked_for(who, epoch) if pushed is not None else None
        return (_AddressTest(who, epoch) if blocked is None else None), blocked

    def _ask(self, tested: _AddressTest | None, caller: str | None, game_id: Any) -> Response | None:
        """The round trip, and the 429 of the address's windows or the caller's, if one is full."""
        asked_at = self.leases.clock()
        replies = self._round_trip(tested is not None, caller, game_id)
        if game_id is not None:
            g.prefetched_head = (game_id, replies.pop())  # parsed by the store
        if tested is not None:
            if not int(replies[0][0]):
                return _refusal("too many failed authentications from this address", replies[0])
            if self.pushed is not None:
                self.pushed.learn_clean(tested.who, tested.epoch)
        if caller is not None:
            granted = int(replies[-1][0])
            if not granted:
                return _refusal("too many requests", replies[-1])
            self.leases.give(caller, granted - 1, asked_at + self.general.shortest_s)
        return None

    def _round_trip(self, tested: bool, caller: str | None, game_id: Any) -> list[Any]:
        """One round trip: the address's failed-authentication windows
        tested, the caller's windows hit (a lease's worth), and the game's head."""
        test = (self._auth_keys(), self.auth.args("test")) if tested and self.auth is not None else None
        hit = (self.general.keys("referee:calls", caller), self.general.args("hit", self.general.lease)) \
            if caller is not None else None
        replies: list[Any] = self.windows.round_trip(test, hit, str(game_id) if game_id is not None else None)
        return replies

    def after(self, response: Response) -> Response:
        # the status first: only a 401 or a 403 can be a failed authentication (``auth_failed``)
        if response.status_code in (401, 403) and self.auth is not None and request.endpoint not in UNLIMITED \
                and carries_credential() and auth_failed(response):
            publish = (self.pushed.channel, address_key()) if self.pushed is not None else ("", "")
            _granted, reset_ms, now_ms = (int(x) for x in self.windows.hit(self._auth_keys(),
                                                                          self.auth.args("hit", 1, publish)))
            if reset_ms and self.pushed is not None:  # the hit filled a window (or found it full): blocked here now
                self.pushed.learn_blocked(address_key(), reset_ms - now_ms)
        return response

    def _auth_keys(self) -> list[str]:
        """The request's address's failed-authentication windows."""
        assert self.auth is not None
        return self.auth.keys("referee:auth-failures", address_key())


#: routes whose handler reads the game's head: the limiter's round trip reads it for them
PREFETCH_HEAD = frozenset({"games.view_game"})


def prefetched_head(game_id: str) -> Any:
    """The head the limiter read for ``game_id`` in this request, if it did,
    as the store parsed it (``referee.store.redis_store.Head``; ``None``:
    read it yourself)."""
    found = g.get("prefetched_head")
    return found[1] if found is not None and found[0] == game_id else None


def _refused_for(wait_s: float) -> Response:
    """The 429 of an address this process knows is blocked (pushed by Redis)."""
    return _refusal("too many failed authentications from this address", (0, round(wait_s * 1000), 0))


def _refusal(detail: str, reply: Any) -> Response:
    _allowed, reset_ms, now_ms = (int(x) for x in reply)
    wait = max(0.001, (reset_ms - now_ms) / 1000)
    response = problem(429, "rate_limited", f"{detail}: retry in {wait:.2f} s", retry_after=round(wait, 3))
    response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    return response


def install(app: Flask, windows: Any, credentials: Credentials, pushed: Pushes | None = None) -> RateLimiter | None:
    """Limit ``app`` (see the module doc); ``windows`` are its windows in
    Redis (``EventStore.windows()``), ``credentials`` what tells who a token
    proves to be, ``pushed`` its process's subscription, if it has one."""
    general = Windows.of(parse(_setting(app, "RATE_LIMIT", DEFAULT)))
    if general is None:
        return None
    limiter = RateLimiter(windows, general, Windows.of(parse(_setting(app, "AUTH_FAIL_LIMIT", DEFAULT_AUTH_FAIL))),
                          credentials, pushed)
    app.before_request(limiter.before)
    app.after_request(limiter.after)
    return limiter
