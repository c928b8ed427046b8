"""The scaled-out topology on one machine, from existing engines only:

    client ──> haproxy (round-robin, health-checks /health, retries a dead referee)
                 ├─> referee serve  (N, stateless)  ──┐
                 └─> referee serve                    ├─> games: a Redis Cluster (3 masters + 3 replicas)
               referee worker (M) ────────────────────┤          or one standalone Redis (--standalone)
                                                      ├─> queue: a standalone Redis for RQ (RQ_REDIS_URL)
                                                      └─> archive: a PostgreSQL (REFEREE_ARCHIVE_URL), when
                                                          installed and not --no-archive (docs/archive.md)

``python -m referee.ops.topology [--referees N] [--workers M] [--standalone]
[--port P]`` (``make cluster ARGS=...``) starts it all, prints where to point
a client and waits; Ctrl+C stops everything by PID, in order: haproxy, the
referees, the workers (so they release RQ's scheduler lock while Redis is
still up), the queue Redis, then the games' Redis. ``Topology`` is the same
as a context manager, for tests.

This module sends no Redis command of its own: the servers come from
``referee.store.cluster_server`` (which waits for them). Every child runs
in a session of its own (a Ctrl+C in the terminal reaches only this process)
and ends with it (``die_with_parent``)."""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from referee import settings
from referee.ops.children import (
    DEFAULT_START_TIMEOUT_S,
    HOST,
    Child,
    TopologyError,
    http_status,
    port_open,
    spawn,
    stop_children,
    wait_healthy,
)
from referee.ops.postgres import MISSING as MISSING_PG
from referee.ops.postgres import LocalPostgres, PostgresMissing, pg_bin
from referee.store.cluster_server import ClusterError, LocalCluster, Node, free_ports, start_cluster, start_standalone
from referee.store.redis_server import free_port

#: the topology and, for its tests, the parts it is built of
__all__ = ["Topology", "TopologyError", "Child", "haproxy_binary", "haproxy_config", "http_status", "main",
           "start_haproxy", "stop_children", "wait_healthy"]

HAPROXY_MISSING = ("haproxy is not installed (or not on PATH): the topology puts it in front of the referees. "
                   "Install it with `apt-get install haproxy` (Debian/Ubuntu; any haproxy >= 2.2 works).")
#: how many frontend ports haproxy is given when the one picked is taken before it binds it
HAPROXY_BIND_ATTEMPTS = 3
#: what haproxy answers when no referee can take a request: the client retries after a second
UNAVAILABLE = ('{"type": "about:blank", "title": "Service Unavailable", "status": 503, '
               '"code": "no_referee_available", "detail": "no referee process answered; retry"}')


def haproxy_binary() -> str | None:
    """The ``haproxy`` on PATH (Debian puts it in /usr/sbin), or None."""
    return shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy")
                                            if os.access(p, os.X_OK)), None)


def _quoted(text: str) -> str:
    """``text`` as one double-quoted haproxy config word."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def haproxy_config(frontend_port: int, backends: Sequence[tuple[str, int]], *, name: str = "referees") -> str:
    """haproxy's config: HTTP mode, round-robin over ``backends``, each
    health-checked on ``GET /health`` every 500 ms (down after 2 failures, up
    after 1 success); a request whose connection fails, and a GET or HEAD
    whose response is empty, is retried up to 3 times, each on another server; SSE
    streams and long-polls stay open (server/client timeouts of 65 s, tunnels
    1 h); ``X-Forwarded-For`` is appended (the referee trusts one proxy);
    no server at all is a 503 problem with ``Retry-After: 1``."""
    servers = "\n".join(f"    server {name}-{i} {host}:{port}" for i, (host, port) in enumerate(backends))
    return f"""# written by referee.ops.topology
global
    # no maxconn: haproxy derives it from the open-files limit it may use

