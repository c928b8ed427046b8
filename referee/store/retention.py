"""How long a game's keys live in Redis (issue 8: games never expired).

Every key of a game (``game:{ID}:events``, ``:meta``, ``:secret``) gets one
time-to-live, set again by the same Lua step that writes the game: the
*idle* TTL while the game is active (an abandoned game goes after that long
without a move), the *finished* TTL once it has ended. ``0`` keeps the game
forever. Idempotency records get the shortest of their own TTL and these, so
none outlives its game. An expired game is a plain 404."""
from __future__ import annotations

from dataclasses import dataclass

from referee import settings

DAY_S = 24 * 3600
FINISHED_DEFAULT_S = 30 * DAY_S
IDLE_DEFAULT_S = 7 * DAY_S
#: a finished game's keys once the archive holds it (issue 41: Redis keeps the hot set)
ARCHIVED_DEFAULT_S = 600
OFF = ("0", "off", "never", "forever")


def parse_seconds(name: str, raw: str | None, default: int) -> int:
    """``REFEREE_RETENTION_*``: whole seconds, or ``0``/``off`` for never."""
    if raw is None or not raw.strip():
        return default
    text = raw.strip().lower()
    if text in OFF:
        return 0
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name}={raw!r}: a number of seconds, or 0/off to keep games forever") from None
    if value < 0:
        raise ValueError(f"{name}={raw!r}: must not be negative (0/off keeps games forever)")
    return value


@dataclass(frozen=True, slots=True)
class Retention:
    """Seconds a game's keys live: ``finished_s`` after its last event once
    over, ``idle_s`` after its last event while active; 0 is forever."""

    finished_s: int = FINISHED_DEFAULT_S
    idle_s: int = IDLE_DEFAULT_S
    #: once its archive write is confirmed (0: the finished TTL, as if no archive)
    archived_s: int = ARCHIVED_DEFAULT_S

    @classmethod
    def from_env(cls) -> Retention:
        return cls(finished_s=parse_seconds("REFEREE_RETENTION_FINISHED_S",
                                            settings.get("REFEREE_RETENTION_FINISHED_S"), FINISHED_DEFAULT_S),
                   idle_s=parse_seconds("REFEREE_RETENTION_IDLE_S",
                                        settings.get("REFEREE_RETENTION_IDLE_S"), IDLE_DEFAULT_S),
                   archived_s=parse_seconds("REFEREE_RETENTION_ARCHIVED_S",
                                            settings.get("REFEREE_RETENTION_ARCHIVED_S"), ARCHIVED_DEFAULT_S))

    def game_ttl_ms(self, status: str) -> int:
        """The TTL (ms, 0 = none) of a game's keys written with ``status``."""
        return 1000 * (self.idle_s if status == "active" else self.finished_s)

    def archived_ttl_ms(self) -> int:
        """The TTL (ms, 0 = none) of a game's keys once the archive holds it."""
        return 1000 * (self.archived_s or self.finished_s)

    def idem_ttl_s(self, own_s: int) -> int:
        """An idempotency record's TTL: its own, cut to the shortest game TTL.

        A record written at time t expires by t + min(idle, finished); its
        game, written at t too, lives at least that long after its last
        write, whichever TTL that write set."""
        return min([own_s] + [s for s in (self.idle_s, self.finished_s) if s > 0])
