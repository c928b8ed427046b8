"""The rules and the engine keep no hidden state (issue 26 item 4): what
they remember between calls is in an object the caller owns and hands
them (``referee.engine.statecache.Memo``, one per game;
``referee.engine.encoded_views.ViewCache``, the service's), never at module
level. ``make lint`` runs this file. Over every module under
``referee/games`` and ``referee/engine`` it refuses:

* a ``global`` statement;
* a function that writes into a module-level object — an item set or
  deleted (``_kept[key] = …``), an attribute set (``module.x = …``), or a
  mutating method called (``.append``, ``.clear``, ``.update``,
  ``.setdefault``, ``.put``…) on a name the module assigns at its top level
  (a constant's own building at import time is no function and is left
  alone), but the few listed in ``ALLOWED_STATE`` with why;
* ``id(…)``: an object's id names no value (it is reused once the object
  is gone); a memo keys by value or holds the object and compares it with ``is``;
* a ``functools.cache``/``lru_cache`` not listed in ``ALLOWED_CACHES``
  with why it is sound: a pure function of small, constant, hashable inputs
  (a map's rows, a table's few facts, no argument at all), whose docstring
  says so.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

ROOT = Path(__file__).resolve().parents[2] / "referee"

#: methods that change the object they are called on
MUTATORS = frozenset({"append", "appendleft", "extend", "insert", "pop", "popitem", "popleft", "remove", "clear",
                      "update", "setdefault", "add", "discard", "difference_update", "intersection_update",
                      "symmetric_difference_update", "sort", "reverse", "move_to_end", "put", "__setitem__",
                      "__delitem__"})
#: (file under referee/, module-level name) -> why a function may write into it
ALLOWED_STATE: dict[tuple[str, str], str] = {
    ("games/registry.py", "_loaded"): "the installed rulesets, loaded once by entry point: the process's code, "
                                      "not what any game derives",
    ("games/registry.py", "_heuristics"): "the installed heuristic bots, loaded once by entry point, likewise",
    ("games/registry.py", "_groups"): "the installed entry points, read once from the packages' metadata: what "
                                      "is installed, not what any game derives",
}
#: (file under referee/, function) -> why its functools cache is sound
ALLOWED_CACHES: dict[tuple[str, str], str] = {
    ("games/faceoff/board.py", "bfs"): "a pure function of a map's rows and a square (immutable tuples, by value)",
    ("games/faceoff/board.py", "_floor_around"): "a pure function of a map's rows and a square, by value",
    ("games/bang/distance.py", "_sights"): "a pure function of a table's few facts per seat (a tuple, by value)",
    ("games/bang/distance.py", "_sights_json"): "``_sights`` as JSON, of the same tuple",
    ("games/bang/scenario.py", "_setup_check"): "no argument: the setup schema's one compiled check",
    ("games/dice/scenario.py", "_setup_check"): "no argument: the setup schema's one compiled check",
}


def modules() -> list[Path]:
    return sorted(path for folder in ("games", "engine") for path in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in path.parts)


def _top_level_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names a module assigns at its top level, and all it binds there (imports, functions and
    classes too: a module imported is written into by setting its attributes, not by calling its
    functions, whatever their names)."""
    assigned: set[str] = set()
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                assigned.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
    return assigned, bound | assigned


def _local_names(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """Every name a function (with the functions inside it) binds: its parameters and what it assigns."""
    out: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return out


def _root(node: ast.expr) -> str | None:
    """The name an attribute or item chain starts from (``a`` of ``a.b[c].d``), if any."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _writes(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, assigned: set[str],
            bound: set[str]) -> list[tuple[int, str]]:
    """(line, what) of every write the function makes into a module-level object."""
    local = _local_names(function)
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            root = _root(node)
            if root in bound and root not in local:
                found.append((node.lineno, f"writes into module-level {root}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            root = _root(node.func.value)
            if root in assigned and root not in local:
                found.append((node.lineno, f"calls {root}…{node.func.attr}() on a module-level object"))
    return found


def _cached(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function wears ``functools.cache`` or ``lru_cache`` (called or not, by any import)."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name in ("cache", "lru_cache"):
            return True
    return False


def hidden_state(source: str, allowed: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, what) of every ``global``, write into a module-level object from a function (but into
    the names ``allowed``), and ``id(…)``."""
    tree = ast.parse(source)
    assigned, bound = _top_level_names(tree)
    assigned, bound = assigned - allowed, bound - allowed
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.append((node.lineno, f"global {', '.join(node.names)}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id":
            found.append((node.lineno, "id(…): an object's id names no value"))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            found.extend(_writes(node, assigned, bound))
    return sorted(set(found))


def caches(source: str) -> list[tuple[int, str, str | None]]:
    """(line, name, docstring) of every function wearing a functools cache."""
    return [(node.lineno, node.name, ast.get_docstring(node)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _cached(node)]


@pytest.mark.parametrize("path", modules(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_module_of_the_rules_or_the_engine_keeps_no_hidden_state(path: Path) -> None:
    relative = path.relative_to(ROOT).as_posix()
    source = path.read_text(encoding="utf-8")
    found = hidden_state(source, frozenset(name for where, name in ALLOWED_STATE if where == relative))
    assert not found, "\n".join(f"referee/{relative}:{line}: {what}" for line, what in found)
    for line, name, doc in caches(source):
        assert (relative, name) in ALLOWED_CACHES, f"referee/{relative}:{line}: {name} wears a functools cache"
        assert doc and "cache" in doc.lower(), \
            f"referee/{relative}:{line}: {name}'s docstring says not why it is cached"


def test_allowed_caches_and_state_are_still_used() -> None:
    """An allowance whose cache or state is gone goes too."""
    used = {(path.relative_to(ROOT).as_posix(), name)
            for path in modules() for _line, name, _doc in caches(path.read_text(encoding="utf-8"))}
    assert not (ALLOWED_CACHES.keys() - used), sorted(ALLOWED_CACHES.keys() - used)
    for where, name in ALLOWED_STATE:
        source = (ROOT / where).read_text(encoding="utf-8")
        assert hidden_state(source) != hidden_state(source, frozenset({name})), (where, name)


def test_the_scan_sees_each_way_in() -> None:
    source = ("_memo = {}\n_last = [None]\nimport other\n"
              "def f(state):\n    global _x\n    _memo[id(state)] = state\n    _last[0] = state\n"
              "    _memo.clear()\n    other.value = 1\n    del _memo[1]\n"
              "def g(_memo):\n    _memo[1] = 2\n    local = {}\n    local[1] = 2\n    return _last[0]\n"
              "_built = {}\n_built['import time'] = 1\nimport turn\ndef h(ctx):\n    turn.discard(ctx)\n")
    assert hidden_state(source) == [
        (5, "global _x"), (6, "id(…): an object's id names no value"), (6, "writes into module-level _memo"),
        (7, "writes into module-level _last"), (8, "calls _memo…clear() on a module-level object"),
        (9, "writes into module-level other"), (10, "writes into module-level _memo")]
    assert [name for _line, name, _doc in caches(
        "from functools import cache, lru_cache\nimport functools\n@cache\ndef a(): pass\n"
        "@lru_cache(maxsize=4)\ndef b(x): pass\n@functools.lru_cache\ndef c(x): pass\ndef d(x): pass\n")] == \
        ["a", "b", "c"]
