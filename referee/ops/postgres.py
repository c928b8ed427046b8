"""A PostgreSQL server on this machine for the archive (issue 41): ``make
cluster``'s, and the tests'. ``initdb`` and ``pg_ctl`` from Debian's
``postgresql`` (``/usr/lib/postgresql/*/bin``, else on ``PATH``) on a free
port, its data in a temporary directory of its own, trust authentication on
loopback only; run as the ``postgres`` user when this runs as root
(PostgreSQL refuses root). ``stop`` is an immediate shutdown (the database
killed), ``start`` brings it back, ``close`` stops it and removes its data."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from referee.store.redis_server import free_port

MISSING = "PostgreSQL is not installed (apt-get install postgresql): no initdb under /usr/lib/postgresql/*/bin"


class PostgresMissing(Exception):
    """No PostgreSQL on this machine."""


def pg_bin() -> Path | None:
    """The newest PostgreSQL's binaries on this machine, ``None`` if there is none."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class LocalPostgres:
    """One PostgreSQL server, made and started at once (``PostgresMissing`` if there is none)."""

    def __init__(self) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise PostgresMissing(MISSING)
        self.bindir = bindir
        # a directory of its own in the system's temp dir: the postgres user may enter it
        self.root = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_user: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.root, "postgres")
        try:
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
            self.start()
        except BaseException:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    @property
    def url(self) -> str:
        """The archive's URL of it (``REFEREE_ARCHIVE_URL``)."""
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
