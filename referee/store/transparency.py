"""The transparency log in Redis (``referee.engine.merkle`` says what the tree
is; docs/transparency.md what it proves).

Keys, all in one hash slot (the ``{tlog}`` tag): ``tlog:{tlog}:leaves``
(list: each leaf's input, the signed final head's statement, in log order),
``tlog:{tlog}:games`` (hash: game id -> its leaf's index) and
``tlog:{tlog}:nodes`` (hash: ``level:index`` -> the 32-byte hash of that
perfect subtree, a cache: each is a fact of the leaves under it, computed
once and never changed).

An append is one script (``_APPEND``): a game already logged keeps its
index (a replayed end appends nothing; a rewritten game's new head is
never logged over the first), else its leaf goes at the end of the list,
whose length gives its index: appends are serialised by Redis. The appender
then caches the subtrees the new leaf completes (their left halves read by
the same script: one round trip more), so a proof reads O(log n) cached
hashes; a hash missing from the cache (its appender died first) is
computed from its children, and cached."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from referee.engine import merkle

T = TypeVar("T")

LEAVES, GAMES, NODES = "tlog:{tlog}:leaves", "tlog:{tlog}:games", "tlog:{tlog}:nodes"

# KEYS leaves, games, nodes; ARGV game id, leaf -> {index, 1 if appended now else 0, the cached
# hashes (false: not cached) of the left halves of the subtrees the new leaf completes, lowest first}
_APPEND = """
local known = redis.call('hget', KEYS[2], ARGV[1])
if known then return {tonumber(known), 0, {}} end
local n = redis.call('rpush', KEYS[1], ARGV[2])
redis.call('hset', KEYS[2], ARGV[1], n - 1)
local index, level, halves = n - 1, 0, {}
while index % 2 == 1 do
  table.insert(halves, level .. ':' .. (index - 1))
  index, level = (index - 1) / 2, level + 1
end
if #halves > 0 then halves = redis.call('hmget', KEYS[3], unpack(halves)) end
return {n - 1, 1, halves}
"""


class TransparencyStore:
    """The log's leaves and its cache of subtree hashes (see the module's docstring)."""

    def __init__(self, client: Any, retry: Callable[[Callable[[], Any]], Any]) -> None:
        self.redis: Any = client
        self._retry = retry
        self._append = client.register_script(_APPEND)

    def append(self, game_id: str, leaf: bytes) -> tuple[int, bool]:
        """Log ``leaf`` for ``game_id`` unless the game is logged: its index, and whether it was added now."""
        index, added, halves = self._retry(lambda: self._append(keys=[LEAVES, GAMES, NODES], args=[game_id, leaf]))
        if added:
            self._cache_completed(int(index), leaf, halves)
        return int(index), bool(added)

    def size(self) -> int:
        return int(self._retry(lambda: self.redis.llen(LEAVES)))

    def index_of(self, game_id: str) -> int | None:
        found = self._retry(lambda: self.redis.hget(GAMES, game_id))
        return None if found is None else int(found)

    def leaf(self, index: int) -> bytes | None:
        found: bytes | None = self._retry(lambda: self.redis.lindex(LEAVES, index))
        return found

    def leaves(self, start: int = 0, end: int = -1) -> list[bytes]:
        """The leaves ``start`` to ``end`` (inclusive; ``-1``: the last): what an archive keeps to ``rebuild``."""
        found: list[bytes] = self._retry(lambda: self.redis.lrange(LEAVES, start, end))
        return found

    def tree(self) -> merkle.Tree:
        return merkle.Tree(self.nodes)

    def nodes(self, wanted: list[merkle.Node]) -> list[bytes]:
        """The hashes of perfect subtrees ``wanted``: one read of the cache, the missing ones computed."""
        if not wanted:
            return []
        fields = [f"{level}:{index}" for level, index in wanted]
        cached: list[bytes | None] = self._retry(lambda: self.redis.hmget(NODES, fields))
        return [h if h is not None else self._compute(node) for node, h in zip(wanted, cached, strict=True)]

    def _compute(self, node: merkle.Node) -> bytes:
        level, index = node
        if level == 0:
            leaf = self.leaf(index)
            if leaf is None:
                raise LookupError(f"leaf {index} is not in the log")
            digest = merkle.leaf_hash(leaf)
        else:
            left, right = self.nodes([(level - 1, 2 * index), (level - 1, 2 * index + 1)])
            digest = merkle.node_hash(left, right)
        self._retry(lambda: self.redis.hset(NODES, f"{level}:{index}", digest))
        return digest

    def _cache_completed(self, index: int, leaf: bytes, halves: list[bytes | None]) -> None:
        """Cache the perfect subtrees leaf ``index`` completes (its own hash
        among them) in one write, given the cached hashes of their left
        halves, lowest first (one not cached is computed from its children)."""
        level, digest = 0, merkle.leaf_hash(leaf)
        completed = {f"0:{index}": digest}
        for left in halves:
            if left is None:
                left = self.nodes([(level, index - 1)])[0]
            level, index, digest = level + 1, index // 2, merkle.node_hash(left, digest)
            completed[f"{level}:{index}"] = digest
        self._retry(lambda: self.redis.hset(NODES, mapping=completed))

    def rebuild(self, leaves: Sequence[tuple[str, bytes]]) -> bytes:
        """Replace the log by ``leaves`` (game id, leaf input; in log order, as an archive
        kept them) with every subtree cached; the root of the tree they make."""
        nodes = merkle.rebuild([leaf for _, leaf in leaves])

        def run() -> None:
            pipe = self.redis.pipeline(transaction=True)
            pipe.delete(LEAVES, GAMES, NODES)
            if leaves:
                pipe.rpush(LEAVES, *[leaf for _, leaf in leaves])
                pipe.hset(GAMES, mapping={game: i for i, (game, _) in enumerate(leaves)})
                pipe.hset(NODES, mapping={f"{level}:{index}": h for (level, index), h in nodes.items()})
            pipe.execute()
        self._retry(run)
        return self.tree().root(len(leaves))
