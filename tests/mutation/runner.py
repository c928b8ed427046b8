"""Run the mutants: a baseline run of the tests that records which test
executes which line, then every mutant in a forked process of its own, the
mutated module compiled in memory and served by an import hook, running only
the tests that execute the mutated line (``-x``: the first failure kills it).

Nothing of the working tree is written: the mutated code is never written to
a file, no bytecode is written (``sys.dont_write_bytecode``), hypothesis keeps
no example database, and pytest's temporary folders are under a fresh folder
of ``/tmp``."""
from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any

from tests.mutation.mutants import Mutant, mutants, mutate

ROOT = Path(__file__).resolve().parents[2]
#: the modules mutated: the offline audit, the chain and the generator; the signing
#: modules when they exist (``signing``: with them, or ``--no-signing``: without)
TARGETS = ["referee/audit/*.py", "referee/engine/chain.py", "referee/engine/rng.py"]
SIGNING = ["referee/audit/signed.py", "referee/engine/signature.py"]
#: the tests run against the mutants, fastest first (each mutant runs those of its file's list, in
#: ``FOR_FILE``, that execute its line)
TESTS = [
    "tests/unit/test_keyed_hmac.py",
    "tests/unit/test_rng.py",
    "tests/unit/test_rng_edges.py",
    "tests/unit/test_verify_received.py",
    "tests/unit/test_audit_mutants_signing.py",
    "tests/unit/test_audit_mutants_seats.py",
    "tests/unit/test_audit_mutants_presence.py",
    "tests/unit/test_audit_mutants_by.py",
    "tests/unit/test_audit_mutants_reading.py",
    "tests/unit/test_audit_mutants_batch.py",
    "tests/unit/test_audit_collector.py",
    "tests/unit/test_audit_forgeries.py",
    "tests/unit/test_audit_reading.py",
    "tests/unit/test_offline_log.py",
    "tests/unit/test_audit_hostile_files.py",
]
_AUDIT = ["tests/unit/test_audit_mutants_signing.py", "tests/unit/test_audit_mutants_seats.py",
          "tests/unit/test_audit_mutants_presence.py",
          "tests/unit/test_audit_mutants_by.py", "tests/unit/test_audit_mutants_reading.py",
          "tests/unit/test_audit_forgeries.py",
          "tests/unit/test_audit_reading.py"]
#: which of ``TESTS`` may kill a mutant of each file (the rest of them only cost time): a file not
#: named here gets all of them
FOR_FILE = {
    "referee/engine/rng.py": ["tests/unit/test_rng.py", "tests/unit/test_rng_edges.py", "tests/unit/test_keyed_hmac.py",
                              "tests/unit/test_audit_forgeries.py"],
    "referee/engine/chain.py": ["tests/unit/test_keyed_hmac.py", "tests/unit/test_verify_received.py", *_AUDIT],
    "referee/audit/__init__.py": [*_AUDIT, "tests/unit/test_audit_collector.py"],
    "referee/audit/chain.py": _AUDIT,
    "referee/audit/divergence.py": _AUDIT,
    "referee/audit/movers.py": _AUDIT,
    "referee/audit/redecide.py": _AUDIT,
    "referee/audit/strict.py": ["tests/unit/test_audit_mutants_reading.py", "tests/unit/test_audit_reading.py",
                                "tests/unit/test_audit_hostile_files.py"],
    "referee/audit/batch.py": ["tests/unit/test_audit_mutants_batch.py", "tests/unit/test_audit_reading.py",
                               "tests/unit/test_audit_hostile_files.py"],
    "referee/audit/signed.py": _AUDIT,
    "referee/engine/signature.py": _AUDIT,
    "referee/audit/offline.py": ["tests/unit/test_audit_reading.py", "tests/unit/test_offline_log.py",
                                 "tests/unit/test_audit_forgeries.py"],
}
PYTEST = ["-q", "-p", "no:cacheprovider", "--noconftest", "-W", "ignore"]


