"""verify.js's canonical JSON is Python's ``json.dumps(x, sort_keys=True,
separators=(",", ":"), ensure_ascii=False)`` byte for byte (README, "The hash
chain"): keys by code point, Python's string escapes, integers of any size,
floats as ``repr`` writes them. Run in Chromium on ``file://`` (no server, no
CSP there, so the test may evaluate the page's functions)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Watched

pytestmark = [pytest.mark.browser]

WEB = Path(__file__).resolve().parents[2] / "referee" / "web"

FLOATS = [0.0, -0.0, 1.5, 0.1, 1e-05, 0.0001, 1e-7, 2.5e-5, 1e16, 1e15, 123456789012345.6, 9007199254740993.0,
          1e22, 5e-324, 1.7976931348623157e308, -3.14159, 100.0, 1e100, 0.30000000000000004, 12345678.9]
INTS = [0, -1, 2 ** 53 + 1, -(2 ** 64) - 7, 10 ** 40, 123]
STRINGS = ["", "a\"b\\c", "\n\r\t\b\f", "\x00\x01\x1f\x7f", "é ü 中文", "\u2028\u2029", "😀", "\uffff", "</script>"]


def values() -> list[Any]:
    rng = random.Random(25)
    out: list[Any] = [*FLOATS, *INTS, *STRINGS, True, False, None, [], {}]
    keys = ["b", "a", "B", "é", "😀", "\uffff", "\ue000", "aa", "", "10", "9", "_"]
    for _ in range(60):
        obj = {k: rng.choice(FLOATS + INTS + STRINGS + [None, True, [1, 2.5, {"z": "y"}]])
               for k in rng.sample(keys, rng.randint(1, len(keys)))}
        out.append({"outer": obj, "list": [obj, rng.choice(FLOATS)], "n": rng.choice(INTS)})
    return out


def test_canonical_json_is_pythons_byte_for_byte(browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    w = Watched(page)
    try:
        page.goto((WEB / "watch.html").as_uri())
        cases = values()
        texts = [json.dumps(v, ensure_ascii=True, indent=1) for v in cases]  # another spelling, parsed exactly
        got = page.evaluate("ts => ts.map(t => { try { return RefereeVerify.canonical(RefereeVerify.parse(t)); }"
                            " catch (e) { return 'refused: ' + e.message; } })", texts)
        refused = page.evaluate("t => { try { RefereeVerify.parse(t); return 'read'; }"
                                " catch (e) { return e.message; } }",
                                '{"a":1,"a":2}')
    finally:
        context.close()
    for value, mine in zip(cases, got):
        assert mine == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False), value
    assert "twice" in refused
    assert w.errors == []
