"""``referee ratings recompute`` (issue 42; docs/ladder.md, "Ratings"):
every ladder refolded from the archive's games alone (their logs' headers
say which are rated, their results who won, their moves each bot's health),
in the order the live ladder folds them, and printed; ``--check`` compares
the live tables in Redis and fails (status 1) with the differences."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from referee import settings
from referee.ops.archiving import archive_setting, archive_url
from referee.ops.explain import no_archive, no_redis
from referee.ops.helptext import LADDER, add_command


def recompute(archive: Any, names: dict[str, str] | None = None) -> dict[str, Any]:
    """Every ladder's table folded from the archive's finished games;
    ``names`` (given): filled with each registered bot's name, as the seats
    of its last game the archive holds show it."""
    from referee.archive import Query
    from referee.bots import BUILT_IN
    from referee.engine.platform import default_seat_name
    from referee.ladder.ratings import entry_of, fold
    entries: dict[str, list[Any]] = {}
    for game in archive.each(Query()):
        lines = game.log.splitlines()
        if not lines:
            continue
        header = json.loads(lines[0])["header"]
        entry = entry_of(game.id, header, game.result, (json.loads(line) for line in lines[1:]), game.finished_at)
        if entry is not None:
            entries.setdefault(entry["ladder"], []).append(entry)
            if names is not None:
                names.update({s["bot"]: s["name"] for s in header["seats"]  # not the name a seat is given
                              if s.get("bot") and s["bot"] not in BUILT_IN and s.get("name")  # when it has none
                              and s["name"] != default_seat_name(s["seat"])})
    return {key: fold(key, found) for key, found in sorted(entries.items())}


def cmd_recompute(args: argparse.Namespace) -> int:
    """The archive's ladders printed (``--check``: compared with the live ones); an archive or a Redis
    that does not answer is one line naming its URL."""
    from referee.archive import ArchiveUnavailable
    from referee.ladder.ratings import table_lines
    from referee.store.clients import REDIS_UNAVAILABLE
    url = archive_url(args.archive, command="ratings", option="--archive")
    try:
        tables, names = _recomputed(url)
    except ArchiveUnavailable as err:
        print(f"referee ratings: {no_archive(url, archive_setting(args.archive, '--archive'), err)}", file=sys.stderr)
        return 1
    for key, table in tables.items():
        print("\n".join(table_lines(key, list(table.rows.values()), names)), end="\n\n")
    if not tables:
        print("no rated game in the archive")
    if not args.check:
        return 0
    redis_url = args.redis or settings.text("REDIS_URL")
    try:
        differences = _differences(tables, redis_url)
    except REDIS_UNAVAILABLE as err:
        print(f"referee ratings: {no_redis(redis_url, '--redis' if args.redis else 'REDIS_URL', err)}", file=sys.stderr)
        return 1
    if differences:
        print("the live ladders differ from the archive's:", *differences, sep="\n", file=sys.stderr)
        return 1
    print(f"the live ladders equal the archive's ({len(tables)} ladders)")
    return 0


def _recomputed(url: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The archive's ladders, and the registered bots' names."""
    from referee.archive import Archive
    names: dict[str, str] = {}
    archive = Archive(url)
    try:
        return recompute(archive, names), names
    finally:
        archive.close()


def _differences(tables: dict[str, Any], redis_url: str) -> list[str]:
    """How the live ladders in that Redis differ from the recomputed ``tables``."""
    from referee.ladder.ratings import diff
    from referee.store.clients import connect
    from referee.store.ladder import LadderBook, ladder_keys
    client = connect(redis_url)
    differences = []
    for key in sorted(set(tables) | set(ladder_keys(client))):
        recomputed = tables[key] if key in tables else None
        book = LadderBook(client, key)
        differences += diff(key, recomputed.state if recomputed else None, book.table(),
                            (recomputed.after if recomputed else {}, book.after()))
    return differences


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ratings = add_command(sub, "ratings", "recompute the bots' ladder ratings from the archive", LADDER)
    what = ratings.add_subparsers(dest="ratings_command", required=True, metavar="ACTION")
    again = what.add_parser("recompute", help="refold every rated game of the archive and print the ladders")
    again.add_argument("--archive", help="the archive's database (default: REFEREE_ARCHIVE_URL)")
    again.add_argument("--check", action="store_true", help="compare with the live ladders in Redis: status 1 "
                       "and the differences when they differ")
    again.add_argument("--redis", help="the live ladders' Redis, with --check (default: REDIS_URL)")
    again.set_defaults(func=cmd_recompute)
