"""Fixtures of the archive's tests (issue 41; tests/api/test_archive.py,
test_tlog_archive.py): an archive in SQLite and in a PostgreSQL the tests
start, the app over it, and a burst worker for its queue."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rq import Queue

from referee.archive import Archive
from referee.ops.postgres import LocalPostgres
from referee.service.scheduling import QUEUE
from tests.conftest import BurstWorker, contract_app
from tests.postgres import Postgres
from workers import jobs


@pytest.fixture(scope="module")
def postgres() -> Iterator[LocalPostgres]:
    server = Postgres()
    yield server
    server.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def archive(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Archive]:
    if request.param == "sqlite":
        found = Archive(f"sqlite:///{tmp_path}/var/archive.sqlite3")
    else:
        server: LocalPostgres = request.getfixturevalue("postgres")
        found = Archive(server.url, timeout_s=2)
        found.ready()
        with found.engine.begin() as conn:  # each test its own rows
            conn.exec_driver_sql("DELETE FROM seats")
            conn.exec_driver_sql("DELETE FROM games")
    yield found
    found.close()


@pytest.fixture
def arc(redis_client: Any, clock: Any, archive: Archive, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The app over the archive, and a burst worker for its queue."""
    monkeypatch.setenv("REFEREE_ARCHIVE_RETRY_S", "off")  # a failed write waits for the sweeper, not for RQ
    app = contract_app(redis_client, clock, PUSHED=False, ARCHIVE=archive)
    svc = app.extensions["referee.service"]
    monkeypatch.setattr(jobs, "service_from_env", lambda: svc)

    def work() -> None:
        queue = Queue(QUEUE, connection=redis_client)
        for _ in range(500):
            if queue.count == 0:
                return
            BurstWorker([queue], connection=redis_client).work(burst=True, logging_level="CRITICAL")

    return app.test_client(), svc, work
