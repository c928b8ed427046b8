"""Operations: which Python ``make`` picks, and the AOF fsync policy of
``referee redis`` (issue 8, Found 11 / Deliver 6)."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")
needs_make = pytest.mark.skipif(MAKE is None, reason="no make on this machine")


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def shim(bin_dir: Path, name: str) -> Path:
    """A ``name`` on PATH that is really this test's (>= 3.11) interpreter."""
    return _script(bin_dir / name, f'exec "{sys.executable}" "$@"')


def old_python(bin_dir: Path, name: str) -> Path:
    """A ``name`` that runs code like Python 3.10 would report itself."""
    return _script(bin_dir / name, f"""\
if [ "$1" = "--version" ]; then echo "Python 3.10.13"; exit 0; fi
[ "$1" = "-c" ] || exit 2
exec "{sys.executable}" -c "import sys; sys.version_info = (3, 10, 13, 'final', 0); exec(sys.argv[1])" "$2\"""")


def broken(bin_dir: Path, name: str) -> Path:
    """What a pyenv shim for a version that is not installed does."""
    return _script(bin_dir / name, f'echo "pyenv: {name}: command not found" >&2; exit 127')


def make(tmp_path: Path, bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``make ARGS`` on a copy of the Makefile with nothing but ``bin_dir`` on PATH."""
    work = tmp_path / "checkout"
    work.mkdir(exist_ok=True)
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, work / name)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    assert MAKE is not None
    return subprocess.run([MAKE, "--no-print-directory", *args], cwd=work, env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    path = tmp_path / "bin"
    path.mkdir()
    return path


@needs_make
def test_make_takes_python3_12_when_it_is_the_only_python(tmp_path: Path, bin_dir: Path) -> None:
    # regression: the Makefile insisted on python3.11, so a machine with only 3.12 could not run it
    chosen = shim(bin_dir, "python3.12")
    done = make(tmp_path, bin_dir, "python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(chosen)
    plan = make(tmp_path, bin_dir, "-n", "install")
    assert plan.returncode == 0, plan.stderr
    assert f'"{chosen}" -m venv .venv' in plan.stdout


@needs_make
def test_make_prefers_the_newest_python_that_runs(tmp_path: Path, bin_dir: Path) -> None:
    broken(bin_dir, "python3.13")  # a pyenv shim whose version is not installed
    shim(bin_dir, "python3.11")
    shim(bin_dir, "python3")
    done = make(tmp_path, bin_dir, "python")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(bin_dir / "python3.11")
    shim(bin_dir, "python3.12")
    assert make(tmp_path, bin_dir, "python").stdout.splitlines()[0] == str(bin_dir / "python3.12")


@needs_make
def test_make_refuses_a_python_older_than_3_11_with_a_clear_message(tmp_path: Path, bin_dir: Path) -> None:
    old_python(bin_dir, "python3")
    broken(bin_dir, "python3.13")
    for target in ("python", "install"):
        done = make(tmp_path, bin_dir, target)
        assert done.returncode != 0
        assert "need Python >= 3.11" in done.stderr
        assert "PY=" in done.stderr
    assert not (tmp_path / "checkout" / ".venv").exists()


@needs_make
def test_make_py_overrides_the_choice_and_is_checked_too(tmp_path: Path, bin_dir: Path) -> None:
    shim(bin_dir, "python3.12")
    mine = shim(bin_dir, "my-python")
    done = make(tmp_path, bin_dir, "python", f"PY={mine}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(mine)
    old = old_python(bin_dir, "python3.10")
    refused = make(tmp_path, bin_dir, "python", f"PY={old}")
    assert refused.returncode != 0
    assert f"PY={old} is not a Python >= 3.11" in refused.stderr
