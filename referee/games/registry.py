"""The rulesets this referee serves, found through the ``referee.rulesets``
entry point group (``GET /v1/rulesets``): a package that declares

    [project.entry-points."referee.rulesets"]
    nim = "my_package:RULESET"

adds a ruleset with ``pip install`` and no edit here. Built-in heuristic bots
are found the same way, in ``referee.heuristics`` (ruleset name ->
``choose(view, legal_moves, rng)``).

The entry points are read once a process (a package installed is served
from the next start, or after ``refresh``): reading them scans every
installed distribution's metadata on disk, milliseconds each time, and
``names`` is asked on requests (``GET /v1/rulesets`` spent half its time there)."""
from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any, cast

from referee.engine.base import RulesetBase
from referee.engine.protocol import Ruleset

GROUP = "referee.rulesets"
HEURISTICS = "referee.heuristics"

_loaded: dict[str, Ruleset[Any]] = {}
_heuristics: dict[str, Callable[..., Any]] = {}
_groups: dict[str, dict[str, EntryPoint]] = {}  # group -> name -> entry point, read once (``refresh``)


def _points(group: str) -> dict[str, EntryPoint]:
    found = _groups.get(group)
    if found is None:
        found = _groups[group] = {ep.name: ep for ep in entry_points(group=group)}
    return found


def names() -> list[str]:
    """Names of the installed rulesets, sorted."""
    return sorted(_points(GROUP))


def get(name: str) -> Ruleset[Any]:
    """The ruleset called ``name``; ``KeyError`` if none is installed."""
    if name not in _loaded:
        point = _points(GROUP).get(name)
        if point is None:
            raise KeyError(name)
        ruleset = point.load()
        if not isinstance(ruleset, RulesetBase) or ruleset.name != name:
            raise TypeError(f"entry point {name} = {point.value} is not a RulesetBase named {name!r}")
        _ = ruleset.move_checks  # compiled now, not during a game's first moves
        _loaded[name] = ruleset
    return _loaded[name]


def at_version(name: str, version: Any) -> Ruleset[Any] | None:
    """The ruleset ``name`` as its ``version`` wrote logs: the installed one
    at its own version, a ``Legacy`` of it at an earlier version it lists in
    ``previous_versions``, ``None`` at any other; ``KeyError`` if ``name``
    is not installed."""
    ruleset = get(name)
    if version == ruleset.version:
        return ruleset
    legacy = ruleset.previous_versions.get(version) if isinstance(version, str) else None
    return None if legacy is None else cast(Ruleset[Any], legacy(ruleset))


def load_all() -> list[Ruleset[Any]]:
    """Every installed ruleset, loaded (a process does this as it starts)."""
    return [get(name) for name in names()]


def heuristic(name: str) -> Callable[..., Any] | None:
    """The built-in heuristic bot of ruleset ``name``, if it has one."""
    if name not in _heuristics:
        point = _points(HEURISTICS).get(name)
        if point is None:
            return None
        _heuristics[name] = point.load()
    return _heuristics[name]


def refresh() -> None:
    """Forget what was found and loaded (after a package was installed at run time)."""
    _groups.clear()
    _loaded.clear()
    _heuristics.clear()
