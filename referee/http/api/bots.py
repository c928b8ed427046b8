"""``/v1/bots`` and ``/v1/tournaments``."""
from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, request, stream_with_context

from referee import settings
from referee.engine import canonical_bytes
from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.games import registry
from referee.http import quotas, ratelimit, streams
from referee.http.api import webhooks
from referee.http.api.games import STREAM_MAX_S, _chain
from referee.http.context import bearer_token, is_admin, json_body, query, service, url_policy
from referee.http.problems import problem
from referee.http.schemas import AnswerTurn, CreateTournament, ListQuery, RegisterBot
from referee.play.tournament_quotas import ANONYMOUS_MAX_GAMES, DEFAULT_PARALLEL, Caps, Quotas, Refused
from referee.play.tournaments import Tournaments
from referee.service import reading
from referee.service.rated import owner_id

bp = Blueprint("bots", __name__)
REGISTER, TOURNAMENT, ANSWER, LIST = RegisterBot(), CreateTournament(), AnswerTurn(), ListQuery()
STREAM_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}|0")
bp.register_error_handler(quotas.OverQuota, quotas.over_quota)  # 429 with Retry-After


@bp.post("/v1/bots")
def register_bot() -> tuple[Json, int]:
    body = json_body(REGISTER)
    unknown = [r for r in body["rulesets"] if r not in registry.names()]
    if unknown:
        raise ApiError(422, "unknown_ruleset", f"no ruleset {unknown[0]!r}")
    url = body.get("url")
    if url is not None:  # none: an outbound bot, which connects for its turns (GET /v1/bots/{id}/turns)
        url_policy().check(url)
    svc = service()
    bot_id = svc.bots.new_id()
    place = quotas.bot_place(quotas.ClientQuotas.of_app(), quotas.client(), bot_id)
    try:
        return svc.bots.register(body["name"], url, body["rulesets"], svc.clock(), seating=body["seating"],
                                 bot_id=bot_id, quota=place, owner=owner_id(quotas.client())), 201
    except BaseException:
        quotas.free_bot_place(place, bot_id)
        raise


@bp.delete("/v1/bots/<bot_id>")
def delete_bot(bot_id: str) -> Json:
    """The bot forgotten, for its owner (its secret as the Bearer token): its
    place in its owner's quota is free; games it sits in play its seat's
    default move from now on."""
    _owned(bot_id)
    quotas.free_bot_place(service().bots.delete(bot_id), bot_id)
    return {"id": bot_id, "deleted": True}


@bp.get("/v1/bots")
def list_bots() -> Json:
    """Registered bots newest first (no URL, no secret)."""
    args = query(LIST)
    return service().list_bots(cursor=args.get("cursor"), limit=args["limit"])


@bp.get("/v1/tournaments")
def list_tournaments() -> Json:
    """Tournaments newest first, a page at a time."""
    args = query(LIST)
    return _tournaments().list(status=args.get("status"), cursor=args.get("cursor"), limit=args["limit"])


@bp.get("/v1/bots/<bot_id>")
def get_bot(bot_id: str) -> Json:
    return _owned(bot_id)


def _owned(bot_id: str) -> Json:
    """The bot's record, for its owner only (its secret as the Bearer token)."""
    token = bearer_token()
    if token is None:  # before anything is read (and before the rate limit: ratelimit.CREDENTIAL_FIRST)
        raise ApiError(401, "token_required", "only the bot's owner may use it: Authorization: Bearer <secret>")
    bots = service().bots
    if bots.get(bot_id) is None:
        raise ApiError(404, "bot_not_found", f"no bot with id {bot_id!r}")
    record = bots.owned_by(bot_id, token)
    if record is None:
        raise ApiError(401, "bad_token", "only the bot's owner (Bearer <secret>) may use it")
    return record


@bp.get("/v1/bots/<bot_id>/turns")
def bot_turns(bot_id: str) -> Response:
    """An outbound bot's turns as Server-Sent Events (each ``event: turn``,
    ``id`` the turn's place on the bot's stream, ``data`` the webhook's
    payload with ``delivery`` and ``answer_by``); ends after a minute, for the
    bot to reconnect with ``Last-Event-ID``."""
    record = _owned(bot_id)
    if record.get("url"):
        raise ApiError(409, "not_outbound", "this bot is called at its URL (a webhook bot); register one "
                       "without a url to connect for its turns")
    after = request.headers.get("Last-Event-ID") or "0"
    if not STREAM_ID.fullmatch(after):
        raise ApiError(400, "invalid_last_event_id", "Last-Event-ID is the id of a turn event (<ms>-<n>)")
    turns = reading.bot_turns(service(), bot_id, after, max_s=STREAM_MAX_S, slot=streams.slot,
                              gone=streams.client_gone())
    first = next(turns)  # a slot taken (or 429/503) before the 200 goes out
    return Response(stream_with_context(_chain(first, turns)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.post("/v1/bots/<bot_id>/turns/<delivery>")
def answer_turn(bot_id: str, delivery: str) -> tuple[Json, int]:
    """An outbound bot's answer to one turn: ``{"move": {...}}``, while the
    turn is open (its deadline, ``REFEREE_BOT_TIMEOUT_S``, as a webhook's)."""
    _owned(bot_id)
    body = json_body(ANSWER)
    if not service().bots.answer_turn(bot_id, delivery, canonical_bytes(body["move"])):
        raise ApiError(409, "turn_closed", f"turn {delivery!r} is not open: answered already, past its deadline "
                       "(its default was played), or never offered")
    return {"delivery": delivery, "accepted": True}, 202


def _caps() -> Caps:
    """Anonymous tournaments' caps: app config, else the environment."""
    def setting(name: str, default: int) -> int:
        value = current_app.config.get(name)
        found = settings.get(f"REFEREE_{name}")
        return int(value if value is not None else found if found is not None else default)
    return Caps(games=setting("TOURNAMENT_MAX_GAMES", ANONYMOUS_MAX_GAMES),
                parallel=setting("TOURNAMENT_MAX_PARALLEL", DEFAULT_PARALLEL))


def _tournaments() -> Tournaments:
    """The tournaments, with the quotas of the app's config, else the environment."""
    svc = service()
    return Tournaments(svc, svc.store.tournaments, Quotas.from_settings(current_app.config))


@bp.post("/v1/tournaments")
def create_tournament() -> tuple[Json, int] | Response:
    body = json_body(TOURNAMENT)
    webhooks.check_new_game(body)  # every game's end webhook, under the bots' URL policy
    svc = service()
    admin = is_admin()
    # the caller as the rate limiter counts one here: no credential proves anyone but the admin
    caller = None if admin else ratelimit.address_key()
    try:
        created = _tournaments().create(body, None if admin else _caps(), caller=caller)
    except Refused as refused:  # 429 past the caller's quota, 503 past the deployment's
        response = problem(refused.status, refused.code, refused.detail, **refused.extra)
        response.headers["Retry-After"] = str(refused.retry_after_s)
        return response
    if svc.scheduler is not None:
        svc.scheduler.start_tournament(created["id"])
    return created, 201


@bp.get("/v1/tournaments/<tournament_id>")
def get_tournament(tournament_id: str) -> Json:
    return _tournaments().get(tournament_id)


@bp.delete("/v1/tournaments/<tournament_id>")
def cancel_tournament(tournament_id: str) -> Json:
    return _tournaments().cancel(tournament_id, bearer_token(), admin=is_admin())
