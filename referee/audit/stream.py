"""A log file audited without holding it (``referee audit FILE``; issue 36).

``audit_lines`` reads a whole log into memory, line by line parsed: a
hostile file of 64 MB of ``{}`` lines took 3.9 GB. Here the file is read
from disk in passes instead, each holding one line at a time:

1. every line read strictly (``referee.audit.strict``) and no more kept than
   the header, the number of events and the last one — the same ``format``
   verdicts, in the same order, as ``parse_log`` — and, while what they take
   parsed is at most ``KEEP_COST`` in all (``held_cost``), the events (a real
   game's log, Face Off's longest among them: one reading);
2. then ``audit_log`` over those events, or over ``Streamed``: a
   ``Sequence`` of the events that reads them again from the file each time
   a check walks the log from its start (the chain, the salts, the
   re-decision), keeping a few events around the one asked for.

So the memory an audit takes is the game's state (the re-decision's) plus
a constant, whatever the file; its time is a few reads of the file. A line
longer than ``MAX_LINE_BYTES`` is refused unread: no event of a real game
comes near it, and one line must fit in memory to be read."""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import IO, Any, overload

from referee.audit import Diverged, audit_log, strict
from referee.engine.protocol import Json
from referee.engine.signature import PublicKeys

#: the longest line read, its line break included (a real log's longest: a few KiB)
MAX_LINE_BYTES = 2**20
#: the most memory the events held parsed may take, as ``held_cost`` reckons it (over what they take, by a
#: quarter for real events, twice for ``{}`` lines): a BANG! game of 700 events 1.6 MB, a long random Face Off
#: game of 43,500 events 113 MB (92 MB held), a file of ``{}`` lines all it holds at 828,000 lines (2.5 MB of
#: file, 65 MB held); past it, the events are read again for each check that walks them (``Streamed``)
KEEP_COST = 128 * 2**20
#: the bytes read from the file at once (a line may span two reads)
BLOCK = 2**18
#: the events ``Streamed`` keeps behind the last one read (the re-decision looks one back)
KEPT = 4

Lines = Callable[[], Iterator[tuple[int, bytes]]]


def file_lines(log: IO[bytes], max_line: int = MAX_LINE_BYTES) -> Lines:
    """A maker of fresh iterators over ``log``'s lines from its start:
    ``(number, line)``, split as ``bytes.splitlines`` splits (``\\n``,
    ``\\r\\n``, ``\\r``); ``Diverged`` (``format``) at a line longer than
    ``max_line`` bytes with its ``\\n``. Each iterator keeps its own place in
    the file, so two may be walked at once (a check looking ahead of its
    walk); it reads ``BLOCK`` bytes at a time, holding at most one line
    besides."""
    def lines() -> Iterator[tuple[int, bytes]]:
        number = offset = 0
        rest = b""  # the start of a line whose \n is not read yet
        while True:
            log.seek(offset)
            block = log.read(BLOCK)
            offset += len(block)
            if not block:  # the end: the last line, if it has no \n
                if len(rest) > max_line:
                    raise _too_long(number, rest, max_line)
                for line in rest.splitlines():
                    number += 1
                    yield number, line
                return
            pieces = (rest + block).split(b"\n") if rest else block.split(b"\n")
            rest = pieces.pop()
            for piece in pieces:
                if len(piece) >= max_line:  # with its \n, longer than max_line
                    raise _too_long(number, piece + b"\n", max_line)
                if b"\r" in piece:
                    for line in piece.splitlines():
                        number += 1
                        yield number, line
                else:
                    number += 1
                    yield number, piece
            if len(rest) > max_line:
                raise _too_long(number, rest, max_line)
    return lines


def _too_long(number: int, chunk: bytes, max_line: int) -> Diverged:
    """The refusal of the line after line ``number``, ``chunk`` its start (its ``\\n`` included, if read)."""
    return Diverged("format", number, "line", f"a line of at most {max_line} bytes",
                    chunk[:min(80, max_line + 1)].decode("utf-8", "replace"),
                    f"line {number + 1} is refused: it is longer than {max_line} bytes")


def held_cost(line: bytes) -> int:
    """About the memory ``line`` takes held parsed and as read, in bytes, never
    much less: its bytes, an object a ``{`` or ``[``, an entry a ``,``, a
    string a pair of quotes, and the line's own (CPython's sizes: a real
    event's line takes about four times its bytes, a ``{}`` line forty)."""
    return len(line) + 64 * (line.count(b"{") + line.count(b"[")) + 48 * line.count(b",") + 24 * line.count(b'"') + 96


