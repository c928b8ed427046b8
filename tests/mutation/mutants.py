"""The mutants of a module: every place of its syntax tree an operator applies
to, and the tree with one of them applied (``mutate``)."""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass

#: comparison flips
_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_BINOP: dict[type[ast.operator], type[ast.operator]] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv,
                                                        ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv}
_SYMBOL = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Is: "is",
           ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
           ast.FloorDiv: "//", ast.Mod: "%", ast.And: "and", ast.Or: "or"}
#: calls whose arguments at these positions are prose for a person (a report's detail, an error's message):
#: emptying such a string changes no verdict, so it is not a mutant worth judging
_PROSE_ARGS = {"Diverged": {5}, "refuse": {3}, "_ok": {1}, "ok": {1}, "Refused": {0}, "Unreadable": {0},
               "ValueError": {0}, "KeyError": {0}, "RuntimeError": {0}, "unreadable": {0}, "diverged": {4}}


@dataclass(frozen=True)
class Mutant:
    """One change: the ``index``-th mutable place of the module (in a fixed walk), ``op`` applied."""
    module: str
    path: str
    index: int
    op: int  # which of the place's mutations
    line: int
    what: str
    code: str = ""  # the mutated line's text, stripped
    nth: int = 1  # the same change to the same code, the nth time in the file (in the walk's order)

    @property
    def key(self) -> str:
        """The mutant's name as a person reads it: file, line, the line's code and the change."""
        return f"{self.path}:{self.line}: {self.code}  ## {self.change}"

    @property
    def change(self) -> str:
        return self.what if self.nth == 1 else f"{self.what} (#{self.nth} of this change to this code)"

    @property
    def stable(self) -> tuple[str, str, str]:
        """What names the mutant across edits elsewhere in its file (the allow-list's key): the
        file, the line's code and the change (the line's number moves when lines are added above)."""
        return self.path, self.code, self.change


def _prose(tree: ast.AST) -> set[int]:
    """``id``s of the nodes of ``tree`` that are only prose: docstrings, f-string parts, messages."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                skip.add(id(first))
                skip.add(id(first.value))
        if isinstance(node, ast.JoinedStr):  # an f-string is a message: what it formats is prose too
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else None
            for pos in _PROSE_ARGS.get(name or "", ()):
                if pos < len(node.args):
                    skip.update(id(n) for n in ast.walk(node.args[pos]) if isinstance(n, ast.Constant))
        if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation is not None:
            skip.update(id(n) for n in ast.walk(node.annotation))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            skip.update(id(n) for n in ast.walk(node.returns))
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            skip.add(id(node))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _places(node: ast.AST, skip: set[int]) -> list[str]:
    """What can be done to ``node`` (one entry per mutation), described as a person reads it."""
    if id(node) in skip:
        return []
    out: list[str] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _COMPARE:
                out.append(f"comparison {i}: {_SYMBOL[type(op)]} -> {_SYMBOL[_COMPARE[type(op)]]}")
    elif isinstance(node, ast.BoolOp):
        out.append(f"{_SYMBOL[type(node.op)]} -> {'or' if isinstance(node.op, ast.And) else 'and'}")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append("not x -> x")
    elif isinstance(node, ast.BinOp) and type(node.op) in _BINOP:
        out.append(f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[_BINOP[type(node.op)]]}")
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            out.append(f"{value} -> {not value}")
        elif isinstance(value, int):
            out += [f"{value} -> {value + 1}", f"{value} -> {value - 1}"]
        elif isinstance(value, (str, bytes)) and value and not (isinstance(value, str) and " " in value):
            # (a string with a space in it is prose for a person — a check's detail, a message — not a
            # name, a key or a label any code compares: emptying it changes no verdict)
            out.append(f"{value!r:.40} -> {type(value)()!r}")
    elif isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        out.append("return x -> return None")
    if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                                            ast.Global, ast.Nonlocal, ast.Pass)):
        out.append(f"delete the {type(node).__name__.lower()} statement")
    return out


def _walk(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` in a fixed order (the same for a copy of it)."""
    yield tree
    for child in ast.iter_child_nodes(tree):
        yield from _walk(child)


def mutants(module: str, path: str, source: str) -> list[Mutant]:
    tree = ast.parse(source)
    skip = _prose(tree)
    found = []
    lines = source.splitlines()
    seen: dict[tuple[str, str], int] = {}
    for index, node in enumerate(_walk(tree)):
        for op, what in enumerate(_places(node, skip)):
            line = getattr(node, "lineno", 0)
            code = lines[line - 1].strip() if line else ""
            nth = seen[(code, what)] = seen.get((code, what), 0) + 1  # the same change to the same code again
            found.append(Mutant(module, path, index, op, line, what, code, nth))
    return found


class _Pass(ast.NodeTransformer):
    """Replaces one statement (by identity) with ``pass``, or drops it from a body that keeps another."""

    def __init__(self, target: ast.AST) -> None:
        self.target = target

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and any(v is self.target for v in value):
                setattr(node, field, [ast.Pass() if v is self.target else v for v in value])
                return node
        return super().generic_visit(node)


def mutate(source: str, mutant: Mutant) -> ast.Module:
    """The module's tree with ``mutant`` applied."""
    tree = ast.parse(source)
    skip = _prose(tree)
    node = next(n for i, n in enumerate(_walk(tree)) if i == mutant.index)
    places = _places(node, skip)
    assert places[mutant.op] == mutant.what, (places, mutant)
    # (``what`` names the change; ``change`` tells apart the same change at two places of a line)
    what = mutant.what
    if isinstance(node, ast.Compare) and what.startswith("comparison"):
        i = int(what.split(":")[0].split()[1])
        node.ops[i] = _COMPARE[type(node.ops[i])]()
    elif isinstance(node, ast.BoolOp) and not what.startswith("delete"):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp) and what == "not x -> x":
        _replace(tree, node, node.operand)
    elif isinstance(node, ast.BinOp) and not what.startswith("delete"):
        node.op = _BINOP[type(node.op)]()
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            node.value = not value
        elif isinstance(value, int):
            node.value = value + 1 if mutant.op == 0 else value - 1
        else:
            node.value = "" if isinstance(value, str) else b""
    elif isinstance(node, ast.Return) and what == "return x -> return None":
        node.value = ast.Constant(None)
    elif what.startswith("delete"):
        _Pass(node).visit(tree)
    else:  # pragma: no cover - every place above is handled
        raise AssertionError(mutant)
    return ast.fix_missing_locations(tree)


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(v is old for v in value):
                setattr(parent, field, [new if v is old else v for v in value])
                return


def copy_tree(tree: ast.AST) -> ast.AST:
    return copy.deepcopy(tree)
