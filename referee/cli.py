"""``referee serve | worker | redis | run``: each piece alone, or all together."""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_REDIS_PORT = 6390


def _redis_url() -> str:
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def cmd_serve(args: argparse.Namespace) -> int:
    """The API under gunicorn. The default ``gevent`` worker class serves each
    connection on a greenlet (redis-py's sockets are patched to cooperate), so
    thousands of idle event streams and long-polls cost memory, not request
    threads; ``gthread`` is the older thread-per-request setup."""
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="referee-prom-"))
    read_timeout = _read_timeout_s()
    argv = [sys.executable, "-m", "gunicorn", args.app, "--bind", f"{args.host}:{args.port}",
            "--workers", str(args.workers), "--worker-class", args.worker_class,
            "--access-logfile", "-" if args.access_log else "/dev/null",
            "--logger-class", "referee.accesslog.RedactingLogger",  # no ?token= in the access log
            # gevent: a request's headers (and an idle keep-alive connection) get this long;
            # referee.wsgi gives its body as long again
            "--keep-alive", str(read_timeout), "--timeout", "60",
            # open streams never finish by themselves: on a stop their clients reconnect elsewhere
            "--graceful-timeout", "5",
            "--no-control-socket"]  # one per user home: several referees on a machine would share it
    argv += ["--config", "python:referee.gunicorn_conf"]  # gunicorn's own 400/414/431 as problem+json
    if args.worker_class == "gevent":
        argv += ["--worker-connections", str(args.worker_connections)]
        # each open stream holds a client socket and a Redis connection
        _raise_open_files(2 * args.worker_connections + 1024)
    else:
        argv += ["--threads", str(args.threads)]
    os.execv(sys.executable, argv)


def _read_timeout_s() -> int:
    """``REFEREE_READ_TIMEOUT_S`` (default 10): the most a request's headers,
    and then its body, may take to arrive."""
    value = int(os.environ.get("REFEREE_READ_TIMEOUT_S", "10"))
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
    import threading

    import redis
    from rq import SimpleWorker

    from referee.scheduling import QUEUE
    from workers.scheduler import SchedulerThread

    def stop_now(signum: int, frame: object) -> None:
        raise SystemExit(0)  # through the finally below; RQ installs its own handlers once it works
    signal.signal(signal.SIGTERM, stop_now)
    signal.signal(signal.SIGINT, stop_now)
    from workers.jobs import serve_webhooks

    client = redis.Redis.from_url(_redis_url())
    scheduler = None
    webhooks = serve_webhooks(args.webhook_threads)
    try:
        if not args.burst:
            threading.Thread(target=_sweeper, args=(client, args.stall_s), daemon=True).start()
            scheduler = SchedulerThread(client, [QUEUE])
            scheduler.start()
        worker = SimpleWorker([QUEUE], connection=client)
        # burst: RQ moves due jobs once, in this process
        worker.work(burst=args.burst, with_scheduler=args.burst, logging_level="WARNING")
    finally:
        if scheduler is not None:
            # a second signal must not cut the release short (a few Redis calls)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            scheduler.stop()
        if webhooks is not None:
            webhooks.shutdown()
    return 0


def _sweeper(client: Any, stall_s: float) -> None:
    """Every second, one worker at a time (a Redis lock) sweeps stalled games."""
    from workers.jobs import service_from_env, sweep
    while True:
        time.sleep(1.0)
        try:
            if client.set("referee:sweeper", os.getpid(), nx=True, px=900):
                sweep(service_from_env(), stall_ms=int(stall_s * 1000))
        except Exception as exc:  # keep sweeping through a Redis hiccup
            print(f"referee worker: sweep failed: {exc!r}", file=sys.stderr, flush=True)


