"""The audit pauses the garbage collector only in a process of its own
(issue 26, item 4): ``referee audit`` and a batch's workers read a log with
the collector paused (half the cost of a long log), a server's audit
endpoint never touches it — its other requests go on being collected."""
from __future__ import annotations

import gc
from typing import Any

import pytest

from referee.audit import audit_lines, parse_log, view_at
from referee.audit.offline import LoggedTable
from referee.engine.jsonenc import dumps
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import playout, random_chooser


def _log() -> bytes:
    table = LoggedTable(registry.get("bluffaneer"), 3, seed=b"collector")
    playout(table, random_chooser(Rng(b"collector/moves")), pick_seat=Rng(b"collector/seats"))
    lines = [dumps({"header": table.header, "hash": table.header_hash}), *map(dumps, table.envelopes)]
    return b"\n".join(lines) + b"\n"


def _watched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real_disable, real_enable = gc.disable, gc.enable

    def disable() -> None:
        calls.append("disable")
        real_disable()

    def enable() -> None:
        calls.append("enable")
        real_enable()

    monkeypatch.setattr(gc, "disable", disable)
    monkeypatch.setattr(gc, "enable", enable)
    return calls


def test_a_server_audit_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _watched(monkeypatch)
    report: Any = audit_lines(_log())
    assert report["ok"], report
    _, _, events = parse_log(_log())
    assert view_at(_log(), len(events), None)["version"] == len(events)  # a replay served
    assert calls == [] and gc.isenabled()


def test_the_audits_own_process_pauses_the_collector_while_reading_and_restores_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _watched(monkeypatch)
    header, _, events = parse_log(_log(), own_process=True)
    assert header["ruleset"] == "bluffaneer" and events
    assert calls == ["disable", "enable"] and gc.isenabled()
    gc.disable()
    try:  # a collector already off stays off
        parse_log(_log(), own_process=True)
        assert not gc.isenabled()
    finally:
        gc.enable()
