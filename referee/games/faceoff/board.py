"""The board (FO5, FO6, FO54): maps, validation, path distance (FO21) and
the movement rules (FO11–FO14).

A map is a tuple of row strings in the legend of FO6 (``.`` floor, ``#``
rock, ``N`` nugget at setup, ``S``/``B``/``R`` start marks). Squares are
``(x, y)`` tuples; x is the column, y the row (row 0 on top).
"""
from __future__ import annotations

import json
import re
from collections import deque
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

Square = tuple[int, int]
Rows = tuple[str, ...]

LEGAL_CHARS = frozenset(".#NSBR")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAP_FIELDS = {"format", "version", "id", "name", "rows", "nugget_tokens"}


def _load(name: str) -> dict[str, Any]:
    # package data read once at import (FO6: the built-in maps are the JSON of Appendix 1)
    text = resources.files("referee.games.faceoff").joinpath(f"maps/{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


#: the built-in maps (FO6), by id
BUILTIN: dict[str, dict[str, Any]] = {m["id"]: m for m in map(_load, ("faceoff-1", "faceoff-2"))}
#: the built-in maps' ids as version 2 spelled them (issue 24: lower snake case since version 3)
OLD_IDS: dict[str, str] = {"faceoff-1": "faceoff_1", "faceoff-2": "faceoff_2"}


def check_map(m: Any) -> list[dict[str, str]]:
    """Every failed check of a custom map (FO54), each ``{code, detail}``; [] if valid."""
    errs: list[dict[str, str]] = []

    def fail(code: str, detail: str) -> None:
        errs.append({"code": code, "detail": detail})

    if not isinstance(m, dict):
        fail("MAP_SCHEMA", "the map must be a JSON object")
        return errs
    unknown = sorted(set(m) - MAP_FIELDS)
    if unknown:
        fail("MAP_SCHEMA", f"unknown fields: {', '.join(unknown)}")
    for field in ("format", "version", "id", "rows"):
        if field not in m:
            fail("MAP_SCHEMA", f"{field} is required")
    if "format" in m and m["format"] != "bang-faceoff-map":
        fail("MAP_SCHEMA", "format must be \"bang-faceoff-map\"")
    if "version" in m and (type(m["version"]) is not int or m["version"] != 1):
        fail("MAP_SCHEMA", "version must be the integer 1")
    if "name" in m and (not isinstance(m["name"], str) or not 1 <= len(m["name"]) <= 80):
        fail("MAP_SCHEMA", "name must be a string of 1 to 80 characters")
    tokens = m.get("nugget_tokens", 16)
    if type(tokens) is not int:
        fail("MAP_SCHEMA", "nugget_tokens must be an integer")
        tokens = 16
    if "id" in m:
        if not isinstance(m["id"], str):
            fail("MAP_SCHEMA", "id must be a string")
        elif not ID_RE.match(m["id"]):
            fail("MAP_ID", "id must be 1-64 characters of a-z 0-9 - _, starting with a letter or digit")
    rows = m.get("rows")
    if "rows" in m and (not isinstance(rows, list) or not all(isinstance(r, str) for r in rows)):
        fail("MAP_SCHEMA", "rows must be a list of strings")
        return errs
    if not isinstance(rows, list):
        return errs
    if not 5 <= len(rows) <= 40 or any(not 5 <= len(r) <= 40 for r in rows):
        fail("MAP_SIZE", "5 to 40 rows of 5 to 40 characters each")
    if len({len(r) for r in rows}) > 1:
        fail("MAP_NOT_RECTANGULAR", "rows of different lengths")
    bad = [(x, y, c) for y, r in enumerate(rows) for x, c in enumerate(r) if c not in LEGAL_CHARS]
    if bad:
        fail("MAP_BAD_CHAR", "; ".join(f"{c!r} at ({x},{y})" for x, y, c in bad[:10]))
    counts = {c: sum(r.count(c) for r in rows) for c in "SBR"}
    if any(v != 1 for v in counts.values()):
        fail("MAP_START_COUNT", f"exactly one S, one B and one R (found S={counts['S']}, "
                                f"B={counts['B']}, R={counts['R']})")
    floor = {(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c in ".NSBR"}
    if floor:
        regions: list[Square] = []
        left = set(floor)
        while left:
            first = min(left, key=lambda s: (s[1], s[0]))
            regions.append(first)
            seen = {first}
            q = deque([first])
            while q:
                x, y = q.popleft()
                for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if n in left and n not in seen:
                        seen.add(n)
                        q.append(n)
            left -= seen
        if len(regions) > 1:
            fail("MAP_DISCONNECTED", "extra regions at " + ", ".join(f"({x},{y})" for x, y in regions[1:10]))
    nuggets = sum(r.count("N") for r in rows)
    if not 0 <= tokens <= 64 or nuggets > tokens:
        fail("MAP_NUGGETS", f"{nuggets} N squares, nugget_tokens {tokens} (0-64, at least the N squares)")
    if len(floor) < 8:
        fail("MAP_TOO_SMALL", f"{len(floor)} non-rock squares, at least 8")
    return errs


def find(rows: Rows, ch: str) -> list[Square]:
    return [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == ch]


def floor(rows: Rows, sq: Square) -> bool:
    x, y = sq
    return 0 <= y < len(rows) and 0 <= x < len(rows[0]) and rows[y][x] != "#"


@lru_cache(maxsize=4096)
def bfs(rows: Rows, src: Square) -> dict[Square, int]:
    """Path distance from ``src`` to every floor square, around rocks only (FO21)."""
    dist = {src: 0}
    q = deque([src])
    while q:
        x, y = q.popleft()
        d = dist[(x, y)] + 1
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in dist and floor(rows, n):
                dist[n] = d
                q.append(n)
    return dist


def path_distance(rows: Rows, a: Square, b: Square) -> int:
    """Steps of the shortest path from ``a`` to ``b`` (FO21; figures and nuggets never block)."""
    return bfs(rows, a).get(b, 10 ** 6)


@lru_cache(maxsize=65536)
def _floor_around(rows: Rows, sq: Square) -> tuple[Square, ...]:
    x, y = sq
    return tuple(n for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)) if floor(rows, n))


