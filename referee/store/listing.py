"""Newest-first indexes of games, bots and tournaments (``GET /v1/games``,
``/v1/bots``, ``/v1/tournaments``): one sorted set each, the member an id,
the score its creation time (ms). A page is read after a cursor, the
``(score, id)`` of the last item served, so a page never repeats or skips an
item however many are added meanwhile. An index is one key (one slot on a
cluster); an id whose record has expired is dropped when a page meets it."""
from __future__ import annotations

import re
from typing import Any

#: the indexes' keys (a hash tag each: one slot on a cluster)
GAMES, BOTS, TOURNAMENTS = "index:{games}", "index:{bots}", "index:{tournaments}"


class BadCursor(ValueError):
    """A cursor not of the shape the contract states (``<score>.<id>``)."""


#: a cursor as openapi.yaml states it: ``<score>.<id>``, the score without
#: leading zeros; every string of this shape is a position a page may start
#: after (issue 36 item 8: a cursor was base64 no schema could state, and a
#: schema-valid ``cursor=0`` was refused)
_CURSOR = re.compile(r"(0|[1-9][0-9]{0,15})\.([A-Za-z0-9_-]{1,64})\Z")


def cursor_of(score: int, member: str) -> str:
    return f"{score}.{member}"


def read_cursor(cursor: str) -> tuple[int, str]:
    """``(score, id)`` after which a page starts; ``BadCursor`` for another shape."""
    found = _CURSOR.match(cursor)
    if found is None:
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
