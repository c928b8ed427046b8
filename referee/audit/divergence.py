"""The first place where a log is not what it must be (``Diverged``), how a
check that holds is reported (``ok``), and how two values are compared: by
their canonical bytes, the bytes the hash chain stands on."""
from __future__ import annotations

from typing import Any

from referee.engine import LOG_FORMAT, canonical_bytes
from referee.engine.protocol import Json


class Diverged(Exception):
    """The first place where the log is not what it must be."""

    def __init__(self, check: str, seq: int, field: str, expected: Any, found: Any, detail: str) -> None:
        super().__init__(detail)
        self.check, self.seq, self.field, self.expected, self.found, self.detail = \
            check, seq, field, expected, found, detail

    def to_json(self) -> Json:
        return {"check": self.check, "seq": self.seq, "field": self.field, "expected": self.expected,
                "found": self.found}

    def report(self, passed: list[Json], events: int) -> Json:
        """The failed audit's report: the checks ``passed`` before it, then this one failing."""
        return {"ok": False, "format": LOG_FORMAT, "events": events, "result": None, "signed": False,
                "checks": [*passed, {"name": self.check, "ok": False, "detail": self.detail}],
                "divergence": self.to_json()}


def ok(name: str, detail: str) -> Json:
    """The report of check ``name``, which holds."""
    return {"name": name, "ok": True, "detail": detail}


def same(a: Any, b: Any) -> bool:
    return canonical_bytes(a) == canonical_bytes(b)


def same_scalar(a: Any, b: Any) -> bool:
    """``same(a, b)``, without encoding when both are the same str, int or ``None``."""
    if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):
        return True
    return same(a, b)


def diff(expected: Any, found: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first field (a dotted path) where ``found`` differs from ``expected``."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found)):
            if key not in found:
                return f"{path}.{key}", expected[key], "(missing)"
            if key not in expected:
                return f"{path}.{key}", "(absent)", found[key]
            inner = diff(expected[key], found[key], f"{path}.{key}")
            if inner is not None:
                return inner
        return None
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for i, (a, b) in enumerate(zip(expected, found)):
            inner = diff(a, b, f"{path}[{i}]")
            if inner is not None:
                return inner
        return None
    return None if same(expected, found) else (path, expected, found)