defaults
    mode http
    timeout connect 2s
    timeout client 65s
    timeout server 65s
    timeout http-request 10s
    timeout http-keep-alive 10s
    timeout queue 5s
    timeout tunnel 1h
    retries 3
    option redispatch 1
    # a request that never reached a referee, and a GET or HEAD cut without an answer
    # (a referee killed with connections still in its accept queue: the kernel had
    # accepted them). Any other request cut is not sent twice: a move may have been
    # recorded (the client retries it, with its Idempotency-Key)
    retry-on conn-failure empty-response
    option forwardfor
    http-error status 503 content-type application/problem+json string {_quoted(UNAVAILABLE)} hdr Retry-After 1

frontend {name}-in
    bind {HOST}:{frontend_port}
    http-request disable-l7-retry unless METH_GET || METH_HEAD
    default_backend {name}

backend {name}
    balance roundrobin
    option httpchk GET /health
    http-check expect status 200
    default-server check inter 500ms fall 2 rise 1
{servers}
"""


def start_haproxy(frontend_port: int, backends: Sequence[tuple[str, int]], directory: Path, *,
                  quiet: bool = True, timeout: float = 10.0) -> Child:
    """haproxy in the foreground (``-db``) with ``haproxy_config`` written to
    ``directory``, once its frontend accepts connections. Raises
    ``TopologyError`` (naming ``apt-get install haproxy``) when it is missing."""
    binary = haproxy_binary()
    if binary is None:
        raise TopologyError(HAPROXY_MISSING)
    config = directory / "haproxy.cfg"
    config.write_text(haproxy_config(frontend_port, backends))
    child = spawn("haproxy", [binary, "-db", "-f", str(config)], dict(os.environ), port=frontend_port,
                   log_dir=directory if quiet else None)
    start = time.monotonic()
    while not port_open(frontend_port):
        if not child.alive or time.monotonic() - start > timeout:
            stop_children([child])
            raise TopologyError(f"haproxy did not listen on {HOST}:{frontend_port} "
                                f"(exit {child.proc.returncode})\n{child.log_tail()}")
        time.sleep(0.05)
    return child


class Topology:
    """The whole topology on this machine. ``with Topology(referees=2,
    workers=2) as topo:`` starts it (``topo.url`` is haproxy) and stops it
    all by PID at the end."""

    def __init__(self, referees: int = 2, workers: int = 2, *, standalone: bool = False, port: int | None = None,
                 masters: int = 3, replicas: int = 1, env: dict[str, str] | None = None,
                 gunicorn_workers: int = 1, quiet: bool = True, data_dir: Path | None = None,
                 start_timeout: float = DEFAULT_START_TIMEOUT_S, archive: bool = False) -> None:
        if referees < 1 or workers < 0:
            raise ValueError("need at least one referee and no negative number of workers")
        self.n_referees, self.n_workers = referees, workers
        self.standalone, self.masters, self.replicas = standalone, masters, replicas
        self.port = port if port is not None else free_port()
        #: the frontend's port was picked here: another may be picked if it is taken before haproxy binds it
        self._port_picked = port is None
        self.extra_env = dict(env or {})
        self.gunicorn_workers = gunicorn_workers
        self.quiet, self.data_dir, self.start_timeout = quiet, data_dir, start_timeout
        self.directory = Path(tempfile.mkdtemp(prefix="referee-topology-"))
        self.cluster: LocalCluster | None = None
        self.games_redis: Child | None = None  # the one games Redis of --standalone
        self.queue_redis: Child | None = None
        self.referees: list[Child] = []
        self.workers: list[Child] = []
        self.haproxy: Child | None = None
        self.games_url = ""
        self.queue_url = ""
        self.timings: dict[str, float] = {}
        #: a PostgreSQL the referees and workers archive finished games to (``archive``; docs/archive.md)
        self.archive = archive
        self.postgres: LocalPostgres | None = None

    # where to point a client ---------------------------------------------

    @property
    def url(self) -> str:
        """haproxy's frontend: where clients go."""
        return f"http://{HOST}:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """The environment of every referee and worker."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "REFEREE_TRUSTED_PROXIES": "1", **self.extra_env}
        env.update(REDIS_URL=self.games_url, RQ_REDIS_URL=self.queue_url)
        if self.postgres is not None:
            env["REFEREE_ARCHIVE_URL"] = self.postgres.url
        if not env.get("REFEREE_SIGNING_KEY"):  # one key file for every referee and worker (made by the first)
            env["REFEREE_SIGNING_KEY_FILE"] = str(Path(settings.text("REFEREE_SIGNING_KEY_FILE", env)).resolve())
        return env

    # starting --------------------------------------------------------------

    def start(self) -> Topology:
        """Redis first, then the referees and workers, then haproxy; returns
        once ``/health`` answers through haproxy. On any failure everything
        started is stopped again and ``TopologyError`` is raised."""
        try:
            if haproxy_binary() is None:
                raise TopologyError(HAPROXY_MISSING)
            self._start_redis()
            if self.archive:
                since = time.monotonic()
                self.postgres = LocalPostgres()
                self._timed("archive postgres", since)
            self._start_referees_and_workers()
            self._start_haproxy()
        except BaseException:
            self.stop()
            raise
        return self

    def _timed(self, what: str, since: float) -> None:
        self.timings[what] = time.monotonic() - since

    def _start_redis(self) -> None:
        since = time.monotonic()
        data = self.data_dir
        if self.standalone:
            proc, port = start_standalone(None, None if data is None else data / "games")
            self.games_redis = Child("games-redis", proc, port)
            self.games_url = f"redis://{HOST}:{port}/0"
        else:
            self.cluster = start_cluster(self.masters, self.replicas, None if data is None else data / "cluster",
                                         persist=data is not None)
            self.games_url = self.cluster.url
        self._timed("games redis", since)
        proc, port = start_standalone(None, None if data is None else data / "queue")
        self.queue_redis = Child("queue-redis", proc, port)
        self.queue_url = f"redis://{HOST}:{port}/0"

    def _log_dir(self) -> Path | None:
        return self.directory if self.quiet else None

    def _start_referees_and_workers(self) -> None:
        since = time.monotonic()
        exe = [sys.executable, "-m", "referee.ops.cli"]
        env = self.env
        ports = self._distinct_ports(self.n_referees)
        for i, port in enumerate(ports):
            argv = exe + ["serve", "--host", HOST, "--port", str(port), "--workers", str(self.gunicorn_workers)]
            self.referees.append(spawn(f"referee-{i}", argv, env, port=port, log_dir=self._log_dir()))
        for i in range(self.n_workers):
            self.workers.append(spawn(f"worker-{i}", exe + ["worker"], env, port=None, log_dir=self._log_dir()))
        for referee in self.referees:
            wait_healthy(referee.url + "/health", self.referees + self.workers, self.start_timeout)
        self._timed("referees healthy", since)

    def _distinct_ports(self, count: int) -> list[int]:
        taken = {self.port}
        if self.cluster is not None:
            taken.update(p for n in self.cluster.nodes for p in (n.port, n.bus_port))
        return free_ports(count, taken)

    def _start_haproxy(self) -> None:
        """haproxy in front of the referees, healthy. A free port picked at
        construction may be taken by another program before haproxy binds it
        (processes started in parallel pick theirs too): then haproxy exits
        with "cannot bind socket", and another port is picked, a few times."""
        since = time.monotonic()
        backends = [(HOST, r.port) for r in self.referees if r.port is not None]
        for attempt in range(1, HAPROXY_BIND_ATTEMPTS + 1):
            try:
                self.haproxy = start_haproxy(self.port, backends, self.directory, quiet=self.quiet)
                wait_healthy(self.url + "/health", [self.haproxy], self.start_timeout, times=2 * len(backends))
                break
            except TopologyError:
                lost = self.haproxy is None or not self.haproxy.alive
                if not (self._port_picked and attempt < HAPROXY_BIND_ATTEMPTS and lost
                        and "cannot bind socket" in self._haproxy_log()):
                    raise
                if self.haproxy is not None:
                    stop_children([self.haproxy])
                self.haproxy = None
                self.port = self._distinct_ports(1)[0]
        self._timed("haproxy healthy", since)

    def _haproxy_log(self) -> str:
        """What haproxy wrote to its log in the topology's folder (quiet), or nothing."""
        log = self.directory / "haproxy.log"
        return log.read_text(errors="replace") if log.exists() else ""

    # failures --------------------------------------------------------------

    def kill_referee(self, index: int = 0) -> Child:
        """SIGKILL one referee (its gunicorn master and workers)."""
        victim = self.referees[index]
        victim.kill()
        return victim

    def kill_worker(self, index: int = 0) -> Child:
        """SIGKILL one RQ worker."""
        victim = self.workers[index]
        victim.kill()
        return victim

    def kill_master(self, port_or_index: int = 0) -> Node:
        """SIGKILL one master of the games' cluster (see ``wait_failover``)."""
        if self.cluster is None:
            raise TopologyError("a standalone topology has no cluster master to kill")
        return self.cluster.kill_master(port_or_index)

    def wait_failover(self, timeout: float = 30.0) -> float:
        """Until a replica has taken over every killed master; the seconds waited."""
        if self.cluster is None:
            raise TopologyError("a standalone topology has no cluster")
        return self.cluster.wait_failover(timeout)

    # reporting and stopping ------------------------------------------------

    def redis_ports(self) -> list[int]:
        """Every Redis port of the games (cluster nodes, or the one server)."""
        if self.cluster is not None:
            return [n.port for n in self.cluster.nodes]
        return [self.games_redis.port] if self.games_redis is not None and self.games_redis.port else []

    def describe(self) -> str:
        """Where everything is, for a person."""
        lines = [f"clients:     {self.url}   (haproxy pid {self.haproxy.pid if self.haproxy else '-'}, "
                 f"round-robin over {len(self.referees)} referee(s))"]
        lines += [f"  {r.describe()}" for r in self.referees]
        lines += [f"  {w.describe()}" for w in self.workers]
        if self.cluster is not None:
            lines.append(f"games Redis: cluster, REDIS_URL={self.games_url}")
            lines += [f"  {line}" for line in self.cluster.describe().splitlines()]
        elif self.games_redis is not None:
            lines.append(f"games Redis: standalone, REDIS_URL={self.games_url}  pid {self.games_redis.pid}")
        if self.queue_redis is not None:
            lines.append(f"queue Redis: RQ_REDIS_URL={self.queue_url}  pid {self.queue_redis.pid}")
        if self.postgres is not None:
            lines.append(f"archive:     PostgreSQL, REFEREE_ARCHIVE_URL={self.postgres.url}")
        return "\n".join(lines)

    def stop(self) -> None:
        """Everything, by PID, in order: haproxy, referees, workers (they release
        RQ's scheduler lock while Redis is up), the queue Redis, the games'
        Redis. Safe to call twice."""
        groups: list[list[Child]] = [[self.haproxy] if self.haproxy else [], self.referees, self.workers,
                                     [self.queue_redis] if self.queue_redis else [],
                                     [self.games_redis] if self.games_redis else []]
        for group in groups:
            stop_children(group)
        if self.cluster is not None:
            self.cluster.stop()
        if self.postgres is not None:
            self.postgres.close()
            self.postgres = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def all_processes(self) -> list[subprocess.Popen[bytes]]:
        """Every process started (for checks that none is left)."""
        children = [c for c in (self.haproxy, self.queue_redis, self.games_redis) if c is not None]
        procs = [c.proc for c in children + self.referees + self.workers]
        return procs + ([n.proc for n in self.cluster.nodes] if self.cluster is not None else [])

    def __enter__(self) -> Topology:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Stop(Exception):
    """Ctrl+C or SIGTERM, turned into an orderly stop."""


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    raise _Stop()


