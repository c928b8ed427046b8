"""``/v1/ladder/{key}/pool``: the ladders' matchmaking pools (issue 42 item 3,
``referee.ladder.pool``). Only a bot's owner (its secret as the Bearer
token) puts it in or takes it out; the admin token does so for a built-in
bot (to warm a pool, or measure it); anyone reads a pool."""
from __future__ import annotations

from flask import Blueprint, current_app, request

from referee.bots import BUILT_IN
from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.http.api.bots import _owned
from referee.http.context import bearer_token, is_admin, json_body, service
from referee.http.schemas.pool import PoolEntry
from referee.ladder.pool import Limits, Pool, ladder

bp = Blueprint("pool", __name__)
ENTRY = PoolEntry()


def _pool() -> Pool:
    """The pools, under the app's limits (its config, else the environment)."""
    return Pool(service(), limits=Limits.from_settings(current_app.config))


@bp.put("/v1/ladder/<key>/pool/<bot_id>")
def put_in_pool(key: str, bot_id: str) -> Json:
    """Put the owner's bot in the pool (or update its entry, un-pausing it); the pool matches it at once."""
    ladder(key)
    if bot_id in BUILT_IN:
        _admin(bot_id)
        body = json_body(ENTRY) if request.get_data(cache=True) else {}
        entry = _pool().put_builtin(key, bot_id, body.get("games_at_once"), body.get("same_table"))
    else:
        record = _owned(bot_id)
        body = json_body(ENTRY) if request.get_data(cache=True) else {}
        entry = _pool().put(key, record, body.get("games_at_once"), body.get("same_table"))
    service().scheduler.match_pool(key)
    return entry


@bp.delete("/v1/ladder/<key>/pool/<bot_id>")
def leave_pool(key: str, bot_id: str) -> Json:
    """Take the owner's bot out of the pool; its games being played finish."""
    ladder(key)
    if bot_id in BUILT_IN:
        _admin(bot_id)
        return _pool().leave_builtin(key, bot_id)
    return _pool().leave(key, _owned(bot_id))


def _admin(bot: str) -> None:
    """Only the admin token puts a built-in bot in a pool or takes it out (401 / 403 ``admin_only``)."""
    if bearer_token() is None:
        raise ApiError(401, "token_required", f"only the admin puts the built-in bot {bot} in a pool: "
                       "Authorization: Bearer <the admin token>")
    if not is_admin():
        raise ApiError(403, "admin_only", f"only the admin token puts the built-in bot {bot} in a pool")


@bp.get("/v1/ladder/<key>/pool")
def show_pool(key: str) -> Json:
    """The pool's bots (the built-in ones too), each one's status, and its stats."""
    return _pool().show(key)
