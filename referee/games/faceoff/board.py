"""The board (FO5, FO6, FO54): maps, validation, path distance (FO21) and
the movement rules (FO11–FO14).

A map is a tuple of row strings in the legend of FO6 (``.`` floor, ``#``
rock, ``N`` nugget at setup, ``S``/``B``/``R`` start marks). Squares are
``(x, y)`` tuples; x is the column, y the row (row 0 on top).
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from referee.engine.packagedata import package_json

Square = tuple[int, int]
Rows = tuple[str, ...]

LEGAL_CHARS = frozenset(".#NSBR")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAP_FIELDS = {"format", "version", "id", "name", "rows", "nugget_tokens"}


def _load(name: str) -> dict[str, Any]:
    # package data, read once at import through the engine (FO6: the built-in maps are the JSON of Appendix 1)
    data: dict[str, Any] = package_json("referee.games.faceoff", f"maps/{name}.json")
    return data


#: the built-in maps (FO6), by id
BUILTIN: dict[str, dict[str, Any]] = {m["id"]: m for m in map(_load, ("faceoff-1", "faceoff-2"))}
#: the built-in maps' ids as version 2 spelled them (issue 24: lower snake case since version 3)
OLD_IDS: dict[str, str] = {"faceoff-1": "faceoff_1", "faceoff-2": "faceoff_2"}


Error = dict[str, str]


def _err(code: str, detail: str) -> Error:
    return {"code": code, "detail": detail}


def check_map(given: Any) -> list[Error]:
    """Every failed check of a custom map (FO54), each ``{code, detail}``; [] if valid:
    its fields first (FO54 checks 1, 2: ``MAP_SCHEMA``, ``MAP_ID``; no rows to check
    without a list of strings), then each invariant of its rows (checks 3–9), in
    FO54's order. No JSON Schema is published for a map: these are its checks."""
    if not isinstance(given, dict):
        return [_err("MAP_SCHEMA", "the map must be a JSON object")]
    errs = _field_errors(given)
    rows = given.get("rows")
    if "rows" in given and (not isinstance(rows, list) or not all(isinstance(r, str) for r in rows)):
        return errs + [_err("MAP_SCHEMA", "rows must be a list of strings")]
    if not isinstance(rows, list):
        return errs
    tokens = given.get("nugget_tokens", 16)
    found = (_size(rows), _rectangular(rows), _legend(rows), _starts(rows), _connected(rows),
             _nuggets(rows, tokens if type(tokens) is int else 16), _big_enough(rows))
    return errs + [e for e in found if e is not None]


def _field_errors(given: dict[str, Any]) -> list[Error]:
    """FO54 checks 1, 2: none unknown, the required ones present, each of its type."""
    errs: list[Error] = []
    unknown = sorted(set(given) - MAP_FIELDS)
    if unknown:
        errs.append(_err("MAP_SCHEMA", f"unknown fields: {', '.join(unknown)}"))
    errs += [_err("MAP_SCHEMA", f"{field} is required") for field in ("format", "version", "id", "rows")
             if field not in given]
    found = (_format(given), _version(given), _name(given), _tokens(given), _id(given))
    return errs + [e for e in found if e is not None]


def _format(given: dict[str, Any]) -> Error | None:
    """FO54 check 1: exactly ``bang-faceoff-map``."""
    if "format" in given and given["format"] != "bang-faceoff-map":
        return _err("MAP_SCHEMA", "format must be \"bang-faceoff-map\"")
    return None


def _version(given: dict[str, Any]) -> Error | None:
    """FO54 check 1: the integer 1."""
    if "version" in given and (type(given["version"]) is not int or given["version"] != 1):
        return _err("MAP_SCHEMA", "version must be the integer 1")
    return None


def _name(given: dict[str, Any]) -> Error | None:
    """FO54 check 1: an optional string of 1–80 characters."""
    if "name" in given and (not isinstance(given["name"], str) or not 1 <= len(given["name"]) <= 80):
        return _err("MAP_SCHEMA", "name must be a string of 1 to 80 characters")
    return None


def _tokens(given: dict[str, Any]) -> Error | None:
    """FO54 check 1: an optional integer."""
    if type(given.get("nugget_tokens", 16)) is not int:
        return _err("MAP_SCHEMA", "nugget_tokens must be an integer")
    return None


def _id(given: dict[str, Any]) -> Error | None:
    """FO54 checks 1, 2: a string matching the id pattern."""
    if "id" not in given:
        return None
    if not isinstance(given["id"], str):
        return _err("MAP_SCHEMA", "id must be a string")
    if not ID_RE.match(given["id"]):
        return _err("MAP_ID", "id must be 1-64 characters of a-z 0-9 - _, starting with a letter or digit")
    return None


def _size(rows: list[str]) -> Error | None:
    """FO54 check 3: 5 to 40 rows of 5 to 40 squares."""
    if not 5 <= len(rows) <= 40 or any(not 5 <= len(r) <= 40 for r in rows):
        return _err("MAP_SIZE", "5 to 40 rows of 5 to 40 characters each")
    return None


def _rectangular(rows: list[str]) -> Error | None:
    """FO54 check 4 (FO5: a rectangle)."""
    if len({len(r) for r in rows}) > 1:
        return _err("MAP_NOT_RECTANGULAR", "rows of different lengths")
    return None


