"""The table geometry: who is at a shot's distance (D10–D13)."""
from __future__ import annotations

from collections.abc import Sequence


def ring_at(living: Sequence[int], seat: int, distances: Sequence[int]) -> list[int]:
    """The living seats exactly k places left or right of ``seat`` for k in
    ``distances``, counted over ``living`` (in seat order) only (D11, D12)."""
    if seat not in living:
        return []
    m = len(living)
    i = living.index(seat)
    out = {living[(i + k) % m] for k in distances} | {living[(i - k) % m] for k in distances}
    out.discard(seat)
    return sorted(out)
