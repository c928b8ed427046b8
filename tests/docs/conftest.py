"""The examples run against the e2e suite's real processes: ``live`` (a
throwaway Redis, ``referee serve``, ``referee worker``) and ``worker_stack``
(the same, allowing bot URLs on this machine)."""
from __future__ import annotations

from tests.e2e.conftest import live, worker_stack  # noqa: F401  (the fixtures)
