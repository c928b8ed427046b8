"""The processes of a topology on this machine (``referee.ops.topology``):
each started in a session and process group of its own, ended with this
process, stopped by PID, and waited for until it answers."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from referee.store.redis_server import Running, die_with_parent

HOST = "127.0.0.1"
DEFAULT_START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0


class TopologyError(RuntimeError):
    """A part of the topology did not start."""


@dataclass
class Child(Running):
    """A process the topology started, in a process group of its own."""

    name: str
    proc: subprocess.Popen[bytes]
    port: int | None = None
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def kill(self) -> None:
        """SIGKILL its whole group (gunicorn's master and its workers), as a crash would."""
        self._signal_group(signal.SIGKILL)
        self.proc.wait()

    def _signal_group(self, sig: signal.Signals) -> None:
        try:
            os.killpg(self.proc.pid, sig)  # its group: started with start_new_session, so pgid == pid
        except (ProcessLookupError, PermissionError):
            pass

    def log_tail(self, chars: int = 3000) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return self.log.read_text(errors="replace")[-chars:]

    def describe(self) -> str:
        where = f" {self.url}" if self.port is not None else ""
        state = "" if self.alive else f" (exited {self.proc.returncode})"
        return f"{self.name}:{where} pid {self.pid}{state}"


def stop_children(children: Sequence[Child], timeout: float = STOP_TIMEOUT_S) -> None:
    """SIGTERM each child by PID, wait for all, SIGKILL what is left of their groups."""
    for child in children:
        if child.alive:
            child.proc.terminate()
    deadline = time.monotonic() + timeout
    for child in children:
        try:
            child.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.proc.kill()
            child.proc.wait()
        child._signal_group(signal.SIGKILL)  # a gunicorn worker its master left behind


def spawn(name: str, argv: list[str], env: dict[str, str], *, port: int | None, log_dir: Path | None) -> Child:
    """Start one child in a session of its own, ended with this process;
    output to ``log_dir/<name>.log``, or this terminal."""
    log = None if log_dir is None else log_dir / f"{name}.log"
    out: IO[bytes] | None = None if log is None else open(log, "wb")
    try:
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT if out else None,
                                stdin=subprocess.DEVNULL, preexec_fn=die_with_parent(), start_new_session=True)
    finally:
        if out is not None:
            out.close()  # the child holds its own copy
    return Child(name, proc, port, log)


def http_status(url: str, timeout: float = 2.0) -> int | None:
    """The status of ``GET url``; None when nothing answered."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (OSError, ValueError):
        return None


def wait_healthy(url: str, children: Sequence[Child], timeout: float = DEFAULT_START_TIMEOUT_S,
                 times: int = 1) -> float:
    """Poll ``GET url`` until it answers 200 ``times`` times in a row; the
    seconds it took. A child of ``children`` that exits meanwhile raises."""
    start, streak = time.monotonic(), 0
    while time.monotonic() - start < timeout:
        for child in children:
            if not child.alive:
                raise TopologyError(f"{child.name} exited with {child.proc.returncode} while waiting for {url}\n"
                                    f"{child.log_tail()}")
        streak = streak + 1 if http_status(url) == 200 else 0
        if streak >= times:
            return time.monotonic() - start
        if streak == 0:
            time.sleep(0.1)
    raise TopologyError(f"{url} did not answer 200 within {timeout:g} s")


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((HOST, port)) == 0
