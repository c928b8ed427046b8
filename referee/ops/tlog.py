"""``referee transparency rebuild``: the transparency log rebuilt from the
archive (issue 41 item 6; docs/transparency.md, "Rebuilt from the archive").

It reads the leaves the archive keeps (``--url``, default
``REFEREE_ARCHIVE_URL``), rebuilds the tree and prints its size and root.
``--check`` compares the root with the live log's (Redis, ``REDIS_URL``) at
the same size: exit 1 if they differ. ``--restore`` writes the tree into an
empty live log after Redis was lost, so the referee keeps appending to the
tree its witnesses hold."""
from __future__ import annotations

import argparse
import base64
import sys
from typing import Any

from referee import settings
from referee.ops.explain import no_archive, no_redis
from referee.ops.helptext import TRANSPARENCY, add_command

EXIT_OK, EXIT_DIFFERENT, EXIT_USAGE = 0, 1, 2


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _live() -> Any:
    from referee.store.clients import connect
    from referee.store.redis_store import EventStore
    client = connect(settings.text("REDIS_URL"), timeout_s=float(settings.text("REFEREE_REDIS_TIMEOUT_S")))
    return EventStore(client).transparency


def _said(rebuilt: Any) -> None:
    print(f"archive: {rebuilt.size} leaves, root {_b64(rebuilt.root)}")
    if rebuilt.stray:
        print(f"archive: leaf {rebuilt.first_missing} is missing; {len(rebuilt.stray)} leaves past it "
              "are not in the rebuilt tree")
    if rebuilt.unlogged:
        print(f"archive: {rebuilt.unlogged} finished games archived without their leaf (archived before "
              "the archive kept leaves)")


def _check(rebuilt: Any, live: Any) -> int:
    from referee.service.tlog_rebuild import compare
    found = compare(rebuilt, live)
    if found.live_root is None:
        print(f"live log: {found.live_size} leaves, fewer than the archive's {rebuilt.size}: DIFFERENT "
              "(the live log lost leaves; --restore refills an empty one)")
        return EXIT_DIFFERENT
    behind = found.live_size - rebuilt.size
    at = f"at {rebuilt.size} leaves" + (f" (it holds {found.live_size}: {behind} not archived yet)" if behind else "")
    if not found.same(rebuilt):
        print(f"live log: root {_b64(found.live_root)} {at}: DIFFERENT from the archive's")
        return EXIT_DIFFERENT
    print(f"live log: the same root {at}")
    return EXIT_OK


def cmd_rebuild(args: argparse.Namespace) -> int:
    """Rebuild the tree from the archive; print it; compare it (``--check``) or restore it (``--restore``)."""
    from referee.archive import ArchiveUnavailable
    from referee.ops.archiving import archive_setting, archive_url, open_archive
    from referee.service.tlog_rebuild import NotEmpty, rebuild, restore
    from referee.store.clients import REDIS_ERROR, REDIS_UNAVAILABLE
    archive = open_archive(args)
    try:
        rebuilt = rebuild(archive)
        _said(rebuilt)
        if args.restore:
            size = restore(rebuilt, _live(), archive)
            print(f"live log: restored, {size} leaves, root {_b64(_live().tree().root(size))}")
            return EXIT_OK
        return _check(rebuilt, _live()) if args.check else EXIT_OK
    except NotEmpty as err:
        print(f"referee transparency rebuild: {err}", file=sys.stderr)
        return EXIT_DIFFERENT
    except REDIS_UNAVAILABLE as err:
        print(f"referee transparency rebuild: {no_redis(settings.text('REDIS_URL'), 'REDIS_URL', err)}",
              file=sys.stderr)
        return EXIT_USAGE
    except ArchiveUnavailable as err:
        print(f"referee transparency rebuild: {no_archive(archive_url(args.url), archive_setting(args.url), err)}",
              file=sys.stderr)
        return EXIT_USAGE
    except REDIS_ERROR as err:
        print(f"referee transparency rebuild: {type(err).__name__}: {err}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        archive.close()


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tlog = add_command(sub, "transparency", "rebuild the transparency log from the archive", TRANSPARENCY)
    what = tlog.add_subparsers(dest="transparency_command", required=True, metavar="ACTION")
    rebuild = what.add_parser("rebuild", help="rebuild the tree from the archive's leaves; print its size and root")
    rebuild.add_argument("--url", help="the archive's database (default: REFEREE_ARCHIVE_URL)")
    how = rebuild.add_mutually_exclusive_group()
    how.add_argument("--check", action="store_true",
                     help="compare its root with the live log's (REDIS_URL) at its size: exit 1 if they differ")
    how.add_argument("--restore", action="store_true",
                     help="write it into the live log, which must be empty (Redis was lost): "
                          "the referee appends after it")
    rebuild.set_defaults(func=cmd_rebuild)
