"""The examples run against the e2e suite's real processes: ``docs_live`` (a
throwaway Redis, ``referee serve``, ``referee worker``: the e2e suite's
``live``, once a worker process), ``worker_stack`` (the same, allowing bot
URLs on this machine, once a worker process, emptied for each test) and
``archived_live``: ``live`` keeping an archive (docs/archive.md) in a SQLite
file of its own."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Live, live_stack, worker_stack  # noqa: F401  (worker_stack: the fixture)


@pytest.fixture
def archived_live(tmp_path: Path) -> Iterator[Any]:
    with live_stack(REFEREE_ARCHIVE_URL=f"sqlite:///{tmp_path}/archive.sqlite3") as stack:
        yield stack


@pytest.fixture(scope="session")
def docs_live(worker_live: Live) -> Live:
    """The referee every example but those of ``PRIVATE_BOTS`` and ``ARCHIVED`` runs against: the
    worker's stack (``worker_live``, the one the e2e and browser files are handed emptied), started once a
    pytest-xdist worker (session scope): each example is then handed out alone, to whichever worker is
    free (``SPREAD`` in tests/conftest.py), and no two examples depend on each other's games."""
    return worker_live
