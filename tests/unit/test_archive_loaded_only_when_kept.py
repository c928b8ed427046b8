"""The archive's database library is loaded only by a referee that keeps an
archive (``referee.archive.records``), and every error of its database comes
out of the archive as ``ArchiveUnavailable``, raised from the driver's error
with its words (what the service, the worker's job and the CLI catch)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.exc import SQLAlchemyError

from referee.archive import ArchivedGame, ArchiveUnavailable, Query
from referee.archive.db import Archive

LOADED = """
import sys
import referee.http.wsgi, workers.jobs, referee.ops.cli
from referee import archive
assert archive.from_env() is None
print(sorted(m for m in sys.modules if m == "sqlalchemy" or m.startswith("sqlalchemy.")))
"""


def _loaded(env_archive: str | None) -> str:
    env = {"PATH": "/usr/bin:/bin", "REDIS_URL": "redis://127.0.0.1:1/0"}
    if env_archive is not None:
        env["REFEREE_ARCHIVE_URL"] = env_archive
    done = subprocess.run([sys.executable, "-c", LOADED], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_referee_keeping_no_archive_loads_no_database_library() -> None:
    assert _loaded(None) == "[]"
    assert _loaded("off") == "[]"


def test_the_archive_class_is_there_when_asked_for() -> None:
    import referee.archive as package
    assert package.Archive is Archive
    with pytest.raises(AttributeError):
        package.Nothing  # noqa: B018  (the module's __getattr__ refuses any other name)


def _game(game_id: str) -> ArchivedGame:
    return ArchivedGame(id=game_id, ruleset="bang", ruleset_version="1", status="finished", version=3,
                        custom=False, tournament=None, created_at=1, finished_at=2, head="h" * 64,
                        signature=None, result={"reason": "x"}, seats=[{"seat": 0, "name": "a", "bot": None}],
                        log=b"{}\n")


def test_a_database_that_cannot_be_opened_is_archive_unavailable(tmp_path: Path) -> None:
    archive = Archive(f"sqlite:///{tmp_path}")  # a directory: no database file opens there
    with pytest.raises(ArchiveUnavailable) as raised:
        archive.get("g")
    assert isinstance(raised.value.__cause__, SQLAlchemyError)
    assert str(raised.value) == str(raised.value.__cause__)


def test_a_url_no_driver_reads_is_archive_unavailable() -> None:
    with pytest.raises(ArchiveUnavailable) as raised:
        Archive("nosuchdatabase://somewhere/archive")
    assert isinstance(raised.value.__cause__, SQLAlchemyError)


def test_every_read_and_write_of_a_broken_database_is_archive_unavailable(tmp_path: Path) -> None:
    archive = Archive(f"sqlite:///{tmp_path}/archive.sqlite3")
    archive.put(_game("one"), now=5)
    archive.set_leaf("one", 0, "leaf")
    assert [g.id for g in archive.search(Query())[0]] == ["one"] and list(archive.leaves()) == [(0, "one", "leaf")]
    with archive.engine.begin() as conn:  # the tables gone under the archive's feet
        conn.exec_driver_sql("DROP TABLE games")
    calls = {"put": lambda: archive.put(_game("two"), now=6), "head": lambda: archive.head("one"),
             "get": lambda: archive.get("one"), "sizes": archive.sizes, "search": lambda: archive.search(Query()),
             "created_before": lambda: archive.created_before(None, None, 10),
             "each": lambda: list(archive.each(Query())), "leaves": lambda: list(archive.leaves()),
             "unlogged": archive.unlogged, "set_leaf": lambda: archive.set_leaf("one", 1, "leaf")}
    for name, call in calls.items():
        with pytest.raises(ArchiveUnavailable) as raised:
            call()
        assert isinstance(raised.value.__cause__, SQLAlchemyError), name
        assert "no such table" in str(raised.value), (name, str(raised.value))