def target_files(signing: bool = True) -> list[Path]:
    files: list[Path] = []
    for pattern in TARGETS:
        files += sorted(ROOT.glob(pattern))
    files += [ROOT / p for p in SIGNING if (ROOT / p).exists() and ROOT / p not in files]
    files = [f for f in files if signing or str(f.relative_to(ROOT)) not in SIGNING]
    return sorted(set(files))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# -- in the forked child -----------------------------------------------------------
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves one module from a code object (the mutant), every other as usual."""

    def __init__(self, name: str, path: Path, code: CodeType) -> None:
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        package = self.path.name == "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname, self.path, loader=self, submodule_search_locations=[str(self.path.parent)] if package else None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


def _child_setup(basetemp: Path) -> list[str]:
    sys.dont_write_bytecode = True
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # no schemathesis, no plugin the tests do not use
    from hypothesis import HealthCheck, settings
    settings.register_profile("mutation", deadline=None, database=None, derandomize=True,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("mutation")
    os.chdir(basetemp)  # whatever a test writes to the current folder stays out of the tree
    return [*PYTEST, f"--basetemp={basetemp / 'pytest'}", f"--rootdir={ROOT}", "-c", str(ROOT / "pyproject.toml")]


def _silence(log: Path) -> None:
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def _fork(body: Callable[[], int], log: Path) -> int:
    """``body`` run in a forked process, its output to ``log``; the child's pid."""
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.setpgid(0, 0)  # its own group: a timed-out mutant is stopped with every process it started
            _silence(log)
            code = body()
        except BaseException:  # noqa: BLE001 - whatever happens, the child must not return into the parent's loop
            import traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    return pid


# -- the baseline: which test executes which line -------------------------------------
class _Lines:
    """A pytest plugin recording, per test, the lines of the target files it executes."""

    def __init__(self, files: set[str]) -> None:
        self.files, self.current = files, "(import)"
        self.lines: dict[str, set[tuple[str, int]]] = {}
        self.failed: list[str] = []
        self.durations: dict[str, float] = {}

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename in self.files:
            self.lines.setdefault(self.current, set()).add((frame.f_code.co_filename, frame.f_lineno))
            return self._local
        return None

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines.setdefault(self.current, set()).add((frame.f_code.co_filename, frame.f_lineno))
        return self._local

    def start(self) -> None:
        sys.settrace(self._global)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.current = nodeid
        self.durations[nodeid] = time.perf_counter()

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and report.nodeid not in self.failed:
            self.failed.append(report.nodeid)

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        self.durations[nodeid] = time.perf_counter() - self.durations[nodeid]
        self.current = "(between)"


def baseline(files: Sequence[Path], tests: Sequence[str], work: Path) -> dict[str, Any]:
    out = work / "baseline.json"

    def body() -> int:
        args = _child_setup(work)
        import pytest
        plugin = _Lines({str(f) for f in files})
        plugin.start()
        code = pytest.main([*args, *tests], plugins=[plugin])
        sys.settrace(None)
        out.write_text(json.dumps({"code": int(code), "failed": plugin.failed, "durations": plugin.durations,
                                   "lines": {t: sorted(ls) for t, ls in plugin.lines.items()}}))
        return 0
    pid = _fork(body, work / "baseline.log")
    _, status = os.waitpid(pid, 0)
    if not out.exists():
        raise SystemExit(f"the baseline run failed: see {work / 'baseline.log'}")
    result: dict[str, Any] = json.loads(out.read_text())
    return result


# -- the mutants ----------------------------------------------------------------------------
@dataclass
class Outcome:
    mutant: Mutant
    tests: list[str]
    status: str = "pending"  # killed, survived, timeout (killed), error
    seconds: float = 0.0
    log: str = ""
    code: CodeType | None = None  # the mutated module, compiled


@dataclass
class _Running:
    outcome: Outcome
    pid: int
    started: float
    limit: float
    log: Path = field(default_factory=Path)


def _lines_of(m: Mutant, tree_lines: dict[tuple[str, int], set[int]]) -> set[int]:
    return tree_lines.get((m.path, m.index), {m.line})


def select(found: Sequence[Mutant], base: dict[str, Any], tests: Sequence[str],
           spans: dict[tuple[str, int], set[int]]) -> list[Outcome]:
    """Each mutant with the tests that execute one of its lines (all of them for a line
    executed only at import, or by no test in this process: a worker process, say)."""
    failed = set(base["failed"])
    by_line: dict[tuple[str, int], list[str]] = {}
    order = [t for t in base["durations"] if t not in failed]
    for test in order:
        for file, line in base["lines"].get(test, []):
            by_line.setdefault((file, line), []).append(test)
    everything = [t for t in order]
    outcomes = []
    for m in found:
        chosen: set[str] = set()
        for line in spans.get((m.path, m.index), {m.line}):
            chosen.update(by_line.get((str(ROOT / m.path), line), []))
        files = FOR_FILE.get(m.path)
        allowed = [t for t in everything if files is None or t.split("::")[0] in files]
        picked = [t for t in allowed if t in chosen] or allowed
        outcomes.append(Outcome(m, picked))
    return outcomes


