"""The rulesets touch no file, process or code loader (issue 26 item 6).

import-linter's first contract (pyproject.toml) forbids the modules (``os``,
``io``, ``pathlib``, ``importlib``, ``threading``…); a builtin needs no
import, so this scans the source of every module under ``referee/games``:
no call of ``open``, ``__import__``, ``eval``, ``exec`` or ``compile``, no
call of a method ``.open``, ``.read_text``/``.read_bytes``/``.write_text``/
``.write_bytes`` (a path's or a resource's file access), and no
``__builtins__`` (the way round all of these).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

GAMES = Path(__file__).resolve().parents[2] / "referee" / "games"

REFUSED_CALLS = frozenset({"open", "__import__", "eval", "exec", "compile", "breakpoint", "input"})
REFUSED_ATTRIBUTES = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes"})
REFUSED_NAMES = frozenset({"__builtins__"})

#: (file under referee/games, name) -> why it is allowed there
#: (none: package data comes through the engine, ``referee.engine.packagedata``)
ALLOWED: dict[tuple[str, str], str] = {}


def modules() -> list[Path]:
    return sorted(path for path in GAMES.rglob("*.py") if "__pycache__" not in path.parts)


def refusals(source: str) -> list[tuple[int, str]]:
    """(line, name) of every refused call, attribute or name in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSED_CALLS:
            found.append((node.lineno, node.func.id))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in REFUSED_ATTRIBUTES:
            found.append((node.lineno, node.func.attr))
        elif isinstance(node, ast.Name) and node.id in REFUSED_NAMES:
            found.append((node.lineno, node.id))
    return sorted(set(found))


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(GAMES).as_posix())
def test_ruleset_module_touches_no_file_or_loader(path: Path) -> None:
    relative = path.relative_to(GAMES).as_posix()
    found = [(line, name) for line, name in refusals(path.read_text(encoding="utf-8"))
             if (relative, name) not in ALLOWED]
    assert not found, "\n".join(f"referee/games/{relative}:{line}: {name}" for line, name in found)


def test_allowed_exceptions_are_still_used() -> None:
    """An allowance whose use is gone goes too."""
    used = {(path.relative_to(GAMES).as_posix(), name)
            for path in modules() for _line, name in refusals(path.read_text(encoding="utf-8"))}
    assert not (ALLOWED.keys() - used), sorted(ALLOWED.keys() - used)


def test_the_scan_sees_each_way_in() -> None:
    source = ("open('x')\n__import__('os')\neval('1')\nexec('pass')\n"
              "p.read_text()\nr.open('rb')\nb = __builtins__\n")
    assert [name for _line, name in refusals(source)] == [
        "open", "__import__", "eval", "exec", "read_text", "open", "__builtins__"]
