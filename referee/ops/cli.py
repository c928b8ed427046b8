"""The referee's command line: run it (serve, worker, redis, run), play and
rank bots (tournament, arena, play, webhook-bot), check games (audit,
replay), manage the signing keys (keys) and the contract (contract)."""
from __future__ import annotations

import argparse
import ipaddress
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee import settings

DEFAULT_REDIS_PORT = 6390


def cmd_serve(args: argparse.Namespace) -> int:
    """The API under gunicorn. The default ``gevent`` worker class serves each
    connection on a greenlet (redis-py's sockets are patched to cooperate), so
    thousands of idle event streams and long-polls cost memory, not request
    threads; ``gthread`` is the older thread-per-request setup."""
    _signing_keys_or_exit("serve")  # made here if missing: every gunicorn worker reads the same file
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="referee-prom-"))
    read_timeout = _read_timeout_s()
    argv = [sys.executable, "-m", "gunicorn", args.app, "--bind", gunicorn_bind(args.host, args.port),
            "--workers", str(args.workers), "--worker-class", args.worker_class,
            "--access-logfile", "-" if args.access_log else "/dev/null",
            "--logger-class", "referee.http.accesslog.RedactingLogger",  # no ?token= in the access log
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
    import threading

    from referee.service.scheduling import QUEUE, RqScheduler, queue_connection
    from workers.scheduler import SchedulerThread

    _signing_keys_or_exit("worker")  # a worker signs the final head of a game its bots finish

    def stop_now(signum: int, frame: object) -> None:
        raise SystemExit(0)  # through the finally below; RQ installs its own handlers once it works
    signal.signal(signal.SIGTERM, stop_now)
    signal.signal(signal.SIGINT, stop_now)
    from workers.jobs import serve_webhooks

    client = queue_connection()  # RQ_REDIS_URL, else REDIS_URL when that is no cluster
    queue = RqScheduler(client)
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
        # burst: RQ moves due jobs once, in this process
        queue.work(burst=args.burst, with_scheduler=args.burst, log_jobs=args.log_jobs)
    finally:
        if scheduler is not None:
            # a second signal must not cut the release short (a few Redis calls)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            scheduler.stop()
        if webhooks is not None:
            webhooks.shutdown()
    return 0


def _sweeper(queue: Any, stall_s: float) -> None:
    """Every second, one worker at a time (a Redis lock) sweeps stalled games."""
    from workers.jobs import service_from_env, sweep
    while True:
        time.sleep(1.0)
        try:
            if queue.sweep_turn(str(os.getpid()), 900):
                sweep(service_from_env(), stall_ms=int(stall_s * 1000))
        except Exception as exc:  # keep sweeping through a Redis hiccup
            print(f"referee worker: sweep failed: {exc!r}", file=sys.stderr, flush=True)


def referee_url(given: str | None) -> str:
    """``--url``, else ``REFEREE_URL``, else where ``make run`` serves (``PORT``)."""
    return given or settings.get("REFEREE_URL") or f"http://127.0.0.1:{settings.text('PORT')}"


def cmd_tournament(args: argparse.Namespace) -> int:
    """Run a tournament through the API with a progress bar, then print the
    standings; Ctrl+C asks the referee to cancel it. Errors are one line."""
    import httpx
    from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

    from referee.client import HttpProblem, RefereeClient
    url = referee_url(args.url)
    try:
        options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)} if args.option else None
    except ValueError:
        print("referee tournament: --option is NAME=JSON, e.g. --option expansion=true", file=sys.stderr)
        return 2
    client = RefereeClient(url)
    tid, cancel_token, done = None, None, 0
    try:
        entrants = [_entrant(text) for text in args.entrants]
        made = client.tournaments.create(args.ruleset, entrants, args.games, players=args.players or None,
                                         seed=args.seed or None, options=options)
        tid, cancel_token = made.id, made.cancel_token
        names = ", ".join(e if isinstance(e, str) else e["bot"] for e in entrants)  # never a secret
        print(f"tournament {tid}: {args.games} {args.ruleset} games, entrants {names} "
              f"(Ctrl+C cancels it)", flush=True)
        with tqdm(total=made.games_total, unit="game", desc="games", file=sys.stderr,
                  disable=args.no_progress or None) as bar:
            while True:
                tournament = client.tournaments.get(tid)
                bar.update(tournament.games_finished - done)
                done = tournament.games_finished
                bar.set_postfix(events=tournament.raw.get("events_recorded", 0), refresh=False)
                if not tournament.running:  # finished, or cancelled
                    break
                time.sleep(args.poll)
        if args.audit:
            failed = [g.id for g in tournament.games if not client.games.audit(g.id).ok]
            print(f"audit: {len(tournament.games) - len(failed)}/{len(tournament.games)} games clean"
                  + (f"; FAILED: {', '.join(failed)}" if failed else ""))
        if tournament.status == "cancelled":
            print(f"tournament {tid} was cancelled after {done} of {tournament.games_total} games")
        print(format_standings(tournament.standings))
        return 0
    except KeyboardInterrupt:
        if tid is None or cancel_token is None:
            print("\nreferee tournament: stopped before the tournament was created", file=sys.stderr)
            return 130
        try:
            client.tournaments.cancel(tid, token=cancel_token)
            print(f"\nreferee tournament: asked the referee to cancel {tid} ({done} games finished; the games "
                  "being played finish and count)", file=sys.stderr)
        except (HttpProblem, httpx.HTTPError) as err:
            print(f"\nreferee tournament: could not cancel {tid}: {err}", file=sys.stderr)
        return 130
    except HttpProblem as err:
        print(f"referee tournament: {err}", file=sys.stderr)
        return 1
    except httpx.HTTPError as err:
        print(f"referee tournament: no referee answers at {url} ({type(err).__name__}); start one with "
              "`make run`, or give --url / REFEREE_URL", file=sys.stderr)
        return 1
    finally:
        client.close()