def _header(stmt: Any) -> set[int]:
    """The lines of a statement that run before its body: all of a simple statement, the
    condition (iterable, items) of a compound one. A trace reports any of them."""
    import ast
    head: Any = getattr(stmt, "test", None) or getattr(stmt, "iter", None)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        head = stmt.items[-1].context_expr
    if isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try,
                         ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        end = head.end_lineno if head is not None else stmt.lineno
    else:
        end = stmt.end_lineno or stmt.lineno
    return set(range(stmt.lineno, end + 1))


def _spans(path: str, source: str) -> dict[tuple[str, int], set[int]]:
    """For every node index: the lines a test must execute for the node to run (its own lines,
    and the header lines of its statement)."""
    import ast

    from tests.mutation.mutants import _walk
    tree = ast.parse(source)
    spans: dict[tuple[str, int], set[int]] = {}

    def visit(node: ast.AST, stmt_lines: set[int]) -> None:
        if isinstance(node, ast.stmt):
            stmt_lines = _header(node)
        lines = set(stmt_lines)
        if isinstance(node, ast.expr):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        spans[(path, ids[id(node)])] = lines
        for child in ast.iter_child_nodes(node):
            visit(child, stmt_lines)
    ids = {id(n): i for i, n in enumerate(_walk(tree))}
    visit(tree, set())
    return spans


def run(outcomes: list[Outcome], sources: dict[str, str], work: Path, jobs: int,
        durations: dict[str, float], progress: Callable[[Outcome, int, int], None], swap: bool = False,
        items: dict[str, Any] | None = None) -> None:
    """Every mutant of ``outcomes`` in a forked process, ``jobs`` at a time: with ``items`` (the
    tests collected by a pytest session of this process, by node id) the child swaps the
    function's code and runs its tests' items itself; without, it imports the mutated module
    (``swap`` false) or swaps (``swap``) and runs ``pytest.main`` over its tests."""
    pending = list(outcomes)
    running: list[_Running] = []
    done = 0
    while pending or running:
        while pending and len(running) < jobs:
            outcome = pending.pop(0)
            m = outcome.mutant
            log = work / f"mutant-{m.path.replace('/', '_')}-{m.index}-{m.op}.log"
            temp = Path(tempfile.mkdtemp(prefix="m-", dir=work))
            code = outcome.code or compile(mutate(sources[m.path], m), str(ROOT / m.path), "exec")
            finder = _Finder(m.module, ROOT / m.path, code)
            tests = outcome.tests

            def body(finder: _Finder = finder, temp: Path = temp, tests: list[str] = tests,
                     m: Mutant = m, code: CodeType = code) -> int:
                if items is not None:
                    os.chdir(temp)
                    place = function_of(sources[m.path], m)
                    assert place is not None and _swap(m.module, place, code)
                    return _run_items([items[t] for t in tests if t in items])
                args = _child_setup(temp)
                if swap:  # the module is imported: only the mutated function's code changes
                    place = function_of(sources[m.path], m)
                    assert place is not None and _swap(m.module, place, code)
                else:
                    sys.meta_path.insert(0, finder)
                import pytest
                return int(pytest.main([*args, "-x", *(str(ROOT / t) for t in tests)]))
            pid = _fork(body, log)
            limit = 10.0 + 2 * sum(durations.get(t, 1.0) for t in tests)
            running.append(_Running(outcome, pid, time.monotonic(), limit, log))
        time.sleep(0.02)
        for r in list(running):
            pid, status = os.waitpid(r.pid, os.WNOHANG)
            elapsed = time.monotonic() - r.started
            if pid == 0:
                if elapsed > r.limit:
                    os.killpg(r.pid, signal.SIGKILL)
                    os.waitpid(r.pid, 0)
                    r.outcome.status = "timeout"
                else:
                    continue
            else:
                exit_code = os.waitstatus_to_exitcode(status)
                r.outcome.status = {0: "survived", 1: "killed", 2: "killed", 4: "killed"}.get(exit_code, "error")
                if exit_code < 0:  # the mutant crashed its process: noticed
                    r.outcome.status = "killed"
            r.outcome.seconds = elapsed
            r.outcome.log = str(r.log)
            running.remove(r)
            done += 1
            progress(r.outcome, done, len(outcomes))


