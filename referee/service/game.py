"""A game as the service holds it: its header's facts and its state folded
at one version (``Game``), and who a token is (``seat_of``). Values only:
loading them is ``referee.service.loading``'s."""
from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.engine import clock as clocks
from referee.engine import sha256_hex
from referee.engine.clock import ClockRule
from referee.engine.frozen import copier
from referee.engine.protocol import Json, Ruleset, Seat
from referee.engine.statecache import Memo
from referee.engine.timing import Timing
from referee.errors import ApiError

#: a seat's token hash while it is open (no token yet), and a bot seat's (none ever): no sha256 is either
OPEN, NO_TOKEN = "open", ""
#: the token "hash" of an open seat given to a built-in bot at the start deadline: ``bot:<name>``
GIVEN = "bot:"
#: a seat's keys in a response, first (any other after, sorted): the order the header is built in
SEAT_KEYS = ("seat", "name", "bot", "open", "owner")
#: the most attempts at one write whose game another process moved on meanwhile
MAX_CONFLICT_RETRIES = 8


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Game:
    """A game loaded at one version: header facts plus the folded state."""

    id: str
    ruleset: Ruleset[Any]
    header: Json
    header_hash: str
    tokens: tuple[str, ...]  # sha256 of each seat's token
    seed: str
    version: int
    last_hash: str
    rng: int
    status: str
    state: Any
    last_at: int = 0
    dealt: Json = field(default_factory=dict)  # the secrets dealt at the start, by name
    opened: frozenset[str] = frozenset()  # names already opened in the log
    names: tuple[str, ...] = ()  # each seat's name now (a claimed seat's: its claimant's)
    #: ``keyed_hmac_sha256(seed)``, prepared once for the game: its generator, salts and bots' seeds
    mac: Callable[[bytes], bytes] | None = field(default=None, compare=False, repr=False)
    #: the game has an end webhook (option ``callback_url``): a job delivers its end (``referee.service.webhooks``)
    callback: bool = False
    #: the game's memo (``referee.engine.statecache``): what the rules derive from its states, handed
    #: to every hook this service calls about the game; one per game, carried from one version of the
    #: game to the next by ``replace`` (so it lives in the service's cache, keyed by the game's id,
    #: beside the state of the version cached), never shared between games
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)
    #: the version of the game's last event that is no chat event (``0``: ``version``): the table's talk
    #: changes no state, so a move expecting any version from this one on is not stale (docs/chat.md)
    played: int = 0

    @property
    def play_version(self) -> int:
        """The version of the game's last event that is no chat event."""
        return self.played or self.version
    #: a clocked game's clock as its last move left it (``referee.engine.clock``; ``None``: no move yet)
    clock: Json | None = None
    #: who plays each seat taken over while its person is away (``seat_taken_over``; ``()``: none ever)
    away: tuple[str | None, ...] = ()
    #: each seat's time per move over the log (``referee.engine.timing``), folded as this process
    #: appended or read the game's events; known only when at ``version`` (``timing_known``)
    timing: Timing | None = field(default=None, compare=False, repr=False)

    def timing_known(self) -> Timing | None:
        """The seats' timing at this very version, if this process folded it (else the log says)."""
        timing = self.timing
        return timing if timing is not None and timing.version == self.version else None

    @property
    def players(self) -> int:
        return int(self.header["players"])

    @property
    def open_seats(self) -> list[Seat]:
        """Seats still open for a player to claim: the game waits for every one."""
        return [seat for seat, token in enumerate(self.tokens) if token == OPEN]

    def seats(self) -> list[Json]:
        """The seats as everyone may see them: number, name, bot, open."""
        out = []
        for spec in self.header["seats"]:
            # one order of keys however the header came (built here, or read back sorted from Redis)
            seat = {key: spec[key] for key in SEAT_KEYS if key in spec}
            seat.update((key, spec[key]) for key in sorted(spec) if key not in seat)
            if self.names:
                seat["name"] = self.names[spec["seat"]]
            if spec.get("open"):
                seat["open"] = self.tokens[spec["seat"]] == OPEN
                seat["bot"] = self.bot_of(spec["seat"])
            if self.away and self.away[spec["seat"]] is not None:
                seat["played_by"] = self.away[spec["seat"]]
            out.append(seat)
        return out

    def start_deadline(self) -> int | None:
        """When the seats still open go to a built-in bot (``None``: no
        start deadline, or no seat open)."""
        seconds = self.header.get("start_timeout_s")
        if seconds is None or not self.open_seats or self.status != "active":
            return None
        return int(self.header["created_at"]) + int(seconds * 1000)

    @property
    def turn_timeout_ms(self) -> int | None:
        seconds = self.header.get("turn_timeout_s")
        return None if seconds is None else int(seconds * 1000)

    def clock_now(self) -> tuple[ClockRule, Json, dict[Seat, bool]] | None:
        """A clocked game's clock: its rule, the clock as the last move left
        it (before any: full banks, every wait begun at the last event), and
        the seats awaited now, each marked whether for a reaction. ``None``:
        no clock."""
        rule = ClockRule.of(self.header)
        if rule is None:
            return None
        started = self.status == "active" and not self.open_seats
        awaited = clocks.waits(self.ruleset, self.state, self.memo) if started else {}
        clock = self.clock if self.clock is not None else clocks.initial(rule, self.players, awaited, self.last_at)
        return rule, clock, awaited

    def clock_due(self) -> list[tuple[int, Seat]]:
        """A clocked game's awaited seats by deadline, the soonest first: ``(deadline, seat)``."""
        now = self.clock_now()
        if now is None:
            return []
        return sorted((due, seat) for seat, due in clocks.deadlines(*now).items())

    def turn_deadline(self) -> int | None:
        """When the turn clock (or a clocked game's clock) applies a default move (``None``: no clock)."""
        if "clock" in self.header:
            due = self.clock_due()
            return due[0][0] if due else None
        timeout = self.turn_timeout_ms
        if timeout is None or self.status != "active" or self.open_seats \
                or not self.ruleset.to_act(self.state, memo=self.memo):
            return None
        return self.last_at + timeout

    def bot_of(self, seat: Seat) -> str | None:
        """The bot that plays ``seat``: the header's, or the one an open seat was given at the start deadline."""
        bot: str | None = self.header["seats"][seat].get("bot")
        if bot is None and self.tokens[seat].startswith(GIVEN):
            return self.tokens[seat][len(GIVEN):]
        if bot is None and self.away:  # a person's seat taken over while they are away
            return self.away[seat]
        return bot

    def person(self, seat: Seat) -> bool:
        """Whether a person holds ``seat`` (a token of its own: no bot's, not open, none given to a bot)."""
        held = self.tokens[seat]
        return self.header["seats"][seat].get("bot") is None and held not in (OPEN, NO_TOKEN) \
            and not held.startswith(GIVEN)



game_but = copier(Game)  # dataclasses.replace for a Game, several times faster (a worker copies one per move)


def new_game_id() -> str:
    """A new game's id: 16 random hex digits."""
    return secrets.token_hex(8)


def seat_of(game: Game, token: str | None) -> Seat | None:
    """The seat a token belongs to; ``None`` for no token; 401 for a wrong one."""
    if token is None:
        return None
    digest = sha256_hex(token)
    for seat, expected in enumerate(game.tokens):
        if hmac.compare_digest(digest, expected):
            return seat
    raise ApiError(401, "bad_token", "this token is not a seat of this game")
