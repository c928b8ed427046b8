"""The watch page in a real Chromium (Playwright) over real processes: the
e2e suite's ``live`` stack (a throwaway Redis, ``referee serve``, ``referee
worker``). Debian's ``chromium`` drives the tests (no browser download):
without it, or without playwright, every test here is skipped, loudly."""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import live  # noqa: F401  (the fixture: real processes)

CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install -y chromium; .ci/run does it as root)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why is not None:
        pytest.skip("#" * 20 + f" BROWSER TESTS SKIPPED: {why} " + "#" * 20)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        exe = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class Watched:
    """A page and everything it logged and asked for."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.urls: list[str] = []
        self.headers: list[dict[str, str]] = []
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("request", self._request)

    def _request(self, request: Any) -> None:
        self.urls.append(request.url)
        self.headers.append(dict(request.headers))


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(120_000)
    w = Watched(page)
    try:
        yield w
    finally:
        context.close()
    assert w.errors == [], f"the page logged errors: {w.errors}"
