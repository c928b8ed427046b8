"""The fixtures the Chromium test of the JavaScript client shares with the
browser and e2e suites: a real Chromium, and ``live`` (real processes)."""
from __future__ import annotations

from tests.browser.conftest import browser  # noqa: F401  (the fixture)
from tests.e2e.conftest import live  # noqa: F401  (the fixture)
