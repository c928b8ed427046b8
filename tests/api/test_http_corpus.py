"""Nothing changes for a client (issue 37, item 7): the recorded
request/response corpus (``tests/fixtures/http_corpus.jsonl``, made by
``python -m tests.http_corpus --write``) is driven again through the app and
every response compared with the recorded one, byte for byte but for the few
values ``tests.http_corpus`` names as placeholders (its docstring says which
and why). A fresh process runs it: the app's state (ruleset registry,
metrics, secrets' stream) is then that of the recording, whatever ran before
in this one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_recorded_request_gets_the_recorded_response() -> None:
    run = subprocess.run([sys.executable, "-m", "tests.http_corpus", "--check"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr[-4000:]}"
    assert " exchanges as recorded" in run.stdout
