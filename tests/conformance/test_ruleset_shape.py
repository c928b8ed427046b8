"""One shape for every ruleset (issue 37 item 5): the same file name for the
same idea in each built-in ruleset package (the README's map of a ruleset).

| module | holds |
|---|---|
| ``__init__.py`` | the package docstring and the re-export of the ruleset class and instance only |
| ``ruleset.py`` | the ruleset class, a ``referee.engine.modular.ModularRuleset``, and its parts |
| ``state.py`` | the folded state |
| ``event_types.py`` | the events as frozen typed data |
| ``fold.py`` | ``evolve``: folding events into the state |
| ``moves.py`` | the typed moves (one ``MoveTable``), their JSON Schemas, the parser |
| ``legal.py`` | the legal moves, who acts, the default moves |
| ``decide.py`` | deciding: a parsed move → events |
| ``context.py`` | the decision context |
| ``views.py`` | views, redaction, hidden ids |
| ``prompts.py`` | what a seat is asked (only where a ruleset has it; never the legal moves) |
| ``scenario.py`` | setup from the seed and the scenario ``setup`` object |
| ``options.py``, ``schemas.py``, ``catalogue.py``, ``phrases.py``, ``legacy.py`` | as named |

Any other module is rule-specific and named for what it holds; a name that
is one of the ideas above in other words (``engine``, ``table``, ``agenda``
for the context; ``decider``, ``rules`` as catch-alls) is used by none.
"""
from __future__ import annotations

import ast
import importlib
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee.engine.modular import ModularRuleset
from referee.engine.moves import MoveTable, TypedMove
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.sim import Table

BUILT_IN = ("bang", "bang-dice", "bang-faceoff", "bluffaneer")
#: the modules every ruleset package has, each for its idea (the table above)
REQUIRED = ("ruleset", "state", "event_types", "fold", "moves", "legal", "decide", "context", "views", "scenario",
            "options", "schemas", "catalogue", "phrases", "legacy")
#: names that are an idea of the shape in other words, or a catch-all: used by no ruleset
RESERVED = ("engine", "table", "agenda", "decider", "rules")
#: what ``legal.py`` holds, never ``prompts.py``
LEGAL_HOOKS = frozenset({"legal_moves", "to_act", "default_move"})
#: the random actions a game's moves are read for at most
STEPS = 120


def package_of(name: str) -> str:
    """The package the registry's entry point for ruleset ``name`` loads ``RULESET`` from."""
    points = {point.name: point for point in entry_points(group=registry.GROUP)}
    return points[name].module


def folder(name: str) -> Path:
    return Path(importlib.import_module(package_of(name)).__path__[0])


def module_names(name: str) -> set[str]:
    """The modules and subpackages of ruleset ``name``'s package."""
    root = folder(name)
    return {path.stem for path in root.glob("*.py")} | {path.name for path in root.iterdir()
                                                          if (path / "__init__.py").exists()}


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_ruleset_package_has_a_module_for_every_idea_of_the_shape(name: str) -> None:
    missing = [module for module in REQUIRED if module not in module_names(name)]
    assert not missing, f"{package_of(name)} has no {', '.join(f'{module}.py' for module in missing)}"


@pytest.mark.parametrize("name", BUILT_IN)
def test_no_module_of_a_ruleset_uses_a_name_reserved_for_another_idea(name: str) -> None:
    reserved = sorted(set(RESERVED) & module_names(name))
    assert not reserved, f"{package_of(name)} has {', '.join(reserved)}: name each for the idea it holds " \
                         "(context, legal, decide, prompts) or for its rules"


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_ruleset_class_is_a_modular_ruleset_defined_in_ruleset_py(name: str) -> None:
    package = package_of(name)
    ruleset = registry.get(name)
    cls = type(ruleset)
    assert issubclass(cls, ModularRuleset), f"{cls.__qualname__} is not a ModularRuleset"
    assert cls.__module__ == f"{package}.ruleset", f"{cls.__qualname__} is defined in {cls.__module__}"
    assert importlib.import_module(package).RULESET is ruleset


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_parts_of_a_ruleset_are_its_modules_of_the_same_idea(name: str) -> None:
    package = package_of(name)
    parts = type(registry.get(name)).__dict__.get("parts")
    assert parts is not None, f"{package}.ruleset names no Parts"
    expected = {"events": "fold", "prompts": "legal", "moves": "moves", "scenario": "scenario",
                "schemas": "schemas"}
    wrong = {part: getattr(parts, part).__name__ for part, module in expected.items()
             if not isinstance(getattr(parts, part), ModuleType)
             or getattr(parts, part).__name__ != f"{package}.{module}"}
    assert not wrong, f"{package}: parts {wrong}, expected {expected}"