def _legend(rows: list[str]) -> Error | None:
    """FO54 check 5: only the legend's characters (FO6)."""
    bad = [(x, y, c) for y, r in enumerate(rows) for x, c in enumerate(r) if c not in LEGAL_CHARS]
    if bad:
        return _err("MAP_BAD_CHAR", "; ".join(f"{c!r} at ({x},{y})" for x, y, c in bad[:10]))
    return None


def _starts(rows: list[str]) -> Error | None:
    """FO54 check 6: one start mark per figure."""
    counts = {c: sum(r.count(c) for r in rows) for c in "SBR"}
    if any(v != 1 for v in counts.values()):
        return _err("MAP_START_COUNT", f"exactly one S, one B and one R (found S={counts['S']}, "
                                       f"B={counts['B']}, R={counts['R']})")
    return None


def _floor_squares(rows: list[str]) -> set[Square]:
    return {(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c in ".NSBR"}


def _region(left: set[Square], first: Square) -> set[Square]:
    """The squares of ``left`` joined to ``first`` by orthogonal steps."""
    seen = {first}
    q = deque([first])
    while q:
        x, y = q.popleft()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in left and n not in seen:
                seen.add(n)
                q.append(n)
    return seen


def _connected(rows: list[str]) -> Error | None:
    """FO54 check 7: the non-rock squares one 4-connected region."""
    regions: list[Square] = []
    left = _floor_squares(rows)
    while left:
        first = min(left, key=lambda square: (square[1], square[0]))
        regions.append(first)
        left -= _region(left, first)
    if len(regions) > 1:
        return _err("MAP_DISCONNECTED", "extra regions at " + ", ".join(f"({x},{y})" for x, y in regions[1:10]))
    return None


def _nuggets(rows: list[str], tokens: int) -> Error | None:
    """FO54 check 8: 0 to 64 nugget tokens, at least one per N square."""
    nuggets = sum(r.count("N") for r in rows)
    if not 0 <= tokens <= 64 or nuggets > tokens:
        return _err("MAP_NUGGETS", f"{nuggets} N squares, nugget_tokens {tokens} (0-64, at least the N squares)")
    return None


def _big_enough(rows: list[str]) -> Error | None:
    """FO54 check 9: at least 8 non-rock squares."""
    n = len(_floor_squares(rows))
    if n < 8:
        return _err("MAP_TOO_SMALL", f"{n} non-rock squares, at least 8")
    return None


def find(rows: Rows, mark: str) -> list[Square]:
    return [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == mark]


def floor(rows: Rows, square: Square) -> bool:
    x, y = square
    return 0 <= y < len(rows) and 0 <= x < len(rows[0]) and rows[y][x] != "#"


@lru_cache(maxsize=4096)
def bfs(rows: Rows, src: Square) -> dict[Square, int]:
    """Path distance from ``src`` to every floor square, around rocks only (FO21);
    a pure function of a map's rows and a square (immutable tuples), cached by
    that value (bounded): shared, do not mutate."""
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


def path_distance(rows: Rows, start: Square, goal: Square) -> int:
    """Steps of the shortest path from ``start`` to ``goal`` (FO21; figures and nuggets never block)."""
    return bfs(rows, start).get(goal, 10 ** 6)


@lru_cache(maxsize=65536)
def _floor_around(rows: Rows, square: Square) -> tuple[Square, ...]:
    """The floor squares next to ``square`` (FO11); a pure function of a map's rows
    and a square, cached by that value (bounded)."""
    x, y = square
    return tuple(n for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)) if floor(rows, n))


def steps_from(rows: Rows, square: Square, blocked: frozenset[Square]) -> list[Square]:
    """Adjacent squares a step may enter (FO12): floor, not ``blocked`` (figures, turn-start square)."""
    return [n for n in _floor_around(rows, square) if n not in blocked]


def paths(rows: Rows, start: Square, blocked: frozenset[Square], steps: int) -> list[tuple[Square, ...]]:
    """Every path of exactly ``steps`` legal steps from ``start`` (squares may repeat, FO12)."""
    out: list[tuple[Square, ...]] = [()]
    for _ in range(steps):
        nxt: list[tuple[Square, ...]] = []
        for p in out:
            here = p[-1] if p else start
            nxt.extend(p + (n,) for n in steps_from(rows, here, blocked))
        out = nxt
    return out


def phase1_paths(rows: Rows, start: Square, blocked: frozenset[Square], steps: int = 2) -> list[tuple[Square, ...]]:
    """FO11/FO14: the paths of ``steps`` steps, else the longest shorter ones (as far as possible)."""
    for n in range(steps, 0, -1):
        found = paths(rows, start, blocked, n)
        if found:
            return found
    return [()]


def upto_paths(rows: Rows, start: Square, blocked: frozenset[Square], steps: int) -> list[tuple[Square, ...]]:
    """Every path of 0..``steps`` legal steps (phase 2 may stop early, FO15)."""
    out: list[tuple[Square, ...]] = []
    for n in range(0, steps + 1):
        out.extend(paths(rows, start, blocked, n))
    return out


def grid(rows: Rows, figures: Iterable[tuple[str, Square]], nuggets: Iterable[Square]) -> list[str]:
    """The board drawn as strings: ``#`` rock, ``.`` floor, ``N`` nugget, ``S``/``B``/``R`` figures."""
    g = [["#" if c == "#" else "." for c in r] for r in rows]
    for x, y in nuggets:
        g[y][x] = "N"
    for mark, (x, y) in figures:
        g[y][x] = mark
    return ["".join(r) for r in g]
