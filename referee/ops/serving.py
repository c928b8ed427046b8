"""``referee serve``, ``worker``, ``redis`` and ``run``: the referee's processes."""
from __future__ import annotations

import argparse
import ipaddress
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee import settings
from referee.ops.children import port_open
from referee.ops.explain import no_redis
from referee.ops.helptext import OPERATIONS, add_command

if TYPE_CHECKING:
    from referee.ops.joblog import JobLines

DEFAULT_REDIS_PORT = 6390


def cmd_serve(args: argparse.Namespace) -> int:
    """The API under gunicorn. The default ``gevent`` worker class serves each
    connection on a greenlet (redis-py's sockets are patched to cooperate), so
    thousands of idle event streams and long-polls cost memory, not request
    threads; ``gthread`` is the older thread-per-request setup."""
    _signing_keys_or_exit("serve")  # made here if missing: every gunicorn worker reads the same file
    _warn_without_redis()
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="referee-prom-"))
    read_timeout = _read_timeout_s()
    argv = [sys.executable, "-m", "gunicorn", args.app, "--bind", gunicorn_bind(args.host, args.port),
            "--workers", str(args.workers), "--worker-class", args.worker_class,
            "--access-logfile", "-" if args.access_log or args.log_requests else "/dev/null",
            # no ?token= in the access log; --log-requests: a short line a request, idle polling left out
            "--logger-class", "referee.http.accesslog." + (
                "RequestLines" if args.log_requests and not args.access_log else "RedactingLogger"),
            # gevent: a request's headers (and an idle keep-alive connection) get this long;
            # referee.http.wsgi gives its body as long again
            "--keep-alive", str(read_timeout), "--timeout", "60",
            # open streams never finish by themselves: on a stop their clients reconnect elsewhere
            "--graceful-timeout", "5",
            "--no-control-socket"]  # one per user home: several referees on a machine would share it
    argv += ["--config", "python:referee.http.gunicorn_conf"]  # gunicorn's own 400/414/431 as problem+json
    if args.worker_class == "gevent":
        argv += ["--worker-connections", str(args.worker_connections)]
        # each open stream holds a client socket and a Redis connection
        _raise_open_files(2 * args.worker_connections + 1024)
    else:
        argv += ["--threads", str(args.threads)]
    os.execv(sys.executable, argv)


def _warn_without_redis() -> None:
    """Say once, before gunicorn starts, that ``REDIS_URL`` does not answer: the
    API starts anyway (Redis may come up after it) and answers 503
    ``redis_unavailable`` until it does, which is all its requests would show."""
    from referee.store.clients import refusal

    url = settings.text("REDIS_URL")
    err = refusal(url)
    if err is not None:
        print(f"referee serve: {no_redis(url, 'REDIS_URL', err)}; the API starts anyway and "
              "answers 503 redis_unavailable until it does", file=sys.stderr, flush=True)


def gunicorn_bind(host: str, port: int) -> str:
    """gunicorn's ``--bind`` for ``host`` and ``port``: an IPv6 address in
    brackets (``--host ::``, a dual-stack listener, read as ``:::8000``
    is host ``:`` and port ``''`` to gunicorn, which refused to start)."""
    try:
        bracketed = ipaddress.ip_address(host).version == 6
    except ValueError:  # a host name, or already in brackets
        bracketed = False
    return f"[{host}]:{port}" if bracketed else f"{host}:{port}"


