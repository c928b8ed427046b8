"""A refusal's ``rule`` and the rule its ``detail`` cites agree (issue 36,
item 8: Bluffaneer's roller who claimed was refused under F17 with a detail
citing F16). Every refusal built in the rules' code (``IllegalMove(...)``,
``OutOfTurn(...)``, ``InvalidSetup(...)``, a helper such as Face Off's
``refuse(code, rule, detail)``, a ``(code, rule, detail)`` tuple) that names
a rule ID as a literal and cites rule IDs in its text must cite its own rule
among them."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "referee" / "games"
#: a rule ID as the rules write it: F16, R82, D38, FO21
RULE_ID = re.compile(r"[A-Z]{1,2}[0-9]{1,3}")
CITED = re.compile(r"\b[A-Z]{1,2}[0-9]{1,3}\b")


def _text(node: ast.expr) -> str | None:
    """The literal text of a string, f-string (its fields as ``{}``) or concatenation; ``None`` otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(v) or "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return None if left is None and right is None else (left or "") + (right or "")
    return None


def _is_rule(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.fullmatch(node.value) is not None


def disagreements(source: str) -> list[tuple[int, str, list[str]]]:
    """(line, rule, cited) of every call or tuple in ``source`` with exactly one
    literal rule ID among its arguments and text citing rule IDs, none of them that rule."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            values = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.Tuple):
            values = list(node.elts)
        else:
            continue
        rules = [str(v.value) for v in values if isinstance(v, ast.Constant) and _is_rule(v)]
        cited = [c for v in values if not _is_rule(v) for c in CITED.findall(_text(v) or "")]
        if len(rules) == 1 and cited and rules[0] not in cited:
            out.append((node.lineno, rules[0], cited))
    return out


@pytest.mark.parametrize("path", sorted(GAMES.rglob("*.py")), ids=lambda p: str(p.relative_to(GAMES)))
def test_a_refusal_cites_the_rule_it_names(path: Path) -> None:
    assert disagreements(path.read_text()) == [], f"{path}: rule= and the rule its detail cites differ"


def test_the_scan_finds_a_detail_citing_another_rule() -> None:
    assert disagreements('OutOfTurn("x", rule="F17", detail=f"no {kind}: checked (F16)")') == [(1, "F17", ["F16"])]
    assert disagreements('refuse("x", "FO9", "not now (FO31)")') == [(1, "FO9", ["FO31"])]
    assert disagreements('("x", "R11", "only on your turn" " (R12)")') == [(1, "R11", ["R12"])]
    assert disagreements('IllegalMove("x", rule="F17", detail="once (F17, F18)")') == []
    assert disagreements('IllegalMove("x", rule=r, detail="once (F18)")') == []  # a rule not written out
