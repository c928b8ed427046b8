"""One meter over all of ``referee/`` and ``workers/`` (issue 37 item 4): no module
over 500 lines, no function over 60 lines (from its ``def`` to its last line) and
no function of cyclomatic complexity over 15, every figure as radon counts it
(``radon.complexity.cc_visit``), the meter issue 37 is checked with. It is the one
tool: ruff's mccabe (C901) counted fewer and is no longer configured, so the
test and ``make lint``, which runs this file, cannot disagree."""
from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_visit  # type: ignore[import-untyped]
from radon.visitors import Class, Function  # type: ignore[import-untyped]

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("referee", "workers")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
MAX_COMPLEXITY = 15


def modules() -> list[Path]:
    """Every Python module of the measured packages."""
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
                  if "__pycache__" not in path.parts)


def _walk(blocks: list[Function | Class]) -> Iterator[Function]:
    for block in blocks:
        if isinstance(block, Class):
            yield from _walk(block.methods)
            yield from _walk(block.inner_classes)
            continue
        yield block
        yield from _walk(block.closures)


def functions(source: str) -> list[Function]:
    """Every function, method and closure radon measures in ``source``, once each: radon lists a
    class's methods both under the class and beside the module's functions."""
    seen: dict[tuple[int, int, str], Function] = {}
    for function in _walk(cc_visit(source)):
        seen.setdefault((function.lineno, function.col_offset, function.fullname), function)
    return sorted(seen.values(), key=lambda function: (function.lineno, function.col_offset))


def function_lines(function: Function) -> int:
    """A function's length, from its ``def`` to its last line (decorators not counted)."""
    return int(function.endline) - int(function.lineno) + 1


def excesses(source: str, where: str) -> list[str]:
    """What in ``source`` is over a limit, each naming ``where``:line, the function and its figure."""
    found = []
    lines = len(source.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"{where}: the module is {lines} lines (limit {MAX_MODULE_LINES})")
    for function in functions(source):
        at = f"{where}:{function.lineno}: {function.fullname}"
        if function.complexity > MAX_COMPLEXITY:
            found.append(f"{at} has cyclomatic complexity {function.complexity} (limit {MAX_COMPLEXITY})")
        if function_lines(function) > MAX_FUNCTION_LINES:
            found.append(f"{at} is {function_lines(function)} lines (limit {MAX_FUNCTION_LINES})")
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_module_is_within_the_limits(path: Path) -> None:
    where = path.relative_to(ROOT).as_posix()
    found = excesses(path.read_text(encoding="utf-8"), where)
    assert not found, "\n".join(found)


def _function(name: str, body_lines: int, indent: str = "") -> str:
    body = "".join(f"{indent}    x{index} = {index}\n" for index in range(body_lines))
    return f"{indent}def {name}():\n{body}"


def _branches(name: str, ifs: int) -> str:
    """A function of cyclomatic complexity ``ifs + 1``."""
    body = "".join(f"    if flag == {index}:\n        return {index}\n" for index in range(ifs))
    return f"def {name}(flag):\n{body}    return -1\n"


def test_the_length_check_counts_a_function_from_def_to_its_last_line() -> None:
    assert excesses(_function("short", 59), "m.py") == []
    assert excesses(_function("long", 60), "m.py") == ["m.py:1: long is 61 lines (limit 60)"]
    assert excesses("@decorated\n" + _function("decorated", 59), "m.py") == []


def test_a_long_method_is_named_once_with_its_class() -> None:
    source = "class Table:\n" + _function("deal", 60, indent="    ")
    assert excesses(source, "m.py") == ["m.py:2: Table.deal is 61 lines (limit 60)"]


def test_the_complexity_check_counts_as_radon_does() -> None:
    assert excesses(_branches("fifteen", 14), "m.py") == []
    assert excesses(_branches("sixteen", 15), "m.py") == [
        "m.py:1: sixteen has cyclomatic complexity 16 (limit 15)"]
    # radon counts a boolean operator's extra operands, as ruff's mccabe did not
    source = "def anded(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p):\n" \
             "    return a and b and c and d and e and f and g and h and i and j and k and l and m and n and o and p\n"
    assert excesses(source, "m.py") == ["m.py:1: anded has cyclomatic complexity 16 (limit 15)"]


def test_a_closure_and_a_nested_class_are_measured() -> None:
    closure = "def outer():\n" + textwrap.indent(_branches("inner", 15), "    ") + "    return inner\n"
    assert excesses(closure, "m.py") == ["m.py:2: inner has cyclomatic complexity 16 (limit 15)"]
    nested = "class Outer:\n    class Inner:\n" + _function("step", 60, indent="        ")
    assert excesses(nested, "m.py") == ["m.py:3: Inner.step is 61 lines (limit 60)"]


def test_a_module_over_500_lines_fails() -> None:
    assert excesses("x = 1\n" * 500, "m.py") == []
    assert excesses("x = 1\n" * 501, "m.py") == ["m.py: the module is 501 lines (limit 500)"]


def test_every_module_of_the_platform_is_measured() -> None:
    measured = {path.relative_to(ROOT).as_posix() for path in modules()}
    assert {"referee/audit/__init__.py", "referee/client/__init__.py", "workers/__init__.py"} <= measured
    assert any(path.startswith("referee/games/") for path in measured)