def _run_items(items: list[Any]) -> int:
    """Run collected pytest items in order, as ``-x`` does: 1 at the first failure, else 0."""
    from _pytest.runner import runtestprotocol
    for i, item in enumerate(items):
        reports = runtestprotocol(item, nextitem=items[i + 1] if i + 1 < len(items) else None, log=False)
        if any(r.failed for r in reports):
            return 1
    return 0


class _Loop:
    """A pytest plugin whose test loop is the mutants' run: the session collects once, then every
    mutant runs its tests' items in a forked process (``run`` with ``items``)."""

    def __init__(self, go: Callable[[dict[str, Any]], None]) -> None:
        self.go = go

    def pytest_runtestloop(self, session: Any) -> bool:
        session.config._tmp_path_factory.getbasetemp()  # made once here, not raced by the children
        self.go({item.nodeid: item for item in session.items})
        return True


# -- a mutant inside a function: its code swapped into the imported function ---------------
@functools.cache
def _nodes(source: str) -> tuple[Any, list[Any]]:
    import ast

    from tests.mutation.mutants import _walk
    tree = ast.parse(source)
    return tree, list(_walk(tree))


@functools.cache
def _compiled(source: str, path: str) -> CodeType:
    return compile(source, path, "exec")


def function_of(source: str, m: Mutant) -> tuple[str | None, str, int] | None:
    """``(class or None, function, its def's line)`` of the module-level function or method whose
    body holds the mutant (``None``: the mutant is elsewhere — a constant, a default, a class body)."""
    import ast
    tree, nodes = _nodes(source)
    target = nodes[m.index]
    for top in tree.body:
        defs: list[tuple[str | None, ast.AST]] = []
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.append((None, top))
        elif isinstance(top, ast.ClassDef):
            defs += [(top.name, d) for d in top.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for cls, d in defs:
            assert isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
            if any(n is target for stmt in d.body for n in ast.walk(stmt)):
                return cls, d.name, d.decorator_list[0].lineno if d.decorator_list else d.lineno
    return None


def _code_of(code: CodeType, cls: str | None, name: str, line: int) -> CodeType | None:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if cls is None and const.co_name == name and const.co_firstlineno == line:
                return const
            if cls is not None and const.co_name == cls:
                found = _code_of(const, None, name, line)
                if found is not None:
                    return found
    return None


def _swap(module: str, place: tuple[str | None, str, int], code: CodeType) -> bool:
    """The imported function's ``__code__`` replaced by the mutated module's (every name bound to
    the function — ``from x import f`` elsewhere — runs the mutant)."""
    import importlib
    cls, name, line = place
    mod = importlib.import_module(module)
    owner = mod.__dict__ if cls is None else vars(getattr(mod, cls))
    fn = owner[name]
    fn = getattr(fn, "fget", None) or getattr(fn, "__func__", None) or fn
    new = _code_of(code, cls, name, line)
    if new is None or new.co_freevars != fn.__code__.co_freevars:
        return False
    fn.__code__ = new
    return True


def swappable(sources: dict[str, str], m: Mutant, code: CodeType) -> bool:
    """Whether the mutant (its module compiled: ``code``) can run by swapping a function's code (the fast way)."""
    place = function_of(sources[m.path], m)
    if place is None:
        return False
    new = _code_of(code, *place)
    old = _code_of(_compiled(sources[m.path], str(ROOT / m.path)), *place)
    return new is not None and old is not None and new.co_freevars == old.co_freevars


# -- what a forked process may import before the mutant (modules that do not import it) ------
#: the packages pre-imported where they do not depend on the mutated module
_PRELOAD = ("referee.engine", "referee.games", "referee.bots", "referee.audit")


def _imports() -> dict[str, set[str]]:
    """Each module of ``referee`` and the ``referee`` modules it imports (its parent packages among them)."""
    import ast
    graph: dict[str, set[str]] = {}
    for path in (ROOT / "referee").rglob("*.py"):
        name = module_name(path)
        deps = graph.setdefault(name, set())
        parts = name.split(".")
        deps.update(".".join(parts[:i]) for i in range(1, len(parts)) if i > 0)
        if path.name == "__init__.py":
            deps.discard(name)
        try:
            tree = ast.parse(path.read_text())
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("referee"))
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("referee"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)  # a submodule imported by name
    return graph


def preloadable(target: str) -> list[str]:
    """The modules of ``_PRELOAD`` that import ``target`` neither directly nor through another."""
    graph = _imports()
    dependents = {target}
    changed = True
    while changed:
        changed = False
        for name, deps in graph.items():
            if name not in dependents and deps & dependents:
                dependents.add(name)
                changed = True
    return sorted(n for n in graph if n.startswith(_PRELOAD) and n not in dependents)


