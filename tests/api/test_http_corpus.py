"""Nothing changes for a client (issue 37, item 7): the recorded
request/response corpus (``tests/fixtures/http_corpus.jsonl``, made by
``python -m tests.http_corpus --write``) is driven again through the app and
every response compared with the recorded one, byte for byte but for the few
values ``tests.http_corpus`` names as placeholders (its docstring says which
and why). A fresh process runs it: the app's state (ruleset registry,
metrics, secrets' stream) is then that of the recording, whatever ran before
in this one."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.contract import spec
from tests.http_corpus import CORPUS, PLUGINS_SITE

ROOT = Path(__file__).resolve().parents[2]


def test_every_recorded_request_gets_the_recorded_response() -> None:
    sites = [entry for entry in sys.path if re.search(r"referee-plugins-[^/]*/site$", entry)]
    env = {**os.environ, **({PLUGINS_SITE: sites[0]} if sites else {})}
    run = subprocess.run([sys.executable, "-m", "tests.http_corpus", "--check"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600, env=env)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr[-4000:]}"
    assert " exchanges as recorded" in run.stdout


def _operations() -> list[tuple[str, str]]:
    return [(method.upper(), path) for path, item in spec()["paths"].items() for method in item
            if method in ("get", "post", "put", "patch", "delete")]


def _matches(template: str, path: str) -> bool:
    """``path`` (a query string aside) is one of ``template``'s (``{name}``: any one segment)."""
    wanted, got = template.split("/"), path.split("?")[0].split("/")
    return len(wanted) == len(got) and all(part == seg or (part.startswith("{") and seg)
                                           for part, seg in zip(wanted, got))


@pytest.mark.parametrize(("method", "path"), _operations())
def test_the_corpus_has_a_success_for_every_operation_of_the_contract(method: str, path: str) -> None:
    exchanges = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    statuses = {one["response"]["status"] for one in exchanges
                if one["request"]["method"] == method and _matches(path, one["request"]["path"])}
    assert any(200 <= status < 300 for status in statuses), f"{method} {path}: {sorted(statuses)}"
