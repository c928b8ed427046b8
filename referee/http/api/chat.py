"""``/v1/games/{id}/chat``: the table chat in the chain (issue 40 item 5;
docs/chat.md): post a message, read the messages, hide one."""
from __future__ import annotations

import hmac

from flask import Blueprint, Response, current_app
from marshmallow import RAISE, Schema, fields, validate

from referee.engine.protocol import Json
from referee.http import ratelimit
from referee.http.context import bearer_token, json_body, query, service
from referee.http.problems import problem
from referee.http.schemas import MAX_INT
from referee.service.chat import ChatRateLimited

bp = Blueprint("chat", __name__, url_prefix="/v1/games")


class ChatPost(Schema):
    """``POST /v1/games/{id}/chat``: the message (its limits are checked after normalising: 422)."""

    class Meta:
        unknown = RAISE

    text = fields.String(required=True, validate=validate.Length(max=4096))


class ChatQuery(Schema):
    class Meta:
        unknown = RAISE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT))


POST, QUERY = ChatPost(), ChatQuery()


@bp.errorhandler(ChatRateLimited)
def rate_limited(err: ChatRateLimited) -> Response:
    """429 with ``Retry-After``: when the poster's window frees."""
    response = problem(err.status, err.code, err.detail, **err.extra)
    response.headers["Retry-After"] = str(err.retry_after)
    return response


def _admin() -> bool:
    """The caller presents the admin token (any other token is judged as a seat's or the owner's)."""
    admin, token = current_app.config.get("ADMIN_TOKEN"), bearer_token()
    return bool(admin) and token is not None and hmac.compare_digest(token.encode(), str(admin).encode())


@bp.post("/<game_id>/chat")
def post_message(game_id: str) -> tuple[Json, int]:
    """A seat's message (a spectator's, where the creator opened the chat to everyone)."""
    body = json_body(POST)
    return service().chat.post(game_id, bearer_token(), body["text"], ratelimit.address_key()), 201


@bp.get("/<game_id>/chat")
def list_messages(game_id: str) -> Json:
    """The messages after event ``after``; a hidden one's text only to the admin."""
    args = query(QUERY)
    admin = _admin()
    return service().chat.messages(game_id, None if admin else bearer_token(), args["after"], admin=admin)


@bp.post("/<game_id>/chat/<int:seq>/hide")
def hide_message(game_id: str, seq: int) -> Json:
    """Message ``seq``'s text hidden, by the game's creator (owner_token) or the admin."""
    admin = _admin()
    return service().chat.hide(game_id, seq, None if admin else bearer_token(), admin=admin)