def _signing_keys_or_exit(command: str) -> None:
    """The signing keys read (the key file made if missing) before anything
    starts, or exit 2 naming what is wrong with them."""
    from referee import keys
    try:
        keys.load()
    except keys.BadKeys as err:
        print(f"referee {command}: the signing keys: {err}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


def _read_timeout_s() -> int:
    """``REFEREE_READ_TIMEOUT_S`` (default 10): the most a request's headers,
    and then its body, may take to arrive."""
    value = int(settings.text("REFEREE_READ_TIMEOUT_S"))
    if value < 1:
        raise SystemExit("REFEREE_READ_TIMEOUT_S must be a whole number of seconds >= 1")
    return value


def _raise_open_files(wanted: int) -> None:
    """Raise the soft open-files limit towards ``wanted`` (never past the hard limit)."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def cmd_worker(args: argparse.Namespace) -> int:
    """A non-forking RQ worker on the referee queue, RQ's scheduler in a
    thread of it (never a child that could outlive it: workers/scheduler.py),
    a sweeper thread that re-enqueues turns a dead worker lost, and a pool of
    threads calling webhook bots (``--webhook-threads``). SIGTERM or SIGINT:
    the current job ends, the scheduler releases its lock, the webhook calls
    in flight finish."""
    _signing_keys_or_exit("worker")  # a worker signs the final head of a game its bots finish
    stop = StopAsked()  # RQ installs its own handlers once it works
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    from referee.store.clients import REDIS_UNAVAILABLE
    try:
        return _work(args, stop)
    except REDIS_UNAVAILABLE as err:
        setting = "RQ_REDIS_URL" if settings.get("RQ_REDIS_URL") else "REDIS_URL"
        print(f"referee worker: {no_redis(settings.text(setting), setting, err)}", file=sys.stderr, flush=True)
        return 1


class StopAsked:
    """The worker's SIGTERM and SIGINT handler until RQ's own are in:
    ``SystemExit`` at once (through ``_work``'s ``finally``), and remembered.
    Python drops an exception it cannot raise where the signal lands (a
    weakref callback of the import system, during the start's imports: it
    prints "Exception ignored" and goes on), and the worker would then go on
    to work the queue: ``check`` raises it again before the queue is worked."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: object) -> None:
        self.asked = True
        raise SystemExit(0)

    def check(self) -> None:
        if self.asked:
            raise SystemExit(0)


def _work(args: argparse.Namespace, stop: StopAsked) -> int:
    """``cmd_worker``'s threads and its queue, worked until it is stopped."""
    import threading

    from referee.service.scheduling import QUEUE, RqScheduler, queue_connection
    from workers.jobs import serve_webhooks, service_from_env
    from workers.scheduler import SchedulerThread

    client = queue_connection()  # RQ_REDIS_URL, else REDIS_URL when that is no cluster
    # a queue's Redis that does not answer is said once (cmd_worker), before the scheduler's
    # thread says it in RQ's words: the worker would end on it at its first look at the queue anyway
    client.ping()
    queue = RqScheduler(client)
    # the jobs' service made now, every ruleset loaded and its move checks compiled: not in the first
    # jobs (a second or so of a worker's first games, each ruleset's first moves slowed)
    service_from_env()
    if args.metrics_port:
        from referee.service import metrics
        metrics.install_live("referee_queue_depth", "jobs waiting on the queue", queue.depth)
        metrics.serve(args.metrics_port)
        print(f"referee worker: metrics on http://127.0.0.1:{args.metrics_port}/metrics", flush=True)
    scheduler = None
    webhooks = serve_webhooks(args.webhook_threads)
    try:
        if not args.burst:
            threading.Thread(target=_sweeper, args=(queue, args.stall_s), daemon=True).start()
            scheduler = SchedulerThread(client, [QUEUE])
            scheduler.start()
        stop.check()  # a stop asked while starting, whose SystemExit Python dropped
        # burst: RQ moves due jobs once, in this process
        queue.work(burst=args.burst, with_scheduler=args.burst, on_job=_job_lines() if args.log_jobs else None)
    finally:
        if scheduler is not None:
            # a second signal must not cut the release short (a few Redis calls)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            scheduler.stop()
        if webhooks is not None:
            webhooks.shutdown()
    return 0


def _job_lines() -> JobLines:
    """``--log-jobs``: a line a job (``referee.ops.joblog``), a bot's move read back from its game's log."""
    from referee.ops.joblog import JobLines, first_move_of
    from workers.jobs import service_from_env
    return JobLines(first_move_of(service_from_env().store.read))


def _sweeper(queue: Any, stall_s: float) -> None:
    """Every second, one worker at a time (a Redis lock) sweeps stalled games
    and ticks the ladders' pools (``workers.pool.tick``)."""
    from workers.jobs import service_from_env, sweep
    from workers.pool import tick
    from workers.presence import look_at_away
    while True:
        time.sleep(1.0)
        try:
            if queue.sweep_turn(str(os.getpid()), 900):
                sweep(service_from_env(), stall_ms=int(stall_s * 1000))
                look_at_away(service_from_env())  # seats away past their grace window taken over
                tick(service_from_env())  # the pools matched even if every other trigger was lost
        except Exception as exc:  # keep sweeping through a Redis hiccup
            print(f"referee worker: sweep failed: {exc!r}", file=sys.stderr, flush=True)


def cmd_redis(args: argparse.Namespace) -> int:
    """A real Redis in the foreground, AOF on (fsync per ``--appendfsync``), data in ``--dir``."""
    from referee.store.redis_server import command, fsync_from_env
    argv = command(args.port, Path(args.dir), appendfsync=args.appendfsync or fsync_from_env())
    os.execv(argv[0], argv)


def _embedded_archive(env: dict[str, str]) -> None:
    """Unless ``REFEREE_ARCHIVE_URL`` is set, the API and the worker archive
    finished games to a SQLite file in ``var/`` (docs/archive.md)."""
    if not settings.is_set("REFEREE_ARCHIVE_URL"):
        env["REFEREE_ARCHIVE_URL"] = f"sqlite:///{Path('var/archive.sqlite3').resolve()}"
    print(f"referee: archiving finished games to {env['REFEREE_ARCHIVE_URL']}", flush=True)


def _said_data(env: dict[str, str]) -> None:
    """The line that points the commands reading the referee's Redis and archive
    (``referee ratings``, ``referee archive``, ``referee transparency``) at the ones
    ``cmd_run`` chose: a newcomer who ran ``referee ratings recompute --check`` in
    a second terminal was told "no archive" (or read another Redis, the machine's)."""
    chosen = [f"{name}={env[name]}" for name in ("REDIS_URL", "REFEREE_ARCHIVE_URL")
              if name in env and not settings.is_set(name)]
    if chosen:
        print("referee: and for the commands that read its Redis and archive (referee ratings, "
              f"archive, transparency): export {' '.join(chosen)}", flush=True)


def _one_key_file(env: dict[str, str]) -> bool:
    """One signing key file for ``cmd_run``'s API and worker (made here if missing), named in
    ``env``, unless ``REFEREE_SIGNING_KEY`` is set; ``False``: the file is unusable (said why)."""
    if settings.is_set("REFEREE_SIGNING_KEY"):
        return True
    from referee import keys
    key_file = Path(settings.text("REFEREE_SIGNING_KEY_FILE")).resolve()
    env["REFEREE_SIGNING_KEY_FILE"] = str(key_file)
    try:
        ring = keys.load_file(key_file)
    except keys.BadKeys as err:
        print(f"referee: {err}", file=sys.stderr, flush=True)
        return False
    print(f"referee: signing with key {ring.signer.kid} of {key_file} (public keys: GET /v1/keys)", flush=True)
    return True


def cmd_run(args: argparse.Namespace) -> int:
    """Redis (unless REDIS_URL is set), a worker and the API; Ctrl+C stops all."""
    from referee.store.redis_server import die_with_parent, fsync_from_env, start
    if _said_ports_taken(args.port, None if settings.is_set("REDIS_URL") else args.redis_port):
        return 2
    children: list[subprocess.Popen[bytes]] = []
    env = dict(os.environ)
    if not _one_key_file(env):
        return 2
    _embedded_archive(env)
    if not settings.is_set("REDIS_URL"):
        fsync = args.appendfsync or fsync_from_env()
        print(f"referee: starting Redis on 127.0.0.1:{args.redis_port} (AOF in {args.dir}, "
              f"appendfsync {fsync})", flush=True)
        redis = start(args.redis_port, Path(args.dir), quiet=True, appendfsync=fsync, new_session=True)
        env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    else:
        redis = None
        print(f"referee: games on REDIS_URL={settings.get('REDIS_URL')}", flush=True)
    exe = [sys.executable, "-m", "referee.ops.cli"]
    # each child ends with this process, even when it is killed with SIGKILL; each in a
    # session of its own: a Ctrl+C reaches this process alone, which stops them in order
    children.append(subprocess.Popen(exe + ["worker", "--log-jobs"], env=env, preexec_fn=die_with_parent(),
                                     start_new_session=True))
    children.append(subprocess.Popen(exe + ["serve", "--port", str(args.port), "--workers", str(args.workers),
                                            "--access-log" if args.access_log else "--log-requests"],
                                     env=env, preexec_fn=die_with_parent(), start_new_session=True))
    print(f"referee: API on http://127.0.0.1:{args.port}  (a line per request and per bot job, none for "
          "idle polling: --access-log for every request; Ctrl+C stops everything)\n"
          f"referee: in a second terminal, for the README's and the docs' examples: "
          f"export REFEREE_URL=http://127.0.0.1:{args.port}", flush=True)
    _said_data(env)

    def stop(*_: object) -> None:
        # the API and the worker first (the worker releases RQ's scheduler lock in Redis), then Redis
        for group in (children, [redis] if redis is not None else []):
            for child in group:
                if child.poll() is None:
                    child.terminate()
            deadline = time.monotonic() + 10
            for child in group:
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
        print("referee: stopped", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while all(c.poll() is None for c in children + ([redis] if redis is not None else [])):
        time.sleep(0.5)
    print("referee: a child process exited; stopping the rest", file=sys.stderr, flush=True)
    stop()
    return 1


def _said_ports_taken(api_port: int, redis_port: int | None) -> bool:
    """What ``referee run`` would fail on, said before anything starts: a
    line for each of its ports (the API's; the Redis it starts, unless
    ``redis_port`` is None) another process already listens on, with a free
    one to pick instead; whether there was any. The usual cause: ``make
    run`` in a second terminal. (Its Redis would find the other one
    answering on the port and pass for started, then exit.)"""
    lines, suggested = [], {api_port, redis_port or 0}
    if redis_port is not None and port_open(redis_port):
        other = next_free_port(redis_port, avoid=suggested)
        suggested.add(other)
        lines.append(f"port {redis_port} is taken (by another `make run`'s Redis?): the Redis this one starts "
                     f"needs a port of its own. Stop the other, or pick one: `make run ARGS=\"--redis-port {other}\"` "
                     f"(`referee run --redis-port {other}`), or share that Redis: "
                     f"`REDIS_URL=redis://127.0.0.1:{redis_port}/0 make run`")
    if port_open(api_port):
        other = next_free_port(api_port, avoid=suggested)
        lines.append(f"port {api_port} is taken (by another `make run`?): the API needs a port of its own. "
                     f"Stop the other, or pick one: `PORT={other} make run` (`referee run --port {other}`)")
    for line in lines:
        print(f"referee run: {line}", file=sys.stderr, flush=True)
    return bool(lines)


def next_free_port(port: int, avoid: set[int]) -> int:
    """The first port after ``port`` nothing answers on (and not in ``avoid``)."""
    return next(p for p in range(port + 1, 65536) if p not in avoid and not port_open(p))


def _fsync_option(parser: argparse.ArgumentParser) -> None:
    from referee.store.redis_server import FSYNC_POLICIES
    parser.add_argument("--appendfsync", choices=FSYNC_POLICIES, default=None,
                        help="when the AOF is synced to disk: always (every write), everysec (the default: "
                             "at most ~1 s of writes lost on a power cut) or no (when the OS flushes); "
                             "env REFEREE_REDIS_FSYNC")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands that run the referee: serve, worker, redis, run."""
    serve = add_command(sub, "serve", "run the HTTP API (gunicorn)", OPERATIONS)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (:: is every address, IPv6 and IPv4)")
    serve.add_argument("--port", type=int, default=int(settings.text("PORT")), help="the port (PORT)")
    serve.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument("--worker-class", choices=["gevent", "gthread"],
                       default=settings.get("REFEREE_WORKER_CLASS"),
                       help="gevent: a greenlet per connection; gthread: a thread per request "
                            "(REFEREE_WORKER_CLASS)")
    serve.add_argument("--worker-connections", type=int,
                       default=int(settings.text("REFEREE_WORKER_CONNECTIONS")),
                       help="gevent: open connections per worker (streams included)")
    # gthread only: long-polls and event streams each hold a thread while they wait
    serve.add_argument("--threads", type=int, default=32, help="gthread: threads per worker")
    serve.add_argument("--access-log", action="store_true", help="gunicorn's full line for every request "
                       "(tokens blanked)")
    serve.add_argument("--log-requests", action="store_true", help="a short line per request: method, path, "
                       "status, time; none for long-polls, event streams and health checks")
    serve.add_argument("--app", default="referee.http.wsgi:app",
                       help="the WSGI app (module:object); benchmarks serve a trivial one with the same settings")
    serve.set_defaults(func=cmd_serve)
    worker = add_command(sub, "worker", "run a worker: bots' turns, deadlines, tournaments", OPERATIONS)
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--metrics-port", type=int, default=0,
                        help="serve this worker's Prometheus metrics on 127.0.0.1:PORT (0: none)")
    worker.add_argument("--log-jobs", action="store_true", help="a line per job: a bot's turn with its game, "
                        "seat, move and time; deadlines, tournament steps; `referee run` turns it on")
    worker.add_argument("--stall-s", type=float, default=float(settings.text("REFEREE_STALL_S")),
                        help="re-enqueue a bot turn or deadline that has not moved for this long")
    worker.add_argument("--webhook-threads", type=int,
                        default=int(settings.text("REFEREE_WEBHOOK_THREADS")),
                        help="webhook bots called at once by this worker, each on a thread while the worker goes "
                             "on with other turns (0: one call at a time, inside the job)")
    worker.set_defaults(func=cmd_worker)
    red = add_command(sub, "redis", "run a Redis server in the foreground", OPERATIONS)
    red.add_argument("--port", type=int, default=DEFAULT_REDIS_PORT, help="Redis's port")
    red.add_argument("--dir", default="var/redis", help="where Redis keeps its append-only file")
    _fsync_option(red)
    red.set_defaults(func=cmd_redis)
    run = add_command(sub, "run", "run Redis, a worker and the API together (`make run`)", OPERATIONS)
    run.add_argument("--port", type=int, default=int(settings.text("PORT")), help="the API's port (PORT)")
    run.add_argument("--redis-port", type=int, default=DEFAULT_REDIS_PORT, help="the embedded Redis's port")
    run.add_argument("--dir", default="var/redis", help="where the embedded Redis keeps its data")
    run.add_argument("--workers", type=int, default=2, help="gunicorn worker processes of the API")
    run.add_argument("--access-log", action="store_true", help="gunicorn's full line for every request, idle "
                     "polling too, instead of a short line per request")
    _fsync_option(run)
    run.set_defaults(func=cmd_run)
