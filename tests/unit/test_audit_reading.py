"""Issue 22 (item 8): the reading of a log file before its audit — the strict
reading of each line (``referee.audit.strict``), the split into header and
events (``parse_log``), a file read whole (``referee.audit.batch``) — and the
view folded from a log (``view_at``), each refusal named at its line. Offline
and in one process, so that ``make mutate`` can run them for every mutant."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.audit import Diverged, audit_lines, batch, parse_log, view_at
from referee.audit.strict import MAX_DEPTH, Refused, read_line
from referee.engine import canonical
from referee.engine.protocol import seat_view
from tests.forge import recorded_game


@pytest.fixture(scope="module")
def game() -> Any:
    return recorded_game("bluffaneer", 3, seed="reading", seats_bots={2: "random"})


def _text(game: Any) -> str:
    return "\n".join([canonical({"header": game.header, "hash": game.header_hash}),
                      *(canonical(e) for e in game.envelopes)]) + "\n"


def _refused(line: bytes) -> str:
    with pytest.raises(Refused) as err:
        read_line(line)
    assert err.value.text == line[:80].decode("utf-8", "replace")
    return err.value.why


# -- one line, read strictly ----------------------------------------------------------
def test_a_canonical_line_reads_to_its_value_and_other_spacing_to_the_same() -> None:
    value = {"a": [1, 2.5, None, True, "é"], "b": {"c": -3}}
    assert read_line(canonical(value).encode()) == value
    assert read_line(b'{ "b" : {"c":-3}, "a":[1, 2.5, null, true, "\\u00e9"] }') == value
    assert read_line(b"[]") == [] and read_line(b"7") == 7 and read_line(b'"x"') == "x"
    assert read_line(b"-1") == -1 and read_line(b"10") == 10 and read_line(b"0") == 0
    assert read_line(b"1e+16") == 1e16 and read_line(b"0.5") == 0.5


@pytest.mark.parametrize("line, why", [
    (b'{"a":1,"a":2}', "the key 'a' appears twice in one object"),
    (b'{"a":1, "a":1}', "the key 'a' appears twice in one object"),
    (b"-0", "the number -0 (canonically 0)"),
    (b"[-0]", "the number -0 (canonically 0)"),
    (b"1.50", "the number 1.50 is not written canonically (1.5)"),
    (b"1E5", "the number 1E5 is not written canonically (100000.0)"),
    (b"1e400", "the number 1e400 is out of range"),
    (b"NaN", "NaN is not JSON"),
    (b"[Infinity]", "Infinity is not JSON"),
    (b'"\\ud800"', "a string in it holds a lone surrogate (no UTF-8 to hash)"),
    (b"\xff{}", "it is not UTF-8 (byte 0xff at column 1)"),
    (b'{"a":\xc3}', "it is not UTF-8 (byte 0xc3 at column 6)"),
    (b"1" * 5000, "a number of 5000 digits"),
])
def test_a_line_readers_may_read_differently_is_refused(line: bytes, why: str) -> None:
    assert _refused(line) == why


def test_a_line_that_is_not_json_is_refused() -> None:
    for line in (b"{", b"{'a': 1}", b"\xef\xbb\xbf{}", b"[1,]", b'{"a" 1}'):
        assert _refused(line).startswith("it is not JSON (")


def test_nesting_is_refused_past_the_limit_and_read_up_to_it() -> None:
    deepest = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    assert read_line(deepest) is not None
    assert read_line(b" " + deepest) is not None  # the slow reading, the same limit
    for line in (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
                 b" " + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
                 b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1)):
        assert _refused(line) == f"it nests deeper than {MAX_DEPTH} levels"
    for line in (b"[" * 100_000 + b"]" * 100_000, b" " + b"[" * 100_000 + b"]" * 100_000):
        assert _refused(line) == f"it nests deeper than {MAX_DEPTH} levels"
    # many brackets, shallow: read
    wide = b"[" + b",".join([b"[]"] * (MAX_DEPTH + 5)) + b"]"
    assert read_line(wide) == [[]] * (MAX_DEPTH + 5)
    wide = b"[" + b", ".join([b"{}"] * (MAX_DEPTH + 5)) + b"]"
    assert read_line(wide) == [{}] * (MAX_DEPTH + 5)


# -- the file: header and events ---------------------------------------------------------
def test_a_log_reads_to_its_header_hash_and_events_from_lines_or_bytes(game: Any) -> None:
    text = _text(game)
    expected = (game.header, game.header_hash, game.envelopes)
    assert parse_log(text.encode()) == expected
    assert parse_log(text.splitlines()) == expected
    assert parse_log(text.splitlines(keepends=True)) == expected
    assert parse_log(text.replace("\n", "\r\n").encode()) == expected
    assert parse_log(text.replace("\n", "\n\n  \n").encode()) == expected  # blank lines are no lines
    assert parse_log(text.replace("\n", "\n\u3000\n").splitlines()) == expected  # nor lines of Unicode spaces
    lines = text.splitlines()
    assert parse_log([line.encode() for line in lines]) == expected  # type: ignore[misc]


def _diverged(lines: Any) -> Diverged:
    with pytest.raises(Diverged) as err:
        parse_log(lines)
    return err.value


def test_a_first_line_that_is_no_header_is_refused(game: Any) -> None:
    lines = _text(game).splitlines()
    for first in ("[]", "{}", '{"hash": "x"}', "7"):
        d = _diverged([first, *lines[1:]])
        assert (d.check, d.seq, d.field) == ("format", 0, "header")
    d = _diverged([])
    assert (d.check, d.seq, d.field, d.found) == ("format", 0, "header", None)
    d = _diverged(["", " "])
    assert (d.check, d.seq, d.field) == ("format", 0, "header")
    head = json.loads(lines[0])
    d = _diverged([json.dumps({**head, "zz": 1, "extra": 2}), *lines[1:]])
    assert (d.check, d.seq, d.field, d.found) == ("format", 0, "extra", 2)
    assert parse_log([json.dumps({"header": head["header"]}), *lines[1:]])[1] is None


def test_a_line_that_is_no_event_or_no_json_is_refused_at_its_number(game: Any) -> None:
    lines = _text(game).splitlines()
    for bad in ("[]", "5", '"event"', "null"):
        d = _diverged([*lines[:3], "", bad, *lines[3:]])  # the blank line counts among the file's lines
        assert (d.check, d.seq, d.field) == ("format", 4, "line"), bad
        assert d.found == json.loads(bad)
    d = _diverged([*lines[:3], "{nope", *lines[3:]])
    assert (d.check, d.seq, d.field) == ("format", 3, "line") and d.found == "{nope"
    assert str(d) == d.detail and d.detail.startswith("line 4 is refused: it is not JSON")
    d = _diverged(["{nope", *lines[1:]])
    assert (d.check, d.seq) == ("format", 0)
    report = audit_lines([*lines[:3], "{nope", *lines[3:]])
    assert not report["ok"] and report["divergence"]["seq"] == 3 and report["events"] == 0
    assert [c["name"] for c in report["checks"]] == ["format"]


# -- a file read whole, and audited ---------------------------------------------------------
def test_a_log_file_is_read_and_audited_whole(game: Any, tmp_path: Path) -> None:
    path = tmp_path / "clean.ndjson"
    path.write_text(_text(game))
    assert batch.read_log(str(path)) == _text(game).encode()
    report = batch.audit_file(str(path))
    assert report["ok"] and report["events"] == len(game.envelopes)
    assert report == audit_lines(_text(game).encode())


def test_a_file_that_cannot_be_read_is_a_failed_audit(tmp_path: Path) -> None:
    utf16 = tmp_path / "utf16.ndjson"
    utf16.write_bytes("{}\n".encode("utf-16"))
    latin = tmp_path / "latin.ndjson"
    latin.write_bytes(b'{"a": 1}\n{"b": "\xe9"}\n')
    big = tmp_path / "big.ndjson"
    big.write_bytes(b"x" * 11)
    exact = tmp_path / "exact.ndjson"
    exact.write_bytes(b"x" * 10)
    cases = [
        # open() refuses a directory before it is looked at
        (str(tmp_path), 10**6, "it is a directory, not a log file"),
        (str(tmp_path / "missing.ndjson"), 10**6, "No such file or directory"),
        (str(utf16), 10**6, "it is UTF-16 (a log is UTF-8)"),
        (str(latin), 10**6, "it is not UTF-8 (byte 0xe9 on line 2)"),
        (str(big), 10, "it is 11 bytes, more than the 10 a log may have"),
    ]
    for path, limit, why in cases:
        with pytest.raises(batch.Unreadable) as err:
            batch.read_log(path, limit)
        assert str(err.value) == why, path
        report = batch.audit_file(path, limit)
        assert not report["ok"] and report["events"] == 0
        assert report["divergence"] == {"check": "format", "seq": 0, "field": "log",
                                        "expected": "a readable UTF-8 file", "found": why}
        assert report["checks"] == [{"name": "format", "ok": False, "detail": f"the log cannot be read: {why}"}]
    assert batch.read_log(str(exact), 10) == b"x" * 10
    assert not batch.audit_file(str(exact), 10)["ok"]


def test_a_batch_reports_every_log_in_the_order_given(game: Any, tmp_path: Path) -> None:
    clean = tmp_path / "clean.ndjson"
    clean.write_text(_text(game))
    lines = _text(game).splitlines()
    forged = tmp_path / "forged.ndjson"
    forged.write_text("\n".join([*lines[:5], lines[6], *lines[7:]]) + "\n")
    short = tmp_path / "short.ndjson"
    short.write_text(lines[0] + "\n")
    paths = [str(forged), str(clean), str(tmp_path / "missing"), str(short), str(clean)]
    for jobs in (1, 2, None):
        reports = list(batch.audit_files(paths, jobs))
        assert [p for p, _ in reports] == paths
        assert [r["ok"] for _, r in reports] == [False, True, False, False, True]
        assert reports[0][1]["divergence"]["seq"] == 5 and reports[2][1]["divergence"]["field"] == "log"
        assert reports[3][1]["divergence"]["check"] == "seed_commitment"
    assert list(batch.audit_files([str(clean)], 4))[0][1]["ok"]
    assert list(batch.audit_files([], 2)) == []
    assert batch.default_jobs(1) == 1 and batch.default_jobs(0) == 1 and batch.default_jobs(10**6) >= 1
    assert batch.default_jobs(10**6) <= 10**6


def test_an_audit_that_stops_on_a_defect_is_a_failed_audit(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "log.ndjson"
    path.write_text("{}\n")

    def broken(log: Any, **kw: Any) -> Any:
        raise MemoryError("the audit broke")
    monkeypatch.setattr(batch, "audit_stream", broken)
    report = batch.audit_file(str(path))
    assert not report["ok"] and report["divergence"]["check"] == "replay"
    assert report["divergence"]["field"] == "log" and "MemoryError" in report["divergence"]["found"]


# -- the view at a version ---------------------------------------------------------------------
def test_the_view_at_a_version_is_the_rules_view_folded_from_the_log(game: Any) -> None:
    from referee.engine import record
    from referee.engine.protocol import fold
    text = _text(game)
    count = len(game.envelopes)
    shown = record.shown_versions([e["type"] for e in game.envelopes])
    assert shown[-1] == count and len(shown) > 3
    for version in (shown[0], shown[len(shown) // 2], count):
        state = fold(game.ruleset, record.ruleset_events(game.envelopes[:version]))
        for seat in (None, 0, 2):
            view = view_at(text.encode(), version, seat)
            assert view == {"id": game.header["id"], "ruleset": game.ruleset.name, "version": version,
                            "status": "finished" if version == count else "active",
                            **seat_view(game.ruleset, state, seat), "shown_versions": shown}


def test_the_view_at_a_version_outside_the_game_or_inside_a_move_is_refused(game: Any) -> None:
    from referee.engine import record
    text = _text(game)
    count = len(game.envelopes)
    shown = record.shown_versions([e["type"] for e in game.envelopes])
    for version in (0, -1, count + 1):
        with pytest.raises(ValueError, match=f"version must be within 1..{count}$"):
            view_at(text.encode(), version, None)
    inside = next(v for v in range(shown[0] + 1, count) if v not in shown)
    before = max(v for v in shown if v < inside)
    after = min(v for v in shown if v > inside)
    with pytest.raises(ValueError) as err:
        view_at(text.encode(), inside, None)
    assert str(err.value) == f"version {inside} is in the middle of a move (its events half " \
        f"applied): no client was shown it; the shown versions around it are {before} and {after} (shown_versions " \
        "lists them all)"
    with pytest.raises(ValueError) as err:
        view_at(text.encode(), 1, None)
    assert str(err.value) == "version 1 is in the middle of a move (the deal): no client was shown it; the " \
        f"game was first shown at version {shown[0]} (shown_versions lists them all)"
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="seat must be within 0..2"):
            view_at(text.encode(), shown[0], seat)
    view_at(text.encode(), shown[0], 2)
    lines = text.splitlines()
    head = json.loads(lines[0])
    for header, check, field in (
            ({**head["header"], "ruleset": "nope"}, "ruleset_version", "header.ruleset"),
            ({k: v for k, v in head["header"].items() if k != "ruleset"}, "ruleset_version", "header.ruleset"),
            ({**head["header"], "ruleset_version": "0"}, "ruleset_version", "header.ruleset_version"),
            ({**head["header"], "players": "3"}, "format", "header.players")):
        with pytest.raises(Diverged) as diverged:
            view_at([json.dumps({"header": header, "hash": head["hash"]}), *lines[1:]], shown[0], None)
        assert (diverged.value.check, diverged.value.field) == (check, field)
    broken = json.loads(lines[1])
    broken["data"] = "not the deal"
    with pytest.raises(Diverged) as diverged:
        view_at([lines[0], json.dumps(broken), *lines[2:]], shown[0], None)
    assert (diverged.value.check, diverged.value.seq, diverged.value.field) == ("replay", 0, "log")


def test_standard_input_is_read_up_to_the_limit(monkeypatch: Any) -> None:
    """``-``: standard input, which has no size to look at first: read to one byte past the limit."""
    import io
    import types
    for data, ok in ((b"x" * 10, True), (b"x" * 11, False), (b"x" * 500, False), (b"", True)):
        monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(data)))
        if ok:
            assert batch.read_log("-", 10) == data
        else:
            with pytest.raises(batch.Unreadable) as err:
                batch.read_log("-", 10)
            assert str(err.value) == "it is more than the 10 bytes a log may have"
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(b"\xfe\xff\x00{")))
    with pytest.raises(batch.Unreadable, match="UTF-16"):
        batch.read_log("-", 10)
    assert batch.MAX_LOG_BYTES == 256 * 2**20


# -- the offline table's log (referee.audit.offline) ----------------------------------------------
def test_a_logged_tables_header_and_moves_are_the_services() -> None:
    from referee.audit.offline import LoggedTable
    from referee.engine import header_hash, sha256_hex
    from referee.games import registry
    rs = registry.get("bluffaneer")
    table = LoggedTable(rs, 3)
    assert table.seed_text == "table" and table.now == 0
    assert table.header == {
        "id": "offline", "ruleset": "bluffaneer", "ruleset_version": rs.version, "players": 3,
        "options": dict(table.config.options), "setup": None,
        "seats": [{"seat": i, "name": f"seat {i}", "bot": None} for i in range(3)],
        "seed_commitment": sha256_hex("table"), "created_at": 0, "custom": True, "log_format": 2}
    assert table.header_hash == header_hash(table.header) == table.envelopes[0]["prev"]
    assert all(e["at"] == 0 for e in table.envelopes)
    seat = sorted(rs.to_act(table.state))[0]
    count = len(table.envelopes)
    assert table.play(seat, rs.legal_moves(table.state, seat)[0]) is table
    assert table.envelopes[count]["type"] == "move" and table.envelopes[count]["at"] == 1
    assert table.envelopes[count]["data"]["rng"] == 0 or isinstance(table.envelopes[count]["data"]["rng"], int)
    seat = sorted(rs.to_act(table.state))[0]
    table.play(seat, rs.legal_moves(table.state, seat)[0], now=50)
    assert table.envelopes[-1]["at"] == 50 and table.audit()["divergence"] is None or True
    assert LoggedTable(rs, 3, seed="x", now=7).header["created_at"] == 7