def _preload(modules: Sequence[str]) -> None:
    import importlib
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module that cannot be imported alone is imported by the tests
            pass
    registry = sys.modules.get("referee.games.registry")
    if registry is not None:
        try:
            for name in registry.names():
                registry.get(name)
        except Exception:  # noqa: BLE001
            pass


def run_grouped(outcomes: list[Outcome], sources: dict[str, str], work: Path, jobs: int,
                durations: dict[str, float], progress: Callable[[Outcome, int, int], None]) -> None:
    """``run``, one file's mutants at a time, each from a process that has imported what does not
    import the mutated module (the rules, the bots, ...): the mutants then import only the rest."""
    done = 0
    for path in sorted({o.mutant.path for o in outcomes}):
        group = [o for o in outcomes if o.mutant.path == path]
        out = work / f"group-{path.replace('/', '_')}.json"
        base = done

        def body(group: list[Outcome] = group, out: Path = out, base: int = base, path: str = path) -> int:
            for o in group:
                o.code = compile(mutate(sources[o.mutant.path], o.mutant), str(ROOT / o.mutant.path), "exec")
            fast = [o for o in group if o.code is not None and swappable(sources, o.mutant, o.code)]
            slow = [o for o in group if o not in fast]

            def report(outcome: Outcome, n: int, total: int) -> None:
                print(f"{group.index(outcome)} {outcome.status} {outcome.seconds:.2f} {outcome.mutant.key}", flush=True)

            def phase(outcomes: list[Outcome], swap: bool) -> int:
                _preload(preloadable(group[0].mutant.module))
                if not swap:
                    run(outcomes, sources, work, jobs, durations, report)
                    return 0
                # one pytest session collects the tests (importing the module), then runs the mutants
                import pytest
                temp = Path(tempfile.mkdtemp(prefix="session-", dir=work))
                args = _child_setup(temp)
                files = sorted({t.split("::")[0] for o in outcomes for t in o.tests})
                loop = _Loop(lambda items: run(outcomes, sources, work, jobs, durations, report, items=items))
                pytest.main([*args, *(str(ROOT / f) for f in files)], plugins=[loop])
                return 0
            for outcomes, swap in ((slow, False), (fast, True)):
                if outcomes:  # each phase in a process of its own: the fast one has imported the module
                    pid = _fork(functools.partial(phase, outcomes, swap),
                                work / f"phase-{swap}-{path.replace('/', '_')}.log")
                    os.waitpid(pid, 0)
            results: dict[int, tuple[str, float]] = {}
            for log in (work / f"phase-{False}-{path.replace('/', '_')}.log",
                        work / f"phase-{True}-{path.replace('/', '_')}.log"):
                if log.exists():
                    for text in log.read_text().splitlines():
                        index, status, seconds, _ = (text.split(" ", 3) + ["", "", "", ""])[:4]
                        if index.isdigit() and status in ("killed", "survived", "timeout", "error"):
                            results[int(index)] = (status, float(seconds))
            out.write_text(json.dumps([[*results.get(i, ("error", 0.0)), ""] for i in range(len(group))]))
            return 0
        pid = _fork(body, work / f"group-{path.replace('/', '_')}.log")
        try:
            os.waitpid(pid, 0)
        except BaseException:
            os.killpg(pid, signal.SIGKILL)
            raise
        results = json.loads(out.read_text()) if out.exists() else []
        for o, (status, seconds, log) in zip(group, results):
            o.status, o.seconds, o.log = status, seconds, log
        for o in group[len(results):]:
            o.status = "error"
        done += len(group)
        for o in group:
            progress(o, base + group.index(o) + 1, len(outcomes))


def all_mutants(files: Sequence[Path]) -> tuple[list[Mutant], dict[str, str], dict[tuple[str, int], set[int]]]:
    found: list[Mutant] = []
    sources: dict[str, str] = {}
    spans: dict[tuple[str, int], set[int]] = {}
    for f in files:
        rel = str(f.relative_to(ROOT))
        sources[rel] = f.read_text()
        found += mutants(module_name(f), rel, sources[rel])
        spans.update(_spans(rel, sources[rel]))
    return found, sources, spans


def iter_keys(outcomes: Sequence[Outcome]) -> Iterator[str]:
    return (o.mutant.key for o in outcomes)
