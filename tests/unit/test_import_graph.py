"""No import cycle among referee's (and workers') modules (issue 26 item 6).

Every import counts: module level, function level (a ``from referee.http.app
import problem`` inside a function hid the cycle app -> api -> streams ->
ratelimit -> app) and ``if TYPE_CHECKING:``. The graph is grimp's, the one
import-linter builds; its ``acyclic_siblings`` contract in pyproject.toml
refuses cycles between sibling packages and modules at every depth, and this
test refuses them between any two modules, a package's ``__init__`` and its
own submodules included (which that contract does not see), and names the
cycle with the importing lines.
"""
from __future__ import annotations

from collections import deque

import grimp
import pytest

#: a check of the source, run by `make lint`, not `make test`
pytestmark = pytest.mark.lint

ROOTS = ("referee", "workers")

#: cycles tolerated, as the frozenset of their modules -> why. None today; a
#: module-level cycle inside one ruleset package is the only kind that may be
#: listed here, with its reason.
TOLERATED: dict[frozenset[str], str] = {}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*ROOTS, cache_dir=None)


def strongly_connected(graph: grimp.ImportGraph) -> list[set[str]]:
    """The import graph's strongly connected components of two modules or more (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt)))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def one_cycle(graph: grimp.ImportGraph, component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module, as the modules in import order."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph.find_modules_directly_imported_by(node) & component):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start} in {sorted(component)}")


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    lines = [" -> ".join(cycle)]
    for importer, imported in zip(cycle, cycle[1:]):
        for detail in graph.get_import_details(importer=importer, imported=imported):
            lines.append(f"    {importer}:{detail['line_number']}: {detail['line_contents']}")
    return "\n".join(lines)


def test_no_import_cycle_between_modules(graph: grimp.ImportGraph) -> None:
    cycles = [component for component in strongly_connected(graph) if frozenset(component) not in TOLERATED]
    report = "\n\n".join(describe(graph, one_cycle(graph, component)) for component in cycles)
    assert not cycles, f"import cycles (function-level imports count; break them, do not hide them):\n\n{report}"


def test_tolerated_cycles_still_exist(graph: grimp.ImportGraph) -> None:
    """An entry of TOLERATED whose cycle is gone goes too."""
    present = {frozenset(component) for component in strongly_connected(graph)}
    assert not (TOLERATED.keys() - present), sorted(sorted(gone) for gone in TOLERATED.keys() - present)


def test_the_check_sees_a_function_level_cycle() -> None:
    """The check itself: a cycle made only by a function-level import is found and named."""
    fake = grimp.ImportGraph()
    for module in ("pkg", "pkg.app", "pkg.streams"):
        fake.add_module(module)
    fake.add_import(importer="pkg.app", imported="pkg.streams", line_number=3, line_contents="from pkg import streams")
    fake.add_import(importer="pkg.streams", imported="pkg.app", line_number=40,
                    line_contents="from pkg.app import problem")
    (component,) = strongly_connected(fake)
    assert component == {"pkg.app", "pkg.streams"}
    text = describe(fake, one_cycle(fake, component))
    assert text.splitlines()[0] == "pkg.app -> pkg.streams -> pkg.app"
    assert "pkg.streams:40: from pkg.app import problem" in text
