"""Issue 39 item 4: every command sequence and code sample of the README and
the docs runs, as a reader would run it, against a real referee on a free
port (``docs_live``, ``tests/e2e/conftest.py``'s ``live`` once a worker;
``worker_stack`` where a bot on this machine must be allowed): the curl game and its autoplay loop, BANG!
through the same loop, the offline audit, the 20-line bot through
``referee play``, the Python client, the arena and the training loop, a
webhook bot's tournaments. The blocks are read from the markdown
(``tests/docs/examples.py``); the address comes from ``REFEREE_URL`` alone.

Where a page plays thousands of games, the test plays a few: each such
change is listed in ``SMALLER`` and must find its text in the block."""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.store.redis_server import free_port
from tests.docs import examples
from tests.e2e.conftest import REFEREE

ROOT = examples.ROOT
SEQUENCES = examples.sequences()
#: sequences another runs after are run as part of it
RUN = sorted(name for name in SEQUENCES if name not in {s.after for s in SEQUENCES.values()})
#: the few games a test plays where a reader plays many: text in the block -> text run
SMALLER: dict[str, dict[str, str]] = {
    "arena": {"--games 1000": "--games 12"},
    "arena-audit": {"--games 1000": "--games 12"},
    "outbound-bot": {"--games 50": "--games 4"},
    "tournament": {"--games 50": "--games 4"},
    "webhook-tournament": {"--games 100": "--games 4", "--games 50": "--games 2"},
}
#: sequences that need a referee allowing bot URLs on this machine
PRIVATE_BOTS = {"webhook-tournament", "game-end-webhook"}
#: sequences that need a referee keeping an archive (docs/archive.md)
ARCHIVED = {"archive", "ladder-recompute"}
#: what each sequence's output must show (regular expressions), beside its exit status 0
SHOWS: dict[str, list[str]] = {
    "watch": [r"http://127\.0\.0\.1:\d+/watch/\w+"],
    "bang-autoplay": [r'"winners": \[[\d, ]+\][^\n]*\n(?:.|\n)*"winners": \[[\d, ]+\]'],
    "faceoff": [r'"ruleset":\s*"bang-faceoff"'],
    "spectators": [r"^head \d+ spectators see \d+ SpectatorDelay\(versions=50, omniscient=True\)$",
                   r"^broadcast at \d+ with (0|4) hands$"],
    "text-table": [r"^bang-dice — seen by a spectator$", r"^\* seat \d: "],
    "offline-audit": [r'"ok": true', r"ok +signature +the final head \(version \d+\) is signed",
                      r"ok +receipts +1 receipt: .* verified", r"OK: \d+ events verified"],
    "python-client": [r"receipt for version \d+", r"\nTrue\n"],
    "chat": [r"^opens: True True$", r"^\d+ 0 good luck, all $", r"^\d+ 1 None \(hidden\)$"],
    "outbound-bot": [r"audit: 4/4 games clean", r" mybot "],
    "tournament": [r"^tournament t_\w+: 4 bluffaneer games", r"^audit: 4/4 games clean$", r"^ 1 (heuristic|random)"],
    "arena": [r" mybot ", r"bot failures: none"],
    "arena-audit": [r"audit: 12/12 logs clean"],
    "training": [r"^\w+ \[[\d, ]+\]$"],
    "presence": [r"^0 ann True True None$", r"^1 bob False False None$", r"^2 \S.* None False None$"],
    "webhook-tournament": [r"audit: 4/4 games clean", r"audit: 2/2 games clean", r" mybot "],
    "rematch": [r"^True 1 0$", r"^True$", r"^\{'best_of': 3\} \[\('ann', [01]\), \('bob', [01]\)\]$"],
    # issue 42: `referee play --pool` and the JavaScript bot in the Bluffaneer pool
    "pool": [r"^referee play: in the bluffaneer pool, 2 games at once", r'"name":"pooled"',
             r'"status":"(waiting|playing)"', r"^in the bluffaneer pool, 2 games at once$"],
    # the ladder's page: a rated game and the ladder, then the ladder refolded from the archive alone
    "ladder-recompute": [r'^\{"key":"bluffaneer",', r'"bot":\{"id":"heuristic","name":"heuristic","kind":"builtin"',
                         r"^the live ladders equal the archive's \(1 ladders\)$"],
    "archive": [r'"seats":\[\{"seat":0,"name":"ann","bot":"random"\}', r"audit: 2/2 logs clean",
                # the transparency log rebuilt from the archive (docs/transparency.md): the live root
                r"^archive: 2 leaves, root \S+$", r"^live log: the same root at 2 leaves"],
    "game-end-webhook": [r"^accepted \w+:finished: game \w+ finished at version \d+, winners \[[\d, ]*\], head signed",
                         r'"state":\s*"delivered"'],
    # issue 41 item 4: the curl game's final head in the signed tree, and a witness that saw the log only grow
    "transparency": [r"^inclusion: ok: game \w+'s final head is leaf \d+ of .*signed tree of \d+$",
                     r"first checkpoint of .*kept in seen.checkpoint",
                     r"has \d+ leaves \(had \d+\), consistent with the checkpoint kept"],
}
TIMEOUT_S = 900


@pytest.mark.lint
def test_every_block_of_commands_or_code_is_run_or_is_a_file_run() -> None:
    unmarked = [b.where for b in examples.code_blocks() if b.kind is None]
    assert not unmarked, f"mark these <!-- run: NAME -->, <!-- file: PATH --> or <!-- shown: WHY -->: {unmarked}"