def cmd_tournament(args: argparse.Namespace) -> int:
    """Run a tournament through the API, show progress, print the standings."""
    from referee.client import RefereeClient
    client = RefereeClient(args.url)
    body: dict[str, object] = {"ruleset": args.ruleset, "entrants": args.entrants, "games": args.games}
    if args.players:
        body["players"] = args.players
    if args.seed:
        body["seed"] = args.seed
    if args.option:
        body["options"] = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    tournament = client._call("POST", "/v1/tournaments", json=body).json()
    tid = tournament["id"]
    print(f"tournament {tid}: {args.games} {args.ruleset} games, entrants {', '.join(args.entrants)}")
    while True:
        tournament = client._call("GET", f"/v1/tournaments/{tid}").json()
        done, total = tournament["games_finished"], tournament["games_total"]
        bar = "#" * int(40 * done / total)
        print(f"\r[{bar:<40}] {done}/{total}", end="", flush=True)
        if tournament["status"] != "running":  # finished, or cancelled
            break
        time.sleep(args.poll)
    print()
    if args.audit:
        failed = [g["id"] for g in tournament["games"] if not client.audit(g["id"])["ok"]]
        print(f"audit: {len(tournament['games']) - len(failed)}/{len(tournament['games'])} games clean"
              + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    print(format_standings(tournament["standings"]))
    return 0


def cmd_webhook_bot(args: argparse.Namespace) -> int:
    """A sample webhook bot playing a built-in policy, with signature checks."""
    from referee.bots.example_server import serve
    serve(args.port, args.secret, args.policy, args.host)
    return 0


def cmd_contract(args: argparse.Namespace) -> int:
    """openapi.yaml's generated part against the rulesets' code."""
    from referee import contract
    return contract.main(["--write"] if args.write else [])


def cmd_audit(args: argparse.Namespace) -> int:
    """Verify exported logs offline (no Redis, no server); exit 0 only if every one holds."""
    if args.jobs is not None and args.jobs < 1:
        print("referee audit: --jobs is a number of processes, 1 or more", file=sys.stderr)
        return 2
    if len(args.log) == 1:
        from referee.audit import audit_lines
        with _open_log(args.log[0]) as lines:
            report = audit_lines(lines)
        print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else format_audit(report))
        return 0 if report["ok"] else 1
    if "-" in args.log:
        print("referee audit: standard input (-) is for a single log", file=sys.stderr)
        return 2
    import time
    from referee.audit.batch import audit_files
    started = time.perf_counter()
    clean = events = 0
    reports = []
    for path, report in audit_files(args.log, args.jobs):
        clean += report["ok"]
        events += report["events"]
        if args.json:
            reports.append({"log": path, **report})
        elif report["ok"]:
            print(f"ok    {path}: {report['events']} events")
        else:
            d = report["divergence"]
            print(f"FAIL  {path}: at seq {d['seq']} ({d['check']}): {report['checks'][-1]['detail']}")
    took = time.perf_counter() - started
    if args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        print(f"audit: {clean}/{len(args.log)} logs clean, {events} events in {took:.1f} s")
    return 0 if clean == len(args.log) else 1


def cmd_replay(args: argparse.Namespace) -> int:
    """Print what a seat (or a spectator) saw at a version, folded from the log alone."""
    from referee.audit import Diverged, audit_lines, view_at
    with _open_log(args.log) as lines:
        text = list(lines)
    report = audit_lines(text)
    if not report["ok"] and report["divergence"]["check"] in ("format", "hash_chain"):
        print(f"referee replay: warning: the log does not verify: {report['checks'][-1]['detail']}", file=sys.stderr)
    try:
        shown = view_at(text, args.at, args.seat)
    except (Diverged, ValueError, KeyError) as err:
        print(f"referee replay: {err}", file=sys.stderr)
        return 2
    print(json.dumps(shown, indent=2, ensure_ascii=False))
    return 0


def _open_log(path: str) -> Any:
    import contextlib
    if path == "-":
        return contextlib.nullcontext(sys.stdin)
    return open(path, encoding="utf-8")