def steps_from(rows: Rows, sq: Square, blocked: frozenset[Square]) -> list[Square]:
    """Adjacent squares a step may enter (FO12): floor, not ``blocked`` (figures, turn-start square)."""
    return [n for n in _floor_around(rows, sq) if n not in blocked]


def paths(rows: Rows, sq: Square, blocked: frozenset[Square], k: int) -> list[tuple[Square, ...]]:
    """Every path of exactly ``k`` legal steps from ``sq`` (squares may repeat, FO12)."""
    out: list[tuple[Square, ...]] = [()]
    for _ in range(k):
        nxt: list[tuple[Square, ...]] = []
        for p in out:
            here = p[-1] if p else sq
            nxt.extend(p + (n,) for n in steps_from(rows, here, blocked))
        out = nxt
    return out


def phase1_paths(rows: Rows, sq: Square, blocked: frozenset[Square], k: int = 2) -> list[tuple[Square, ...]]:
    """FO11/FO14: the paths of ``k`` steps, else the longest shorter ones (as far as possible)."""
    for n in range(k, 0, -1):
        found = paths(rows, sq, blocked, n)
        if found:
            return found
    return [()]


def upto_paths(rows: Rows, sq: Square, blocked: frozenset[Square], k: int) -> list[tuple[Square, ...]]:
    """Every path of 0..``k`` legal steps (phase 2 may stop early, FO15)."""
    out: list[tuple[Square, ...]] = []
    for n in range(0, k + 1):
        out.extend(paths(rows, sq, blocked, n))
    return out


def grid(rows: Rows, figures: Iterable[tuple[str, Square]], nuggets: Iterable[Square]) -> list[str]:
    """The board drawn as strings: ``#`` rock, ``.`` floor, ``N`` nugget, ``S``/``B``/``R`` figures."""
    g = [["#" if c == "#" else "." for c in r] for r in rows]
    for x, y in nuggets:
        g[y][x] = "N"
    for mark, (x, y) in figures:
        g[y][x] = mark
    return ["".join(r) for r in g]
