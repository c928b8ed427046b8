"""Game-end webhooks (issue 40 item 3): a game created with the option
``callback_url`` is POSTed its end — the result, the final head and the
referee's signature of it — once it finishes.

- The URL is held to the bot URLs' rules (``referee.bots.bot_url``): parsed
  at creation (422 ``invalid_callback_url``), its addresses checked against
  the deployment's policy at creation (by the API) and again at every
  attempt (``referee.bots.webhook.post_signed``: only checked addresses are
  called, no redirect is followed).
- Every attempt is signed as a bot's request is (``X-Referee-Signature``,
  HMAC-SHA256 with the game's ``callback_secret``, shown once in the 201),
  and carries the game's one delivery id (``X-Referee-Delivery``): the same
  on every attempt, so a receiver dedupes by it.
- A worker's job (``workers.webhooks``) makes one attempt; one that fails
  (no answer, or not a 2xx) is retried by RQ after each interval of
  ``REFEREE_WEBHOOK_RETRY_S``, then given up (state ``failed``): a bounded time.
- Exactly one delivery is accepted per game: the store's once-flag and lease
  (``referee.store.webhooks``) let no two workers post at once and nothing
  post after an accepted one, however often the end is heard.
- The creator (``owner_token``) reads each attempt's outcome:
  ``GET /v1/games/{id}/deliveries``.
"""
from __future__ import annotations

import hmac
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from referee import settings
from referee.bots.webhook import BotFailure, CallLimits, UrlPolicy, parse_bot_url, post_signed
from referee.engine import canonical_bytes, sha256_hex
from referee.engine.protocol import Json
from referee.errors import ApiError, not_found
from referee.service.game import Game
from referee.service.loading import Loader
from referee.store.redis_store import EventStore
from referee.tokens import new_token

#: the longest callback URL taken
MAX_URL = 2048
#: what a delivery's body says it is
EVENT = "game_finished"
#: how much longer than one call's deadline its lease lasts
LEASE_MARGIN_MS = 30_000
_log = logging.getLogger(__name__)


