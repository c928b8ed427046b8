"""A bundle of many games' logs in one NDJSON file (``GET /v1/archive/export``,
``referee archive export``; issue 41): each game's log as ``/log`` serves it,
one after another. ``referee audit --bundle BUNDLE`` splits it into its games, a file
each, and audits them as it audits several logs (``referee.audit.batch``).

A log's first line is its header, ``{"hash":…,"header":…}`` (keys sorted,
so ``hash`` comes first); no event line starts so (every event has an
``actor``, which sorts before ``hash``). A file whose lines hold one header is
one log, left as it is."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO

HEADER = b'{"hash":'


def is_header(line: bytes) -> bool:
    """Whether ``line`` opens a game's log."""
    return line.startswith(HEADER) and b',"header":' in line[:100]


def logs_of(bundle: IO[bytes]) -> Iterator[list[bytes]]:
    """Each game's lines in ``bundle``, read a line at a time."""
    lines: list[bytes] = []
    for line in bundle:
        if is_header(line) and lines:
            yield lines
            lines = []
        lines.append(line)
    if lines:
        yield lines


def split(path: str, into: Path) -> list[str] | None:
    """The games of the bundle at ``path``, a file each in ``into`` (named
    ``<bundle>#<n>``); ``None`` when it is not a bundle (one log, or a file
    this cannot read: its audit says why)."""
    try:
        with open(path, "rb") as bundle:
            headers = sum(1 for line in bundle if is_header(line))
            if headers < 2:
                return None
            bundle.seek(0)
            out = []
            for n, lines in enumerate(logs_of(bundle), 1):
                target = into / f"{Path(path).name}#{n}"
                target.write_bytes(b"".join(lines))
                out.append(str(target))
            return out
    except OSError:
        return None
