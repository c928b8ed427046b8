"""A new game's options and bots, checked before anything is dealt: the
platform's own options (``turn_timeout_s``, ``start_timeout_s``,
``start_bot``) each checked on its own, then the ruleset's against its
published schema (``Ruleset.validate_options``), then what only a whole
game says (the start options need an open seat); every bot it seats is a
built-in bot or one registered for the ruleset. Games and tournaments (for
every game they will deal) check here, alike."""
from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any, NamedTuple

from referee import settings
from referee.bots import BUILT_IN
from referee.engine import sha256_hex
from referee.engine.protocol import Json, RefereeError, Ruleset
from referee.errors import ApiError
from referee.games import registry
from referee.service.chat import chat_option
from referee.service.clocks import clock_option
from referee.service.loading import Loader
from referee.service.presence import away_options
from referee.service.rated import rated_option
from referee.service.spectator_options import SpectatorTiers, tiers_option
from referee.service.webhooks import callback_option
from referee.store.bots import BotDirectory


class GameOptions(NamedTuple):
    """A new game's options checked: the ruleset's (defaults filled in), then the platform's."""

    rules: dict[str, Any]
    turn_timeout_s: float | None
    start_timeout_s: float | None
    start_bot: str | None
    #: who may post at the table chat (``referee.service.chat``; ``None``: the default, the seats)
    chat: str | None = None
    #: a series of games (``referee.service.rematch``): ``{"best_of": n}`` or ``{"games": n}``; ``None``: none
    series: dict[str, int] | None = None
    clock: dict[str, float] | None = None  # a time bank per seat (referee.service.clocks)
    #: the presence options given (``away_grace_s``, ``away_bot``; ``referee.service.presence``), for the header
    away: dict[str, Any] = {}
    callback_url: str | None = None  # the game-end webhook (referee.service.webhooks)
    #: spectators see the game late (``referee.service.spectators``; ``None``: live)
    spectators: SpectatorTiers | None = None
    #: the game moves its bots' ratings (``referee.service.rated``; every seat a bot's)
    rated: bool = False


