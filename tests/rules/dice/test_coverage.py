"""Every rule of rules/dice.md (D1–D74) has a test named after it."""
from __future__ import annotations

import re
from pathlib import Path


def test_D1_to_D74_each_rule_id_names_a_test() -> None:
    sources = " ".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    names = " ".join(re.findall(r"def (test_\w+)", sources))
    missing = [f"D{i}" for i in range(1, 75) if not re.search(rf"_D{i}_", names)]
    assert not missing, missing
