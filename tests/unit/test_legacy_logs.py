"""Old logs stay auditable under their version (issue 24, "One vocabulary";
``referee.engine.legacy``).

``tests/fixtures/legacy`` holds real logs written before the vocabulary
changed (``referee arena --logs``, built-in ``heuristic`` and ``random`` bots
at every seat, so the audit re-derives every bot move from today's bots
reading today's views): each must audit clean, and be replayable at its
shown versions, under the version its header names."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from referee.audit import audit_lines, view_at
from referee.engine import record
from referee.engine.chain import header_hash
from referee.engine.legacy import Legacy, recase
from referee.games import registry
from tests.forge import rechain

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures" / "legacy").glob("*.ndjson.gz"))


def _lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()


def test_there_is_an_old_log_of_every_built_in_ruleset() -> None:
    held = {json.loads(_lines(p)[0])["header"]["ruleset"] for p in FIXTURES}
    assert held >= {"bang", "bang-dice", "bang-faceoff", "bluffaneer"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_an_old_log_audits_clean_under_its_version(path: Path) -> None:
    lines = _lines(path)
    header = json.loads(lines[0])["header"]
    report = audit_lines(lines)
    assert report["ok"], report["divergence"]
    by_name = {c["name"]: c for c in report["checks"]}
    assert by_name["ruleset_version"]["detail"].endswith(f"v{header['ruleset_version']}")
    assert by_name["bots"]["ok"] and "0 built-in bot moves" not in by_name["bots"]["detail"]
    rs = registry.at_version(header["ruleset"], header["ruleset_version"])
    assert rs is not None
    assert isinstance(rs, Legacy) == (header["ruleset_version"] != registry.get(header["ruleset"]).version)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_an_old_log_replays_at_its_shown_versions_in_todays_words(path: Path) -> None:
    lines = _lines(path)
    envelopes = [json.loads(line) for line in lines[1:]]
    shown = record.shown_versions([e["type"] for e in envelopes])
    for version in (shown[0], shown[len(shown) // 2], shown[-1]):
        seen = view_at(lines, version, 0)
        assert seen["version"] == version and "state" in seen


def test_a_log_of_a_version_never_written_is_refused_naming_the_ones_audited() -> None:
    lines = _lines(FIXTURES[0])
    header = json.loads(lines[0])["header"]
    header["ruleset_version"] = "999"
    head = header_hash(header)  # re-chained: only the version check stands in the way
    events = rechain(head, [json.loads(line) for line in lines[1:]])
    report = audit_lines([json.dumps({"header": header, "hash": head}), *map(json.dumps, events)])
    rs = registry.get(header["ruleset"])
    known = ", ".join(f"v{v}" for v in [*rs.previous_versions, rs.version])
    assert report["divergence"]["check"] == "ruleset_version" and report["divergence"]["found"] == "999"
    failed = report["checks"][-1]
    assert not failed["ok"] and f"this referee audits {known}: replay refused" in failed["detail"]
    assert registry.at_version(rs.name, "999") is None and registry.at_version(rs.name, 2) is None
    assert registry.at_version(rs.name, rs.version) is rs


def test_recase_respells_only_what_is_under_the_named_keys() -> None:
    value = {"face": "SHOT1", "dice": [{"face": "BEER", "die": 1}], "role": "OUTLAW", "faces": ["ARROW"]}
    assert recase(value, frozenset({"face", "faces"}), str.lower) == {
        "face": "shot1", "dice": [{"face": "beer", "die": 1}], "role": "OUTLAW", "faces": ["arrow"]}


def test_a_plug_ins_legacy_reads_its_old_logs_and_only_under_their_version() -> None:
    """The throwaway Nim's v1 wrote results without ``detail``: a v1 log
    audits under v1, and the same log relabelled v2 (re-chained) diverges
    at the result the v2 rules reach."""
    from referee.audit import audit_log
    from referee.audit.offline import LoggedTable
    nim = registry.get("nim")
    old = registry.at_version("nim", "1")
    assert isinstance(old, Legacy) and old.version == "1" and old.name == "nim"
    table = LoggedTable(old, 2, seed=b"nim-v1")
    while old.result(table.state) is None:
        seat = min(old.to_act(table.state))
        table.play(seat, old.legal_moves(table.state, seat)[-1])
    assert table.header["ruleset_version"] == "1" and "detail" not in table.envelopes[-1]["data"]["result"]
    report = table.audit()
    assert report["ok"], report["divergence"]
    header = {**table.header, "ruleset_version": nim.version}
    relabelled = audit_log(header, header_hash(header), rechain(header_hash(header),
                                                                [dict(e) for e in table.envelopes]))
    assert relabelled["divergence"]["check"] == "result", relabelled["divergence"]
