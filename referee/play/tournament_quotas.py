"""What tournaments may ask for and how many may run (issue 22): the caps
of a tournament created without the admin token (``Caps``), the quotas of
unfinished tournaments per caller and of tournament games played at once in
the deployment (``Quotas``), and a quota's refusal with its ``Retry-After``
(``Refused``). ``referee.play.tournaments`` applies them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee import settings
from referee.errors import ApiError
from referee.store.tournaments import IN_FLIGHT, TournamentStore

MAX_GAMES = 10_000  # with the admin token; the schema's ceiling
MAX_PARALLEL = 64
DEFAULT_PARALLEL = 8
ANONYMOUS_MAX_GAMES = 1000
#: Retry-After of a caller past its quota (a slot frees when one of its tournaments ends)
QUOTA_RETRY_AFTER_S = 60
#: Retry-After of a creation refused while the deployment plays its most tournament games
BUSY_RETRY_AFTER_S = 10

@dataclass(frozen=True, slots=True)
class Caps:
    """What a tournament may ask for without the admin token (configurable:
    ``REFEREE_TOURNAMENT_MAX_GAMES``, ``REFEREE_TOURNAMENT_MAX_PARALLEL``)."""

    games: int = ANONYMOUS_MAX_GAMES
    parallel: int = DEFAULT_PARALLEL


@dataclass(frozen=True, slots=True)
class Quotas:
    """Unfinished tournaments per caller without the admin token
    (``REFEREE_TOURNAMENTS_PER_CLIENT``), tournament games played at once in
    the deployment (``REFEREE_TOURNAMENT_GAMES_MAX``), and how long a slot
    not renewed stays taken (``REFEREE_TOURNAMENT_LEASE_S``); ``None``: no limit."""

    per_client: int | None = 2
    games_max: int | None = 32
    lease_s: float = 900.0

    @classmethod
    def from_settings(cls, config: Mapping[str, Any] | None = None) -> Quotas:
        """From ``config`` (an app's: ``TOURNAMENTS_PER_CLIENT``, ...), else the environment."""
        def value(name: str) -> Any:
            found = (config or {}).get(name)
            return found if found is not None else settings.text(f"REFEREE_{name}")
        lease = float(value("TOURNAMENT_LEASE_S"))
        if lease <= 0:
            raise ValueError("REFEREE_TOURNAMENT_LEASE_S is a number of seconds above 0")
        return cls(settings.count_limit(value("TOURNAMENTS_PER_CLIENT"), "REFEREE_TOURNAMENTS_PER_CLIENT"),
                   settings.count_limit(value("TOURNAMENT_GAMES_MAX"), "REFEREE_TOURNAMENT_GAMES_MAX"), lease)

    @property
    def lease_ms(self) -> int:
        return int(self.lease_s * 1000)


class Refused(ApiError):
    """A quota's refusal (429 per caller, 503 for the deployment): its
    ``Retry-After`` in seconds."""

    def __init__(self, status: int, code: str, detail: str, *, retry_after_s: int, **extra: Any) -> None:
        super().__init__(status, code, detail, retry_after=retry_after_s, **extra)
        self.retry_after_s = retry_after_s


def admit(kept: TournamentStore, quotas: Quotas, tid: str, caller: str | None, now: int) -> bool:
    """Refuse a new tournament while the deployment plays its most
    tournament games (503), or past the caller's quota (429); else take
    the caller's slot for ``tid`` (whether one was taken)."""
    if quotas.games_max is not None:
        playing = kept.count(IN_FLIGHT, now)
        if playing >= quotas.games_max:
            raise Refused(503, "tournaments_busy", f"{playing} tournament games are being played, the most "
                          f"this referee plays at once ({quotas.games_max}): retry later",
                          retry_after_s=BUSY_RETRY_AFTER_S, max_games_in_flight=quotas.games_max)
    if caller is None or quotas.per_client is None:
        return False
    key = kept.quota_key(caller)
    for other in kept.live(key, now):  # recount: a slot whose tournament is over (freed by no one)
        if kept.field(other, "status") != "running":
            kept.free(key, other)
    taken, _ = kept.take(key, tid, quotas.per_client, now, quotas.lease_ms)
    if not taken:
        raise Refused(429, "tournament_quota", f"at most {quotas.per_client} unfinished tournaments per "
                      "client without the admin token: one frees its place when it finishes or is cancelled "
                      "(DELETE /v1/tournaments/{id} with its cancel_token)",
                      retry_after_s=QUOTA_RETRY_AFTER_S, max_tournaments=quotas.per_client)
    return True


def free_quota(kept: TournamentStore, tid: str) -> None:
    """The tournament is over (finished or cancelled): its caller's slot is free."""
    owner = kept.field(tid, "quota")
    if owner:
        kept.free(kept.quota_key(owner), tid)