def cmd_webhook_bot(args: argparse.Namespace) -> int:
    """A webhook bot, with signature checks: a built-in policy, or ``--bot FILE.py:FUNCTION``."""
    from referee.bots.example_server import serve
    from referee.bots.user import BadBot, load
    try:
        chooser = load(args.bot).choose if args.bot else None
    except BadBot as err:
        print(f"referee webhook-bot: {err}", file=sys.stderr)
        return 2
    serve(args.port, args.secret, args.policy, args.host, chooser=chooser)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A bot author's function against a referee, with no public URL: as an
    outbound bot (``--bot-id``/``--secret``, or ``--register NAME``), or one
    seat of one game (``--game``/``--token``). Ctrl+C stops it."""
    import httpx

    from referee.bots.outbound import Refused, play_seat, run_bot
    from referee.bots.user import BadBot, load
    from referee.client import HttpProblem
    try:
        bot = load(args.bot)
    except BadBot as err:
        print(f"referee play: {err}", file=sys.stderr)
        return 2
    url = referee_url(args.url)
    try:
        if args.game or args.token:
            if not (args.game and args.token):
                print("referee play: --game and --token go together (one seat of one game)", file=sys.stderr)
                return 2
            final = play_seat(url, args.game, args.token, bot.choose, log=_log)
            print(f"referee play: game {args.game} is {final['status']}; result {json.dumps(final['result'])}")
            return 0
        bot_id, secret = args.bot_id, args.secret
        if args.register:
            made = httpx.post(f"{url.rstrip('/')}/v1/bots", timeout=10.0,
                              json={"name": args.register, "rulesets": args.ruleset or []})
            if made.status_code != 201:
                raise _refused_of(made)
            bot_id, secret = made.json()["id"], made.json()["secret"]
            print(f"referee play: registered outbound bot {bot_id} ({args.register}); its secret, shown once: "
                  f"{secret}", flush=True)
        if not (bot_id and secret):
            print("referee play: give --bot-id and --secret (or --register NAME --ruleset R), or --game and --token",
                  file=sys.stderr)
            return 2
        print(f"referee play: {bot.name} answers {bot_id}'s turns from {url} (Ctrl+C stops)", flush=True)
        limit = args.turns

        def stop(counts: Any) -> bool:
            return limit is not None and counts.turns >= limit
        counts = run_bot(url, bot_id, secret, bot.choose, stop=stop, log=_log)
        print(f"referee play: {counts.turns} turns, {counts.answered} answered, {counts.late} late, "
              f"{counts.failed} failed")
        return 0
    except KeyboardInterrupt:
        print("referee play: stopped", file=sys.stderr)
        return 0
    except (Refused, HttpProblem, httpx.HTTPError) as err:
        print(f"referee play: {err}", file=sys.stderr)
        return 1


def _entrant(text: str) -> str | dict[str, str]:
    """``--entrants`` item: a built-in bot or a bot id, or ``ID:SECRET`` for
    a registered bot its owner seats (its secret as ``bot_secret``)."""
    bot, colon, secret = text.partition(":")
    return {"bot": bot, "bot_secret": secret} if colon and secret else text


def _log(line: str) -> None:
    print(f"referee play: {line}", file=sys.stderr, flush=True)


def _refused_of(response: Any) -> Exception:
    from referee.bots.outbound import _refused
    return _refused(response)


def cmd_keys(args: argparse.Namespace) -> int:
    """``show``: the configured keys' public half (the JWK set ``GET /v1/keys``
    serves); ``rotate``: a fresh key first in the key file (it signs from the
    next start of every referee and worker; the others stay published)."""
    from referee import keys
    try:
        if args.action == "show":
            print(json.dumps(keys.load().jwks(), indent=2))
            return 0
        if args.action == "new":
            print(keys.new_line(args.kid), end="")
            return 0
        if settings.get("REFEREE_SIGNING_KEY"):
            print("referee keys: REFEREE_SIGNING_KEY is set: rotate by putting a new line first in it "
                  "(`referee keys new` prints one)", file=sys.stderr)
            return 2
        path = Path(args.file or settings.text("REFEREE_SIGNING_KEY_FILE"))
        print(f"{path}: key {keys.rotate(path, args.kid)} signs from the next start")
        return 0
    except (keys.BadKeys, ValueError, OSError) as err:
        print(f"referee keys: {err}", file=sys.stderr)
        return 2


def cmd_contract(args: argparse.Namespace) -> int:
    """openapi.yaml's generated part against the rulesets' code."""
    from referee.http import contract
    return contract.main(["--write"] if args.write else [])


#: ``referee audit`` and ``referee replay`` exit with (README, "Settling a dispute")
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def cmd_audit(args: argparse.Namespace) -> int:
    """Verify exported logs offline (no Redis, no server); exit 0 only if every
    one holds, 1 if any does not (a divergence, or a file that cannot be read
    as a log: one ``FAIL`` line), 2 for a wrong command line."""
    if args.jobs is not None and args.jobs < 1:
        print("referee audit: --jobs is a number of processes, 1 or more", file=sys.stderr)
        return EXIT_USAGE
    if args.receipt and len(args.log) != 1:
        print("referee audit: --receipt is checked against a single log", file=sys.stderr)
        return EXIT_USAGE
    from referee.audit.batch import audit_file, audit_files
    from referee.ops.pinning import NoKeys, resolve
    jwks = None
    try:
        if args.key:
            jwks, had = resolve(args.key, Path(args.pins) if args.pins else None, repin=args.repin)
            print(f"referee audit: {had}", file=sys.stderr)
        receipts = [(name, _read_receipt(name)) for name in args.receipt or ()]
    except (NoKeys, ValueError) as err:
        print(f"referee audit: {err}", file=sys.stderr)
        return EXIT_USAGE
    if len(args.log) == 1:
        path = args.log[0]
        report = audit_file(path, jwks=jwks, receipts=receipts)
        if args.json:
            print(json.dumps(report, indent=2, ensure_ascii=False))
        elif not report["ok"] and report["divergence"]["check"] == "format":  # unreadable: one line
            print(_fail_line(path, report))
        else:
            print(format_audit(report))
        return EXIT_OK if report["ok"] else EXIT_FAILED
    if "-" in args.log:
        print("referee audit: standard input (-) is for a single log", file=sys.stderr)
        return EXIT_USAGE
    import time
    started = time.perf_counter()
    clean = events = 0
    reports = []
    for path, report in audit_files(args.log, args.jobs, jwks=jwks):
        clean += report["ok"]
        events += report["events"]
        if args.json:
            reports.append({"log": path, **report})
        elif report["ok"]:
            signed = "signed" if report["signed"] else "signature not checked"
            print(f"ok    {path}: {report['events']} events, {signed}", flush=True)
        else:
            print(_fail_line(path, report), flush=True)
    took = time.perf_counter() - started
    if args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    else:
        print(f"audit: {clean}/{len(args.log)} logs clean, {events} events in {took:.1f} s")
    return EXIT_OK if clean == len(args.log) else EXIT_FAILED


def _read_receipt(name: str) -> Any:
    """The receipt in file ``name`` (a 201's ``receipt``, or the whole 201 body); ``ValueError`` saying why not."""
    try:
        found = json.loads(Path(name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"--receipt {name}: cannot be read ({getattr(err, 'strerror', None) or err})") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"--receipt {name}: not JSON ({err.msg}, line {err.lineno})") from None
    return found["receipt"] if isinstance(found, dict) and isinstance(found.get("receipt"), dict) else found


def _fail_line(path: str, report: dict[str, Any]) -> str:
    d = report["divergence"]
    return f"FAIL  {path}: at seq {d['seq']} ({d['check']}): {report['checks'][-1]['detail']}"


def cmd_replay(args: argparse.Namespace) -> int:
    """Print what a seat (or a spectator) saw at a version, folded from the log
    alone; exit 1 with one ``FAIL`` line for a log that cannot be read or
    folded, 2 for a version or seat outside the game."""
    from referee.audit import Diverged, audit_lines, view_at
    from referee.audit.batch import Unreadable, read_log, unreadable
    try:
        raw = read_log(args.log)
    except Unreadable as err:
        print(_fail_line(args.log, unreadable(str(err))))
        return EXIT_FAILED
    try:
        report = audit_lines(raw, own_process=True)
    except Exception as err:  # a defect of the audit: the replay may still fold
        report = Diverged("replay", 0, "log", "a log the audit can check", repr(err),
                          f"the audit stopped on {err!r:.200}").report([], 0)
    if not report["ok"] and report["divergence"]["check"] == "format":
        print(_fail_line(args.log, report))
        return EXIT_FAILED
    if not report["ok"] and report["divergence"]["check"] == "hash_chain":
        print(f"referee replay: warning: the log does not verify: {report['checks'][-1]['detail']}", file=sys.stderr)
    try:
        shown = view_at(raw, args.at, args.seat, own_process=True)
    except ValueError as err:
        print(f"referee replay: {err}", file=sys.stderr)
        return EXIT_USAGE
    except Diverged as err:
        print(f"FAIL  {args.log}: at seq {err.seq} ({err.check}): {err.detail}")
        return EXIT_FAILED
    except Exception as err:  # the rules folding a forged log somewhere they never expected
        print(f"FAIL  {args.log}: the log cannot be folded to version {args.at}: {err!r:.200}")
        return EXIT_FAILED
    print(json.dumps(shown, indent=2, ensure_ascii=False))
    return EXIT_OK


def format_audit(report: dict[str, Any]) -> str:
    lines = [f"{('ok  ' if c.get('checked', True) else 'NOT ') if c['ok'] else 'FAIL'}  {c['name']:<16} {c['detail']}"
             for c in report["checks"]]
    d = report["divergence"]
    if d is None:
        lines.append(f"OK: {report['events']} events verified")
    else:
        lines += [f"FAILED at seq {d['seq']} ({d['check']})", f"  field:    {d['field']}",
                  f"  expected: {_shown(d['expected'])}", f"  found:    {_shown(d['found'])}"]
    return "\n".join(lines)


def _shown(value: Any) -> str:
    """A divergence's value as JSON, on one line (its repr if it is no JSON)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def format_standings(rows: list[dict]) -> str:  # type: ignore[type-arg]
    """A tournament's standings: the arena's table (``referee.play.standings.format_table``)."""
    from referee.play.standings import format_table
    return format_table(rows)


def cmd_redis(args: argparse.Namespace) -> int:
    """A real Redis in the foreground, AOF on (fsync per ``--appendfsync``), data in ``--dir``."""
    from referee.store.redis_server import command, fsync_from_env
    argv = command(args.port, Path(args.dir), appendfsync=args.appendfsync or fsync_from_env())
    os.execv(argv[0], argv)


def cmd_run(args: argparse.Namespace) -> int:
    """Redis (unless REDIS_URL is set), a worker and the API; Ctrl+C stops all."""
    from referee.store.redis_server import die_with_parent, fsync_from_env, start
    children: list[subprocess.Popen[bytes]] = []
    env = dict(os.environ)
    if not settings.is_set("REFEREE_SIGNING_KEY"):  # one key file for the API and the worker, made here if missing
        from referee import keys
        key_file = Path(settings.text("REFEREE_SIGNING_KEY_FILE")).resolve()
        env["REFEREE_SIGNING_KEY_FILE"] = str(key_file)
        try:
            ring = keys.load_file(key_file)
        except keys.BadKeys as err:
            print(f"referee: {err}", file=sys.stderr, flush=True)
            return 2
        print(f"referee: signing with key {ring.signer.kid} of {key_file} (public keys: GET /v1/keys)", flush=True)
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
                                            "--access-log"], env=env, preexec_fn=die_with_parent(),
                                     start_new_session=True))
    print(f"referee: API on http://127.0.0.1:{args.port}  (a line per request and per bot job; "
          "Ctrl+C stops everything)", flush=True)

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


def _fsync_option(parser: argparse.ArgumentParser) -> None:
    from referee.store.redis_server import FSYNC_POLICIES
    parser.add_argument("--appendfsync", choices=FSYNC_POLICIES, default=None,
                        help="when the AOF is synced to disk: always (every write), everysec (the default: "
                             "at most ~1 s of writes lost on a power cut) or no (when the OS flushes); "
                             "env REFEREE_REDIS_FSYNC")


class Help(argparse.RawDescriptionHelpFormatter):
    """Every option's help ends with its default (where it has one worth saying)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: {default})"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("referee")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="referee", description=__doc__, formatter_class=Help)
    parser.add_argument("--version", action="version", version=f"referee {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API")
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
    serve.add_argument("--access-log", action="store_true", help="a line per request (tokens blanked)")
    serve.add_argument("--app", default="referee.http.wsgi:app",
                       help="the WSGI app (module:object); benchmarks serve a trivial one with the same settings")
    serve.set_defaults(func=cmd_serve)
    worker = sub.add_parser("worker", help="run an RQ worker (bots, timeouts, tournaments)")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.add_argument("--metrics-port", type=int, default=0,
                        help="serve this worker's Prometheus metrics on 127.0.0.1:PORT (0: none)")
    worker.add_argument("--log-jobs", action="store_true", help="a line per job (bot turns, deadlines, "
                        "tournament games); `referee run` turns it on")
    worker.add_argument("--stall-s", type=float, default=float(settings.text("REFEREE_STALL_S")),
                        help="re-enqueue a bot turn or deadline that has not moved for this long")
    worker.add_argument("--webhook-threads", type=int,
                        default=int(settings.text("REFEREE_WEBHOOK_THREADS")),
                        help="webhook bots called at once by this worker, each on a thread while the worker goes "
                             "on with other turns (0: one call at a time, inside the job)")
    worker.set_defaults(func=cmd_worker)
    red = sub.add_parser("redis", help="run a real Redis server in the foreground")
    red.add_argument("--port", type=int, default=DEFAULT_REDIS_PORT, help="Redis's port")
    red.add_argument("--dir", default="var/redis", help="where Redis keeps its append-only file")
    _fsync_option(red)
    red.set_defaults(func=cmd_redis)
    run = sub.add_parser("run", help="Redis + worker + API together")
    run.add_argument("--port", type=int, default=int(settings.text("PORT")), help="the API's port (PORT)")
    run.add_argument("--redis-port", type=int, default=DEFAULT_REDIS_PORT, help="the embedded Redis's port")
    run.add_argument("--dir", default="var/redis", help="where the embedded Redis keeps its data")
    run.add_argument("--workers", type=int, default=2, help="gunicorn worker processes of the API")
    _fsync_option(run)
    run.set_defaults(func=cmd_run)
    tour = sub.add_parser("tournament", help="run a tournament through the API and print the standings")
    tour.add_argument("--url", help="the referee (default: REFEREE_URL, else http://127.0.0.1:$PORT)")
    tour.add_argument("--ruleset", required=True, help="bang, bang-dice, bang-faceoff, bluffaneer, …")
    tour.add_argument("--entrants", nargs="+", required=True, help="bot ids or built-in bots (random, heuristic); "
                      "ID:SECRET seats a registered bot with its owner's secret (unless it is public)")
    tour.add_argument("--games", type=int, required=True, help="games to play")
    tour.add_argument("--players", type=int, help="seats per game (default: the number of entrants)")
    tour.add_argument("--seed", help="the tournament's seed (default: the referee draws one; a seeded "
                      "tournament is not rated)")
    tour.add_argument("--option", action="append", help="a game option, NAME=JSON (repeatable)")
    tour.add_argument("--audit", action="store_true", help="audit every game at the end")
    tour.add_argument("--poll", type=float, default=1.0, help="seconds between looks at the progress")
    tour.add_argument("--no-progress", action="store_true", help="no progress bar (it goes to standard error)")
    tour.set_defaults(func=cmd_tournament)
    from referee.play.arena import add_arguments as arena_arguments  # light: the rules load when it runs
    arena_arguments(sub.add_parser("arena", help="bots play many games in this process, no Redis, no server, "
                                   "and the standings a tournament's would be (your bot: FILE.py:FUNCTION)"))
    hook = sub.add_parser("webhook-bot", help="serve a sample webhook bot (register it first for its secret)")
    hook.add_argument("--port", type=int, default=9100, help="the port to listen on")
    hook.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    hook.add_argument("--secret", required=True, help="the secret POST /v1/bots returned")
    hook.add_argument("--policy", choices=["random", "heuristic"], default="heuristic",
                      help="the built-in policy played without --bot")
    hook.add_argument("--bot", help="your bot instead, FILE.py:FUNCTION or MODULE:FUNCTION: choose(view, legal_moves)")
    hook.set_defaults(func=cmd_webhook_bot)
    play = sub.add_parser("play", help="run your bot against a referee with no public URL (an outbound bot, or one "
                          "seat of one game)")
    play.add_argument("--bot", required=True, help="FILE.py:FUNCTION or MODULE:FUNCTION: choose(view, legal_moves)")
    play.add_argument("--url", help="the referee (default: REFEREE_URL, else http://127.0.0.1:$PORT)")
    play.add_argument("--bot-id", help="a registered outbound bot's id (POST /v1/bots without a url)")
    play.add_argument("--secret", help="that bot's secret")
    play.add_argument("--register", metavar="NAME", help="register a new outbound bot of this name first "
                      "(prints its id and secret)")
    play.add_argument("--ruleset", action="append", help="with --register: a ruleset it plays (repeatable)")
    play.add_argument("--game", help="play one seat of this game instead (with --token)")
    play.add_argument("--token", help="that seat's token")
    play.add_argument("--turns", type=int, default=None, help="stop after this many turns (default: never stop)")
    play.set_defaults(func=cmd_play)
    aud = sub.add_parser("audit", help="verify exported logs (NDJSON) offline: no Redis, no server")
    aud.add_argument("log", nargs="+", help="log files (GET /v1/games/{id}/log), or - for one on standard input")
    aud.add_argument("--jobs", type=int, default=None,
                     help="processes auditing several logs at once (default: one per core)")
    aud.add_argument("--json", action="store_true", help="print the report as JSON")
    aud.add_argument("--key", help="the referee's public keys: a JWK set file, or the referee's URL (its "
                     "/v1/keys fetched once, then pinned); without it the final head's signature is not checked")
    aud.add_argument("--pins", help="the pin file for --key URL (default $XDG_CONFIG_HOME/referee/pinned-keys.json)")
    aud.add_argument("--repin", action="store_true", help="fetch --key URL's keys again and pin those")
    aud.add_argument("--receipt", action="append", help="a receipt a seat got (a 201's receipt, or the whole 201 "
                     "body, as JSON): the log must hold its head at its version (repeatable; one log only)")
    aud.set_defaults(func=cmd_audit)
    rep = sub.add_parser("replay", help="print what a seat saw at a version of an exported log")
    rep.add_argument("log", help="the log file, or - for standard input")
    rep.add_argument("--at", type=int, required=True, help="the version (an event's seq)")
    rep.add_argument("--seat", type=int, default=None, help="the seat (default: a spectator)")
    rep.set_defaults(func=cmd_replay)
    key = sub.add_parser("keys", help="the signing keys: show the public ones, rotate the key file, print a new key")
    key.add_argument("action", choices=["show", "rotate", "new"])
    key.add_argument("--file", help="the key file (default REFEREE_SIGNING_KEY_FILE)")
    key.add_argument("--kid", help="the new key's id (default: k<date>-<4 hex>)")
    key.set_defaults(func=cmd_keys)
    con = sub.add_parser("contract", help="check (or --write) openapi.yaml's schemas generated from the rulesets")
    con.add_argument("--write", action="store_true")
    con.set_defaults(func=cmd_contract)
    for each in sub.choices.values():  # every command's options say their defaults
        each.formatter_class = Help
    args = parser.parse_args(argv)
    if args.func in (cmd_audit, cmd_replay):  # `referee replay … | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
