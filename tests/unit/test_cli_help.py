"""Issue 39, item 5: ``referee --help`` and every command's ``--help`` say
what it does in one line and name the docs page that explains it."""
from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest

from referee.ops import cli, helptext

ROOT = Path(__file__).resolve().parents[2]


def _help(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        cli.main([*argv, "--help"])
    assert done.value.code == 0
    return out.getvalue()


def _commands() -> dict[str, argparse.ArgumentParser]:
    """The ``referee`` parser's commands, as ``main`` builds them."""
    return dict(_sub().choices)


def _summaries() -> dict[str, str]:
    """Each command's line in ``referee --help``, as given."""
    return {action.dest: action.help or "" for action in _sub()._choices_actions}


def _sub() -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """The commands of the parser ``referee`` runs: every one, as ``main`` adds them."""
    [sub] = [a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sub


COMMANDS = sorted(_commands())


def test_referee_help_lists_every_command_on_one_line_each_and_where_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # a terminal's usual width: argparse wraps at it
    shown = _help()
    lines = shown.splitlines()
    summaries = _summaries()
    for name in COMMANDS:
        [line] = [x for x in lines if x.split()[:1] == [name]]
        assert line.split(None, 1)[1:] == [summaries[name]], f"{name}'s summary is not on its line: {line!r}"
    for page in (helptext.START, helptext.OPERATIONS, helptext.BOTS, helptext.AUDIT):
        assert page in shown and (ROOT / page).is_file(), page


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_help_says_what_it_does_and_names_an_existing_docs_page(name: str) -> None:
    shown = _help(name)
    docs = [line for line in shown.splitlines() if line.startswith("Docs: ")]
    assert len(docs) == 1, shown
    page = docs[0].removeprefix("Docs: ")
    assert (ROOT / page).is_file(), f"{name} points to {page}, which is not a file of the repository"
    summary = _commands()[name].description or ""
    assert summary.splitlines()[0].endswith(".") and len(summary.splitlines()[0]) < 80, summary


def test_the_list_of_pages_in_referee_help_names_each_command_beside_its_own_page() -> None:
    """The end of ``referee --help`` sends each command to the page its own ``--help`` names."""
    shown = _help()
    listed = {}
    for line in shown.splitlines():
        if line.startswith("  docs/"):
            page, what = line.split(None, 1)
            for name in what.rsplit(": ", 1)[-1].split(", "):
                listed[name] = page
    for name in COMMANDS:
        [docs] = [x for x in _help(name).splitlines() if x.startswith("Docs: ")]
        assert listed.get(name) == docs.removeprefix("Docs: "), f"{name}: {listed.get(name)} in referee --help, {docs}"


def test_referee_help_says_what_every_command_is_for() -> None:
    described = (cli.__doc__ or "").replace("\n", " ")
    assert all(f"{name}," in described or f"{name})" in described for name in COMMANDS), described
