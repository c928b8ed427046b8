"""The one strict reading of a log line (docs/log-format.md, "Reading
a log"). Every verifier must read a line to the same value, or two honest
verifiers can disagree on one file. So a line is refused, with its number,
where readers of JSON are known to differ or where the value cannot be
hashed as the chain hashes it:

* a byte sequence that is not UTF-8 (a UTF-16 file, a stray ``\\xff``);
* text that is not JSON (``NaN``, ``Infinity``, a BOM, a cut line);
* an object with the same key twice (one reader keeps the first value,
  another the last);
* a number not written as ``canonical`` writes its value: ``-0``, ``1E5``,
  ``1.50``, ``1e400`` (one reader rounds, another keeps the text);
* a string with a lone surrogate (``"\\ud800"``: no UTF-8, no hash);
* nesting deeper than ``MAX_DEPTH`` (a real log nests 6 deep).

A line written by the referee is its value's canonical form
(``canonical(value)``), and a canonical line has none of these: it is read at
once (orjson, then one encoding to compare). Any other line — other spacing,
keys in another order, or one of the above — is read by the standard
library with every check, to its value or to a refusal naming the first
thing wrong."""
from __future__ import annotations

import json
import math
from typing import Any

import orjson

from referee.engine.jsonenc import canonical, canonical_bytes

#: the deepest nesting of arrays and objects a line may have (a real log's lines: 6)
MAX_DEPTH = 100


class Refused(ValueError):
    """A line the strict reading refuses: ``why`` it is refused, and ``text`` (its start)."""

    def __init__(self, why: str, text: str) -> None:
        super().__init__(why)
        self.why, self.text = why, text


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise Refused(f"the key {key!r} appears twice in one object", "")
            seen.add(key)
    return value


def _int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # past Python's 4300 digits
        raise Refused(f"a number of {len(text)} digits", "") from None
    if text == "-0":
        raise Refused("the number -0 (canonically 0)", "")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"the number {text[:40]} is out of range", "")
    written = canonical(value)
    if written != text:
        raise Refused(f"the number {text[:40]} is not written canonically ({written})", "")
    return value


def _constant(text: str) -> Any:
    raise Refused(f"{text} is not JSON", "")


_strict = json.JSONDecoder(object_pairs_hook=_pairs, parse_float=_float, parse_int=_int,
                           parse_constant=_constant).decode


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (without recursion)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if type(item) is dict:
            items: Any = item.values()
        elif type(item) is list:
            items = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((inner, level + 1) for inner in items)
    return deepest


def _start(line: bytes) -> str:
    return line[:80].decode("utf-8", "replace")


def read_line(line: bytes) -> Any:
    """The value of one line of a log (no line break in it), or ``Refused``."""
    return read_line_as_written(line)[0]


def _float_written(out: bytes) -> bool:
    """Whether orjson's ``out`` may hold a float token (``1.5``, ``1e+16``, ``1e-7``), whose notation may
    not be the canonical one (``jsonenc._suspect`` less its ``null`` test: a value read from JSON text holds
    no non-finite float, the one thing orjson writes as ``null`` that is not ``None``)."""
    return 46 in out or 43 in out or (45 in out and b"e-" in out)


def read_line_as_written(line: bytes, _loads: Any = orjson.loads, _dumps: Any = orjson.dumps,
                         _sorted: int = orjson.OPT_SORT_KEYS) -> tuple[Any, bytes | None]:
    """``(value, canonical)`` of one line of a log: its value as ``read_line``
    reads it (or ``Refused``), and the line itself where it is that value's
    canonical form (``canonical_bytes(value) == line``), else ``None``: the
    bytes the chain hashes, as read, for a check to cut a field from
    (``referee.audit.chain.data_bytes``) rather than encode it again."""
    try:
        value = _loads(line)
    except orjson.JSONDecodeError:
        pass
    else:
        # orjson's sorted output is canonical_bytes(value) where it holds no float token (see _float_written)
        out = _dumps(value, None, _sorted)
        if out == line if not _float_written(out) else canonical_bytes(value) == line:
            if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
                raise Refused(f"it nests deeper than {MAX_DEPTH} levels", _start(line))
            return value, line
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Refused(f"it is not UTF-8 (byte 0x{line[err.start]:02x} at column {err.start + 1})",
                      _start(line)) from None
    try:
        value = _strict(text)
    except Refused as err:
        raise Refused(err.why, _start(line)) from None
    except RecursionError:
        raise Refused(f"it nests deeper than {MAX_DEPTH} levels", _start(line)) from None
    except ValueError as err:  # json.JSONDecodeError among them
        raise Refused(f"it is not JSON ({err})", _start(line)) from None
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise Refused(f"it nests deeper than {MAX_DEPTH} levels", _start(line))
    try:
        canonical_bytes(value)
    except UnicodeEncodeError:
        raise Refused("a string in it holds a lone surrogate (no UTF-8 to hash)", _start(line)) from None
    except RecursionError:
        raise Refused(f"it nests deeper than {MAX_DEPTH} levels", _start(line)) from None
    return value, None
