"""``/v1/bots`` and ``/v1/tournaments``."""
from __future__ import annotations

from referee.engine.protocol import Json

import os

from flask import Blueprint, current_app

from referee.api.context import bearer_token, is_admin, json_body, service
from referee.bots.webhook import UrlPolicy
from referee.errors import ApiError
from referee.games import registry
from referee.schemas import CreateTournament, RegisterBot
from referee.tournaments import ANONYMOUS_MAX_GAMES, DEFAULT_PARALLEL, Caps, Tournaments

bp = Blueprint("bots", __name__)
REGISTER, TOURNAMENT = RegisterBot(), CreateTournament()


def _policy() -> UrlPolicy:
    configured = current_app.config.get("BOT_URL_POLICY")
    return configured if configured is not None else UrlPolicy.from_env(os.environ)


@bp.post("/v1/bots")
def register_bot() -> tuple[Json, int]:
    body = json_body(REGISTER)
    unknown = [r for r in body["rulesets"] if r not in registry.names()]
    if unknown:
        raise ApiError(422, "unknown_ruleset", f"no ruleset {unknown[0]!r}")
    _policy().check(body["url"])
    svc = service()
    return svc.bots.register(body["name"], body["url"], body["rulesets"], svc.clock()), 201


@bp.get("/v1/bots/<bot_id>")
def get_bot(bot_id: str) -> Json:
    bots = service().bots
    if bots.get(bot_id) is None:
        raise ApiError(404, "bot_not_found", f"no bot with id {bot_id!r}")
    record = bots.owned_by(bot_id, bearer_token())
    if record is None:
        raise ApiError(401, "bad_token", "only the bot's owner (Bearer <secret>) may read it")
    return record


def _caps() -> Caps:
    """Anonymous tournaments' caps: app config, else the environment."""
    def setting(name: str, default: int) -> int:
        value = current_app.config.get(name)
        return int(value if value is not None else os.environ.get(f"REFEREE_{name}", default))
    return Caps(games=setting("TOURNAMENT_MAX_GAMES", ANONYMOUS_MAX_GAMES),
                parallel=setting("TOURNAMENT_MAX_PARALLEL", DEFAULT_PARALLEL))


@bp.post("/v1/tournaments")
def create_tournament() -> tuple[Json, int]:
    body = json_body(TOURNAMENT)
    svc = service()
    created = Tournaments(svc).create(body, None if is_admin() else _caps())
    if svc.scheduler is not None:
        svc.scheduler.start_tournament(created["id"])
    return created, 201


@bp.get("/v1/tournaments/<tournament_id>")
def get_tournament(tournament_id: str) -> Json:
    return Tournaments(service()).get(tournament_id)


@bp.delete("/v1/tournaments/<tournament_id>")
def cancel_tournament(tournament_id: str) -> Json:
    return Tournaments(service()).cancel(tournament_id, bearer_token(), admin=is_admin())