@pytest.mark.lint
def test_no_block_of_commands_hides_behind_another_fence() -> None:
    """A block fenced ``text`` (or ``json``, or nothing) is output, a formula or a body: one that holds
    a command a reader would type is fenced ``sh`` and marked, so that it is run."""
    hiding = [f"{b.where}: {line.strip()}" for b in examples.other_blocks()
              for line in b.text.splitlines()
              if examples.COMMAND_LINE.match(line) and "─" not in line]  # not a diagram's box
    assert not hiding, f"fence these ```sh and mark them <!-- run: NAME -->: {hiding}"


@pytest.mark.lint
def test_only_make_targets_are_shown_without_running() -> None:
    for block in examples.code_blocks():
        if block.kind == "shown":
            commands = [line for line in block.text.splitlines() if line.strip() and not line.startswith("#")]
            assert all(re.match(r"([A-Z_]+=\S+ )*make( |$)", line) for line in commands), block.where


@pytest.mark.lint
def test_a_file_block_is_its_file_and_a_test_runs_that_file() -> None:
    tests = [p for p in (ROOT / "tests").rglob("*.py") if "docs" not in p.relative_to(ROOT / "tests").parts]
    files = [b for b in examples.code_blocks() if b.kind == "file"]
    assert files
    for block in files:
        assert block.text == examples.code_of(ROOT / block.mark), f"{block.where} differs from {block.mark}"
        assert any(Path(block.mark).name in t.read_text(encoding="utf-8") for t in tests), block.mark


@pytest.mark.lint
def test_no_example_names_a_port() -> None:
    """The referee's address is ``REFEREE_URL``'s: no example names a port of its own."""
    for block in examples.code_blocks():
        assert not re.search(r"\b8000\b|127\.0\.0\.1:\d|localhost:\d", block.text), block.where


@pytest.mark.lint
def test_every_sequence_is_run_and_every_smaller_change_finds_its_text() -> None:
    assert set(SHOWS) == set(RUN)
    for name, changes in SMALLER.items():
        text = "".join(b.text for b in SEQUENCES[name].blocks)
        assert all(old in text for old in changes), name


def python3_first(work: Path) -> Path:
    """A folder whose only command is ``python3`` (to go first on the blocks'
    ``PATH``): the suite's Python with no site-packages (``-S``), as a
    reader's plain ``python3`` has none of ``.venv``'s: the one-liners of the
    docs need the standard library only. The README's loop starts a
    ``python3`` four times a move, and a version manager's shim (pyenv's: a
    shell script running more scripts) took most of its time. Only
    ``python3``: a block that calls ``referee`` without ``.venv/bin/`` still
    fails, as it would for a reader."""
    folder = work / "python3-first"
    folder.mkdir()
    (folder / "python3").write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -S \"$@\"\n")
    (folder / "python3").chmod(0o755)
    return folder


def run(blocks: list[examples.Block], url: str, work: Path, changes: dict[str, str],
        settings: dict[str, str] | None = None) -> tuple[int, str]:
    """The blocks in one bash, in ``work`` (with ``.venv`` and ``examples``
    where a reader has them), a Python block with the referee's Python,
    ``settings`` in its environment (the referee host's, for a command that
    reads its Redis or archive); everything the blocks left running is stopped after."""
    (work / ".venv").symlink_to(Path(REFEREE).parents[1])
    (work / "examples").symlink_to(ROOT / "examples")
    script = ["set -e"]
    for number, block in enumerate(blocks):
        text = block.text
        for old, new in changes.items():
            text = text.replace(old, new)
        script.append(f"# {block.where}")
        if block.language in ("python", "py"):
            (work / f"block{number}.py").write_text(text)
            script.append(f'"$DOCS_PYTHON" block{number}.py')
        else:
            script.append(text)
    env = {k: v for k, v in os.environ.items() if k not in ("PORT", "REFEREE_URL")}
    env.update(settings or {})
    env.update(REFEREE_URL=url, XDG_CONFIG_HOME=str(work / "config"), DOCS_PYTHON=sys.executable,
               PATH=f"{python3_first(work)}{os.pathsep}{os.environ.get('PATH', '')}")
    output = work / "output.txt"
    with output.open("w") as out:
        proc = subprocess.Popen(["bash", "-c", "\n".join(script)], cwd=work, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status = proc.wait(timeout=TIMEOUT_S)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)  # a bot or `referee play` the blocks started with `&`
            except ProcessLookupError:
                pass
    return status, output.read_text()


@pytest.mark.e2e
@pytest.mark.parametrize("name", RUN)
def test_the_example_runs(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    stack: Any = request.getfixturevalue("worker_stack" if name in PRIVATE_BOTS
                                         else "archived_live" if name in ARCHIVED else "docs_live")
    changes = dict(SMALLER.get(name, {}))
    if name in PRIVATE_BOTS:
        changes["BOT_PORT=9100"] = f"BOT_PORT={free_port()}"
        changes["HOOK_PORT=9200"] = f"HOOK_PORT={free_port()}"
    # the archive's page runs `referee transparency rebuild` on the referee's host: its Redis and archive
    settings = {k: stack.env[k] for k in ("REDIS_URL", "REFEREE_ARCHIVE_URL")} if name in ARCHIVED else None
    status, output = run(examples.chain(name, SEQUENCES), stack.url, tmp_path, changes, settings)
    assert status == 0, output[-6000:]
    for shown in SHOWS[name]:
        assert re.search(shown, output, re.MULTILINE), f"{name}: no {shown!r} in\n{output[-6000:]}"
