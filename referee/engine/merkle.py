"""The transparency log's Merkle tree: RFC 6962 / RFC 9162 hashing, proofs
and their verification (docs/transparency.md).

- a leaf's hash is ``SHA-256(0x00 || leaf)``, an inner node's
  ``SHA-256(0x01 || left || right)``, the empty tree's ``SHA-256("")``;
- a tree of ``n > 1`` leaves splits at ``k``, the largest power of two below
  ``n`` (RFC 6962, 2.1), never at the midpoint;
- an inclusion proof is RFC 6962's ``PATH``, a consistency proof its
  ``PROOF``; both are verified with RFC 9162's algorithms (2.1.3.2, 2.1.4.2).

Proofs are computed as lists of *ranges* ``(start, end)`` of leaves, each
the hash of one subtree the RFC's recursion names (``inclusion_ranges``,
``consistency_ranges``); a range is made of *perfect* subtrees aligned on
their size (``perfect_parts``: ``(level, index)`` covers leaves
``index * 2**level`` up to ``(index + 1) * 2**level``). A store that keeps
perfect subtrees' hashes (``referee.store.transparency``) serves any proof
with O(log n) reads; ``rebuild`` builds them all from the leaves.

Written here rather than taken from a library: the maintained Merkle
libraries on PyPI either keep the tree in their own storage (pymerkle: memory
or SQLite, not Redis) or are young single-author packages; these 150 lines
are checked against RFC 6962's test vectors (transparency-dev/merkle's) and
property tests. Pure: no I/O."""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence

Node = tuple[int, int]  # (level, index): a perfect subtree of 2**level leaves
Range = tuple[int, int]  # (start, end): leaves start..end-1

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two below ``n`` (``n > 1``): RFC 6962's ``k``."""
    return 1 << ((n - 1).bit_length() - 1)


def perfect_parts(start: int, end: int) -> list[Node]:
    """The perfect subtrees, left to right, whose hashes make the range's
    (``start`` aligned as RFC 6962's recursion aligns it)."""
    parts: list[Node] = []
    while start < end:
        level = (end - start).bit_length() - 1
        while start % (1 << level):
            level -= 1
        parts.append((level, start >> level))
        start += 1 << level
    return parts


def fold(hashes: Sequence[bytes]) -> bytes:
    """The hash of a range from its perfect parts' hashes (folded from the right)."""
    if not hashes:
        return EMPTY_ROOT
    acc = hashes[-1]
    for part in reversed(hashes[:-1]):
        acc = node_hash(part, acc)
    return acc


def inclusion_ranges(index: int, size: int) -> list[Range]:
    """RFC 6962's ``PATH(index, D[0:size])``, leaf to root, as ranges."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    path: list[Range] = []
    start, end = 0, size
    while end - start > 1:
        k = split(end - start)
        if index < start + k:
            path.append((start + k, end))
            end = start + k
        else:
            path.append((start, start + k))
            start += k
    return path[::-1]


def consistency_ranges(first: int, second: int) -> list[Range]:
    """RFC 6962's ``PROOF(first, D[0:second])`` as ranges (empty when equal)."""
    if not 0 <= first <= second:
        raise ValueError(f"no consistency proof from {first} to {second}")
    if first in (0, second):
        return []
    return _subproof(first, 0, second, True)


def _subproof(first: int, start: int, end: int, whole: bool) -> list[Range]:
    """RFC 6962's ``SUBPROOF(first - start, D[start:end], whole)``."""
    if first == end:
        return [] if whole else [(start, end)]
    k = split(end - start)
    if first - start <= k:
        return _subproof(first, start, start + k, whole) + [(start + k, end)]
    return _subproof(first, start + k, end, False) + [(start, start + k)]


class Tree:
    """Proofs over a tree whose perfect subtrees' hashes ``nodes`` fetches
    (a batch of ``Node`` to their hashes, in order)."""

    def __init__(self, nodes: Callable[[list[Node]], list[bytes]]) -> None:
        self.nodes = nodes

    def hashes(self, ranges: Sequence[Range]) -> list[bytes]:
        parts = [perfect_parts(start, end) for start, end in ranges]
        flat = self.nodes([node for part in parts for node in part])
        out, at = [], 0
        for part in parts:
            out.append(fold(flat[at:at + len(part)]))
            at += len(part)
        return out

    def root(self, size: int) -> bytes:
        return self.hashes([(0, size)])[0] if size else EMPTY_ROOT

    def inclusion(self, index: int, size: int) -> list[bytes]:
        return self.hashes(inclusion_ranges(index, size))

    def consistency(self, first: int, second: int) -> list[bytes]:
        return self.hashes(consistency_ranges(first, second))


def rebuild(leaves: Sequence[bytes]) -> dict[Node, bytes]:
    """Every perfect subtree's hash of the tree of ``leaves`` (leaf inputs, in order)."""
    level = [leaf_hash(leaf) for leaf in leaves]
    nodes: dict[Node, bytes] = {}
    depth = 0
    while level:
        nodes.update(((depth, i), h) for i, h in enumerate(level))
        level = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        depth += 1
    return nodes


def root_of(leaves: Sequence[bytes]) -> bytes:
    """The root of the tree of ``leaves`` (leaf inputs), from nothing else."""
    nodes = rebuild(leaves)
    return Tree(lambda wanted: [nodes[n] for n in wanted]).root(len(leaves))


def _up_the_right_edge(fn: int, sn: int) -> tuple[int, int]:
    """RFC 9162's step on a right edge: right-shift both until ``fn``'s low bit is set or ``fn`` is 0."""
    while not fn & 1 and fn != 0:
        fn, sn = fn >> 1, sn >> 1
    return fn, sn


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does ``proof`` put leaf hash ``leaf`` at ``index`` of the tree ``root`` of ``size``?"""
    if not 0 <= index < size:
        return False
    fn, sn, acc = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            acc = node_hash(sibling, acc)
            fn, sn = _up_the_right_edge(fn, sn)
        else:
            acc = node_hash(acc, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and hmac.compare_digest(acc, root)


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: is the tree ``second_root`` of ``second`` leaves an
    append-only extension of the tree ``first_root`` of ``first``?"""
    if not 0 <= first <= second:
        return False
    if first == second:
        return not proof and hmac.compare_digest(first_root, second_root)
    if first == 0:
        return not proof
    path = list(proof)
    if first & (first - 1) == 0:  # a power of two: the first tree is a subtree of the proof's
        path.insert(0, first_root)
    if not path:
        return False
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            fn, sn = _up_the_right_edge(fn, sn)
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and hmac.compare_digest(fr, first_root) and hmac.compare_digest(sr, second_root)
