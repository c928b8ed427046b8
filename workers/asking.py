"""Asking a bot for its move: a built-in bot chooses on the seat's view
(``random``: among the legal moves alone), a registered bot is asked over
its webhook or its outbound connection, and its answer goes through the
move boundary; a registered bot that fails has its seat's default played."""
from __future__ import annotations

import json
import os
import time

from referee import bots
from referee.bots.webhook import BotFailure, CallLimits, UrlPolicy, ask, sign
from referee.engine import bot_seed
from referee.engine.protocol import Json
from referee.service import Game, GameService, presence
from referee.service.metrics import BOT_CALLS


def bot_move(svc: GameService, game: Game, seat: int, bot: str) -> tuple[Json | None, Json]:
    """``(move, by)``: the bot's choice, or ``None`` — the prompt's default —
    when a registered bot fails, answers what fails the move boundary, or
    has had its attempts at this turn (``registered_move``)."""
    if bot == presence.DEFAULT:  # a seat taken over while away, by the rules' default (issue 40 item 1)
        return None, {"default": presence.AWAY}
    if bot == "random":  # uniform over the legal moves: the rest of the view is not read
        legal = list(game.ruleset.legal_moves(game.state, seat, memo=game.memo))
        seed = bot_seed(game.seed, seat, game.version, mac=game.mac)
        return bots.choose(bot, game.ruleset.name, {}, legal, seed=seed), {"bot": bot}
    if bot in bots.BUILT_IN:
        view = svc.view_of(game, seat)
        # a stream from the game's secret seed: no opponent can predict it; the
        # audit re-derives it once the seed is revealed
        seed = bot_seed(game.seed, seat, game.version, mac=game.mac)
        BOT_CALLS.labels(kind="built-in", outcome="ok").inc()
        return bots.choose(bot, game.ruleset.name, view, view["legal_moves"], seed=seed), {"bot": bot}
    # a registered bot is shown who is at the table, as every reader is (issue 40 item 1); a built-in bot
    # chooses on the view the audit rebuilds, which has no presence (it is no fact of the chain)
    move, cause, kind = registered_move(svc, game, seat, bot, svc.view_of(game, seat, presence=True))
    BOT_CALLS.labels(kind=kind, outcome=cause or "ok").inc()
    if cause is not None:
        return None, {"bot": bot, "default": cause}
    return move, {"bot": bot}


def registered_move(svc: GameService, game: Game, seat: int, bot: str,
                     view: Json) -> tuple[Json | None, str | None, str]:
    """``(move, None, kind)`` or ``(None, cause, kind)``: a registered bot's
    answer through the move boundary (``bots.check_answer``), or why its
    default is played. Each ask is counted per turn (game, version, seat);
    past ``bots.ATTEMPTS`` the bot is not asked again (``attempts_spent``):
    a job that asked and then failed (its process killed, Redis down, the
    rules refusing) is retried by RQ and the sweeper, never forever."""
    found = svc.bots.get(bot, touch=True)  # called: in use, it does not expire
    if found is None:
        return None, "unknown_bot", "webhook"
    record, secret = found
    kind = "webhook" if record.get("url") else "outbound"
    delivery, limits = f"{game.id}:{game.version}:{seat}", CallLimits.from_env(os.environ)
    if svc.bots.count_attempt(bot, delivery) > bots.ATTEMPTS:
        return None, bots.ATTEMPTS_SPENT, kind
    legal = view["legal_moves"]
    payload = {"game": game.id, "ruleset": game.ruleset.name, "seat": seat, "version": game.version,
               "view": view, "legal_moves": legal, "deadline": _deadline(view, seat)}
    try:
        if kind == "webhook":
            answer = ask(record["url"], secret, payload, delivery=delivery, policy=UrlPolicy.from_env(os.environ),
                         limits=limits)
        else:
            answer = ask_outbound(svc, bot, secret, payload, delivery=delivery, limits=limits)
    except BotFailure as failure:
        return None, failure.cause, kind
    move, cause = bots.check_answer(game.ruleset, answer, legal)
    return move, cause, kind


def ask_outbound(svc: GameService, bot: str, secret: str, payload: Json, *, delivery: str,
                 limits: CallLimits) -> Json:
    """An outbound bot's move: the turn is put on the bot's stream (what its
    connection, ``GET /v1/bots/{id}/turns``, reads) with the webhook's payload
    and signature, then its answer (``POST /v1/bots/{id}/turns/{delivery}``)
    is waited for until the same deadline as a webhook call's; ``BotFailure``
    as for a webhook (``timeout``, ``bad_answer``, ``response_too_large``)."""
    answer_by = svc.clock() + int(limits.timeout_s * 1000)
    ts = int(time.time())
    body = json.dumps({**payload, "delivery": delivery, "answer_by": answer_by}, separators=(",", ":"))
    # the turn's text as a webhook's body, signed as a webhook's: the bot checks those very bytes
    turn = json.dumps({"delivery": delivery, "timestamp": ts, "signature": sign(secret, ts, body.encode()),
                       "body": body}, separators=(",", ":")).encode()
    svc.bots.offer_turn(bot, delivery, turn)
    answer = svc.bots.wait_answer(bot, delivery, limits.timeout_s)
    if answer is None:
        raise BotFailure("timeout")
    if len(answer) > limits.max_response_bytes:
        raise BotFailure("response_too_large")
    try:
        move = json.loads(answer)
    except ValueError:
        raise BotFailure("bad_answer") from None
    if not isinstance(move, dict):
        raise BotFailure("bad_answer")
    return move


def _deadline(view: Json, seat: int) -> int | None:
    """When the bot's answer is late: in a clocked game its own seat's deadline
    (docs/clocks.md), else the turn clock's."""
    clock = view.get("clock")
    if clock is not None:
        own: int | None = clock["seats"][seat].get("deadline")
        return own
    turn: int | None = view.get("turn_deadline")
    return turn
