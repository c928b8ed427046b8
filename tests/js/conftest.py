"""The fixture the Chromium test of the JavaScript client shares with the
browser and e2e suites: ``live`` (real processes); its Chromium is the
worker's (``browser``, tests/conftest.py)."""
from __future__ import annotations

from tests.e2e.conftest import live  # noqa: F401  (the fixture)
