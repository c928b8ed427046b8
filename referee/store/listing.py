"""Newest-first indexes of games, bots and tournaments (``GET /v1/games``,
``/v1/bots``, ``/v1/tournaments``): one sorted set each, the member an id,
the score its creation time (ms). A page is read after a cursor, the
``(score, id)`` of the last item served, so a page never repeats or skips an
item however many are added meanwhile. An index is one key (one slot on a
cluster); an id whose record has expired is dropped when a page meets it."""
from __future__ import annotations

import base64
import binascii
import re
from typing import Any

#: the indexes' keys (a hash tag each: one slot on a cluster)
GAMES, BOTS, TOURNAMENTS = "index:{games}", "index:{bots}", "index:{tournaments}"
_CURSOR = re.compile(r"([0-9]{1,16}):([A-Za-z0-9_-]{1,64})\Z")


class BadCursor(ValueError):
    """A cursor this referee did not give."""


def cursor_of(score: int, member: str) -> str:
    return base64.urlsafe_b64encode(f"{score}:{member}".encode()).rstrip(b"=").decode()


def read_cursor(cursor: str) -> tuple[int, str]:
    if not re.fullmatch(r"[A-Za-z0-9_-]+", cursor):
        raise BadCursor(cursor)
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise BadCursor(cursor) from None
    found = _CURSOR.match(text)
    if found is None or cursor_of(int(found[1]), found[2]) != cursor:  # one spelling of one cursor
        raise BadCursor(cursor)
    return int(found[1]), found[2]


class Index:
    def __init__(self, client: Any, key: str) -> None:
        self.redis, self.key = client, key

    def add(self, member: str, score: int) -> None:
        self.redis.zadd(self.key, {member: score})

    def drop(self, *members: str) -> None:
        if members:
            self.redis.zrem(self.key, *members)

    def trim(self, before: int) -> None:
        """Forget every item created before ``before`` (ms): its record has expired by then."""
        self.redis.zremrangebyscore(self.key, "-inf", f"({before}")

    def page(self, after: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` ``(id, score)``, newest first, after the item ``after`` (``None``: from the newest)."""
        if after is None:
            found = self.redis.zrevrangebyscore(self.key, "+inf", "-inf", start=0, num=count, withscores=True)
        else:
            score, member = after
            # items of the cursor's own score sort by id, descending: those after it have a smaller id
            found = self.redis.zrevrangebyscore(self.key, score, "-inf", start=0, num=count + 64, withscores=True)
        out: list[tuple[str, int]] = []
        for raw, raw_score in found:
            item, at = raw.decode() if isinstance(raw, bytes) else str(raw), int(raw_score)
            if after is not None and at == after[0] and item >= after[1]:
                continue
            out.append((item, at))
            if len(out) == count:
                break
        return out
