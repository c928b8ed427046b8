"""A real PostgreSQL the tests start themselves (issue 41): ``initdb`` and
``pg_ctl`` from Debian's ``postgresql`` (``/usr/lib/postgresql/*/bin``) on a
free port, its data in a temporary directory; run as the ``postgres`` user
when the tests run as root (PostgreSQL refuses root). ``stop`` is an
immediate shutdown (the database killed), ``start`` brings it back."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from referee.store.redis_server import free_port


def pg_bin() -> Path | None:
    """The newest PostgreSQL's binaries on this machine, ``None`` if there is none."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    """One PostgreSQL server in a temporary directory of its own, on a free port."""

    def __init__(self) -> None:
        bindir = pg_bin()
        if bindir is None:
            pytest.skip("PostgreSQL is not installed (apt-get install -y postgresql): the archive's "
                        "PostgreSQL tests are SKIPPED", allow_module_level=True)
        self.bindir = bindir
        # a directory of its own in the system's temp dir: the postgres user cannot enter pytest's (0700, root's)
        root = self.root = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        self.data = root / "data"
        self.port = free_port()
        self.as_user: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(root, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(self.as_user + [str(self.bindir / tool), *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=self.root)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")

    def stop(self) -> None:
        """Killed: an immediate shutdown, no clean checkpoint."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def close(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.root, ignore_errors=True)
