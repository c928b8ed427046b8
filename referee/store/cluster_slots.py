"""What a Redis Cluster's nodes say, read (``CLUSTER INFO``, ``CLUSTER
NODES``), and its 16384 slots cut into ranges, with a key in each: plain
text and arithmetic, no server (``referee.store.cluster_server`` starts one)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

SLOTS = 16384


@dataclass
class Seen:
    """One line of ``CLUSTER NODES``."""

    node_id: str
    port: int
    flags: set[str]
    master_id: str | None
    connected: bool
    slots: list[tuple[int, int]]


def parse_cluster_info(text: str) -> dict[str, str]:
    """``CLUSTER INFO``'s ``key:value`` lines as a dict."""
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def _parse_slots(fields: list[str]) -> list[tuple[int, int]]:
    """The slot fields of a ``CLUSTER NODES`` line (``0-5460``, ``7``), no migrations."""
    ranges = []
    for item in fields:
        if item.startswith("["):
            continue
        low, _, high = item.partition("-")
        ranges.append((int(low), int(high or low)))
    return ranges


def parse_cluster_nodes(text: str) -> list[Seen]:
    """``CLUSTER NODES`` as one record per node."""
    seen = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 8:
            continue
        address = parts[1].split("@", 1)[0].split(",", 1)[0]
        port = int(address.rsplit(":", 1)[1] or 0)
        seen.append(Seen(node_id=parts[0], port=port, flags=set(parts[2].split(",")),
                          master_id=None if parts[3] == "-" else parts[3], connected=parts[7] == "connected",
                          slots=_parse_slots(parts[8:])))
    return seen


def slot_ranges(masters: int) -> list[tuple[int, int]]:
    """The 16384 slots cut into ``masters`` contiguous inclusive ranges."""
    if masters < 1:
        raise ValueError("a cluster needs at least one master")
    bounds = [SLOTS * i // masters for i in range(masters + 1)]
    return [(bounds[i], bounds[i + 1] - 1) for i in range(masters)]


def keys_per_range(ranges: list[tuple[int, int]], prefix: str = "k") -> Iterator[str]:
    """One key ``<prefix><n>`` whose hash slot falls in each range, in order
    (for tests and checks). A prefix with a hash tag (``{...}``) fixes the
    slot, so it is refused."""
    from redis.crc import key_slot
    if "{" in prefix:
        raise ValueError(f"prefix {prefix!r} has a hash tag: every key would be in one slot")
    for low, high in ranges:
        for i in range(1_000_000):
            if low <= key_slot(f"{prefix}{i}".encode()) <= high:
                yield f"{prefix}{i}"
                break
        else:
            raise ValueError(f"no key {prefix}<n> found in slots {low}-{high}")
