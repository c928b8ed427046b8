"""The referee's command line: run it (serve, worker, redis, run), play and
rank bots (tournament, arena, webhook-bot, play), check games (audit,
replay), watch the transparency log (witness, transparency), back the
finished games up (archive), recompute the ladders (ratings), manage the
signing keys (keys) and the contract (contract)."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from referee import settings
from referee.ops import archiving, checking, playing, ratings, serving, tlog, witness
from referee.ops.checking import cmd_audit, cmd_replay
from referee.ops.helptext import AUDIT, DEVELOPMENT, add_command, epilog
from referee.ops.serving import gunicorn_bind

__all__ = ["main", "cmd_audit", "cmd_replay", "gunicorn_bind"]


def cmd_keys(args: argparse.Namespace) -> int:
    """``show``: the configured keys' public half (the JWK set ``GET /v1/keys``
    serves); ``rotate``: a fresh key first in the key file (it signs from the
    next start of every referee and worker; the others stay published)."""
    from referee import keys
    try:
        if args.action == "show":
            print(json.dumps(keys.load().jwks(), indent=2))
            return 0
        if args.action == "new":
            print(keys.new_line(args.kid), end="")
            return 0
        if settings.get("REFEREE_SIGNING_KEY"):
            print("referee keys: REFEREE_SIGNING_KEY is set: rotate by putting a new line first in it "
                  "(`referee keys new` prints one)", file=sys.stderr)
            return 2
        path = Path(args.file or settings.text("REFEREE_SIGNING_KEY_FILE"))
        print(f"{path}: key {keys.rotate(path, args.kid)} signs from the next start")
        return 0
    except (keys.BadKeys, ValueError, OSError) as err:
        print(f"referee keys: {err}", file=sys.stderr)
        return 2


def cmd_contract(args: argparse.Namespace) -> int:
    """openapi.yaml's generated part against the rulesets' code."""
    from referee.http import contract
    return contract.main(["--write"] if args.write else [])


#: where the commands' and options' help starts: ``webhook-bot``'s line fits beside its name
HELP_COLUMN = 19


class Help(argparse.RawDescriptionHelpFormatter):
    """Every option's help ends with its default (where it has one worth saying)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=HELP_COLUMN)
        # argparse measures the commands' names before it indents them, so the
        # longest (``webhook-bot``) would push its help to a line of its own
        self._action_max_length = HELP_COLUMN - 2

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: {default})"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("referee")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _add_key_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands about the keys and the contract: keys, contract."""
    key = add_command(sub, "keys", "show, rotate or make the signing keys", AUDIT)
    key.add_argument("action", choices=["show", "rotate", "new"])
    key.add_argument("--file", help="the key file (default REFEREE_SIGNING_KEY_FILE)")
    key.add_argument("--kid", help="the new key's id (default: k<date>-<4 hex>)")
    key.set_defaults(func=cmd_keys)
    con = add_command(sub, "contract", "check or --write openapi.yaml's generated schemas", DEVELOPMENT)
    con.add_argument("--write", action="store_true")
    con.set_defaults(func=cmd_contract)


def parser() -> argparse.ArgumentParser:
    """``referee`` and every command, as ``main`` parses them."""
    parser = argparse.ArgumentParser(prog="referee", description=__doc__, epilog=epilog(), formatter_class=Help)
    parser.add_argument("--version", action="version", version=f"referee {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serving.add_commands(sub)
    playing.add_commands(sub)
    checking.add_commands(sub)
    witness.add_commands(sub)
    archiving.add_commands(sub)
    tlog.add_commands(sub)
    ratings.add_commands(sub)
    _add_key_commands(sub)
    for each in sub.choices.values():  # every command's options say their defaults
        each.formatter_class = Help
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        done = int(args.func(args) or 0)
        sys.stdout.flush()  # a reader that left shows here, not in the interpreter's last flush
        return done
    except BrokenPipeError:
        return _reader_left()


def _reader_left() -> int:
    """``referee … | head``: the reader closed the pipe. End quietly, with the
    status a shell shows for a process SIGPIPE ended (128 + 13), and nothing
    more written: the interpreter's own flush at exit would fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + signal.SIGPIPE

if __name__ == "__main__":
    sys.exit(main())
