"""The one JSON encoder of the referee (issue 10): responses, events, the log
and the canonical form the hash chain hashes.

The canonical form is the standard library's (docs/audit.md, "The hash chain";
DESIGN.md)::

    json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

``canonical`` (and ``canonical_bytes``, its UTF-8) gives exactly those
characters, computed by orjson, many times faster, falling back to the
standard library itself wherever orjson cannot give the same characters
(``tests/unit/test_jsonenc.py`` holds it to that with hypothesis over
arbitrary JSON values):

* an integer outside ``[-2**63, 2**64)``, a key that is not a string
  (``{1: …}``, ``{None: …}``), a string with a lone surrogate, nesting deeper
  than orjson's 255 levels, a subclass of ``str``/``int``/``dict``/``list``,
  a dataclass or a datetime: orjson refuses them (raises) and the standard
  library encodes them (or raises its own ``TypeError``/``ValueError``);
* a float: orjson and ``repr`` agree on the digits but not always on the
  notation (``1e-05`` against ``0.00001``, ``1e-07`` against ``1e-7``), and
  orjson writes ``NaN``/``Infinity`` as ``null``. A float is seen in
  orjson's output (a number token with ``.`` or ``e``, after cheap byte
  tests); a ``null`` is decoded back and compared with the value, which
  tells a ``None`` from a non-finite float.

``dumps`` is what the API sends (views, responses; not hashed): compact,
keys in insertion order, the standard library's compact form for every value
without a float, and orjson's own where a float is (the same number, in
JSON: ``NaN`` becomes ``null``, as the standard library's ``NaN`` is no JSON),
unless orjson refuses the value: then the standard library's form, whole.

Values that are not JSON types (an ``Enum`` or ``UUID`` that orjson encodes
by value) are outside what is promised; nothing the referee encodes is one.

``loads`` reads what ``json.loads`` reads, to the same values: orjson
parses, except where it cannot give the same value (a number token of 19
digits or more, an integer orjson turns into a float past 64 bits; ``NaN``,
``Infinity``; a lone surrogate ``\\ud800``), where the standard library does.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import orjson

_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME \
    | orjson.OPT_PASSTHROUGH_SUBCLASS
_AS_IS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS

#: the standard library's encoders, built once (``json.dumps`` builds one per call)
_std_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_std_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
#: a number token with a fraction or an exponent (orjson writes a float so: ``1.5``,
#: ``1e+16``, ``1e-7``), after the character that opens a value
_FLOAT_TOKEN = re.compile(rb"[\[:,]-?[0-9]+[.e]")
_NUMBER_START = frozenset(b"-0123456789")
#: a number token of 19 digits or more (an integer orjson may turn into a float),
#: found in the text's bytes translated so: every ASCII digit "0", every byte
#: that may come just before a number (``:``, ``[``, ``,``, JSON's whitespace) ":",
#: "-" itself, every other byte "x" (a quote, a letter: no number starts after
#: one). A number token is then ":" + "0" * n or ":-" + "0" * n; digits inside a
#: string after a "," or ":" are a false alarm, which only costs the exact path.
#: ``bytes.translate`` and two substring tests: a tenth of the time of a regex.
_NUMBER_MARKS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x3A if b in b":[, \t\n\r" else 0x2D if b == 0x2D else 0x78
                      for b in range(256))
_LONG_NUMBER = b":" + b"0" * 19
_LONG_NEGATIVE = b":-" + b"0" * 19


def _long_number(raw: bytes) -> bool:
    """Whether ``raw`` may hold a number token of 19 digits or more (never a false "no")."""
    marked = b":" + raw.translate(_NUMBER_MARKS)  # a number at the very start follows a ":" too
    return _LONG_NUMBER in marked or _LONG_NEGATIVE in marked


_JSONEncodeError = orjson.JSONEncodeError


def _suspect(out: bytes) -> bool:
    """Whether orjson's ``out`` may hold a float (written ``1.5``, ``1e+16``,
    ``1e-7``) or a non-finite one (written ``null``): ``46 in out`` ('.'),
    a byte test, costs a tenth of a search for ``b"e-"`` here, so those
    searches run only after their first byte ('-', 'u') is found."""
    return 46 in out or 43 in out or (45 in out and b"e-" in out) or (117 in out and b"null" in out)


def _same_as_std(obj: Any, out: bytes) -> bool:
    """Whether orjson's ``out`` for ``obj`` is what the standard library
    writes, given orjson did not refuse ``obj`` and ``_suspect(out)``: no
    float token, and every ``null`` a ``None`` (not a non-finite float)."""
    if 46 in out or 43 in out or b"e-" in out:
        if out[0] in _NUMBER_START or _FLOAT_TOKEN.search(out) is not None:
            return False
    return b"null" not in out or orjson.loads(out) == obj


def canonical_bytes(obj: Any, _dumps: Any = orjson.dumps, _option: int = _SORTED) -> bytes:
    """``canonical(obj)`` encoded in UTF-8 (what the chain hashes); a lone
    surrogate raises ``UnicodeEncodeError``, as ``canonical(obj).encode()`` does."""
    try:
        out: bytes = _dumps(obj, None, _option)
    except _JSONEncodeError:  # a value orjson refuses (see the module's docstring)
        return _std_canonical(obj).encode()
    if _suspect(out) and not _same_as_std(obj, out):
        return _std_canonical(obj).encode()
    return out


def canonical_bytes_floatless(obj: Any, _dumps: Any = orjson.dumps, _option: int = _SORTED) -> bytes:
    """``canonical_bytes(obj)`` for a value its caller knows holds no float
    (``dict``, ``list``, ``str``, ``int``, ``bool`` and ``None`` exactly, no
    subclass): orjson's sorted output is then the canonical form as it is, so
    the checks for a float and for a ``null`` that was a NaN are skipped;
    what orjson refuses (an integer past 64 bits, a lone surrogate) is
    written by the standard library, as ``canonical_bytes`` does."""
    try:
        out: bytes = _dumps(obj, None, _option)
    except _JSONEncodeError:
        return _std_canonical(obj).encode()
    return out


def canonical(obj: Any, _dumps: Any = orjson.dumps, _option: int = _SORTED) -> str:
    """DESIGN.md's canonical JSON: sorted keys, ``(",", ":")`` separators,
    UTF-8 as is — ``json.dumps(obj, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``, character for character."""
    try:
        out: bytes = _dumps(obj, None, _option)
    except _JSONEncodeError:
        return _std_canonical(obj)
    if _suspect(out) and not _same_as_std(obj, out):
        return _std_canonical(obj)
    return out.decode()


def dumps(obj: Any, _dumps: Any = orjson.dumps, _option: int = _AS_IS) -> bytes:
    """The compact JSON of ``obj`` in UTF-8, keys in insertion order, as the
    API sends it (views, responses): ``json.dumps(obj, separators=(",", ":"),
    ensure_ascii=False).encode()`` for every value without a float, the
    standard library's where orjson refuses a value; a float in orjson's
    notation (the same number: ``1e-7``, not ``1e-07``) and a non-finite one
    as ``null`` (the standard library's ``NaN`` is no JSON). Not hashed: the
    chain hashes ``canonical_bytes``. A lone surrogate raises ``UnicodeEncodeError``."""
    try:
        out: bytes = _dumps(obj, None, _option)
    except _JSONEncodeError:
        return _std_compact(obj).encode()
    return out


def loads(text: str | bytes | bytearray) -> Any:
    """``json.loads(text)``: the same values (integers of any size, ``NaN``,
    lone surrogates included) and the same refusals (a ``ValueError``)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if not _long_number(raw):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def _orjson_loads(raw: bytes, _loads: Any = orjson.loads, _error: Any = orjson.JSONDecodeError) -> Any:
    try:
        return _loads(raw)
    except _error:  # NaN, Infinity, a lone surrogate: the standard library's value or refusal
        return json.loads(raw.decode("utf-8", "surrogatepass"))  # as a line of a text file (a BOM refused)


def loads_lines(raw: bytes) -> tuple[list[Any] | None, Callable[[bytes], Any]]:
    """``(values, loader)`` of an NDJSON document, with one test for a long
    number over the whole of it rather than one per line. ``values``:
    ``[loads(line) for line in raw.splitlines() if line.strip()]`` when
    orjson alone reads every line to the value ``json.loads`` gives (no
    number of 19 digits or more, no ``NaN``, no lone surrogate), parsed in one
    comprehension with no call of Python per line; else ``None``, and the
    caller reads line by line with ``loader`` (``loads`` for one line of
    ``raw``), naming a line that is not JSON."""
    if _long_number(raw):
        return None, loads
    parse = orjson.loads
    try:
        return [parse(line) for line in raw.splitlines() if line.strip()], _orjson_loads
    except orjson.JSONDecodeError:
        return None, _orjson_loads
