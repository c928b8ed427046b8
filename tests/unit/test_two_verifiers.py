"""Issue 36 (item 6): two verifiers, one verdict. The Python audit
(``referee audit``) and the browser's (``referee/web/verify.js``, run here by
node as the watch page runs it) judge every log of the corpus
(``tests.corpus``: a genuine signed game spelled several ways, and a forgery
of every class the audit knows) as ``tests/fixtures/logs/corpus.json``
says: with the referee's keys both give the same verdict on every log;
without, the same on every log but one re-chained so that only re-deciding
the game sees it, which the browser (it does not re-decide) calls unsigned
(docs/log-format.md, "Two verifiers")."""
from __future__ import annotations

import json
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest

from referee.audit.batch import audit_file
from referee.audit.stream import audit_stream
from referee.engine.signature import PublicKeys
from tests.corpus import LAYERS, Case, cases

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "tests" / "fixtures" / "logs" / "corpus.json"
HARNESS = ROOT / "tests" / "verify_node.cjs"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Case, Path, Path]]:
    """Every case written out: ``(case, log file, key set file)``."""
    folder = tmp_path_factory.mktemp("corpus")
    out = []
    for n, case in enumerate(cases()):
        log, keys = folder / f"{n:02d}.ndjson", folder / f"{n:02d}.keys.json"
        log.write_bytes(case.log)
        keys.write_text(json.dumps(case.keys))
        out.append((case, log, keys))
    return out


def _python(report: dict[str, Any]) -> str:
    return "refused" if not report["ok"] else "valid" if report["signed"] else "unsigned"


def _browser(result: dict[str, Any]) -> str:
    return "valid" if result["ok"] else "unsigned" if not result["checked"] else "refused"


def test_the_corpus_is_the_one_listed_with_every_layer(corpus: list[tuple[Case, Path, Path]]) -> None:
    listed = json.loads(MANIFEST.read_text())
    made = [{"name": c.name, "layer": c.layer,
             "keyed": {v: c.expected(v, True) for v in ("python", "browser")},
             "unkeyed": {v: c.expected(v, False) for v in ("python", "browser")}} for c, _, _ in corpus]
    assert made == listed
    assert {c.layer for c, _, _ in corpus} == set(LAYERS)
    assert all(len(c.log) < 2 * 2**20 for c, _, _ in corpus)


def test_the_python_audit_gives_every_log_its_verdict(corpus: list[tuple[Case, Path, Path]]) -> None:
    wrong = []
    for case, log, keys in corpus:
        for keyed in (True, False):
            report = audit_file(str(log), jwks=json.loads(keys.read_text()) if keyed else None)
            if _python(report) != case.expected("python", keyed):
                wrong.append((case.name, keyed, _python(report), report["checks"][-1]["detail"]))
    assert wrong == []


def test_the_audit_read_in_passes_reports_as_the_audit_held_whole(corpus: list[tuple[Case, Path, Path]]) -> None:
    """``referee.audit.stream``: a log read again for every check (``keep_cost=0``) reports exactly as held."""
    for case, log, _ in corpus:
        try:
            public = PublicKeys.from_jwks(case.keys)
        except ValueError:
            public = None
        for given in (public, None):
            with open(log, "rb") as held, open(log, "rb") as streamed:
                assert audit_stream(streamed, keys=given, keep_cost=0) == audit_stream(held, keys=given), case.name


def test_the_browser_verifier_gives_every_log_the_same_verdict(corpus: list[tuple[Case, Path, Path]],
                                                               tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        warnings.warn("node is not installed: verify.js was NOT run over the corpus", stacklevel=1)
        pytest.skip("NODE IS NOT INSTALLED: verify.js was NOT run over the corpus (install node 20+)")
    runs = [{"name": f"{n}/{keyed}", "log": str(log), "keys": str(keys) if keyed else None}
            for n, (_, log, keys) in enumerate(corpus) for keyed in (True, False)]
    listing = tmp_path / "cases.json"
    listing.write_text(json.dumps(runs))
    done = subprocess.run([node, str(HARNESS), str(listing)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    results = {r["name"]: r for r in json.loads(done.stdout)}
    wrong = []
    for n, (case, log, keys) in enumerate(corpus):
        for keyed in (True, False):
            result = results[f"{n}/{keyed}"]
            python = _python(audit_file(str(log), jwks=json.loads(keys.read_text()) if keyed else None))
            if _browser(result) != case.expected("browser", keyed):
                wrong.append((case.name, keyed, _browser(result), result["check"], result["detail"]))
            elif keyed or case.layer != "replay":  # one verdict: the browser's is the audit's
                assert _browser(result) == python, case.name
    assert wrong == []
