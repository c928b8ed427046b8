"""The arena's entrants (``referee arena --entrants``, ``referee.play.arena``):
a built-in bot, a bot author's function in a file, or one in an importable
module, each loaded once with a one-line reason when it cannot be."""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from referee.engine.protocol import Json, Move

UserChoose = Callable[["Json", "list[Move]"], "Move"]


class EntrantError(ValueError):
    """An entrant that cannot be loaded: its one-line reason."""


@dataclass
class Entrant:
    """One entrant: a built-in bot (``kind``) or a user's function (``kind`` ``None``)."""

    name: str
    spec: str
    kind: str | None = None
    choose: UserChoose | None = None
    #: failures by cause (``raised``, ``illegal_move``) and the first of each, described
    failures: dict[str, int] = field(default_factory=dict)
    first_failure: dict[str, str] = field(default_factory=dict)

    def failed(self, cause: str, what: str) -> None:
        self.failures[cause] = self.failures.get(cause, 0) + 1
        self.first_failure.setdefault(cause, what)


_NAMED = re.compile(r"^([A-Za-z0-9_.#-]+)=(.+)$")


def load_entrant(spec: str) -> Entrant:
    """The entrant ``spec`` names (see ``referee.play.arena``'s docstring); ``EntrantError`` saying why not."""
    from referee.bots import BUILT_IN
    named = _NAMED.match(spec)
    name, target = (named.group(1), named.group(2)) if named else (None, spec)
    if target in BUILT_IN:
        return Entrant(name or target, spec, kind=target)
    where, colon, func = target.rpartition(":")
    if not colon or not where or not func:
        raise EntrantError(f"entrant {spec!r}: not a built-in bot ({', '.join(BUILT_IN)}), nor FILE.py:FUNCTION "
                           "nor MODULE:FUNCTION")
    module, default_name = _load_module(spec, where)
    return Entrant(name or default_name, spec, choose=_function(spec, module, where, func))


def _load_module(spec: str, where: str) -> tuple[Any, str]:
    """The module ``where`` names, a file or an importable module, and the entrant's name by default."""
    if where.endswith(".py") or os.sep in where or "/" in where:
        path = Path(where)
        if not path.is_file():
            raise EntrantError(f"entrant {spec!r}: no file {where}")
        return _load_file(spec, path), path.stem
    try:
        module = importlib.import_module(where)
    except ModuleNotFoundError as err:
        raise EntrantError(f"entrant {spec!r}: no module {err.name or where!r} to import") from None
    except Exception as err:
        raise EntrantError(f"entrant {spec!r}: importing {where} failed: {described(err)}") from None
    return module, where.rpartition(".")[2]


def _function(spec: str, module: Any, where: str, func: str) -> UserChoose:
    """The function ``func`` of ``module``."""
    chooser = getattr(module, func, None)
    if chooser is None:
        raise EntrantError(f"entrant {spec!r}: {where} has no function {func!r}")
    if not callable(chooser):
        raise EntrantError(f"entrant {spec!r}: {where}:{func} is not a function")
    return cast(UserChoose, chooser)


def _load_file(spec: str, path: Path) -> Any:
    """The module of a bot's file, its folder importable (a bot may import its helpers)."""
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    unique = "referee_arena_bot_" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    loader_spec = importlib.util.spec_from_file_location(unique, path)
    if loader_spec is None or loader_spec.loader is None:
        raise EntrantError(f"entrant {spec!r}: {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[unique] = module
    try:
        loader_spec.loader.exec_module(module)
    except Exception as err:
        del sys.modules[unique]
        raise EntrantError(f"entrant {spec!r}: loading {path} failed: {described(err)}") from None
    return module


def described(err: BaseException) -> str:
    """``err`` on one line of at most 300 characters: its type, and its message if it has one."""
    text = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    return text.replace("\n", " ")[:300]


def unique_names(entrants: Sequence[Entrant]) -> None:
    """Display names made unique as ``Tournaments.create`` makes those not
    given: ``random``, ``random#2``, ... (the first not taken)."""
    from referee.play.standings import unique_names as unique
    for entrant, name in zip(entrants, unique([(e.name, False) for e in entrants])):
        entrant.name = name
