"""The examples of the README and the docs, read from the markdown itself
(issue 39 item 4), so that what a reader copies is what the tests run.

A fenced block of commands or code (``sh``, ``bash``, ``console``,
``python``) carries an HTML comment on the line before it, which neither
GitHub nor the docs site shows:

- ``<!-- run: NAME -->``: run, in a shell, in order with the other blocks of
  sequence ``NAME`` (the README's and the docs' in reading order), in one
  working directory, with ``REFEREE_URL`` the address of a real referee;
  ``<!-- run: NAME after FIRST -->`` runs sequence ``FIRST`` before it, in
  the same shell (it goes on with the game ``FIRST`` played);
- ``<!-- file: PATH -->``: the block is the file ``PATH`` (its code after the
  docstring), which a test runs;
- ``<!-- shown: WHY -->``: shown only, for a block of nothing but ``make``
  targets (the servers and the suite these examples run against).

The JavaScript client's page (``docs/js-client.md``) is left to its own
tests."""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: fences whose blocks are commands or code, every one of which must be marked
CODE = {"sh", "bash", "shell", "console", "python", "py"}
FENCE = re.compile(r"^```([\w-]*)[^\n]*$")
MARK = re.compile(r"^<!-- (run|file|shown): (.+?) -->$")
AFTER = re.compile(r"^([\w-]+)(?: after ([\w-]+))?$")
#: pages whose examples other tests run
ELSEWHERE = {"docs/js-client.md"}


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository
    line: int  # of the opening fence
    language: str
    kind: str | None  # run, file, shown, or None: unmarked
    mark: str  # what follows the kind
    text: str

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def pages() -> list[Path]:
    """The README, then every page of the docs in name order."""
    docs = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts)
    return [ROOT / "README.md", *docs]


def blocks_of(path: Path) -> Iterator[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    page = path.relative_to(ROOT).as_posix()
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        mark = MARK.match(lines[i - 1]) if i > 0 else None
        yield Block(page, i + 1, opened.group(1), mark.group(1) if mark else None, mark.group(2) if mark else "",
                    "\n".join(lines[i + 1:end]) + "\n")
        i = end + 1


#: a line a reader would type in a terminal, whatever its fence says
COMMAND_LINE = re.compile(r"^\s*(\$ )?(\.venv/bin/|referee |curl |make |python3? |node |bash |npm |export )")


def other_blocks() -> list[Block]:
    """Every fenced block that is not commands or code by its fence (``text``, ``json``, none…), but the
    pages others run: output, formulas, bodies, which none of the tests runs."""
    return [b for p in pages() if p.relative_to(ROOT).as_posix() not in ELSEWHERE
            for b in blocks_of(p) if b.language not in CODE]


def code_blocks() -> list[Block]:
    """Every block of commands or code in the README and the docs, but the pages others run."""
    return [b for p in pages() if p.relative_to(ROOT).as_posix() not in ELSEWHERE
            for b in blocks_of(p) if b.language in CODE]


@dataclass(frozen=True)
class Sequence:
    name: str
    after: str | None
    blocks: tuple[Block, ...]


def sequences() -> dict[str, Sequence]:
    """The ``run:`` blocks by sequence, in reading order; a sequence names
    what it runs after on its first block."""
    found: dict[str, tuple[str | None, list[Block]]] = {}
    for block in code_blocks():
        if block.kind != "run":
            continue
        named = AFTER.match(block.mark)
        if named is None:
            raise ValueError(f"{block.where}: `run: {block.mark}` is not `run: NAME [after NAME]`")
        name, after = named.groups()
        before, seen = found.setdefault(name, (after, []))
        if after is not None and before != after:
            raise ValueError(f"{block.where}: sequence {name} already runs after {before}")
        seen.append(block)
    return {name: Sequence(name, after, tuple(seen)) for name, (after, seen) in found.items()}


def chain(name: str, every: dict[str, Sequence]) -> list[Block]:
    """The blocks sequence ``name`` runs: those of what it runs after first."""
    sequence = every[name]
    return (chain(sequence.after, every) if sequence.after else []) + list(sequence.blocks)


def code_of(path: Path) -> str:
    """A Python file's code after its module docstring, as a page shows it."""
    text = path.read_text(encoding="utf-8")
    body = ast.parse(text).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        text = "\n".join(text.splitlines()[body[0].end_lineno or 0:])
    return text.strip("\n") + "\n"