def format_audit(report: dict[str, Any]) -> str:
    lines = [f"{'ok  ' if c['ok'] else 'FAIL'}  {c['name']:<16} {c['detail']}" for c in report["checks"]]
    d = report["divergence"]
    if d is None:
        lines.append(f"OK: {report['events']} events verified")
    else:
        lines += [f"FAILED at seq {d['seq']} ({d['check']})", f"  field:    {d['field']}",
                  f"  expected: {json.dumps(d['expected'], ensure_ascii=False)}",
                  f"  found:    {json.dumps(d['found'], ensure_ascii=False)}"]
    return "\n".join(lines)


def format_standings(rows: list[dict]) -> str:  # type: ignore[type-arg]
    roles = sorted({r for row in rows for r in row["roles"]})
    head = f"{'#':>2} {'entrant':<22} {'games':>5} {'wins':>5} {'win%':>6} " + \
        "".join(f"{r[:9]:>10}" for r in roles) + f" {'mu':>6} {'sigma':>6} {'ordinal':>8}"
    lines = [head, "-" * len(head)]
    for i, row in enumerate(rows, 1):
        cells = "".join(f"{100 * row['roles'][r]['win_rate']:>9.1f}%" if r in row["roles"] else f"{'-':>10}"
                        for r in roles)
        lines.append(f"{i:>2} {row['name'][:22]:<22} {row['games']:>5} {row['wins']:>5} "
                     f"{100 * row['win_rate']:>5.1f}% {cells} {row['rating']['mu']:>6.2f} "
                     f"{row['rating']['sigma']:>6.2f} {row['rating']['ordinal']:>8.2f}")
    return "\n".join(lines)


def cmd_redis(args: argparse.Namespace) -> int:
    """A real Redis in the foreground, AOF on (fsync per ``--appendfsync``), data in ``--dir``."""
    from referee.redis_server import command, fsync_from_env
    argv = command(args.port, Path(args.dir), appendfsync=args.appendfsync or fsync_from_env())
    os.execv(argv[0], argv)


def cmd_run(args: argparse.Namespace) -> int:
    """Redis (unless REDIS_URL is set), a worker and the API; Ctrl+C stops all."""
    from referee.redis_server import die_with_parent, fsync_from_env, start
    children: list[subprocess.Popen[bytes]] = []
    env = dict(os.environ)
    if "REDIS_URL" not in os.environ:
        fsync = args.appendfsync or fsync_from_env()
        print(f"referee: starting Redis on 127.0.0.1:{args.redis_port} (AOF in {args.dir}, "
              f"appendfsync {fsync})", flush=True)
        children.append(start(args.redis_port, Path(args.dir), quiet=True, appendfsync=fsync))
        env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    exe = [sys.executable, "-m", "referee.cli"]
    # each child ends with this process, even when it is killed with SIGKILL
    children.append(subprocess.Popen(exe + ["worker"], env=env, preexec_fn=die_with_parent()))
    children.append(subprocess.Popen(exe + ["serve", "--port", str(args.port), "--workers", str(args.workers)],
                                     env=env, preexec_fn=die_with_parent()))
    print(f"referee: API on http://127.0.0.1:{args.port}  (Ctrl+C stops everything)", flush=True)

    def stop(*_: object) -> None:
        for child in reversed(children):
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
        sys.exit(0)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while all(c.poll() is None for c in children):
        time.sleep(0.5)
    print("referee: a child process exited; stopping the rest", file=sys.stderr, flush=True)
    stop()
    return 1