def _read(number: int, line: bytes) -> tuple[Any, bytes | None]:
    """Line ``number`` read strictly, and the line where it is its value's
    canonical form (``strict.read_line_as_written``); ``_BLANK`` for a blank one."""
    if not line.strip():
        return _BLANK, None
    try:
        return strict.read_line_as_written(line)
    except strict.Refused as err:
        if not line.decode("utf-8", "replace").strip():  # blank after all (a Unicode space a byte test missed)
            return _BLANK, None
        raise Diverged("format", number - 1, "line", "a JSON object", err.text,
                       f"line {number} is refused: {err.why}") from None


_BLANK = object()


def _parsed(lines: Lines) -> Iterator[tuple[int, Any, bytes, bytes | None]]:
    """``(number, value, the line, the line if canonical)`` of every non-blank line."""
    for number, line in lines():
        value, written = _read(number, line)
        if value is not _BLANK:
            yield number, value, line, written


#: what ``scan`` finds: ``(header, header hash, number of events, last event, every event or None,
#: every event's line as written where canonical (else None) or None)``
Scanned = tuple[Any, Any, int, Any, "list[Any] | None", "list[bytes | None] | None"]


def scan(lines: Lines, keep_cost: int = KEEP_COST) -> Scanned:
    """``(header, header hash, number of events, last event, every event or
    None, their lines or None)``: every line read, the verdicts ``parse_log``
    gives in the order it gives them (a line refused anywhere first, then the
    first line's shape, then the first line that is no object), the events
    (and each one's line, where it is the event's canonical form: the bytes
    the chain check hashes, as read) kept only while they take at most
    ``keep_cost`` in all, as ``held_cost`` reckons (else one line at a time)."""
    first: Any = _BLANK
    count, last, not_object, size = 0, None, None, 0
    kept: list[Any] | None = []
    written: list[bytes | None] | None = []
    for number, value, read, line in _parsed(lines):
        if first is _BLANK:
            first = value
            continue
        count, last = count + 1, value
        if kept is not None and written is not None:
            size += held_cost(read)
            if size > keep_cost:
                kept = written = None
            else:
                kept.append(value)
                written.append(line)
        if not_object is None and type(value) is not dict:
            not_object = (number, value)
    if first is _BLANK:
        first = None
    if not isinstance(first, dict) or "header" not in first:
        raise Diverged("format", 0, "header", '{"header", "hash"}', first,
                       "the first line must be {\"header\", \"hash\"}")
    extra = sorted(key for key in first if key not in ("header", "hash"))
    if extra:
        raise Diverged("format", 0, extra[0], "(absent)", first[extra[0]],
                       f"line 1 has a key {extra[0]!r} beside header and hash")
    if not_object is not None:
        number, value = not_object
        raise Diverged("format", number - 1, "line", "an event object", value, f"line {number} is not an event object")
    return first["header"], first.get("hash"), count, last, kept, written


class Streamed(Sequence[Any]):
    """The events of a log read again from its file as they are asked for:
    walking them (``iter``) reads the file from the start; indexing reads
    forward from the last index asked (from the start again for one behind
    what is kept). The last event is held (every check looks at it)."""

    def __init__(self, lines: Lines, count: int, last: Any) -> None:
        self._lines, self._count, self._last = lines, count, last
        self._kept: deque[Any] = deque(maxlen=KEPT)
        self._cursor: Iterator[Any] | None = None
        self._next = 0  # the index the cursor yields next

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:
        events = (value for _, value, _, _ in islice(_parsed(self._lines), 1, None))
        return (self._last if index == self._count - 1 else event
                for index, event in enumerate(islice(events, self._count)))

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return list(islice(iter(self), *index.indices(self._count)))
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        if index == self._count - 1:
            return self._last
        cursor = self._cursor
        if cursor is None or index < self._next - len(self._kept):  # behind what is kept: from the start again
            cursor = self._cursor = iter(self)
            self._next = 0
            self._kept.clear()
        while self._next <= index:
            self._kept.append(next(cursor))
            self._next += 1
        return self._kept[index - self._next]


def audit_stream(log: IO[bytes], *, keys: PublicKeys | None = None, receipts: Sequence[tuple[str, Any]] = (),
                 max_line: int = MAX_LINE_BYTES, keep_cost: int = KEEP_COST) -> Json:
    """The audit of the log in the seekable binary file ``log``, as
    ``audit_lines`` would report it, in memory bounded by the game's state
    plus a constant: a log whose events take at most ``keep_cost`` held
    (``held_cost``) is held once read (one reading, as fast as ``audit_lines``), a
    longer one read again for each check that walks it (``Streamed``)."""
    lines = file_lines(log, max_line)
    try:
        header, recorded, count, last, kept, written = scan(lines, keep_cost)
        events = kept if kept is not None else Streamed(lines, count, last)
        return audit_log(header, recorded, events, keys=keys, receipts=receipts, lines=written)
    except Diverged as d:  # a line refused on reading it again (the file changed under the audit)
        return d.report([], 0)
