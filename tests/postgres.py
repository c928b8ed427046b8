"""A real PostgreSQL the tests start themselves (issue 41): the one ``make
cluster`` starts (``referee.ops.postgres``), or the test is skipped, loudly,
when the machine has none (CI installs it: ``.ci/run``)."""
from __future__ import annotations

import pytest

from referee.ops.postgres import LocalPostgres, PostgresMissing


def Postgres() -> LocalPostgres:  # noqa: N802 (a server, made as a class is)
    """A started PostgreSQL, or the test SKIPPED saying why."""
    try:
        return LocalPostgres()
    except PostgresMissing as err:
        pytest.skip(f"{err}: the archive's PostgreSQL tests are SKIPPED")
