"""Where a person finds help: every ``referee`` command says what it does
in one line (the list ``referee --help`` prints) and, in its own ``--help``,
the docs page that explains it. The pages are named as paths from the
repository's root, which the docs site keeps too."""
from __future__ import annotations

import argparse

#: the pages the commands point to (tests/unit/test_cli_help.py holds each to an existing file)
OPERATIONS = "docs/operations.md"
BOTS = "docs/write-a-bot.md"  # `referee play`: the 20-line bot entered with it
TOURNAMENTS = "docs/tournaments.md"
ARENA = "docs/arena.md"
WEBHOOK_BOTS = "docs/bots.md"
AUDIT = "docs/audit.md"
TRANSPARENCY = "docs/transparency.md"
ARCHIVE = "docs/archive.md"
LADDER = "docs/ladder.md"
DEVELOPMENT = "docs/development.md"
START = "README.md"


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, what: str,
                page: str) -> argparse.ArgumentParser:
    """A subcommand whose help line is ``what`` and whose own ``--help`` also names ``page``."""
    return sub.add_parser(name, help=what, description=f"{what[:1].upper()}{what[1:]}.\n\nDocs: {page}")


def epilog() -> str:
    """The end of ``referee --help``: where to start reading."""
    pages = ((OPERATIONS, "running it: serve, worker, redis, run"),
             (BOTS, "your bot in 20 lines, on a referee: play"),
             (TOURNAMENTS, "tournaments and standings: tournament"),
             (ARENA, "bots in this process, training: arena"),
             (WEBHOOK_BOTS, "webhook and outbound bots: webhook-bot"),
             (AUDIT, "settling a dispute: audit, replay, keys"),
             (TRANSPARENCY, "the transparency log: witness, transparency"),
             (ARCHIVE, "the archive of finished games: archive"),
             (LADDER, "the ladder: ratings"),
             (DEVELOPMENT, "contributing: contract"))
    width = max(len(page) for page, _ in pages)
    return "\n".join([f"Docs: {START} first (the quick start), then a page for what you do:",
                      *(f"  {page:<{width}}  {what}" for page, what in pages),
                      "Each command's --help names its page."])
