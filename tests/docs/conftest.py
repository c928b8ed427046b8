"""The examples run against the e2e suite's real processes: ``live`` (a
throwaway Redis, ``referee serve``, ``referee worker``) and ``worker_stack``
(the same, allowing bot URLs on this machine); ``archived_live``: ``live``
keeping an archive (docs/archive.md) in a SQLite file of its own."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import live, live_stack, worker_stack  # noqa: F401  (the fixtures)


@pytest.fixture
def archived_live(tmp_path: Path) -> Iterator[Any]:
    with live_stack(REFEREE_ARCHIVE_URL=f"sqlite:///{tmp_path}/archive.sqlite3") as stack:
        yield stack
