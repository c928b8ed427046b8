"""A real Redis (or Valkey) Cluster on loopback, formed with redis-py alone:
``start_cluster(masters=3, replicas=1)`` starts the nodes, gives each master
a range of the 16384 slots (``CLUSTER ADDSLOTSRANGE``), introduces them
(``CLUSTER MEET ip port busport``), attaches the replicas (``CLUSTER
REPLICATE``) and waits until every node says ``cluster_state:ok``, every
slot is served and every replica's link is up, so that a failover can
happen. ``kill_master`` and ``wait_failover`` make one happen.

It also starts a plain standalone server in a session of its own
(``start_standalone``), as the queue Redis of a scaled-out topology.

Every child ends with this process (``die_with_parent``) and is stopped by
its PID. Each runs in a session of its own, so a Ctrl+C in the terminal
reaches only the parent, which stops them in its own order."""
from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

from referee.store.cluster_slots import (
    SLOTS,
    Seen,
    keys_per_range,
    parse_cluster_info,
    parse_cluster_nodes,
    slot_ranges,
)
from referee.store.redis_server import Running, command, die_with_parent, free_port, server_binary

HOST = "127.0.0.1"
#: how long a node may be silent before the others count it as failing; the
#: replicas of a failed master are promoted about two of these later
DEFAULT_NODE_TIMEOUT_MS = 1000
DEFAULT_TIMEOUT_S = 30.0
_POLL_S = 0.05


class ClusterError(RuntimeError):
    """The cluster did not form, or did not recover, in time."""


@dataclass
class Node(Running):
    """One server process of the cluster."""

    port: int
    bus_port: int
    proc: subprocess.Popen[bytes]
    directory: Path
    node_id: str = ""
    role: str = "master"  # "master" or "replica", as last seen by the cluster
    master_port: int | None = None  # the master a replica follows
    slots: list[tuple[int, int]] = field(default_factory=list)  # a master's slot ranges, inclusive

    @property
    def log(self) -> Path:
        return self.directory / "redis.log"

    def client(self) -> redis.Redis:
        """A plain client of this one node (no redirections followed)."""
        return plain_client(self.port)

    def describe(self) -> str:
        follows = f" of {self.master_port}" if self.master_port is not None else ""
        state = "" if self.alive else " (dead)"
        return f"{HOST}:{self.port} bus {self.bus_port} pid {self.pid} {self.role}{follows}{state}"


def plain_client(port: int) -> redis.Redis:
    """A client of one server that never retries by itself (redis-py's
    default backs off for seconds on a server not yet listening): the
    callers here poll on their own."""
    return redis.Redis(host=HOST, port=port, decode_responses=True, socket_timeout=5, socket_connect_timeout=2,
                       retry=Retry(NoBackoff(), 0))


def node_command(port: int, bus_port: int, directory: Path, *,
                 node_timeout_ms: int = DEFAULT_NODE_TIMEOUT_MS, persist: bool = False) -> list[str]:
    """A cluster node's command line: loopback only, its own config file and
    directory, no RDB snapshots; AOF (fsync every second) when ``persist``."""
    args = [server_binary(), "--port", str(port), "--cluster-port", str(bus_port), "--bind", HOST,
            "--protected-mode", "yes", "--daemonize", "no", "--dir", str(directory.resolve()),
            "--logfile", "redis.log", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(node_timeout_ms), "--repl-diskless-sync", "yes",
            "--repl-diskless-sync-delay", "0", "--save", ""]
    args += ["--appendonly", "yes", "--appendfsync", "everysec"] if persist else ["--appendonly", "no"]
    return args


def _spawn(argv: list[str], *, quiet: bool = True) -> subprocess.Popen[bytes]:
    """A child in a session of its own that ends with this process."""
    out = subprocess.DEVNULL if quiet else None
    return subprocess.Popen(argv, stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                            preexec_fn=die_with_parent(), start_new_session=True)


def _until(what: str, check: Callable[[], bool], timeout: float) -> float:
    """Poll ``check`` until it is true; the seconds it took. Redis errors
    count as "not yet"; the deadline raises ``ClusterError`` naming ``what``."""
    start = time.monotonic()
    last: Exception | None = None
    while time.monotonic() - start < timeout:
        try:
            if check():
                return time.monotonic() - start
        except redis.exceptions.RedisError as exc:
            last = exc
        time.sleep(_POLL_S)
    raise ClusterError(f"{what}: not within {timeout:g} s" + (f" (last error: {last!r})" if last else ""))


