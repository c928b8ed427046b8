"""Every setting the referee reads from its environment, in one table: name,
default, who reads it and what it does. Code asks :func:`get` (never
``os.environ`` itself: a test holds every module to it), and the
table of settings in docs/operations.md is :func:`markdown` (a test holds it equal).

No settings library: these are plain environment variables read at start,
each parsed where it is used (a rate-limit string, a cap, a URL); a
library's typed model would be a second copy of this table."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Setting:
    name: str
    default: str | None  # None: unset (its absence means something, said in ``what``)
    who: str  # api, worker, run, cli
    what: str


SETTINGS: tuple[Setting, ...] = (
    # -- Redis ----------------------------------------------------------------------
    Setting("REDIS_URL", "redis://127.0.0.1:6379/0", "api, worker",
            "the games' Redis: a standalone server, or any node of a Redis Cluster (found out by `INFO cluster`); "
            "`referee run` starts its own when unset"),
    Setting("RQ_REDIS_URL", None, "api, worker",
            "the queue's Redis (RQ's jobs, its scheduler, the watch set): standalone only; unset, `REDIS_URL` "
            "when that is standalone — required when it is a cluster"),
    Setting("REFEREE_REDIS_TIMEOUT_S", "2", "api, worker", "a Redis command's socket timeout (a stalled Redis "
            "costs a request this, answered 503)"),
    Setting("REFEREE_REDIS_FAILOVER_S", "5", "api, worker", "on a cluster, how long a read or keyed write is "
            "tried again through a failover before 503 + `Retry-After`"),
    Setting("REFEREE_REDIS_WAIT_REPLICAS", "auto", "api, worker", "replicas that confirm a game's write (`WAIT`) "
            "before it is acknowledged; `auto`: 1 when every master has a replica, else 0"),
    Setting("REFEREE_REDIS_WAIT_MS", "1000", "api, worker", "how long a write waits for those replicas before "
            "503 (a retry under its Idempotency-Key is safe)"),
    Setting("REFEREE_REDIS_MAX_CONNECTIONS", None, "api", "connections a gevent referee may hold (unset: the "
            "stream cap + 1000)"),
    Setting("REFEREE_REDIS_FSYNC", "everysec", "run", "the embedded Redis's AOF fsync: always, everysec or no"),
    # -- the API ----------------------------------------------------------------------
    Setting("PORT", "8000", "api, run", "the API's port"),
    Setting("REFEREE_ADMIN_TOKEN", None, "api", "the admin token (unset: no admin)"),
    Setting("REFEREE_RATE_LIMIT", "50/100", "api", "each caller's windows (`off` lifts them)"),
    Setting("REFEREE_AUTH_FAIL_LIMIT", "10/minute", "api", "failed authentications per address"),
    Setting("REFEREE_TRUSTED_PROXIES", "0", "api", "reverse proxies in front (their X-Forwarded-For is trusted)"),
    Setting("REFEREE_CORS_ORIGINS", "*", "api", "origins allowed to call the API (`off`: none)"),
    Setting("REFEREE_PUSHED", "on", "api", "failed-authentication blocks pushed by Redis, so a credential from an "
            "address known unblocked is not tested in Redis (always off on a cluster); games' heads are never "
            "pushed: a view reads its game's head"),
    Setting("REFEREE_READ_TIMEOUT_S", "10", "api", "the most a request's headers, then its body, may take"),
    Setting("REFEREE_STREAMS_PER_CLIENT", "64", "api", "open event streams and long-polls per client (`off`)"),
    Setting("REFEREE_STREAMS_MAX", "4000", "api", "open event streams and long-polls in all (`off`)"),
    Setting("REFEREE_WORKER_CLASS", "gevent", "api", "gunicorn's worker class: gevent or gthread"),
    Setting("REFEREE_WORKER_CONNECTIONS", "10000", "api", "gevent: open connections per gunicorn worker"),
    Setting("REFEREE_TOURNAMENT_MAX_GAMES", "1000", "api", "games a tournament may have without the admin token"),
    Setting("REFEREE_TOURNAMENT_MAX_PARALLEL", "8", "api", "its games in parallel without the admin token"),
    Setting("REFEREE_TOURNAMENTS_PER_CLIENT", "2", "api", "unfinished tournaments a caller (an anonymous one: "
            "its address) may have without the admin token; past it 429 (`off`)"),
    Setting("REFEREE_GAMES_PER_CLIENT", "20", "api", "active games a caller (its address; the admin token is "
            "exempt) may have created: a game counts until it finishes or goes an hour without a move; past it "
            "429 `games_limit` (`off`)"),
    Setting("REFEREE_GAME_CREATIONS_PER_CLIENT", "60/hour", "api", "games a caller (its address; not the admin) "
            "may create, a moving window in the limits notation (`10/minute;60/hour`); past it 429 "
            "`game_creations_limit` (`off`)"),
    Setting("REFEREE_CLAIMS_PER_CLIENT", "20/hour", "api", "open seats a caller (its address; not the admin) may "
            "claim, a moving window as above; past it 429 `claims_limit` (`off`)"),
    Setting("REFEREE_BOTS_PER_CLIENT", "20", "api", "registered bots a caller (its address; not the admin) may "
            "have at once: a bot counts until its owner deletes it or it expires, unused for "
            "`REFEREE_RETENTION_IDLE_S`; past it 429 `bots_limit` (`off`)"),
    Setting("REFEREE_PRESENCE_WINDOW_S", "30", "api, worker", "a person's seat counts as connected for this "
            "long after its last request (an open event stream keeps it so); then it is shown away"),
    Setting("REFEREE_AWAY_GRACE_S", "60", "api, worker", "the grace window (seconds) of a game that names no "
            "`away_grace_s`: a seat away this long is taken over until it returns (`off`: never)"),
    Setting("REFEREE_OPEN_SEAT_TURN_TIMEOUT_S", "300", "api", "the turn clock (seconds) a game with open seats "
            "gets when it names no `turn_timeout_s`; it runs once every seat is taken, so a silent claimant "
            "cannot hold a table (`off`: none)"),
    Setting("REFEREE_TOURNAMENT_GAMES_MAX", "32", "api, worker", "tournament games played at once in all: past "
            "it a new tournament is 503 and a running one's next game waits for a slot (`off`)"),
    Setting("REFEREE_TOURNAMENT_LEASE_S", "900", "api, worker", "a tournament's or a tournament game's slot not "
            "renewed for this long is free again (one a crashed worker never freed)"),
    Setting("REFEREE_RETENTION_IDLE_S", str(7 * 86400), "api, worker", "an active game's keys live this long "
            "after its last move (`off`: forever)"),
    Setting("REFEREE_RETENTION_FINISHED_S", str(30 * 86400), "api, worker", "a finished game's keys live this "
            "long (`off`: forever)"),
    Setting("REFEREE_RETENTION_ARCHIVED_S", "600", "api, worker", "a finished game's keys live this long once "
            "its archive write is confirmed (the archive serves it after; `off`: the finished TTL above)"),
    # -- the archive (docs/archive.md) --------------------------------------------------
    Setting("REFEREE_ARCHIVE_URL", None, "api, worker, run", "the archive's database, a SQLAlchemy URL "
            "(`postgresql+psycopg://user@host/db`, `sqlite:///var/archive.sqlite3`); unset or `off`: no archive "
            "(`referee run` archives to `sqlite:///var/archive.sqlite3` when unset)"),
    Setting("REFEREE_ARCHIVE_TIMEOUT_S", "5", "api, worker", "how long a connection to the archive's database "
            "is waited for"),
    Setting("REFEREE_ARCHIVE_RETRY_S", "5,30,120,600", "worker", "a game's archive write that failed is tried "
            "again after each of these seconds in turn; past them the sweeper enqueues it again until it lands"),
    Setting("REFEREE_SIGNING_KEY", None, "api, worker", "the signing keys themselves, `<kid> <base64url "
            "Ed25519 seed>` a line (or `;`-separated); the first signs, all are published (`GET /v1/keys`)"),
    Setting("REFEREE_SIGNING_KEY_FILE", "var/signing.keys", "api, worker", "the file of signing keys when "
            "`REFEREE_SIGNING_KEY` is unset; generated with one fresh key where missing (`referee keys rotate` "
            "adds one). Every referee and worker of a deployment must read the same keys"),
    Setting("REFEREE_TLOG_ORIGIN", "referee.localhost/transparency", "api, worker", "the transparency log's "
            "name, the first line of every checkpoint (docs/transparency.md): a deployment's own, e.g. its host"),
    # -- workers and bots ------------------------------------------------------------------
    Setting("REFEREE_STALL_S", "10", "worker", "a bot turn or deadline not moved for this long is enqueued again"),
    Setting("REFEREE_WEBHOOK_THREADS", "16", "worker", "webhook bots called at once per worker"),
    Setting("REFEREE_BOT_TIMEOUT_S", "5", "api, worker", "a webhook bot's answer deadline"),
    Setting("REFEREE_BOT_MAX_RESPONSE_BYTES", str(64 * 1024), "worker", "the largest answer read from a bot"),
    Setting("REFEREE_BOT_ALLOW_PRIVATE", None, "api, worker", "`1`: bot URLs may be loopback or private addresses"),
    Setting("REFEREE_BOT_URL_ALLOWLIST", None, "api, worker", "comma-separated hosts bots' URLs must be on"),
    Setting("REFEREE_POOL_GAMES_PER_BOT", "4", "api", "the most games at once a bot may ask in a ladder's pool "
            "(`games_at_once`; docs/ladder.md)"),
    Setting("REFEREE_POOL_BOTS_PER_OWNER", "8", "api", "bots one owner may have in the pools, every ladder's "
            "together; past it 409 `pool_bots_limit` (`off`)"),
    Setting("REFEREE_POOL_GAMES_PER_OWNER", "16", "api", "games at once one owner's pooled bots may ask in all "
            "(the sum of their `games_at_once`); past it 409 `pool_games_limit` (`off`)"),
    Setting("REFEREE_POOL_BUILTIN_GAMES", "8", "api, worker", "games the built-in bots sit in at once in each "
            "ladder's pool, as anchors of the ratings (`off`: no limit)"),
    Setting("REFEREE_WEBHOOK_RETRY_S", "5,30,120,600,1800", "api, worker", "a game-end webhook (option "
            "`callback_url`) not accepted is tried again after each of these seconds in turn, then given up "
            "(`off`: one attempt); its URL is held to the bot URL settings above"),
    # -- the command line --------------------------------------------------------------------
    Setting("REFEREE_URL", None, "cli", "the referee `referee tournament` and `referee play` talk to (unset: "
            "`http://127.0.0.1:$PORT`, where `make run` serves)"),
)

BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


def get(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """The setting's value: the environment's (``env``, default
    ``os.environ``), else its default; an undeclared name is a bug."""
    setting = BY_NAME[name]
    found = (os.environ if env is None else env).get(name)
    return found if found is not None else setting.default


def is_set(name: str) -> bool:
    """Whether the environment sets ``name`` (to anything but empty)."""
    assert name in BY_NAME
    return bool(os.environ.get(name))


def text(name: str, env: Mapping[str, str] | None = None) -> str:
    """:func:`get` of a setting that has a default."""
    value = get(name, env)
    assert value is not None, f"{name} has no default"
    return value


def markdown() -> str:
    """The table of settings in docs/operations.md."""
    rows = ["| setting | default | read by | what it does |", "|---|---|---|---|"]
    rows += [f"| `{s.name}` | {f'`{s.default}`' if s.default is not None else 'unset'} | {s.who} | {s.what} |"
             for s in SETTINGS]
    return "\n".join(rows)


def count_limit(value: object, name: str = "a limit") -> int | None:
    """A count setting: ``off`` (or 0, or empty) is ``None``, no limit; else a
    whole number, 0 or more (``ValueError`` names ``name`` otherwise)."""
    text = str(value).strip().lower()
    if text in ("off", "0", "none", ""):
        return None
    number = int(text)
    if number < 0:
        raise ValueError(f"{name} is a count, 0 or more, or off (not {value!r})")
    return number
