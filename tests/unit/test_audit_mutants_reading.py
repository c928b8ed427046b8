"""Small things of the offline audit a reader relies on (issue 22, item 8:
tests that would notice): the collector left as ``parse_log`` found it, the
first line's refusals at ``seq`` 0, a clean report's every key, and the
rules' event data compared as the dict it is whatever mapping holds it."""
from __future__ import annotations

import gc
import json
from types import MappingProxyType
from typing import Any

import pytest

from referee.audit import Diverged, audit_lines, audit_log, parse_log
from referee.audit.redecide import expect
from referee.engine import LOG_FORMAT, canonical, envelope
from referee.engine.protocol import Event
from tests.unit.test_audit_mutants_by import played_game


@pytest.fixture(scope="module")
def text() -> str:
    game = played_game("bang-dice", 3, seed="reading-mutants")
    return "\n".join([canonical({"header": game.header, "hash": game.header_hash}),
                      *(canonical(e) for e in game.envelopes)]) + "\n"


@pytest.mark.parametrize("enabled", [True, False])
def test_parse_log_leaves_the_collector_as_it_found_it(text: str, enabled: bool) -> None:
    try:
        gc.enable() if enabled else gc.disable()
        parse_log(text.encode())
        assert gc.isenabled() is enabled
        with pytest.raises(Diverged):
            parse_log(text.encode() + b"{not json\n")
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


@pytest.mark.parametrize("first, found", [("[]", []), ('{"hash": "ab"}', {"hash": "ab"}), ("3", 3)])
def test_a_first_line_that_is_no_header_is_refused_at_seq_0(first: str, found: Any) -> None:
    report = audit_lines([first, '{"seq": 1}'])
    assert not report["ok"] and report["events"] == 0
    assert report["divergence"] == {"check": "format", "seq": 0, "field": "header",
                                    "expected": '{"header", "hash"}', "found": found}
    assert audit_lines([])["divergence"]["seq"] == 0 and audit_lines([])["divergence"]["found"] is None


def test_a_key_beside_header_and_hash_is_refused_at_seq_0() -> None:
    report = audit_lines(['{"hash": "ab", "header": {}, "more": 1, "zzz": 2}'])
    assert report["divergence"] == {"check": "format", "seq": 0, "field": "more", "expected": "(absent)",
                                    "found": 1}


def test_a_clean_report_has_every_key(text: str) -> None:
    report = audit_lines(text.encode())
    assert set(report) == {"ok", "format", "events", "result", "signed", "checks", "divergence"}
    assert report["ok"] and report["format"] == LOG_FORMAT and report["signed"] is False
    header, head, events = parse_log(text.encode())
    assert audit_log(header, head, events) == report


def test_the_rules_event_data_of_any_mapping_is_compared_as_its_dict() -> None:
    data = {"n": 1, "who": [0, None]}
    env = json.loads(canonical(envelope("seed", 1, "rolled", data, None, 5, "ab" * 32)))
    assert expect([(None, Event("rolled", MappingProxyType(data)))], [env], 0, 5) == 1
    assert expect([(None, Event("rolled", dict(data)))], [env], 0, 5) == 1
    with pytest.raises(Diverged) as err:
        expect([(None, Event("rolled", MappingProxyType({**data, "n": 2})))], [env], 0, 5)
    assert (err.value.check, err.value.seq, err.value.field, err.value.expected, err.value.found) == \
        ("replay", 1, "data.n", 2, 1)


# -- referee.audit.strict: the nesting limit, exactly -----------------------------------------
def test_depth_counts_the_levels_of_arrays_and_objects_and_stops_past_the_limit() -> None:
    from referee.audit.strict import MAX_DEPTH, _depth
    values: tuple[Any, ...] = ("[[", 1, None, [], {}, [1], {"a": 1}, [[], {}], {"a": [1, {"b": []}]})
    assert [_depth(v) for v in values] == \
        [0, 0, 0, 1, 1, 1, 1, 2, 4]
    deep: Any = []
    for _ in range(MAX_DEPTH + 49):
        deep = [deep]
    assert _depth(deep) == MAX_DEPTH + 1  # it stops counting one level past the limit