def _fsync_option(parser: argparse.ArgumentParser) -> None:
    from referee.redis_server import FSYNC_POLICIES
    parser.add_argument("--appendfsync", choices=FSYNC_POLICIES, default=None,
                        help="when the AOF is synced to disk: always (every write), everysec (the default: "
                             "at most ~1 s of writes lost on a power cut) or no (when the OS flushes); "
                             "env REFEREE_REDIS_FSYNC")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="referee", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument("--worker-class", choices=["gevent", "gthread"],
                       default=os.environ.get("REFEREE_WORKER_CLASS", "gevent"),
                       help="gevent (default): a greenlet per connection; gthread: a thread per request")
    serve.add_argument("--worker-connections", type=int,
                       default=int(os.environ.get("REFEREE_WORKER_CONNECTIONS", 10000)),
                       help="gevent: open connections per worker (streams included)")
    # gthread only: long-polls and event streams each hold a thread while they wait
    serve.add_argument("--threads", type=int, default=32)
    serve.add_argument("--access-log", action="store_true")
    serve.add_argument("--app", default="referee.wsgi:app",
                       help="the WSGI app (module:object); benchmarks serve a trivial one with the same settings")
    serve.set_defaults(func=cmd_serve)
    worker = sub.add_parser("worker", help="run an RQ worker (bots, timeouts, tournaments)")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--stall-s", type=float, default=float(os.environ.get("REFEREE_STALL_S", 10)),
                        help="re-enqueue a bot turn or deadline that has not moved for this long")
    worker.add_argument("--webhook-threads", type=int,
                        default=int(os.environ.get("REFEREE_WEBHOOK_THREADS", 16)),
                        help="webhook bots called at once by this worker, each on a thread while the worker goes "
                             "on with other turns (0: one call at a time, inside the job)")
    worker.set_defaults(func=cmd_worker)
    red = sub.add_parser("redis", help="run a real Redis server in the foreground")
    red.add_argument("--port", type=int, default=DEFAULT_REDIS_PORT)
    red.add_argument("--dir", default="var/redis")
    _fsync_option(red)
    red.set_defaults(func=cmd_redis)
    run = sub.add_parser("run", help="Redis + worker + API together")
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    run.add_argument("--redis-port", type=int, default=DEFAULT_REDIS_PORT)
    run.add_argument("--dir", default="var/redis")
    run.add_argument("--workers", type=int, default=2)
    _fsync_option(run)
    run.set_defaults(func=cmd_run)
    tour = sub.add_parser("tournament", help="run a tournament through the API and print the standings")
    tour.add_argument("--url", default=os.environ.get("REFEREE_URL", "http://127.0.0.1:8000"))
    tour.add_argument("--ruleset", required=True)
    tour.add_argument("--entrants", nargs="+", required=True, help="bot ids or built-in bots (random, heuristic)")
    tour.add_argument("--games", type=int, required=True)
    tour.add_argument("--players", type=int)
    tour.add_argument("--seed")
    tour.add_argument("--option", action="append", help="a game option, NAME=JSON (repeatable)")
    tour.add_argument("--audit", action="store_true", help="audit every game at the end")
    tour.add_argument("--poll", type=float, default=1.0)
    tour.set_defaults(func=cmd_tournament)
    hook = sub.add_parser("webhook-bot", help="serve a sample webhook bot (register it first for its secret)")
    hook.add_argument("--port", type=int, default=9100)
    hook.add_argument("--host", default="127.0.0.1")
    hook.add_argument("--secret", required=True, help="the secret POST /v1/bots returned")
    hook.add_argument("--policy", choices=["random", "heuristic"], default="heuristic")
    hook.set_defaults(func=cmd_webhook_bot)
    aud = sub.add_parser("audit", help="verify exported logs (NDJSON) offline: no Redis, no server")
    aud.add_argument("log", nargs="+", help="log files (GET /v1/games/{id}/log), or - for one on standard input")
    aud.add_argument("--jobs", type=int, default=None,
                     help="processes auditing several logs at once (default: one per core)")
    aud.add_argument("--json", action="store_true", help="print the report as JSON")
    aud.set_defaults(func=cmd_audit)
    rep = sub.add_parser("replay", help="print what a seat saw at a version of an exported log")
    rep.add_argument("log", help="the log file, or - for standard input")
    rep.add_argument("--at", type=int, required=True, help="the version (an event's seq)")
    rep.add_argument("--seat", type=int, default=None, help="the seat (default: a spectator)")
    rep.set_defaults(func=cmd_replay)
    con = sub.add_parser("contract", help="check (or --write) openapi.yaml's schemas generated from the rulesets")
    con.add_argument("--write", action="store_true")
    con.set_defaults(func=cmd_contract)
    args = parser.parse_args(argv)
    if args.func in (cmd_audit, cmd_replay):  # `referee replay … | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
