"""A bot author's bot: one function ``choose(view, legal_moves) -> move``,
named on the command line as ``path/to/mybot.py:choose`` (a file, named
after it: ``mybot``) or ``package.module:choose`` (importable)."""
from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.protocol import Json, Move

Choose = Callable[[Json, list[Move]], Move]
_SPEC = re.compile(r"(?P<where>.+):(?P<func>[A-Za-z_][A-Za-z0-9_]*)\Z")


class BadBot(ValueError):
    """A bot that cannot be loaded (named, one line)."""


@dataclass(frozen=True)
class UserBot:
    name: str
    choose: Choose


def load(spec: str) -> UserBot:
    """The function ``spec`` names; ``BadBot`` saying why not."""
    found = _SPEC.match(spec)
    if found is None:
        raise BadBot(f"{spec!r}: name a bot as FILE.py:FUNCTION or MODULE:FUNCTION (e.g. mybot.py:choose)")
    where, func = found["where"], found["func"]
    module: Any
    if where.endswith(".py") or "/" in where:
        path = Path(where)
        if not path.is_file():
            raise BadBot(f"{where}: no such file")
        name = path.stem
        loader = importlib.util.spec_from_file_location(f"referee_user_bot_{name}", path)
        if loader is None or loader.loader is None:
            raise BadBot(f"{where}: not a Python file")
        module = importlib.util.module_from_spec(loader)
        sys.modules[loader.name] = module
        try:
            loader.loader.exec_module(module)
        except Exception as err:  # the author's code: any failure is theirs, shown in one line
            raise BadBot(f"{where}: importing it failed: {type(err).__name__}: {err}") from None
    else:
        name = where.rsplit(".", 1)[-1]
        try:
            module = importlib.import_module(where)
        except Exception as err:
            raise BadBot(f"{where}: cannot be imported: {type(err).__name__}: {err}") from None
    chooser = getattr(module, func, None)
    if not callable(chooser):
        raise BadBot(f"{where} has no function {func!r}")
    return UserBot(name, chooser)
