"""The one encoder (referee.engine.jsonenc) is the documented canonical form,
byte for byte: hypothesis over arbitrary JSON values, with every case where
orjson alone would differ (big integers, floats, NaN, lone surrogates,
non-string keys, deep nesting, subclasses) and ``loads`` against ``json.loads``."""
from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import jsonenc
from tests.examples import examples


def std_canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def std_compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


# any code point, lone surrogates included; ASCII controls and escapes weighted in
text = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())),
    st.text(alphabet=st.sampled_from(list('"\\/\b\f\n\r\t\x00\x1f\x7f\u2028\u2029\ud800\udfffé€😀aeE.0-+:,[')),
            max_size=12),
)
integers = st.one_of(st.integers(), st.integers(min_value=-2**65, max_value=2**65),
                     st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 10**18, 10**19,
                                      10**20, 0, -1]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.0, -0.0, 1e16, 1e15, 1e-4, 1e-5, 1e-7, 5e-324, 1e308, 0.1, 100.0]))
scalars = st.one_of(st.none(), st.booleans(), integers, floats, text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(text, inner, max_size=6),
                            st.lists(inner, max_size=4).map(tuple)),
    max_leaves=40,
)
# keys the standard library turns into strings itself (one type per dict: mixed types do not sort)
other_keys = st.one_of(
    st.dictionaries(integers, scalars, max_size=5), st.dictionaries(st.booleans(), scalars, max_size=2),
    st.dictionaries(st.floats(), scalars, max_size=4), st.dictionaries(st.none(), scalars, max_size=1),
)


def same_outcome(ours: Any, theirs: Any, obj: Any) -> None:
    """Both give the same text, or both raise the same kind of error."""
    try:
        expected: Any = theirs(obj)
    except Exception as err:  # noqa: BLE001 - the refusal must match too
        with pytest.raises(type(err)):
            ours(obj)
        return
    assert ours(obj) == expected


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_canonical_is_the_stdlib_form(obj: Any) -> None:
    same_outcome(jsonenc.canonical, std_canonical, obj)
    same_outcome(jsonenc.canonical_bytes, lambda o: std_canonical(o).encode(), obj)


def has_float(obj: Any) -> bool:
    if isinstance(obj, float):
        return True
    if isinstance(obj, dict):
        return any(has_float(k) or has_float(v) for k, v in obj.items())
    return isinstance(obj, (list, tuple)) and any(has_float(v) for v in obj)


