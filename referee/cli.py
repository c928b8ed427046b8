"""``referee serve | worker | redis | run``: each piece alone, or all together."""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_REDIS_PORT = 6390


def _redis_url() -> str:
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def cmd_serve(args: argparse.Namespace) -> int:
    """The API under gunicorn (threads, so long-polls do not block others)."""
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="referee-prom-"))
    argv = [sys.executable, "-m", "gunicorn", "referee.wsgi:app", "--bind", f"{args.host}:{args.port}",
            "--workers", str(args.workers), "--worker-class", "gthread", "--threads", str(args.threads),
            "--access-logfile", "-" if args.access_log else "/dev/null", "--timeout", "60"]
    os.execv(sys.executable, argv)


def cmd_worker(args: argparse.Namespace) -> int:
    """A non-forking RQ worker (with the scheduler) on the referee queue."""
    import redis
    from rq import SimpleWorker

    from referee.scheduling import QUEUE
    client = redis.Redis.from_url(_redis_url())
    worker = SimpleWorker([QUEUE], connection=client)
    worker.work(burst=args.burst, with_scheduler=True, logging_level="WARNING")
    return 0


def cmd_redis(args: argparse.Namespace) -> int:
    """A real Redis in the foreground, AOF on, data in ``--dir``."""
    from referee.redis_server import command
    os.execv(command(args.port, Path(args.dir))[0], command(args.port, Path(args.dir)))


def cmd_run(args: argparse.Namespace) -> int:
    """Redis (unless REDIS_URL is set), a worker and the API; Ctrl+C stops all."""
    from referee.redis_server import start
    children: list[subprocess.Popen[bytes]] = []
    env = dict(os.environ)
    if "REDIS_URL" not in os.environ:
        print(f"referee: starting Redis on 127.0.0.1:{args.redis_port} (AOF in {args.dir})", flush=True)
        children.append(start(args.redis_port, Path(args.dir), quiet=True))
        env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    exe = [sys.executable, "-m", "referee.cli"]
    children.append(subprocess.Popen(exe + ["worker"], env=env))
    children.append(subprocess.Popen(exe + ["serve", "--port", str(args.port), "--workers", str(args.workers)],
                                     env=env))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="referee", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument("--threads", type=int, default=8)
    serve.add_argument("--access-log", action="store_true")
    serve.set_defaults(func=cmd_serve)
    worker = sub.add_parser("worker", help="run an RQ worker (bots, timeouts, tournaments)")
    worker.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    worker.set_defaults(func=cmd_worker)
    red = sub.add_parser("redis", help="run a real Redis server in the foreground")
    red.add_argument("--port", type=int, default=DEFAULT_REDIS_PORT)
    red.add_argument("--dir", default="var/redis")
    red.set_defaults(func=cmd_redis)
    run = sub.add_parser("run", help="Redis + worker + API together")
    run.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    run.add_argument("--redis-port", type=int, default=DEFAULT_REDIS_PORT)
    run.add_argument("--dir", default="var/redis")
    run.add_argument("--workers", type=int, default=2)
    run.set_defaults(func=cmd_run)
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
