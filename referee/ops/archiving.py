"""``referee archive export`` and ``import``: the archive (issue 41,
docs/archive.md) backed up to a file and restored from one, with no Redis
and no server: the database ``REFEREE_ARCHIVE_URL`` names (``--url``).

A backup is NDJSON, one line a game: its row as the archive keeps it
(public facts, the stored fields that serve it again, its log as text).
``--bundle`` writes instead what ``GET /v1/archive/export`` serves: the
games' logs one after another, for ``referee audit``. An import writes each
game as the archive job does (a game already there is left as it is)."""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import IO, Any

from referee import settings
from referee.ops.explain import no_archive
from referee.ops.helptext import ARCHIVE, add_command


def archive_url(given: str | None, *, command: str = "archive", option: str = "--url") -> str:
    """The archive's URL: ``given`` by the command's ``option``, else ``REFEREE_ARCHIVE_URL``
    (exit with a message when neither names one)."""
    url = given or settings.get("REFEREE_ARCHIVE_URL")
    if not url or url.strip().lower() == "off":
        raise SystemExit(f"referee {command}: no archive: set REFEREE_ARCHIVE_URL or pass {option}")
    return url


def archive_setting(given: str | None, option: str = "--url") -> str:
    """Where the archive's URL came from, for a message."""
    return option if given else "REFEREE_ARCHIVE_URL"


def open_archive(args: argparse.Namespace) -> Any:
    from referee.archive import Archive
    return Archive(archive_url(args.url))


def cmd_archive(args: argparse.Namespace) -> int:
    """``export`` or ``import``; an archive that does not answer is one line naming its URL."""
    from referee.archive import ArchiveUnavailable
    try:
        return int(args.archive_action(args))
    except ArchiveUnavailable as err:
        print(f"referee archive: {no_archive(archive_url(args.url), archive_setting(args.url), err)}", file=sys.stderr)
        return 1


def _query(args: argparse.Namespace) -> Any:
    from referee.archive import Query
    return Query(ruleset=args.ruleset, seat=args.seat, bot=args.bot, tournament=args.tournament,
                 result=args.result, since=getattr(args, "from"), until=args.to)


def cmd_export(args: argparse.Namespace) -> int:
    """Write the matching games (all by default) to ``--out`` (standard output)."""
    archive = open_archive(args)
    out: IO[bytes] = open(args.out, "wb") if args.out else sys.stdout.buffer  # noqa: SIM115
    count = 0
    try:
        for game in archive.each(_query(args)):
            if args.bundle:
                out.write(game.log)
            else:
                row = dataclasses.asdict(game)
                row["log"] = game.log.decode()
                out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
            count += 1
    finally:
        if args.out:
            out.close()
    print(f"referee archive: {count} games exported", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Write every game of a backup into the archive (one already there is left as it is)."""
    from referee.archive import ArchivedGame
    archive = open_archive(args)
    count = 0
    source: IO[bytes] = open(args.file, "rb") if args.file != "-" else sys.stdin.buffer  # noqa: SIM115
    with source:
        for line in source:
            if not line.strip():
                continue
            row = json.loads(line)
            row["log"] = row["log"].encode()
            archive.put(ArchivedGame(**row), now=int(time.time() * 1000))
            count += 1
    print(f"referee archive: {count} games imported", file=sys.stderr)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arc = add_command(sub, "archive", "back the archive of finished games up, or restore it", ARCHIVE)
    what = arc.add_subparsers(dest="archive_command", required=True, metavar="ACTION")
    export = what.add_parser("export", help="write the archived games (a backup, or --bundle for referee audit)")
    export.add_argument("--out", help="the file written (default: standard output)")
    export.add_argument("--bundle", action="store_true", help="the games' logs one after another, as "
                        "GET /v1/archive/export serves them (referee audit checks it), not a backup")
    for name in ("ruleset", "seat", "bot", "tournament", "result"):
        export.add_argument(f"--{name}", help=f"only games of this {name}" if name != "result" else
                            "only games whose result has this reason")
    export.add_argument("--from", type=int, help="only games finished at or after (ms since the epoch)")
    export.add_argument("--to", type=int, help="only games finished before (ms since the epoch)")
    export.set_defaults(func=cmd_archive, archive_action=cmd_export)
    imp = what.add_parser("import", help="write a backup's games into the archive")
    imp.add_argument("file", help="a backup written by referee archive export (-: standard input)")
    imp.set_defaults(func=cmd_archive, archive_action=cmd_import)
    for each in (export, imp):
        each.add_argument("--url", help="the archive's database (default: REFEREE_ARCHIVE_URL)")