def finite(obj: Any) -> Any:
    """``obj`` as JSON reads it back from ``dumps``: a non-finite float is ``null``."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    return [finite(v) for v in obj] if isinstance(obj, (list, tuple)) else obj


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_dumps_is_the_stdlib_compact_form_and_floats_read_back(obj: Any) -> None:
    if not has_float(obj):
        same_outcome(jsonenc.dumps, lambda o: std_compact(o).encode(), obj)
        return
    try:
        std_compact(obj).encode()
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            jsonenc.dumps(obj)
        return
    sent = jsonenc.dumps(obj)
    if sent == std_compact(obj).encode():  # where orjson refuses a value: the stdlib's form, whole
        return
    # else orjson's: the same numbers, in JSON (no NaN), what a client parses is the value
    assert json.loads(sent, parse_constant=lambda c: pytest.fail(f"{c} is no JSON")) == finite(obj)


@settings(max_examples=examples(500), deadline=None)
@given(other_keys)
def test_non_string_keys_as_the_stdlib_writes_them(obj: Any) -> None:
    same_outcome(jsonenc.canonical, std_canonical, obj)
    same_outcome(jsonenc.dumps, lambda o: std_compact(o).encode(), obj)


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_loads_reads_back_what_the_stdlib_reads(obj: Any) -> None:
    written = std_compact(obj)
    try:
        expected = json.loads(written)
    except ValueError:
        return
    got = jsonenc.loads(written)
    # NaN != NaN: compare the canonical texts, which write it
    assert std_canonical(got) == std_canonical(expected)
    assert type(got) is type(expected)
    try:
        data = written.encode()  # bytes too (a lone surrogate is written as is: no UTF-8 for it)
    except UnicodeEncodeError:
        return
    assert std_canonical(jsonenc.loads(data)) == std_canonical(json.loads(data))


@pytest.mark.parametrize("obj", [
    2**64, -2**63 - 1, 10**40, [1, 2**70], {"a": -(10**30)},  # past 64 bits
    1e-5, 1e-7, 1e16, [0.5], {"x": 1e22}, -0.0,  # float notation
    math.nan, math.inf, -math.inf, [None, math.nan], {"a": None, "b": math.inf},  # orjson: null
    "\ud800", ["a\udfff"], {"\ud83d": 1},  # lone surrogates
    {1: "a", 2: "b"}, {True: 1}, {None: 1}, {1.5: 2},  # keys the stdlib converts
    [[[[]]]] * 3, OrderedDict([("b", 1), ("a", 2)]),  # a dict subclass
    "\x00\x1f\x7f\u2028\"\\/", "é€😀",
])
def test_each_fallback_case(obj: Any) -> None:
    same_outcome(jsonenc.canonical, std_canonical, obj)
    same_outcome(jsonenc.canonical_bytes, lambda o: std_canonical(o).encode(), obj)
    if not has_float(obj):
        same_outcome(jsonenc.dumps, lambda o: std_compact(o).encode(), obj)


def test_deeper_than_orjson_nests() -> None:
    deep: Any = 1
    for _ in range(400):
        deep = [deep]
    assert jsonenc.canonical(deep) == std_canonical(deep)
    assert jsonenc.loads(std_canonical(deep)) == deep


def test_str_and_int_subclasses_and_types_json_refuses() -> None:
    class Name(str):
        pass

    class Count(int):
        pass

    same_outcome(jsonenc.canonical, std_canonical, {"a": Name("x"), "b": Count(3)})
    same_outcome(jsonenc.canonical, std_canonical, {"a": object()})  # TypeError both ways
    same_outcome(jsonenc.canonical, std_canonical, {"a": {1, 2}})


@pytest.mark.parametrize("text", [
    "123456789012345678901234567890", "-9223372036854775809", "18446744073709551616", "[1,2,99999999999999999999]",
    "1e400", "-1e400", "NaN", "[Infinity,-Infinity]", '"\\ud800"', '{"a":1,"a":2}', "-0", "1E5", " [1.5] ",
    "9007199254740993", "0.1", "1.7976931348623157e308", "5e-324", '"\\u00e9\\n"',
    # the run of 19 digits is found in the bytes, past non-ASCII text and escapes
    '{"é":123456789012345678901234}', '["\u2603",-99999999999999999999]', '["\\ud83d",10000000000000000000]',
    "999999999999999999", "-999999999999999999", '"1234567890123456789012"', "[12345678901234567890]",
    # a long number after JSON's whitespace, or first; long digit runs inside strings (hex) are no number
    "[1, 12345678901234567890]", '{"a" :\n\t-12345678901234567890}', "\r\n 18446744073709551616",
    '["f505582ff3631f776e1796fda05905172432530135173a29", 3]', '{"k":"x,12345678901234567890"}',
])
def test_loads_as_the_stdlib(text: str) -> None:
    assert std_canonical(jsonenc.loads(text)) == std_canonical(json.loads(text))
    assert std_canonical(jsonenc.loads(text.encode())) == std_canonical(json.loads(text.encode()))
    assert std_canonical(jsonenc.loads(bytearray(text.encode()))) == std_canonical(json.loads(text.encode()))


@pytest.mark.parametrize("text", ["", "[1,", "{'a':1}", "nul", "[1]x", '"\x01"', "\ufeff[1]"])
def test_loads_refuses_what_the_stdlib_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        jsonenc.loads(text)


@pytest.mark.slow
@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(json_values, max_size=6), st.sampled_from([b"\n", b"\r\n", b"\r"]))
def test_loads_lines_reads_each_line_as_the_stdlib(values: list[Any], newline: bytes) -> None:
    """A document's lines at once (the audit's files): where it answers, each
    line's value as ``json.loads`` reads it; where it cannot be sure, ``None``."""
    try:
        lines = [std_compact(v).encode() for v in values]
    except UnicodeEncodeError:  # a lone surrogate written as is has no UTF-8
        return
    document = newline.join(lines) + newline
    expected = std_canonical([json.loads(line) for line in lines])
    got, parse = jsonenc.loads_lines(document)
    if got is not None:
        assert std_canonical(got) == expected
    # parse: the line-by-line path the audit takes otherwise
    assert std_canonical([parse(line) for line in document.splitlines() if line.strip()]) == expected


@pytest.mark.parametrize("text", [b"12345678901234567890", b"[1,\t-12345678901234567890]\n", b'{"a":\t1e400}',
                                  b"NaN", b'"\\ud800"', b"[1]\n\n[ 2]\r\n3\r"])
def test_loads_lines_leaves_what_orjson_cannot_read_exactly(text: bytes) -> None:
    got, _ = jsonenc.loads_lines(text)
    expected = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert got is None or std_canonical(got) == std_canonical(expected)
    if b"1234567890123456789" in text or b"NaN" in text or b"ud800" in text:
        assert got is None


@settings(max_examples=examples(800), deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_loads_reads_every_float_as_the_stdlib(x: float) -> None:
    for written in (repr(x), json.dumps(x), f"{x:.17g}" if math.isfinite(x) else repr(x)):
        try:
            expected = json.loads(written)
        except ValueError:
            continue
        got = jsonenc.loads(written)
        assert type(got) is type(expected) and (got == expected or (math.isnan(got) and math.isnan(expected)))