def callback_option(value: Any) -> str:
    """The creation option ``callback_url``: an absolute http(s) URL a bot
    could have (422 ``invalid_callback_url``, or ``callback_url_refused`` for
    another scheme or credentials in it); ``null`` is no URL."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_URL:
        raise ApiError(422, "invalid_callback_url", f"callback_url is a URL of 1 to {MAX_URL} characters")
    try:
        parse_bot_url(value)
    except ApiError as err:
        code = "callback_url_refused" if err.code == "bot_url_refused" else "invalid_callback_url"
        raise ApiError(422, code, f"callback_url: {err.detail}") from None
    return value


def check_callback(url: str, policy: UrlPolicy) -> None:
    """The API's check at creation: ``url`` resolves to addresses the
    deployment may call (the bots' policy), else 422 ``callback_url_refused``."""
    try:
        policy.check(url)
    except ApiError as err:
        code = "callback_url_refused" if err.code == "bot_url_refused" else "invalid_callback_url"
        raise ApiError(422, code, f"callback_url: {err.detail}") from None


def retry_intervals(raw: str | None = None, name: str = "REFEREE_WEBHOOK_RETRY_S") -> list[int]:
    """``REFEREE_WEBHOOK_RETRY_S`` (or the setting ``name``): the seconds
    between one attempt and the next, comma-separated (``off``: one attempt);
    a value that is not a list of whole seconds falls back to the default (logged)."""
    text = (raw if raw is not None else settings.text(name)).strip().lower()
    if text in ("off", ""):
        return []
    try:
        found = [int(part) for part in text.split(",")]
    except ValueError:
        found = [-1]
    if any(s < 0 for s in found):
        default = str(settings.BY_NAME[name].default)
        _log.warning("%s=%r is not whole seconds, comma-separated: using %s", name, raw, default)
        return retry_intervals(default, name)
    return found


def delivery_id(game_id: str) -> str:
    """The game's one delivery id: the same on every attempt."""
    return f"{game_id}:finished"


def payload(game: Game, signature: Json | None) -> bytes:
    """What is POSTed, as bytes (the same on every attempt): the game, its
    result, its final head and the referee's signature of it (``kid``,
    ``sig``: verified with ``GET /v1/keys`` over the ``referee.final``
    statement, ``referee.engine.signature``)."""
    body: Json = {"type": EVENT, "delivery": delivery_id(game.id), "game": game.id,
                  "ruleset": game.ruleset.name, "ruleset_version": game.ruleset.version, "status": game.status,
                  "version": game.version, "head": game.last_hash, "signature": signature,
                  "result": game.ruleset.result(game.state), "finished_at": game.last_at,
                  "seats": game.seats(), "custom": game.header["custom"]}
    if game.header.get("tournament") is not None:
        body["tournament"] = game.header["tournament"]
    return canonical_bytes(body)


class Webhooks:
    """Games' end webhooks: their secrets at creation, their deliveries, their outcomes."""

    def __init__(self, store: EventStore, loader: Loader, clock: Callable[[], int]) -> None:
        self.store = store
        self.loader = loader
        self.clock = clock

    @staticmethod
    def new_secret() -> str:
        """A new game's callback secret: what signs its deliveries (never
        beginning with ``-``, so a receiver's command line takes it)."""
        return new_token(32)

    def deliver(self, game_id: str, *, policy: UrlPolicy, limits: CallLimits, most: int) -> str:
        """One attempt at delivering a finished game's end, at most ``most``
        in all: ``delivered``, ``retry`` (it failed; attempts are left),
        ``failed`` (the last failed), or nothing done: ``no_callback``,
        ``not_over``, ``busy`` (another is posting), ``delivered`` already."""
        hooks = self.store.webhooks
        target = hooks.target(game_id)
        if target is None:
            return "no_callback"
        game = self.loader.load(game_id)
        if game.status == "active":
            return "not_over"
        holder = secrets.token_hex(8)
        state, attempt = hooks.begin(game_id, holder, int(limits.timeout_s * 1000) + LEASE_MARGIN_MS, most)
        if state != "go":
            return state
        last = self.store.read(game_id, after=game.version - 1, upto=game.version)
        body = payload(game, last[0].get("signature") if last else None)
        at, status, error = self.clock(), None, None
        try:
            status = post_signed(target[0], target[1], body, delivery=delivery_id(game_id), policy=policy,
                                 limits=limits)
        except BotFailure as failure:
            error = failure.cause
        accepted = status is not None and 200 <= status < 300
        if not accepted and error is None:
            error = f"http_{status}"
        outcome = "delivered" if accepted else "failed" if attempt >= most else "retry"
        hooks.finish(game_id, holder, {"attempt": attempt, "at": at, "status": status, "error": error},
                     "pending" if outcome == "retry" else outcome)
        return outcome

    def _creator(self, meta: dict[str, str], digest: str) -> bool:
        """Whether the token of ``digest`` is the game's creator's: its
        ``owner_token``, or for a tournament's game the tournament's ``cancel_token``."""
        if hmac.compare_digest(digest, meta.get("owner", "")):
            return True
        tournament = json.loads(meta["header"]).get("tournament")
        cancel = self.store.tournaments.field(tournament, "cancel_hash") if tournament else None
        return cancel is not None and hmac.compare_digest(digest, cancel)

    def deliveries(self, game_id: str, token: str, *, most: int) -> Json:
        """How the game's end webhook went, for its creator (``token``: its
        ``owner_token``, or a tournament's ``cancel_token``; else 401), 404
        ``no_callback`` for a game created without one; ``attempts_max`` as
        its first attempt was bounded (``most``, this process's bound, before it)."""
        meta = self.store.meta(game_id)
        if meta is None:
            raise not_found(game_id)
        if not self._creator(meta, sha256_hex(token)):
            raise ApiError(401, "bad_token", "only the game's creator reads its deliveries: its owner_token (a "
                           "tournament's game: the tournament's cancel_token)")
        url = meta.get("callback_url")
        if url is None:
            raise ApiError(404, "no_callback", f"game {game_id} was created without a callback_url")
        fields, attempts = self.store.webhooks.status(game_id)
        state = fields.get("state") or ("waiting" if meta.get("status") == "active" else "pending")
        delivered = fields.get("delivered_at")
        return {"game": game_id, "callback_url": url, "delivery": delivery_id(game_id), "state": state,
                "attempts": attempts, "attempts_max": int(fields.get("most", most)),
                "delivered_at": int(delivered) if delivered else None}