def _top_level(path: Path) -> list[ast.stmt]:
    return ast.parse(path.read_text(encoding="utf-8")).body


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_package_init_holds_a_docstring_and_the_re_export_of_the_ruleset_only(name: str) -> None:
    package = package_of(name)
    body = _top_level(folder(name) / "__init__.py")
    docstring = bool(body) and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str)
    assert docstring, f"{package}/__init__.py has no docstring"
    other = [statement.lineno for statement in body[1:]
             if not (isinstance(statement, ast.ImportFrom)
                     and statement.module in ("__future__", f"{package}.ruleset"))
             and not (isinstance(statement, ast.Assign)
                      and [ast.unparse(target) for target in statement.targets] == ["__all__"])]
    assert not other, f"{package}/__init__.py: lines {other} are neither the re-export of the ruleset nor __all__"


@pytest.mark.parametrize("name", BUILT_IN)
def test_prompts_py_where_a_ruleset_has_one_holds_no_legal_moves(name: str) -> None:
    path = folder(name) / "prompts.py"
    if not path.exists():
        return
    defined = {statement.name for statement in _top_level(path)
               if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)}
    assert not defined & LEGAL_HOOKS, f"{path.name} defines {sorted(defined & LEGAL_HOOKS)}: they are legal.py's"


@pytest.mark.parametrize("name", BUILT_IN)
def test_moves_py_declares_the_moves_in_one_move_table(name: str) -> None:
    moves = importlib.import_module(f"{package_of(name)}.moves")
    tables = [value for value in vars(moves).values() if isinstance(value, MoveTable)]
    assert len(tables) == 1, f"{moves.__name__} holds {len(tables)} MoveTable(s), not one"
    assert set(tables[0].types()) >= set(registry.get(name).move_schemas) - {"timeout"}, \
        "a published move type without its class"


def _read_back(ruleset: Any, move: Any) -> list[str]:
    """What is wrong with ``move`` read as a typed value (by the parser and from a checked move)."""
    wrong = []
    for how, parsed in (("parse_move", ruleset.parse_move(move)), ("read_move", ruleset.read_move(move))):
        if not isinstance(parsed, TypedMove):
            wrong.append(f"{how}({move}) is a {type(parsed).__name__}, not a TypedMove")
        elif parsed.to_json() != move:
            wrong.append(f"{how}({move}).to_json() is {parsed.to_json()}")
    return wrong


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_legal_move_is_read_once_as_a_typed_move_and_given_back_as_sent(name: str) -> None:
    """Moves are typed frozen values parsed once at the boundary: each legal
    move of a random game, read by the ruleset, is a ``TypedMove`` whose JSON
    is the move as it was listed."""
    ruleset = registry.get(name)
    table = Table(ruleset, ruleset.min_players, seed=b"shape")
    pick = Rng(b"shape-pick")
    wrong: list[str] = []
    for _ in range(STEPS):
        if ruleset.result(table.state) is not None:
            break
        seats = sorted(table.to_act())
        for seat in seats:
            for move in table.legal(seat):
                wrong += _read_back(ruleset, move)
        if not seats:
            table.timeout()
            continue
        seat = seats[pick.below(len(seats))]
        table.play(seat, pick.choice(list(table.legal(seat))))
    assert not wrong, "\n".join(wrong[:5])