def _run(client: redis.Redis, *args: str | int) -> Any:
    """One raw command (redis-py's ``execute_command`` is untyped)."""
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


def _node_answers(node: Node) -> bool:
    """``_answers`` of one node of the cluster being started."""
    return _answers(node.client(), node.proc, node.log)


def _answers(client: redis.Redis, proc: subprocess.Popen[bytes], log: Path | None) -> bool:
    """PING answered; a server that exited raises with the end of its log."""
    if proc.poll() is not None:
        tail = log.read_text(errors="replace")[-2000:] if log is not None and log.exists() else ""
        raise ClusterError(f"the server (pid {proc.pid}) exited with {proc.returncode}\n{tail}")
    try:
        return bool(client.ping())
    except redis.exceptions.ConnectionError:
        return False


def free_ports(count: int, taken: set[int]) -> list[int]:
    """``count`` distinct free loopback ports, none in ``taken``."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in taken and port not in ports:
            ports.append(port)
    return ports


def _cluster_info(node: Node) -> dict[str, str]:
    return parse_cluster_info(str(_run(node.client(), "CLUSTER", "INFO")))


def _cluster_nodes(node: Node) -> list[Seen]:
    return parse_cluster_nodes(str(_run(node.client(), "CLUSTER", "NODES")))


class LocalCluster:
    """A running local cluster: its nodes, where to connect, and the means to
    stop it or fail one of its masters."""

    def __init__(self, nodes: list[Node], directory: Path, *, owns_directory: bool,
                 node_timeout_ms: int) -> None:
        self.nodes = nodes
        self.directory = directory
        self.node_timeout_ms = node_timeout_ms
        self._owns_directory = owns_directory
        self._killed: list[Node] = []

    # where to connect ------------------------------------------------------

    @property
    def masters(self) -> list[Node]:
        """The live masters, by port."""
        return sorted((n for n in self.nodes if n.alive and n.role == "master"), key=lambda n: n.port)

    @property
    def replicas(self) -> list[Node]:
        """The live replicas, by port."""
        return sorted((n for n in self.nodes if n.alive and n.role == "replica"), key=lambda n: n.port)

    @property
    def url(self) -> str:
        """``redis://`` of a live master (any node would do for a cluster client)."""
        live = self.masters or [n for n in self.nodes if n.alive]
        if not live:
            raise ClusterError("no node of the cluster is alive")
        return f"redis://{HOST}:{live[0].port}/0"

    @property
    def addresses(self) -> list[tuple[str, int]]:
        """(host, port) of every live node."""
        return [(HOST, n.port) for n in self.nodes if n.alive]

    @property
    def startup_nodes(self) -> list[ClusterNode]:
        """Every live node, as ``RedisCluster(startup_nodes=...)`` takes them."""
        return [ClusterNode(host, port) for host, port in self.addresses]  # type: ignore[no-untyped-call]

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    def client(self, **kwargs: object) -> RedisCluster:
        """A redis-py cluster client of this cluster (``decode_responses`` on)."""
        options: dict[str, object] = {"decode_responses": True, "socket_timeout": 5,
                                      "socket_connect_timeout": 2}
        options.update(kwargs)
        return RedisCluster(startup_nodes=self.startup_nodes, **options)  # type: ignore[arg-type]

    def node(self, port: int) -> Node:
        for candidate in self.nodes:
            if candidate.port == port:
                return candidate
        raise KeyError(f"no node on port {port}")

    def node_of_key(self, key: str) -> Node:
        """The live master serving ``key``'s hash slot, as last seen (``refresh``)."""
        from redis.crc import key_slot
        slot = key_slot(key.encode())
        for master in self.masters:
            if any(low <= slot <= high for low, high in master.slots):
                return master
        raise ClusterError(f"no live master serves slot {slot} (of {key!r})")

    def describe(self) -> str:
        return "\n".join(n.describe() for n in sorted(self.nodes, key=lambda n: (n.role != "master", n.port)))

    # failures --------------------------------------------------------------

    def kill_master(self, port_or_index: int = 0) -> Node:
        """SIGKILL a live master: ``port_or_index`` is a port of the cluster,
        else an index into ``masters``. Returns the node, now dead."""
        masters = self.masters
        if port_or_index in self.ports:
            victim = self.node(port_or_index)
            if victim not in masters:
                raise ValueError(f"port {port_or_index} is not a live master")
        else:
            victim = masters[port_or_index]
        os.kill(victim.pid, signal.SIGKILL)
        victim.proc.wait()
        self._killed.append(victim)
        return victim

    def wait_failover(self, timeout: float = DEFAULT_TIMEOUT_S) -> float:
        """Wait until a replica of every killed master is a master and every
        live node says ``cluster_state:ok`` with all slots served; returns the
        seconds waited. The roles in ``nodes`` are then brought up to date."""
        pending = [dead for dead in self._killed if dead.slots]
        orphans = [dead.port for dead in pending if not any(n.alive and n.master_port == dead.port for n in self.nodes)]
        if orphans:
            raise ClusterError(f"master(s) {orphans} had no replica: nothing can take over")
        dead_ids = {dead.node_id for dead in pending}

        def promoted() -> bool:
            live = [n for n in self.nodes if n.alive]
            view = _cluster_nodes(live[0])
            owners = {s.node_id for s in view if s.slots and "master" in s.flags}
            return not owners & dead_ids and self._healthy(live)

        took = _until("failover", promoted, timeout)
        self.refresh()
        for dead in pending:
            dead.slots = []
        return took

    def _healthy(self, live: list[Node]) -> bool:
        """Every live node: state ok, every slot served."""
        for node in live:
            info = _cluster_info(node)
            if info.get("cluster_state") != "ok" or info.get("cluster_slots_ok") != str(SLOTS):
                return False
        return True

    def refresh(self) -> None:
        """Roles, followed masters and slots of ``nodes`` as a live node sees them."""
        live = [n for n in self.nodes if n.alive]
        if not live:
            return
        view = {s.node_id: s for s in _cluster_nodes(live[0])}
        port_of = {s.node_id: s.port for s in view.values()}
        for node in live:
            seen = view.get(node.node_id)
            if seen is None:
                continue
            node.role = "replica" if "slave" in seen.flags else "master"
            node.master_port = port_of.get(seen.master_id or "") if node.role == "replica" else None
            node.slots = seen.slots

    # stopping --------------------------------------------------------------

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM every live node by PID (SIGKILL one that will not go) and
        remove the directory this cluster made. Safe to call twice."""
        stop_processes([n.proc for n in self.nodes], timeout)
        if self._owns_directory:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop_processes(procs: list[subprocess.Popen[bytes]], timeout: float = 10.0) -> None:
    """SIGTERM each live process, wait up to ``timeout`` for all, SIGKILL the rest."""
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + timeout
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _launch(directory: Path, taken: set[int], node_timeout_ms: int, persist: bool) -> Node:
    """One node started on two free ports (not yet answering)."""
    port, bus_port = free_ports(2, taken)
    taken.update((port, bus_port))
    node_dir = directory / f"node-{port}"
    node_dir.mkdir(parents=True, exist_ok=True)
    proc = _spawn(node_command(port, bus_port, node_dir, node_timeout_ms=node_timeout_ms, persist=persist))
    return Node(port, bus_port, proc, node_dir)


def _start_nodes(count: int, directory: Path, node_timeout_ms: int, persist: bool,
                 timeout: float) -> list[Node]:
    """``count`` nodes started at once, each answering PING. A node that
    exits at once (a port taken in between) is started again on new ports,
    up to 3 times."""
    taken: set[int] = set()
    nodes = [_launch(directory, taken, node_timeout_ms, persist) for _ in range(count)]
    try:
        for index in range(count):
            for attempt in range(3):
                node = nodes[index]
                try:
                    _until(f"node {node.port} answering PING",
                           functools.partial(_node_answers, node), timeout)
                    break
                except ClusterError:
                    stop_processes([node.proc])
                    if attempt == 2:
                        raise
                    nodes[index] = _launch(directory, taken, node_timeout_ms, persist)
    except BaseException:
        stop_processes([n.proc for n in nodes])
        raise
    return nodes


def _form(nodes: list[Node], masters: int, replicas: int, timeout: float) -> None:
    """Slots to the masters, every node met, replicas attached; then wait until healthy."""
    for node in nodes:
        node.node_id = str(_run(node.client(), "CLUSTER", "MYID"))
    heads, followers = nodes[:masters], nodes[masters:]
    for node, (low, high) in zip(heads, slot_ranges(masters)):
        _run(node.client(), "CLUSTER", "ADDSLOTSRANGE", low, high)
        node.slots = [(low, high)]
    first = nodes[0].client()
    for node in nodes[1:]:
        _run(first, "CLUSTER", "MEET", HOST, node.port, node.bus_port)
    _until("every node meeting every other", lambda: all(_knows_all(n, len(nodes)) for n in nodes), timeout)
    for index, node in enumerate(followers):
        master = heads[index % masters]
        _run(node.client(), "CLUSTER", "REPLICATE", master.node_id)
        node.role, node.master_port = "replica", master.port
    _until("the cluster ready (state ok, slots served, replicas linked)",
           lambda: _ready(nodes, masters, len(followers)), timeout)


def _knows_all(node: Node, count: int) -> bool:
    """The node sees ``count`` nodes, none still in a handshake."""
    view = _cluster_nodes(node)
    return len(view) == count and not any("handshake" in s.flags or "noaddr" in s.flags for s in view)


def _ready(nodes: list[Node], masters: int, replicas: int) -> bool:
    """Every node: state ok, all slots, the same roles; every replica's link up."""
    for node in nodes:
        info = _cluster_info(node)
        if info.get("cluster_state") != "ok" or info.get("cluster_slots_ok") != str(SLOTS):
            return False
        view = _cluster_nodes(node)
        if sum("slave" in s.flags for s in view) != replicas or sum("master" in s.flags for s in view) != masters:
            return False
        if not all(s.connected and "fail" not in s.flags and "fail?" not in s.flags for s in view):
            return False
    for node in nodes[masters:]:
        if cast(dict[str, Any], node.client().info("replication")).get("master_link_status") != "up":
            return False
    return True


