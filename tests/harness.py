"""Shared helpers for the rules tests of every ruleset (STYLE.md §5)."""
from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any, TypeVar

import pytest

from referee.engine.protocol import IllegalMove, RefereeError
from referee.games import registry
from referee.games.sim import Table


def scenario(ruleset: str, seats: int, *, seed: str = "test", options: dict[str, Any] | None = None,
             setup: dict[str, Any] | None = None, now: int = 0) -> Table:
    """A table of ``ruleset`` with ``seats`` players, dealt from ``seed`` and
    the scenario ``setup`` (DESIGN.md, Scenario setup)."""
    return Table(registry.get(ruleset), seats, options=options, scenario=setup, seed=seed, now=now)


@contextlib.contextmanager
def raises_rule(rule: str, code: str | None = None) -> Iterator[None]:
    """The block must be refused by ``rule`` (and ``code``, if given)."""
    with pytest.raises(RefereeError) as info:
        yield
    err = info.value
    assert err.rule == rule, f"refused by {err.rule} ({err.code}: {err.detail}), expected {rule}"
    if code is not None:
        assert err.code == code, f"code {err.code}, expected {code}"


T = TypeVar("T")


def present(value: T | None) -> T:
    """``value``, which the test expects to be there (a result once the game
    is over, an event a seat is shown, a default move): ``None`` fails here."""
    assert value is not None, "expected a value, got None"
    return value


def text_of(obj: Any) -> str:
    """A JSON rendering, for leak scans."""
    return json.dumps(obj, sort_keys=True, default=str)


__all__ = ["scenario", "raises_rule", "present", "text_of", "IllegalMove", "Table"]
