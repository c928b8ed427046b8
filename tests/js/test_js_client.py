"""The JavaScript client's own tests (clients/js/test, node's test runner),
one pytest test per file so that pytest-xdist spreads them over the cores.
Each file starts its own Redis and ``referee serve`` (this venv's
``referee``, passed as ``REFEREE_BIN``), so they run side by side. Without
node >= 20 they are skipped, loudly; without the client's dev packages
(``make npm``: ``npm ci`` in clients/js) they fail, saying so."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

JS = Path(__file__).resolve().parents[2] / "clients" / "js"
FILES = sorted(p.name for p in (JS / "test").glob("*.test.js"))
NODE = shutil.which("node")


def _node_major() -> int:
    if NODE is None:
        return 0
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=True).stdout
    return int(version.strip().lstrip("v").split(".")[0])


def _skip_without_node() -> None:
    major = _node_major()
    if major < 20:
        why = "node is not installed" if NODE is None else f"node {major} is older than 20"
        message = f"THE JAVASCRIPT CLIENT'S TESTS ARE SKIPPED: {why} (clients/js needs node >= 20)"
        warnings.warn(message, stacklevel=2)
        pytest.skip(message)


def test_there_are_tests_to_run() -> None:
    assert {"games.test.js", "stream.test.js", "retry.test.js", "bots.test.js", "routes.test.js", "transport.test.js",
            "sse.test.js", "errors.test.js", "readme.test.js"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_js_client(name: str) -> None:
    _skip_without_node()
    assert NODE is not None
    assert (JS / "node_modules" / ".installed").exists(), "the client's dev packages are missing: run `make npm`"
    env = {**os.environ, "REFEREE_BIN": str(Path(sys.executable).parent / "referee")}
    done = subprocess.run([NODE, "--test", "--test-reporter=tap", f"test/{name}"], cwd=JS, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"node --test test/{name} failed:\n{done.stdout[-8000:]}\n{done.stderr[-4000:]}"
