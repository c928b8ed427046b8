"""The size limits of the rules and the engine (issue 26, item 3): no
function over 60 lines and no module over 500 lines under
``referee/games`` and ``referee/engine`` (complexity over 15 is ruff's
C901, configured in pyproject.toml). ``make lint`` runs this file."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

ROOT = Path(__file__).resolve().parents[2] / "referee"
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 500


def modules() -> list[Path]:
    return sorted(path for folder in ("games", "engine") for path in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in path.parts)


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[int, str, int]]:
    """(line, name, lines) of every function or method longer than ``limit`` lines, decorators not counted."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                out.append((node.lineno, node.name, lines))
    return sorted(out)


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_module_of_the_rules_or_the_engine_is_small(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    where = f"referee/{path.relative_to(ROOT).as_posix()}"
    assert source.count("\n") <= MAX_MODULE_LINES, f"{where}: {source.count(chr(10))} lines"
    assert not long_functions(source), "\n".join(
        f"{where}:{line}: {name} is {lines} lines" for line, name, lines in long_functions(source))


def test_the_length_check_counts_a_function_from_def_to_its_last_line() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    assert long_functions(f"def short():\n{body[:-len(chr(10) + '    x59 = 59')]}\n") == []
    assert long_functions(f"def long():\n{body}\n") == [(1, "long", 61)]
    assert long_functions(f"class C:\n    def m(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n") \
        == [(2, "m", 61)]