def _parser() -> argparse.ArgumentParser:
    summary = (__doc__ or "").split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m referee.ops.topology", description=summary)
    parser.add_argument("--referees", type=int, default=2, help="referee serve processes (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="referee worker processes (default 2)")
    parser.add_argument("--standalone", action="store_true",
                        help="one standalone Redis for the games instead of a cluster")
    parser.add_argument("--port", type=int, default=int(settings.text("PORT")),
                        help="haproxy's port, where clients go (default $PORT or 8000)")
    parser.add_argument("--masters", type=int, default=3, help="cluster masters (default 3)")
    parser.add_argument("--replicas", type=int, default=1, help="replicas per master (default 1)")
    parser.add_argument("--gunicorn-workers", type=int, default=1, help="--workers of each referee serve")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="keep the Redis data (AOF) here; default: throwaway")
    parser.add_argument("--no-archive", action="store_true",
                        help="no PostgreSQL archive (default: one, when PostgreSQL is installed)")
    return parser


def _watch(topo: Topology) -> int:
    """Until Ctrl+C or SIGTERM (0), or haproxy exits (1); reports any child that dies."""
    reported: set[int] = set()
    while True:
        time.sleep(0.5)
        for child in topo.referees + topo.workers:
            if not child.alive and child.pid not in reported:
                reported.add(child.pid)
                print(f"topology: {child.name} (pid {child.pid}) exited with {child.proc.returncode}; "
                      "the others go on", file=sys.stderr, flush=True)
        if topo.haproxy is not None and not topo.haproxy.alive:
            print("topology: haproxy exited; stopping everything", file=sys.stderr, flush=True)
            return 1


