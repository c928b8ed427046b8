"""``/v1/games``: create, view, moves, events, stream, replay, log, audit."""
from __future__ import annotations

import re

from flask import Blueprint, Response, request, stream_with_context

from referee.audit import audit_lines
from referee.engine.protocol import Json
from referee.errors import ApiError
from referee.http import quotas, streams
from referee.http.api import webhooks
from referee.http.context import bearer_token, idempotency_key, is_admin, json_body, query, service
from referee.http.ratelimit import prefetched_head
from referee.http.schemas import (
    ClaimSeat,
    CreateGame,
    EventsQuery,
    GamesQuery,
    MoveRequest,
    ReplayQuery,
    quick_move_request,
)
from referee.service import REDIS_UNAVAILABLE, new_game_id, reading
from referee.service.transparency import inclusion_path

bp = Blueprint("games", __name__, url_prefix="/v1/games")
CREATE, MOVE, EVENTS, REPLAY, LIST = CreateGame(), MoveRequest(), EventsQuery(), ReplayQuery(), GamesQuery()
CLAIM = ClaimSeat()
STREAM_MAX_S = 60.0
LAST_EVENT_ID = re.compile(r"[0-9]{0,15}")  # 10**15 - 1 < 2**53: openapi.yaml's bound on seqs
bp.register_error_handler(streams.StreamsBusy, streams.busy_response)  # 429/503 with Retry-After
bp.register_error_handler(quotas.OverQuota, quotas.over_quota)  # 429 with Retry-After


@bp.post("")
def create_game() -> tuple[Json, int]:
    """A new game, within its creator's quotas (``referee.http.quotas``); a
    registered bot is seated only where its owner agrees (``bot_secret``)."""
    body = json_body(CREATE)
    webhooks.check_new_game(body.get("options"))  # the game-end webhook's URL, under the bots' URL policy
    svc = service()
    seats = body.get("seats")
    for spec in seats or ():
        secret = spec.pop("bot_secret", None)
        if spec.get("bot") is not None:
            svc.check_seating(spec["bot"], secret)
    game_id = new_game_id()
    with quotas.game_place(quotas.ClientQuotas.of_app(), quotas.client(), game_id):
        created = svc.create_game(body["ruleset"], players=body.get("players"), seats=seats,
                                  options=body.get("options"), seed=body.get("seed"), setup=body.get("setup"),
                                  game_id=game_id)
    return created, 201


@bp.get("")
def list_games() -> Json:
    """Games newest first: their public facts, a page at a time (``next``: the following page's cursor)."""
    args = query(LIST)
    return service().list_games(ruleset=args.get("ruleset"), status=args.get("status"), cursor=args.get("cursor"),
                                limit=args["limit"], open_seats=args.get("open_seats"), source=args.get("source"))


@bp.get("/<game_id>")
def view_game(game_id: str) -> Response:
    return Response(service().view(game_id, bearer_token(), prefetched_head(game_id)), mimetype="application/json")


@bp.post("/<game_id>/moves")
def submit_move(game_id: str) -> Response:
    token = bearer_token()
    if token is None:  # before the body or the game is read (and before the rate limit: ratelimit.CREDENTIAL_FIRST)
        raise ApiError(401, "token_required", "moves need a seat token: Authorization: Bearer <token>")
    body = json_body(MOVE, quick_move_request)
    accepted = service().submit_move(game_id, token, body["move"],
                                     expected_version=body.get("expected_version"),
                                     idempotency_key=idempotency_key())
    return Response(accepted, status=201, mimetype="application/json")


@bp.post("/<game_id>/seats/<int:seat>/claim")
def claim_seat(game_id: str, seat: int) -> tuple[Json, int]:
    """An open seat to whoever claims it first: its token, shown once."""
    body = json_body(CLAIM)
    quotas.count_claim(quotas.ClientQuotas.of_app(), quotas.client())
    return service().claim_seat(game_id, seat, body["name"]), 201


@bp.post("/<game_id>/seats/<int:seat>/token")
def reissue_token(game_id: str, seat: int) -> Json:
    """A seat's new token: for a seat the creator seated, by the creator
    (``Authorization: Bearer <owner_token>``); for a claimed seat, by its
    claimant's own token only (403 ``seat_belongs_to_claimant`` to the creator)."""
    token = bearer_token()
    if token is None:  # before anything is read (and before the rate limit: ratelimit.CREDENTIAL_FIRST)
        raise ApiError(401, "token_required", "reissuing a seat's token needs the game's owner_token (a claimed "
                       "seat's: its own token)")
    return service().reissue_token(game_id, seat, token)


@bp.get("/<game_id>/events")
def list_events(game_id: str) -> Json:
    args = query(EVENTS)
    return reading.events(service(), game_id, bearer_token(), args["after"], args["wait"], slot=streams.slot,
                          gone=streams.client_gone())


@bp.get("/<game_id>/events/stream")
def stream_events(game_id: str) -> Response:
    args = query(EVENTS)
    after = _last_event_id(request.headers.get("Last-Event-ID"), args["after"])
    # a stream holds a slot (a cap per client and in all, referee.http.streams): it ends after
    # STREAM_MAX_S and the client's EventSource reconnects with Last-Event-ID, resuming there
    events = reading.stream(service(), game_id, bearer_token(), after, max_s=STREAM_MAX_S, slot=streams.slot,
                            gone=streams.client_gone())
    first = next(events)  # authenticate, 404 and take a slot (or 429/503) before the 200 goes out
    return Response(stream_with_context(_chain(first, events)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _last_event_id(header: str | None, after: int) -> int:
    """Where a stream resumes: the ``Last-Event-ID`` an EventSource sends back
    (the seq of the last event it got; up to 15 digits, empty for 0), else ``after``."""
    if header is None:
        return after
    if not LAST_EVENT_ID.fullmatch(header):
        shown = header[:40].encode("ascii", "backslashreplace").decode()
        raise ApiError(400, "invalid_last_event_id",
                       f"Last-Event-ID is the seq of an event (up to 15 digits), not {shown!r}")
    return int(header or 0)


def _chain(first: str, rest):  # type: ignore[no-untyped-def]
    yield first
    try:
        yield from rest
    except REDIS_UNAVAILABLE:
        # the 200 is out: end the stream; the EventSource reconnects with
        # Last-Event-ID and gets a 503 until Redis answers again
        yield ": redis unavailable\n\n"


@bp.get("/<game_id>/replay")
def replay(game_id: str) -> Json:
    return reading.replay(service(), game_id, query(REPLAY).get("version"))


@bp.get("/<game_id>/log")
def log(game_id: str) -> Response:
    svc = service()
    lines = list(reading.log_lines(svc, game_id, is_admin()))
    response = Response("".join(lines), mimetype="application/x-ndjson")
    if svc.load(game_id).status == "finished":  # its inclusion proof, beside the log's unchanged bytes
        response.headers["Link"] = f'<{inclusion_path(game_id)}>; rel="inclusion-proof"'
    return response


@bp.get("/<game_id>/audit")
def audit(game_id: str) -> Json:
    svc = service()
    return {"id": game_id, **audit_lines(reading.log_lines(svc, game_id, is_admin()), keys=svc.keyring.public())}