def start_cluster(masters: int = 3, replicas: int = 1, data_dir: Path | str | None = None, *,
                  node_timeout_ms: int = DEFAULT_NODE_TIMEOUT_MS, timeout: float = DEFAULT_TIMEOUT_S,
                  persist: bool = False) -> LocalCluster:
    """Start and form a cluster of ``masters`` masters, each with ``replicas``
    replicas, on free loopback ports; wait until it is ready (every node
    ``cluster_state:ok``, all slots served, every replica linked). Nodes keep
    their config (and, with ``persist``, their AOF) in ``data_dir``, else in a
    temporary directory removed by ``stop()``."""
    if masters < 1 or replicas < 0:
        raise ValueError("need masters >= 1 and replicas >= 0")
    owns = data_dir is None
    directory = Path(tempfile.mkdtemp(prefix="referee-cluster-")) if data_dir is None else Path(data_dir)
    directory.mkdir(parents=True, exist_ok=True)
    nodes: list[Node] = []
    cluster = LocalCluster(nodes, directory, owns_directory=owns, node_timeout_ms=node_timeout_ms)
    try:
        nodes.extend(_start_nodes(masters * (1 + replicas), directory, node_timeout_ms, persist, timeout))
        _form(nodes, masters, masters * replicas, timeout)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def start_standalone(port: int | None = None, data_dir: Path | None = None, *,
                     timeout: float = 10.0) -> tuple[subprocess.Popen[bytes], int]:
    """A plain Redis (the queue Redis of a topology) on ``port`` or a free
    one, in a session of its own, ended with this process; AOF in ``data_dir``
    when given. Returns the process and its port once it answers PING."""
    chosen = port if port is not None else free_port()
    proc = _spawn(command(chosen, data_dir))
    client = plain_client(chosen)
    try:
        _until(f"Redis on {chosen} answering PING", lambda: _answers(client, proc, None), timeout)
    except BaseException:
        stop_processes([proc])
        raise
    return proc, chosen


# the cluster's text read and its slots cut (``referee.store.cluster_slots``), importable from here as before
__all__ = ["SLOTS", "ClusterError", "DEFAULT_NODE_TIMEOUT_MS", "DEFAULT_TIMEOUT_S", "HOST", "LocalCluster", "Node",
           "keys_per_range", "node_command", "parse_cluster_info", "parse_cluster_nodes", "plain_client", "slot_ranges",
           "start_cluster", "start_standalone", "stop_processes"]
