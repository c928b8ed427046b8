"""No parameter named with one or two letters in the rules (issue 37 item 5).

A parameter says what it is (``state``, ``event``, ``move``, ``seat``), not
``s``, ``e``, ``m``, ``t``, ``p``: this scans every function, method and
lambda under ``referee/games`` — positional-only, ordinary, keyword-only,
``*args`` and ``**kwargs`` alike. A lone ``_`` (a parameter that is not
used) is the one short name allowed; comprehension variables are not
parameters and are not checked.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "referee" / "games"
#: the fewest letters a parameter's name has (but ``UNUSED``)
SHORTEST_ALLOWED = 3
#: the short name allowed: a parameter that is not used
UNUSED = "_"


def modules() -> list[Path]:
    return sorted(path for path in GAMES.rglob("*.py") if "__pycache__" not in path.parts)


def short_parameters(source: str) -> list[tuple[int, str]]:
    """(line, name) of every function or lambda parameter in ``source``
    shorter than ``SHORTEST_ALLOWED`` letters, but a lone ``_``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                 *(extra for extra in (arguments.vararg, arguments.kwarg) if extra is not None)]
        found += [(argument.lineno, argument.arg) for argument in every
                  if len(argument.arg) < SHORTEST_ALLOWED and argument.arg != UNUSED]
    return sorted(found)


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(GAMES).as_posix())
def test_a_parameter_of_the_rules_says_what_it_is(path: Path) -> None:
    where = path.relative_to(ROOT).as_posix()
    found = short_parameters(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{where}:{line}: parameter {name!r} has fewer than {SHORTEST_ALLOWED} letters"
                                for line, name in found)


def test_the_check_finds_every_kind_of_short_parameter_and_allows_a_lone_underscore() -> None:
    source = (
        "def f(a, /, bb, ccc, *xs, kw=1, **kx):\n"
        "    return lambda t, _, __: t\n"
        "class C:\n"
        "    async def m(self, state, p):\n"
        "        pass\n"
        "words = [w for w in 'ab']\n"
    )
    assert short_parameters(source) == [(1, "a"), (1, "bb"), (1, "kw"), (1, "kx"), (1, "xs"),
                                        (2, "__"), (2, "t"), (4, "p")]


def test_the_check_reads_every_module_of_the_rules() -> None:
    found = {path.relative_to(GAMES).parts[0] for path in modules()}
    assert {"bang", "bluffaneer", "cards", "dice", "faceoff", "registry.py", "roles.py", "sim.py"} <= found
