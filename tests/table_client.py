"""The README's one-table client (``examples/text_table.py``), loaded for the tests."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

PATH = Path(__file__).resolve().parent.parent / "examples" / "text_table.py"


def load() -> Any:
    spec = importlib.util.spec_from_file_location("text_table", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_drawn(text: str, view: dict[str, Any], names: dict[str, str]) -> None:
    """What any table must show of ``view``: a line per seat, every character
    and role a seat shows by its name, the prompt, the result with its reason."""
    lines = text.splitlines()
    for seat in view["state"]["seats"]:
        line = next(x for x in lines if x[2:].startswith(f"seat {seat['seat']}:"))
        for key in ("character", "role"):
            if isinstance(seat.get(key), str) and seat[key] in names:
                assert names[seat[key]] in line, (key, seat[key], line)
    if view["pending"] is not None:
        assert any(x.startswith(f"waiting for seats {view['pending']['awaiting']}") for x in lines), text
    if view["result"] is not None:
        assert f": {view['result']['detail']}" in text
        outcomes = next(x for x in lines if x.startswith("result: "))
        assert all(f"seat {s['seat']} {s['outcome']}" in outcomes for s in view["result"]["seats"])