def main(argv: list[str] | None = None) -> int:
    """Start the topology, print where to point a client, wait for Ctrl+C."""
    args = _parser().parse_args(argv)
    if haproxy_binary() is None:
        print(f"topology: {HAPROXY_MISSING}", file=sys.stderr)
        return 2
    archive = not args.no_archive and pg_bin() is not None
    if not args.no_archive and not archive:
        print(f"topology: {MISSING_PG}; running without an archive", file=sys.stderr, flush=True)
    topo = Topology(args.referees, args.workers, standalone=args.standalone, port=args.port,
                    masters=args.masters, replicas=args.replicas, gunicorn_workers=args.gunicorn_workers,
                    quiet=False, data_dir=args.data_dir, archive=archive)
    # both, explicitly: a shell that starts this in the background leaves SIGINT ignored
    signal.signal(signal.SIGINT, _on_stop_signal)
    signal.signal(signal.SIGTERM, _on_stop_signal)
    kind = "a standalone Redis" if args.standalone else f"a {args.masters}+{args.masters * args.replicas} cluster"
    print(f"topology: starting {kind}, a queue Redis, {args.referees} referee(s), {args.workers} worker(s), "
          f"haproxy on :{args.port} ...", flush=True)
    code = 0
    try:
        topo.start()
        print(topo.describe(), flush=True)
        took = ", ".join(f"{k} {v:.1f} s" for k, v in topo.timings.items())
        print(f"topology: ready ({took}): point a client at it: export REFEREE_URL={topo.url}  "
              "(Ctrl+C stops everything)", flush=True)
        code = _watch(topo)
    except _Stop:
        pass
    except (TopologyError, ClusterError, PostgresMissing, subprocess.CalledProcessError) as exc:
        print(f"topology: {exc}", file=sys.stderr, flush=True)
        code = 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl+C must not cut the stop short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("topology: stopping haproxy, referees, workers, the queue Redis, the games' Redis", flush=True)
        topo.stop()
        print("topology: stopped", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
