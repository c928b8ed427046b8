"""The rulesets this referee serves, by name (``GET /v1/rulesets``)."""
from __future__ import annotations

import importlib

from referee.engine.protocol import Ruleset

#: name -> module that exposes ``RULESET``
MODULES: dict[str, str] = {
    "bluffaneer": "referee.games.bluffaneer",
    "bang": "referee.games.bang",
}

_loaded: dict[str, Ruleset] = {}


def names() -> list[str]:
    """Names of the rulesets whose package is present, in a stable order."""
    out = []
    for name in MODULES:
        try:
            get(name)
        except (ModuleNotFoundError, AttributeError):
            continue
        out.append(name)
    return out


def get(name: str) -> Ruleset:
    """The ruleset called ``name``; ``KeyError`` if there is none."""
    if name not in _loaded:
        if name not in MODULES:
            raise KeyError(name)
        module = importlib.import_module(MODULES[name])
        _loaded[name] = module.RULESET
    return _loaded[name]
