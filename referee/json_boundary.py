"""The JSON boundary: parse a request body and refuse, before any schema or
rule sees it, what Python's ``json`` accepts but the rest of the referee
cannot carry (DESIGN.md: never a 500 for bad input).

- nesting deeper than :data:`MAX_DEPTH` (the parser itself recurses, and so
  would every later walk over the value);
- a lone UTF-16 surrogate (``"\\ud800"``) in any string or key: valid JSON
  escape syntax, but not Unicode, so it cannot be encoded, hashed or stored;
- ``NaN`` and ``Infinity``, which Python reads but JSON does not have.

Hand-written on purpose: neither marshmallow nor the ``json`` module offers a
depth limit or a surrogate check, and one iterative walk is a dozen lines.

A plain body (a move, a claim) is read by orjson, which refuses all three
itself (``NaN``, lone surrogates, escaped or as bytes), and is walked only
when it could nest too deep; anything orjson refuses or might read otherwise
takes the standard library's path, so every value and every refusal stays
the same (``tests/api/test_bad_input.py`` holds the two paths to one answer).
"""
from __future__ import annotations

import json
import re
from typing import Any

import orjson

from referee.errors import ApiError

#: the deepest body any route takes is a scenario setup (5 levels); 32 leaves room
MAX_DEPTH = 32


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _where(path: tuple[str | int, ...]) -> str:
    text = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return text if len(text) <= 200 else text[:199] + "…"


def _printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


#: nineteen digits in a row: maybe an integer orjson would read as a float (``json``: exactly)
_LONG_DIGITS = re.compile(rb"[0-9]{19}")
#: ``json.loads``'s arguments, decoder and all, made once (not on every call)
_DECODER = json.JSONDecoder(parse_constant=_not_json)
#: nothing read yet
_UNREAD = object()


def _plain(raw: bytes) -> Any:
    """``raw``'s value when orjson reads it to the value ``json.loads`` gives
    and ``check_value`` would pass it: no run of 19 digits, at most
    ``MAX_DEPTH`` brackets and braces in all (so no deeper nesting), and
    valid to orjson (no ``NaN``, no lone surrogate, UTF-8 without a BOM);
    else ``_UNREAD``."""
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH or _LONG_DIGITS.search(raw) is not None:
        return _UNREAD
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _UNREAD


def load_json(raw: bytes) -> Any:
    """The parsed body, or a 400 problem: ``invalid_json``, ``json_too_deep``
    or ``invalid_unicode``."""
    value = _plain(raw)
    if value is not _UNREAD:
        return value
    try:
        # json.loads(raw, parse_constant=_not_json), without a new decoder per call
        value = _DECODER.decode(raw.decode(json.detect_encoding(raw), "surrogatepass"))
    except RecursionError:
        raise ApiError(400, "json_too_deep", f"the body nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, NaN, an integer of over 4300 digits
        raise ApiError(400, "invalid_json", f"the body is not valid JSON: {_printable(str(exc))[:200]}") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Refuse a parsed value nested deeper than :data:`MAX_DEPTH` or holding a
    string that is not Unicode (a lone surrogate), naming where."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, (dict, list)) and len(path) >= MAX_DEPTH:
            raise ApiError(400, "json_too_deep", f"the body nests deeper than {MAX_DEPTH} levels "
                                                 f"(at {_printable(_where(path))})")
        if isinstance(item, str):
            _check_text(item, path)
        elif isinstance(item, dict):
            for key, child in item.items():
                _check_text(key, path + (key,))
                stack.append((child, path + (key,)))
        elif isinstance(item, list):
            stack.extend((child, path + (i,)) for i, child in enumerate(item))


def _check_text(text: str, path: tuple[str | int, ...]) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ApiError(400, "invalid_unicode",
                       f"{_printable(_where(path))} holds a lone UTF-16 surrogate "
                       f"({_printable(text[exc.start])}): JSON text must be Unicode") from None