@pytest.mark.parametrize("space", [b"", b" "])  # the fast reading of a canonical line, the slow one of another
def test_a_line_nested_to_the_limit_with_more_brackets_than_levels_is_read(space: bytes) -> None:
    from referee.audit.strict import MAX_DEPTH, Refused, read_line
    inner = b"[" * (MAX_DEPTH - 1) + b"1" + b"]" * (MAX_DEPTH - 1)
    line = space + b"[" + inner + b",[],{}]"  # MAX_DEPTH levels, MAX_DEPTH + 2 brackets
    assert read_line(line) is not None
    objects = space + b'{"a":' * MAX_DEPTH + b"1" + b"}" * MAX_DEPTH
    assert read_line(objects) is not None
    for deeper in (space + b"[" + b"[" + inner + b"]" + b",[]]",
                   space + b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1)):
        with pytest.raises(Refused, match="nests deeper"):
            read_line(deeper)


# -- the lines of a file, as text or bytes ------------------------------------------------------
def test_lines_with_their_line_breaks_read_as_without(text: str) -> None:
    report = audit_lines(text.encode())
    assert audit_lines(text.splitlines(keepends=True)) == report
    assert audit_lines([line + "\r\n" for line in text.splitlines()]) == report
    assert audit_lines(["", *text.splitlines(), "  ", "\u3000"]) == report  # blank lines, a Unicode space


def test_a_line_with_a_lone_surrogate_or_a_byte_that_is_no_utf8_is_refused(text: str) -> None:
    first = text.splitlines()[0]
    lines: Any  # a list of bytes lines too: parse_log reads them, though audit_lines says Iterable[str] | bytes
    for lines in ([first, '{"a": "\ud800"}'], (first + '\n{"a": 1}\xff\n').encode("utf-8", "surrogateescape"),
                  [first.encode(), b'{"a": "\xff"}']):
        report = audit_lines(lines)
        d = report["divergence"]
        assert not report["ok"] and (d["check"], d["seq"], d["field"]) == ("format", 1, "line"), d


def test_the_view_of_a_header_without_players_is_refused_at_seq_0(text: str) -> None:
    from referee.audit import view_at
    lines = text.splitlines()
    first = json.loads(lines[0])
    del first["header"]["players"]
    with pytest.raises(Diverged) as err:
        view_at([json.dumps(first), *lines[1:]], len(lines) - 1, None)
    assert (err.value.check, err.value.seq, err.value.field) == ("format", 0, "header.players")


# -- referee.engine.chain.link_bytes: the fast encoding only where no float can be -------------------
@pytest.mark.parametrize("field", ["seq", "type_", "actor", "at", "commit", "prev"])
def test_a_link_with_a_float_anywhere_is_encoded_canonically(field: str) -> None:
    from referee.engine import canonical_bytes, link_bytes
    link: dict[str, Any] = {"seq": 1, "type_": "move", "actor": 2, "at": 5, "commit": "c", "prev": "p"}
    link[field] = 1e-7  # orjson writes 1e-7, the canonical form is 1e-07
    stored = {("type" if k == "type_" else k): v for k, v in link.items()}
    assert link_bytes(**link) == canonical_bytes(stored)
    assert b"1e-07" in link_bytes(**link)
    link[field] = None if field == "actor" else link[field]
    assert link_bytes(**{**link, "actor": None}) == canonical_bytes({**stored, "actor": None})


def test_a_refusal_says_why_as_its_message() -> None:
    from referee.audit.strict import Refused, read_line
    with pytest.raises(Refused) as err:
        read_line(b"{")
    assert str(err.value) == err.value.why and err.value.why.startswith("it is not JSON")