def seconds_option(value: Any, name: str = "turn_timeout_s") -> float | None:
    """The platform option ``turn_timeout_s`` (or ``start_timeout_s``; 1 s to 1 day), or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= 86_400:
        raise ApiError(422, "invalid_options", f"{name} is a number of seconds from 1 to 86400")
    return value


#: the longest series: ``best_of`` and ``games`` each at most this many games
MAX_SERIES_GAMES = 15


def series_option(value: Any) -> dict[str, int] | None:
    """The platform option ``series`` (issue 40 item 4): ``{"best_of": n}``
    (the first to win more than half of ``n`` games) or ``{"games": n}`` (``n``
    games, whoever wins them), ``n`` from 1 to ``MAX_SERIES_GAMES``; ``None``."""
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) != 1 or not value.keys() <= {"best_of", "games"}:
        raise ApiError(422, "invalid_options", 'series is {"best_of": n} or {"games": n}')
    (kind, count), = value.items()
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_SERIES_GAMES:
        raise ApiError(422, "invalid_options", f"series.{kind} is a whole number of games from 1 to "
                       f"{MAX_SERIES_GAMES}")
    return {kind: count}


def open_seat_clock() -> float | None:
    """The turn clock of a game with open seats that names none
    (``REFEREE_OPEN_SEAT_TURN_TIMEOUT_S``; ``None``: off). It runs once every
    seat is taken (``Game.turn_deadline``)."""
    raw = settings.text("REFEREE_OPEN_SEAT_TURN_TIMEOUT_S").strip().lower()
    if raw in ("off", "0", "none", ""):
        return None
    return seconds_option(float(raw), "REFEREE_OPEN_SEAT_TURN_TIMEOUT_S")


def _start_options(start_timeout_s: float | None, start_bot: Any, seat_specs: list[Json]) -> str | None:
    """The start deadline's bot: only for a game with open seats, only with
    a start deadline; ``random`` unless named; a built-in bot."""
    if (start_timeout_s is not None or start_bot is not None) and not any(s.get("open") for s in seat_specs):
        raise ApiError(422, "invalid_options", "start_timeout_s and start_bot are for a game with open seats")
    if start_bot is not None and start_timeout_s is None:
        raise ApiError(422, "invalid_options", "start_bot names who takes the seats left open at the start "
                       "deadline: give start_timeout_s too")
    if start_timeout_s is None:
        return None
    start_bot = "random" if start_bot is None else start_bot
    if start_bot not in BUILT_IN:
        raise ApiError(422, "invalid_options", f"start_bot is a built-in bot ({', '.join(BUILT_IN)}), "
                       f"not {start_bot!r}")
    return str(start_bot)


class Checks:
    """The checks of a new game's options and seats against the games this
    process can load (a carried-over option) and the registered bots."""

    def __init__(self, loader: Loader, bots: BotDirectory) -> None:
        self.loader = loader
        self.bots = bots

    def game_options(self, ruleset: Ruleset[Any], options: Mapping[str, Any] | None,
                     seat_specs: list[Json]) -> GameOptions:
        """A new game's ``options`` checked (422 ``invalid_options``, or the
        ruleset's refusal) for ``seat_specs``: the ruleset's options with
        defaults filled in, then the platform's ``turn_timeout_s``,
        ``start_timeout_s`` and ``start_bot``."""
        opts = dict(options or {})
        callback_url = callback_option(opts.pop("callback_url")) if "callback_url" in opts else None
        turn_timeout_s = seconds_option(opts.pop("turn_timeout_s", None))
        start_timeout_s = seconds_option(opts.pop("start_timeout_s", None), "start_timeout_s")
        start_bot = opts.pop("start_bot", None)
        chat = chat_option(opts.pop("chat", None))
        rated = rated_option(opts.pop("rated", None), seat_specs)
        series = series_option(opts.pop("series", None))
        clock = clock_option(opts.pop("clock", None), turn_timeout_s)
        away = away_options(opts)
        spectators = tiers_option(opts)
        carry = opts.pop(ruleset.carry_option, None) if ruleset.carry_option else None
        if carry is not None:
            opts.update(self._carried_over(carry, ruleset, len(seat_specs)))
        opts = ruleset.validate_options(opts, len(seat_specs))
        start_bot = _start_options(start_timeout_s, start_bot, seat_specs)
        if start_bot is not None:
            self.check_bot(start_bot, ruleset.name)
        return GameOptions(opts, turn_timeout_s, start_timeout_s, start_bot, chat=chat, series=series, clock=clock,
                           away=away, callback_url=callback_url, spectators=spectators, rated=rated)

    def _carried_over(self, game_id: Any, ruleset: Ruleset[Any], players: int) -> dict[str, Any]:
        """The options a finished game of the same ruleset carries into a new
        one (the ruleset's ``carry_option``, e.g. BANG! R84)."""
        name = ruleset.carry_option
        if not isinstance(game_id, str):
            raise ApiError(422, "invalid_options", f"{name} is a game id")
        try:
            previous = self.loader.load(game_id)
        except ApiError:
            raise ApiError(422, "invalid_options", f"{name}: no game {game_id!r}") from None
        if previous.ruleset.name != ruleset.name:
            raise ApiError(422, "invalid_options", f"{name} names a game of another ruleset")
        try:
            return ruleset.carry_over(previous.state, players)
        except RefereeError as err:
            raise ApiError(422, err.code, err.detail, rule=err.rule) from None

    def check_seats(self, seat_specs: list[Json], ruleset: str) -> list[str | None]:
        """Each seat: open for a person to claim, or a bot's (``check_bot``),
        never both; returns each seat's registered bot's owner (``None``: none)."""
        owners = []
        for spec in seat_specs:
            if spec.get("open") and spec.get("bot"):
                raise ApiError(422, "open_seat_with_bot", "an open seat is for a person to claim: it has no bot")
            owners.append(self.check_bot(spec.get("bot"), ruleset))
        return owners

    def check_bot(self, bot: str | None, ruleset: str) -> str | None:
        """``bot`` (``None``: no bot) is a built-in bot the ruleset has, or one
        registered for it; returns a registered bot's owner (one registered
        before owners were recorded: the bot itself)."""
        if bot == "heuristic" and registry.heuristic(ruleset) is None:
            raise ApiError(422, "no_heuristic", f"{ruleset} has no built-in heuristic bot; seat 'random' or a "
                           "registered bot instead")
        if bot is None or bot in BUILT_IN:
            return None
        found = self.bots.get(bot, touch=True)  # seated: in use
        if found is None:
            raise ApiError(422, "unknown_bot",
                           f"no built-in or registered bot {bot!r} (built-in: {', '.join(BUILT_IN)})")
        if ruleset not in found[0]["rulesets"]:
            raise ApiError(422, "bot_ruleset", f"bot {bot} is registered for {found[0]['rulesets']}, not {ruleset}")
        return str(found[0].get("owner") or bot)

    def check_seating(self, bot: str, secret: str | None) -> None:
        """A registered bot is seated only where its owner agrees: anyone may
        seat a ``public`` one, an ``owner`` one (the default) needs its secret
        (403 ``bot_not_public`` without it, ``bad_bot_secret`` when wrong). An
        unknown bot is ``check_bot``'s 422."""
        found = None if bot in BUILT_IN else self.bots.get(bot)
        if found is None or found[0]["seating"] == "public":
            return
        if secret is None:
            raise ApiError(403, "bot_not_public", f"bot {bot} is seated only by its owner: give its secret as "
                           "bot_secret, or its owner registers it with seating \"public\"")
        if not hmac.compare_digest(sha256_hex(secret), sha256_hex(found[1])):
            raise ApiError(403, "bad_bot_secret", f"bot_secret is not bot {bot}'s secret")
